/**
 * @file bank_turns.hpp
 * @brief What a warp's shared-memory access costs: the banks its lanes touch and the turns
 *        (wavefronts) the access takes, worked out from the addresses a kernel recorded
 *        (shared_trace.cuh), and the step-by-step table that --explain prints.
 *
 * The rule, as the CUDA Programming Guide states it for compute capability 5.0 and newer:
 * shared memory has 32 banks, successive 4-byte words lie in successive banks, and each bank
 * delivers one word per turn. Lanes that read the same word share it (a broadcast). So an
 * access takes as many turns as the busiest bank has *different* words to deliver: one when
 * the lanes' words fall in different banks, eight when eight different words fall in one.
 * An access of 8 bytes per lane is counted the same way over its 4-byte words (32 lanes x 8
 * bytes are 64 words: two turns, no conflict); one of 16 bytes is served a half-warp at a
 * time (phase_lanes). Every count here was checked against Nsight Compute on the H100
 * (tools/explain_check.py).
 * Host code only: the unit tests check it without a GPU.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tutorial {

constexpr int kSharedBanks = 32;     ///< banks of shared memory
constexpr int kSharedBankBytes = 4;  ///< bytes a bank delivers per turn

/// One lane's access, as a kernel recorded it (the layout shared_trace.cuh writes).
struct SharedAccessRecord {
  uint32_t warp_access;  ///< the warp's access number: 0 for its first access, 1 for the next
  uint32_t address;      ///< byte address in the block's shared memory
  int32_t index;         ///< element index in its array (row-major for a 2-D array)
  uint8_t warp;          ///< warp of the block (threadIdx.x / 32)
  uint8_t lane;          ///< lane in the warp (threadIdx.x % 32)
  uint8_t bytes;         ///< bytes the lane reads or writes: 4, 8 or 16
  uint8_t store;         ///< 1 for a store, 0 for a load
  uint8_t array;         ///< which traced array (TracedArray's position)
  uint8_t unused[3];
};

/// A shared array a kernel traces, as the table names it.
struct TracedArray {
  std::string name;  ///< "partial"
  int columns = 0;  ///< row length of a 2-D array (element [r][c] is index r * columns + c); 0: 1-D
};

/// One warp-wide access: the lanes that issued one instruction together.
struct WarpAccess {
  int warp = 0;
  uint32_t number = 0;  ///< the warp's access number
  bool store = false;
  int array = 0;
  int bytes = 0;
  std::vector<SharedAccessRecord> lanes;  ///< sorted by lane
};

/// Groups recorded lanes into warp accesses, ordered by warp and access number.
inline std::vector<WarpAccess> group_warp_accesses(const std::vector<SharedAccessRecord>& records) {
  std::map<std::pair<int, uint32_t>, WarpAccess> by_key;
  for (const SharedAccessRecord& r : records) {
    WarpAccess& a = by_key[{r.warp, r.warp_access}];
    a.warp = r.warp;
    a.number = r.warp_access;
    a.store = r.store != 0;
    a.array = r.array;
    a.bytes = r.bytes;
    a.lanes.push_back(r);
  }
  std::vector<WarpAccess> accesses;
  for (auto& [key, access] : by_key) {
    std::sort(
        access.lanes.begin(), access.lanes.end(),
        [](const SharedAccessRecord& x, const SharedAccessRecord& y) { return x.lane < y.lane; });
    accesses.push_back(std::move(access));
  }
  return accesses;
}

/// Lanes the hardware serves together: a whole warp for 4- and 8-byte accesses, a half-warp
/// at a time for 16-byte ones (measured on the H100: a 16-byte load that all 32 lanes make
/// from one address takes two turns, one per half-warp).
inline int phase_lanes(const WarpAccess& access) {
  return access.bytes == 16 ? kSharedBanks / 2 : kSharedBanks;
}

/// How many different 4-byte words each bank must deliver for the lanes of @p access in
/// [first_lane, first_lane + lanes).
inline std::array<int, kSharedBanks> words_per_bank(const WarpAccess& access, int first_lane,
                                                    int lanes) {
  std::array<std::set<uint32_t>, kSharedBanks> words;
  for (const SharedAccessRecord& lane : access.lanes) {
    if (lane.lane < first_lane || lane.lane >= first_lane + lanes) continue;
    for (uint32_t b = 0; b < lane.bytes; b += kSharedBankBytes) {
      const uint32_t word = (lane.address + b) / kSharedBankBytes;
      words[word % kSharedBanks].insert(word);
    }
  }
  std::array<int, kSharedBanks> count{};
  for (int bank = 0; bank < kSharedBanks; ++bank)
    count[bank] = static_cast<int>(words[bank].size());
  return count;
}

/// The words each bank delivers for @p access, summed over its phases (phase_lanes).
inline std::array<int, kSharedBanks> words_per_bank(const WarpAccess& access) {
  std::array<int, kSharedBanks> total{};
  for (int first = 0; first < kSharedBanks; first += phase_lanes(access)) {
    const std::array<int, kSharedBanks> words = words_per_bank(access, first, phase_lanes(access));
    for (int bank = 0; bank < kSharedBanks; ++bank) total[bank] += words[bank];
  }
  return total;
}

/// Whether a lane of [first_lane, first_lane + lanes) takes part in @p access.
inline bool any_lane(const WarpAccess& access, int first_lane, int lanes) {
  for (const SharedAccessRecord& lane : access.lanes) {
    if (lane.lane >= first_lane && lane.lane < first_lane + lanes) return true;
  }
  return false;
}

/// Turns (wavefronts) @p access takes: in each phase, the most different words any one bank
/// delivers; the phases one after the other.
inline int bank_turns(const WarpAccess& access) {
  const int lanes = phase_lanes(access);
  int turns = 0;
  for (int first = 0; first < kSharedBanks; first += lanes) {
    if (!any_lane(access, first, lanes)) continue;
    const std::array<int, kSharedBanks> words = words_per_bank(access, first, lanes);
    turns += std::max(1, *std::max_element(words.begin(), words.end()));
  }
  return turns;
}

/**
 * @brief The turns @p access would take without bank conflicts, as Nsight Compute counts them
 *        (its bank-conflict counters are the turns beyond these).
 *
 * In each phase a load needs one turn per 32 different words (128 bytes). A store is taken in
 * groups of lanes that write 128 bytes together (32 lanes of 4 bytes, 16 of 8, 8 of 16), and
 * every group with a lane that stores takes a turn of its own: 16 lanes storing 8 bytes each,
 * one in every other lane, take two turns and the counter calls neither a conflict. (Measured
 * on the H100 against l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}; chapter 03's
 * tables show both cases.)
 */
