// Prints print_json() of a report with awkward content, for check_report_json.py to parse with
// a real JSON parser (CTest test unit.report_json). check_report_json.py states every value
// below again, so that each side is checked against the other.
#include <cmath>
#include <iostream>
#include <limits>

#include "tutorial/harness/report.hpp"

int main() {
  using tutorial::Row;
  using tutorial::Summary;
  // Every string holds something JSON must escape or must pass through untouched: quotes,
  // backslashes, control characters, a newline, and non-ASCII UTF-8.
  tutorial::Report r = tutorial::make_report(
      {"99_\"quoted\"\\chapter", "line one\nline two\ttabbed", "mine \"v1\" \\ best"}, 7);
  r.device =
      "GPU \xE2\x84\xA2 \xC2\xB5s \xE2\x80\x94 Gr\xC3\xB6\xC3\x9F"
      "e";
  r.problem = "n = 4, ctrl \x01\x1F, \b\f\r, C:\\dir\\";
  r.rate_unit = "GB/s";
  r.peak_rate = 100;
  r.ops_per_byte = 0.25;
  r.op_name = "add \"int\"";

  r.checks.push_back(tutorial::check_exact("sum \"exact\"", 10, 10));
  tutorial::Check vendor_float =
      tutorial::check_close("vendor \xC2\xB5 sum", 1.5, 1.0, 0.25);  // outside, but informative
  vendor_float.informative = true;
  r.checks.push_back(vendor_float);

  const double inf = std::numeric_limits<double>::infinity();
  Row mine{"mine \"v1\" \\ best", Summary{1, 2, 4}, 50e6, Summary{10, 20, 30}, 4.5};
  mine.elements_per_block = 8;  // 20 cycles per 8 elements
  mine.symbol = "_Z4mineILi8EEvv\"";
  mine.teaches = "one \"idea\"";
  mine.ops_per_byte = 0.125;
  Row nan_rate{"nan rate", Summary{1, 1, 1}, std::nan(""), std::nullopt};
  nan_rate.baseline = "lib2 \xC2\xB5";
  Row inf_rate{"inf rate", Summary{1, 2, inf}, inf, std::nullopt};
  Row cub{"CUB \"DeviceReduce\"", Summary{0.5, 1, 1.5}, 50e6, std::nullopt, 0, true};
  Row lib2{"lib2 \xC2\xB5", Summary{4, 4, 4}, 50e6, std::nullopt, 0, true};
  r.rows = {mine, nan_rate, inf_rate, cub, lib2};

  r.notes = {"a \"note\" with \\ and\nnewline", "", "\xF0\x9F\x9A\x80 rocket"};
  tutorial::print_json(std::cout, r);
  return std::cout ? 0 : 1;
}
