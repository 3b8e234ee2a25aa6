// Checker of exercise 10.8: random rows summed in tiles of 4096 columns, each tile's rows cut
// into pieces, one block a piece, the pieces run in the reverse of their order along the rows
// (split_sum.cuh). Every output is compared, to the bit, with the host's sum of the same float
// partials in the order the exercise asks for: pieces in their order along the rows. Each case
// runs twice on the same inputs, the outputs poisoned before each launch and the slots only
// before the first: the second launch must give the same bits, and both must leave every count
// at 0.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "split_sum.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/errors.hpp"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;
using exercise10::first_row_of;
using exercise10::kTileColumns;

/// One graded run: @p tiles tiles of @p rows rows, each in @p pieces pieces.
struct Case {
  int64_t tiles;
  int pieces, rows;
};

std::string describe(const Case& c) {
  return std::to_string(c.tiles) + (c.tiles == 1 ? " tile" : " tiles") + " of " +
         std::to_string(c.rows) + (c.rows == 1 ? " row" : " rows") + " in " +
         std::to_string(c.pieces) + (c.pieces == 1 ? " piece" : " pieces");
}

/// The sums the exercise asks for, as the GPU computes them in float: each piece's rows added
/// in order from 0, then the pieces added in order along the rows.
std::vector<float> ordered_sums(const std::vector<float>& x, const Case& c) {
  std::vector<float> out(size_t(c.tiles) * kTileColumns);
  for (int64_t t = 0; t < c.tiles; ++t) {
    for (int col = 0; col < kTileColumns; ++col) {
      float total = 0;
      for (int p = 0; p < c.pieces; ++p) {
        float partial = 0;
        for (int r = first_row_of(p, c.pieces, c.rows); r < first_row_of(p + 1, c.pieces, c.rows);
             ++r) {
          partial += x[size_t((t * c.rows + r) * kTileColumns + col)];
        }
        total = p == 0 ? partial : total + partial;
      }
      out[size_t(t * kTileColumns + col)] = total;
    }
  }
  return out;
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Launch @p launch (1 or 2) of @p c: every output the same bits as @p want, every count 0.
void expect_launch(const Case& c, int launch, const std::vector<float>& want,
                   const DeviceBuffer<float>& d_out, const DeviceBuffer<int>& d_arrived) {
  const std::string where = describe(c) + ", launch " + std::to_string(launch) + " of 2";
  const std::vector<float> got = d_out.to_host();
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < want.size(); ++i) {
    if (!same_bits(got[i], want[i]) && bad++ == 0) first = int64_t(i);
  }
  if (bad > 0) {
    const float g = got[size_t(first)];
    throw ExerciseFailure(
        where + ": " + std::to_string(bad) + " of " + std::to_string(want.size()) +
        " sums wrong; the first, tile " + std::to_string(first / kTileColumns) + " column " +
        std::to_string(first % kTileColumns) + ", is " + format_number(g) + ", not " +
        format_number(want[size_t(first)]) +
        (std::isnan(g) ? " (NaN: never written, or read from a slot no piece wrote)"
                       : " (the pieces added in another order, or not all of them)"));
  }
  const std::vector<int> arrived = d_arrived.to_host();
  for (size_t t = 0; t < arrived.size(); ++t) {
    expect(arrived[t] == 0, where + ": tile " + std::to_string(t) + "'s count is " +
                                std::to_string(arrived[t]) +
                                " after the launch, not 0: the next launch starts from it");
  }
}

void expect_case(const Case& c, uint64_t seed) {
  const std::vector<float> x = random_floats(c.tiles * c.rows * kTileColumns, seed, -1.0f, 1.0f);
  const std::vector<float> want = ordered_sums(x, c);
  const DeviceBuffer<float> d_x(x);
  DeviceBuffer<float> d_slots(c.tiles * c.pieces * kTileColumns), d_out(c.tiles * kTileColumns);
  DeviceBuffer<int> d_arrived(std::vector<int>(size_t(c.tiles), 0));
  d_slots.poison();  // NaN: a slot read before its piece wrote it shows
  for (int launch = 1; launch <= 2; ++launch) {
    d_out.poison();
    exercise10::split_sums(d_x.data(), d_slots.data(), d_arrived.data(), d_out.data(), c.tiles,
                           c.pieces, c.rows);
    CUDA_CHECK(cudaDeviceSynchronize());
    expect_launch(c, launch, want, d_out, d_arrived);
  }
}

void check_split_sum(const CheckRun& run) {
  // One piece (the whole tile); two; pieces of unequal rows; many tiles of many pieces, as
  // step 10 cuts 5120^3's last wave (8 tiles of 80 steps in 16 pieces) and 256 x 256 x 8192
  // (2 tiles of 128 in 22, here 66 of 2 rows each); then more tiles than a GPU runs at once.
  std::vector<Case> cases = {{1, 1, 1},  {1, 2, 2},   {1, 3, 7},
                             {3, 5, 37}, {8, 16, 80}, {2, 66, 132}};
  if (!run.small) cases.push_back({64, 8, 100});
  uint64_t seed = 1080;
  for (const Case& c : cases) expect_case(c, seed += 11);
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "10.8", "pieces of a tile that add up the same every time",
                          check_split_sum);
}