inline int fewest_turns(const WarpAccess& access) {
  const int lanes = phase_lanes(access);
  const int group_lanes = kSharedBanks * kSharedBankBytes / std::max(access.bytes, 1);
  int turns = 0;
  for (int first = 0; first < kSharedBanks; first += lanes) {
    if (!any_lane(access, first, lanes)) continue;
    const std::array<int, kSharedBanks> words = words_per_bank(access, first, lanes);
    int total = 0;
    for (int w : words) total += w;
    int fewest = std::max(1, (total + kSharedBanks - 1) / kSharedBanks);
    if (access.store) {
      int groups = 0;
      for (int g = first; g < first + lanes; g += group_lanes)
        groups += any_lane(access, g, group_lanes);
      fewest = std::max(fewest, groups);
    }
    turns += fewest;
  }
  return turns;
}

/// Instructions and turns of one kind of access (loads or stores), summed over a kernel.
struct TurnTotals {
  int64_t instructions = 0;  ///< warp-wide accesses
  int64_t turns = 0;         ///< wavefronts they take
  int64_t fewest = 0;        ///< wavefronts they would take without bank conflicts
  int64_t extra() const { return turns - fewest; }
};

/// Loads and stores of a kernel, summed.
struct KernelTotals {
  TurnTotals loads, stores;
};

