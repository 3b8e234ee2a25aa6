/**
 * @file explain_report.hpp
 * @brief What --explain prints: for each recorded kernel, its shared-memory accesses step by
 *        step (lanes, elements, words per bank, turns) and the totals, as text or as JSON for
 *        tools/draw_banks.py. Host code only.
 */
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tutorial/explain/bank_turns.hpp"
#include "tutorial/harness/report.hpp"

namespace tutorial {

/// One kernel, recorded: its launch, its arrays and its accesses.
struct KernelExplanation {
  std::string kernel;  ///< the kernel (and template arguments), as in the chapter's source
  std::string launch;  ///< "one block of 256 threads on 256 random ints"
  std::string result;  ///< "sum checked against the CPU: right" (or what went wrong)
  bool verified = false;
  std::vector<TracedArray> arrays;
  std::vector<WarpAccess> accesses;
};

/// Everything --explain prints for a chapter.
struct Explanation {
  std::string chapter;
  std::string device;
  std::vector<KernelExplanation> kernels;
  bool verified() const {
    for (const KernelExplanation& k : kernels) {
      if (!k.verified) return false;
    }
    return !kernels.empty();
  }
};

/// The table of one kernel, one row per access (table_rows), then the totals.
inline void print_kernel_explanation(std::ostream& out, const KernelExplanation& k) {
  out << "== " << k.kernel << ": " << k.launch << " ==\n";
  out << "   #  op        elements (first warp)          warps  lanes (first warp)"
         "                words per bank (first warp)       turns  all warps\n";
  for (const AccessRow& row : table_rows(k.accesses)) {
    std::vector<int> warps = row.warps;
    out << detail::pad_left(std::to_string(row.number + 1), 4) << "  "
        << detail::pad((row.store ? "st." : "ld.") + std::to_string(8 * row.bytes), 8)
        << detail::pad(describe_elements(row.first, k.arrays.at(row.array)), 31) << " "
        << detail::pad(describe_values(warps), 6) << " " << lane_map(row.first) << "  "
        << bank_map(row.first) << "  " << detail::pad_left(std::to_string(bank_turns(row.first)), 5)
        << "  " << detail::pad_left(std::to_string(row.turns_all), 9) << "\n";
  }
  const KernelTotals t = sum_turns(k.accesses);
  const auto line = [&](const char* what, const TurnTotals& x) {
    out << "   " << what << ": " << x.instructions << " warp instructions, " << x.turns
        << " turns (wavefronts); without bank conflicts " << x.fewest << ", so " << x.extra()
        << " extra\n";
  };
  line("loads ", t.loads);
  line("stores", t.stores);
  out << "   " << k.result << "\n";
}

/// The text --explain prints: a legend, then every kernel's table.
inline void print_explanation_text(std::ostream& out, const Explanation& e) {
  out << "ch" << e.chapter << " --explain: shared-memory accesses recorded from the kernels\n"
      << "device: " << e.device << "\n"
      << "Each row is one shared-memory instruction of a warp (rows with the same # are the same\n"
         "instruction in the warps listed). lanes: # takes part, . idle (lane 0 on the left).\n"
         "words per bank: how many different 4-byte words each of the 32 banks must deliver\n"
         "(. none); lanes reading the same word share it. The busiest bank sets the turns\n"
         "(wavefronts) the instruction takes; all warps: turns summed over the warps listed.\n"
         "16-byte accesses are served a half-warp at a time: their words are counted per\n"
         "half-warp and the two halves' turns added.\n\n";
  for (const KernelExplanation& k : e.kernels) {
    print_kernel_explanation(out, k);
    out << "\n";
  }
}

/// The same as one JSON object, for tools/draw_banks.py and tools/explain_check.py.
inline void print_explanation_json(std::ostream& out, const Explanation& e) {
  using detail::json_string;
  out << "{\"chapter\": " << json_string(e.chapter) << ", \"device\": " << json_string(e.device)
      << ", \"kernels\": [";
  for (size_t i = 0; i < e.kernels.size(); ++i) {
    const KernelExplanation& k = e.kernels[i];
    const KernelTotals t = sum_turns(k.accesses);
    out << (i ? ", " : "") << "{\"kernel\": " << json_string(k.kernel)
        << ", \"launch\": " << json_string(k.launch) << ", \"result\": " << json_string(k.result)
        << ", \"verified\": " << (k.verified ? "true" : "false");
    const auto totals = [&](const char* name, const TurnTotals& x) {
      out << ", \"" << name << "\": {\"instructions\": " << x.instructions
          << ", \"turns\": " << x.turns << ", \"fewest\": " << x.fewest << "}";
    };
    totals("loads", t.loads);
    totals("stores", t.stores);
    out << ", \"rows\": [";
    const std::vector<AccessRow> rows = table_rows(k.accesses);
    for (size_t r = 0; r < rows.size(); ++r) {
      const AccessRow& row = rows[r];
      out << (r ? ", " : "") << "{\"number\": " << row.number + 1 << ", \"op\": "
          << json_string((row.store ? "st." : "ld.") + std::to_string(8 * row.bytes))
          << ", \"elements\": " << json_string(describe_elements(row.first, k.arrays.at(row.array)))
          << ", \"warps\": " << json_string(describe_values(row.warps))
          << ", \"lanes\": " << json_string(lane_map(row.first)) << ", \"words_per_bank\": [";
      const auto words = words_per_bank(row.first);
      for (int b = 0; b < kSharedBanks; ++b) out << (b ? ", " : "") << words[b];
      out << "], \"turns\": " << bank_turns(row.first) << ", \"turns_all\": " << row.turns_all
          << "}";
    }
    out << "]}";
  }
  out << "]}\n";
}

}  // namespace tutorial
