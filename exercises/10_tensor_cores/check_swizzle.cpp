// Checker of exercise 10.1, on the host: each row's pieces go to different places; then every
// ldmatrix.x4 of a kernel like chapter 10's with tiles of 32-byte rows, one 8 x 8 matrix at a
// time, and every 16-byte copy into the tile take the fewest turns in bank_turns.hpp's model.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "tutorial/explain/bank_turns.hpp"
#include "tutorial/grading/exercise.hpp"

// The graded swizzle.cuh (the learner's, the solution's or a known-wrong one): a constexpr
// function is defined where it is used, so the checker includes the file rather than link it.
#include TUTORIAL_LEARNER_FILE

namespace {

using namespace tutorial;
using exercise10::kPiecesPerRow;
using exercise10::kTileDepth;
using exercise10::kTileRows;

/// A lane's 16 bytes: a row of the tile and the first of the 8 values along K.
struct Piece {
  int lane, row, k;
};

/// "rows 16-23, values 8-15" for the pieces of one access.
std::string describe_pieces(const std::vector<Piece>& pieces) {
  int first_row = kTileRows, last_row = -1, first_k = kTileDepth, last_k = -1;
  for (const Piece& p : pieces) {
    first_row = std::min(first_row, p.row), last_row = std::max(last_row, p.row);
    first_k = std::min(first_k, p.k), last_k = std::max(last_k, p.k + 7);
  }
  return "rows " + std::to_string(first_row) + "-" + std::to_string(last_row) + ", values " +
         std::to_string(first_k) + "-" + std::to_string(last_k);
}

/// The warp access of @p pieces, each where the graded swizzle puts it (swizzled_offset).
WarpAccess swizzled_access(const std::vector<Piece>& pieces, bool store) {
  std::vector<SharedAccessRecord> lanes;
  for (const Piece& p : pieces) {
    SharedAccessRecord r{};
    r.index = exercise10::swizzled_offset(p.row, p.k);
    r.address = static_cast<uint32_t>(r.index) * 2;  // BF16: 2 bytes
    r.lane = static_cast<uint8_t>(p.lane);
    r.bytes = 16;
    r.store = store;
    lanes.push_back(r);
  }
  return group_warp_accesses(lanes).at(0);
}

/// "lanes 0, 2, 4 and 6 touch 4 different words of bank 0": the busiest bank of @p access.
std::string busiest_bank(const WarpAccess& access) {
  int bank = 0, most = 0;
  const auto words = words_per_bank(access, 0, kSharedBanks);
  for (int b = 0; b < kSharedBanks; ++b) {
    if (words[b] > most) most = words[b], bank = b;
  }
  std::vector<int> lanes;
  std::vector<uint32_t> seen;
  for (const SharedAccessRecord& lane : access.lanes) {
    for (uint32_t b = 0; b < lane.bytes; b += kSharedBankBytes) {
      const uint32_t word = (lane.address + b) / kSharedBankBytes;
      if (int(word % kSharedBanks) != bank) continue;
      if (std::find(seen.begin(), seen.end(), word) != seen.end()) continue;
      seen.push_back(word);
      lanes.push_back(lane.lane);
    }
  }
  std::string text = "lanes ";
  for (size_t i = 0; i < lanes.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == lanes.size() ? " and " : ", ") + std::to_string(lanes[i]);
  }
  return text + " touch " + std::to_string(most) + " different words of bank " +
         std::to_string(bank);
}

/// Expects @p pieces (one access, loads or stores) to take the fewest turns; @p name ends in an
/// open parenthesis that the pieces' rows and values close.
void expect_fewest_turns(const std::vector<Piece>& pieces, bool store, const std::string& name) {
  const WarpAccess access = swizzled_access(pieces, store);
  const int turns = bank_turns(access), fewest = fewest_turns(access);
  expect(turns == fewest, name + describe_pieces(pieces) + ") takes " + std::to_string(turns) +
                              " turns where " + std::to_string(fewest) +
                              (fewest == 1 ? " is" : " are") +
                              " the fewest: " + busiest_bank(access) + ", a bank conflict");
}