inline KernelTotals sum_turns(const std::vector<WarpAccess>& accesses) {
  KernelTotals totals;
  for (const WarpAccess& a : accesses) {
    TurnTotals& t = a.store ? totals.stores : totals.loads;
    ++t.instructions;
    t.turns += bank_turns(a);
    t.fewest += fewest_turns(a);
  }
  return totals;
}

/// One line of the table: the accesses with the same number, kind and array in several warps.
struct AccessRow {
  uint32_t number = 0;
  bool store = false;
  int array = 0;
  int bytes = 0;
  std::vector<int> warps;  ///< the warps that issued it
  WarpAccess first;        ///< the access of the first of them, shown in full
  int turns_all = 0;       ///< turns summed over the warps
};

/**
 * @brief The table's rows: the warps' accesses lined up by access number.
 *
 * Lining up by number is right when the warps run the same accesses in the same order, and
 * warps only drop out (a tree that halves its threads): then a warp's accesses are a prefix of
 * the first warp's. Where two warps' accesses of one number differ in kind or array, they get
 * rows of their own.
 */
inline std::vector<AccessRow> table_rows(const std::vector<WarpAccess>& accesses) {
  std::map<std::tuple<uint32_t, bool, int>, AccessRow> rows;
  for (const WarpAccess& a : accesses) {
    AccessRow& row = rows[{a.number, a.store, a.array}];
    if (row.warps.empty()) {
      row.number = a.number;
      row.store = a.store;
      row.array = a.array;
      row.bytes = a.bytes;
      row.first = a;
    }
    row.warps.push_back(a.warp);
    row.turns_all += bank_turns(a);
  }
  std::vector<AccessRow> ordered;
  for (auto& [key, row] : rows) ordered.push_back(std::move(row));
  return ordered;
}

/// "0..31", "0,2,..,62" (a step), "3" or "0,1,4,5,.." for a sorted list of distinct values.
inline std::string describe_values(const std::vector<int>& values) {
  if (values.empty()) return "";
  if (values.size() == 1) return std::to_string(values[0]);
  const int step = values[1] - values[0];
  bool regular = true;
  for (size_t i = 1; i < values.size(); ++i) regular = regular && values[i] - values[i - 1] == step;
  const std::string first = std::to_string(values.front()), last = std::to_string(values.back());
  if (regular && values.size() == 2) return first + "," + last;
  if (regular && step == 1) return first + ".." + last;
  if (regular) return first + "," + std::to_string(values[1]) + ",..," + last;
  std::string text;
  for (size_t i = 0; i < values.size() && i < 4; ++i) text += std::to_string(values[i]) + ",";
  return text + "..";
}

/// "partial[0,2,..,62]" or "b_tile[0][0..15]": the elements the lanes of @p access touch.
inline std::string describe_elements(const WarpAccess& access, const TracedArray& array) {
  std::set<int> rows, columns;
  for (const SharedAccessRecord& lane : access.lanes) {
    if (array.columns > 0) {
      rows.insert(lane.index / array.columns);
      columns.insert(lane.index % array.columns);
    } else {
      columns.insert(lane.index);
    }
  }
  const auto list = [](const std::set<int>& s) { return std::vector<int>(s.begin(), s.end()); };
  std::string text = array.name;
  if (array.columns > 0) text += "[" + describe_values(list(rows)) + "]";
  return text + "[" + describe_values(list(columns)) + "]";
}

/// 32 characters: '#' for a lane that takes part in @p access, '.' for one that does not.
inline std::string lane_map(const WarpAccess& access) {
  std::string map(kSharedBanks, '.');
  for (const SharedAccessRecord& lane : access.lanes) map[lane.lane % kSharedBanks] = '#';
  return map;
}

/// 32 characters: the different words each bank delivers ('.' none, 1-9, '+' ten or more).
inline std::string bank_map(const WarpAccess& access) {
  std::string map;
  for (int words : words_per_bank(access)) {
    map += words == 0 ? '.' : words < 10 ? static_cast<char>('0' + words) : '+';
  }
  return map;
}

}  // namespace tutorial