/// Expects each row's kPiecesPerRow pieces to go to as many different places, 0 to
/// kPiecesPerRow - 1.
void expect_permutations() {
  const std::string places =
      kPiecesPerRow == 2 ? "0 and 1" : "0 to " + std::to_string(kPiecesPerRow - 1);
  for (int row = 0; row < kTileRows; ++row) {
    std::vector<int> piece_at(kPiecesPerRow, -1);
    for (int chunk = 0; chunk < kPiecesPerRow; ++chunk) {
      const int place = exercise10::swizzled_chunk(row, chunk);
      expect(place >= 0 && place < kPiecesPerRow,
             "row " + std::to_string(row) + ": piece " + std::to_string(chunk) +
                 " is stored at place " + std::to_string(place) + "; a row of " +
                 std::to_string(kTileDepth * 2) + " bytes has places " + places);
      expect(piece_at[place] < 0,
             "row " + std::to_string(row) + ": pieces " + std::to_string(piece_at[place]) +
                 " and " + std::to_string(chunk) + " are both stored at place " +
                 std::to_string(place) + "; each piece needs a place of its own in its row");
      piece_at[place] = chunk;
    }
  }
}

/// Expects every ldmatrix.x4 of the kernel, 16 tile rows and 16 values along K at a time (the
/// whole depth of a tile of 32-byte rows), to take one turn per 8 x 8 matrix: matrix i is the
/// rows lanes 8i to 8i + 7 give, 16 bytes each.
/// @p lane_row and @p lane_k: the row and first value each lane gives, as the kernel computes
/// them for A's tile or for B's.
template <typename LaneRow, typename LaneK>
void expect_ldmatrix(const std::string& tile, LaneRow lane_row, LaneK lane_k) {
  for (int first_row = 0; first_row < kTileRows; first_row += 16) {
    for (int kk = 0; kk < kTileDepth; kk += 16) {
      for (int matrix = 0; matrix < 4; ++matrix) {
        std::vector<Piece> pieces;
        for (int lane = 8 * matrix; lane < 8 * matrix + 8; ++lane) {
          pieces.push_back({lane, first_row + lane_row(lane), kk + lane_k(lane)});
        }
        expect_fewest_turns(pieces, false,
                            "ldmatrix.x4 of " + tile + ", matrix " + std::to_string(matrix) +
                                " (lanes " + std::to_string(8 * matrix) + "-" +
                                std::to_string(8 * matrix + 7) + ": ");
      }
    }
  }
}

/// Expects the kernel's 16-byte copies into a tile to take the fewest turns: piece
/// e % kPiecesPerRow of row e / kPiecesPerRow for e = t + 256 i, so a warp stores 16 whole rows
/// of 32 bytes.
void expect_copies() {
  for (int first = 0; first < kTileRows * kPiecesPerRow; first += 32) {
    std::vector<Piece> pieces;
    for (int lane = 0; lane < 32; ++lane) {
      const int e = first + lane;
      pieces.push_back({lane, e / kPiecesPerRow, e % kPiecesPerRow * 8});
    }
    expect_fewest_turns(pieces, true, "the 16-byte copies of a warp into the tile (lanes 0-31: ");
  }
}

void check_swizzle(const CheckRun&) {
  expect_permutations();
  // A's tile: lanes 0-15 give rows 0-15 at k, lanes 16-31 the same rows at k + 8.
  expect_ldmatrix(
      "A's tile", [](int lane) { return lane % 16; }, [](int lane) { return lane / 16 * 8; });
  // B's tile (columns of B): two 8-column tiles of B, each at k and at k + 8.
  expect_ldmatrix(
      "B's tile", [](int lane) { return lane / 16 * 8 + lane % 8; },
      [](int lane) { return lane / 8 % 2 * 8; });
  expect_copies();
}

}  // namespace

int main(int argc, char** argv) {
  return run_exercise(argc, argv, "10.1", "a swizzle for 32-byte rows", check_swizzle);
}
