#include "tutorial/harness/report.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace tutorial {
namespace {

Report sample_report() {
  Report r;
  r.chapter = "99_sample";
  r.title = "a \"quoted\" title";
  r.device = "dev";
  r.problem = "n = 4";
  r.peak_rate = 100;
  r.reps = 3;
  r.headline = "mine";
  r.checks.push_back(check_exact("sum", 10, 10));
  Row mine{"mine", {1, 2, 3}, 50e6, Summary{10, 20, 30}, 4.5, false};
  mine.elements_per_block = 8;
  Row vendor{"lib", {0.5, 1, 1.5}, 50e6, std::nullopt, 0, true};
  r.rows = {mine, vendor};
  r.notes.push_back("a note");
  return r;
}

TEST(Report, VerifiedNeedsChecksAndAllOk) {
  Report r = sample_report();
  EXPECT_TRUE(r.verified());
  r.checks.push_back(check_exact("other", 1, 2));
  EXPECT_FALSE(r.verified());
  r.checks.clear();
  EXPECT_FALSE(r.verified());  // nothing checked is not verified
}

TEST(Report, RatesAndVendorRatio) {
  const Report r = sample_report();
  EXPECT_DOUBLE_EQ(rate_of(r.rows[0]), 50e6 / 2e-3 / 1e9);  // 25 GB/s
  EXPECT_DOUBLE_EQ(*vs_vendor(r, r.rows[0]), 0.5);          // twice as slow as the library
  Report two_vendors = r;
  two_vendors.rows.push_back(Row{"lib2", {4, 4, 4}, 50e6, std::nullopt, 0, true});
  two_vendors.rows[0].baseline = "lib2";
  EXPECT_DOUBLE_EQ(*vs_vendor(two_vendors, two_vendors.rows[0]), 2.0);   // against lib2
  EXPECT_DOUBLE_EQ(*vs_vendor(two_vendors, two_vendors.rows[2]), 0.25);  // lib2 against lib
  two_vendors.rows[0].baseline = "missing";
  EXPECT_FALSE(vs_vendor(two_vendors, two_vendors.rows[0]).has_value());
  Report no_vendor = r;
  no_vendor.rows.pop_back();
  EXPECT_FALSE(vs_vendor(no_vendor, no_vendor.rows[0]).has_value());
  Report alone = r;  // a row no other row does the same work as: no ratio
  alone.rows[0].stands_alone = true;
  EXPECT_FALSE(vs_vendor(alone, alone.rows[0]).has_value());
}

TEST(Report, CyclesPerElementMakeBlocksOfDifferentSizesCompare) {
  Row row{"r", {1, 1, 1}, 1, Summary{100, 400, 900}};
  EXPECT_FALSE(cycles_per_element(row).has_value());  // how many elements a block had: unknown
  row.elements_per_block = 256;
  EXPECT_DOUBLE_EQ(*cycles_per_element(row), 400.0 / 256);  // the median block's cycles
  row.block_cycles.reset();
  EXPECT_FALSE(cycles_per_element(row).has_value());  // no cycles recorded (a vendor row)
}

TEST(Report, TextHasEveryPart) {
  std::ostringstream out;
  print_text(out, sample_report());
  const std::string text = out.str();
  for (const char* part : {"99_sample", "device : dev", "input  : n = 4", "check  : sum", "OK",
                           "mine", "lib", "25.0", "25.0", "10 / 20 / 30", "cyc/elem", "2.50",
                           "50.0%", "note   : a note", "verdict: VERIFIED"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n" << text;
  }
  Report wrong = sample_report();
  wrong.checks[0].ok = false;
  out.str("");
  print_text(out, wrong);
  EXPECT_NE(out.str().find("verdict: WRONG RESULT"), std::string::npos);
}

TEST(Report, JsonShape) {
  std::ostringstream out;
  print_json(out, sample_report());
  const std::string json = out.str();
  for (const char* part :
       {"{\"chapter\": \"99_sample\"", "\"title\": \"a \\\"quoted\\\" title\"",
        "\"peak_rate\": 100", "\"headline\": \"mine\"", "\"verified\": true", "\"rate\": 25",
        "\"percent_of_peak\": 25", "\"block_cycles\": {\"min\": 10", "\"grid_span_us\": 4.5",
        "\"vs_vendor\": 0.5", "\"vendor\": true", "\"block_cycles\": null",
        "\"notes\": [\"a note\"]}"}) {
    EXPECT_NE(json.find(part), std::string::npos) << part << "\n" << json;
  }
  EXPECT_EQ(json.back(), '\n');
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), 1);  // one line, one object
}

TEST(Summarize, MinMedianMax) {
  const Summary odd = summarize({5, 1, 3});
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.max, 5);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_EQ(summarize({}).median, 0);
}

TEST(Summary, SpreadIsRangeOverMedian) {
  EXPECT_DOUBLE_EQ((Summary{1, 2, 4}.spread()), 1.5);
  EXPECT_DOUBLE_EQ((Summary{}.spread()), 0.0);  // no runs: no spread, not a division by zero
}

// The tests are built Release (the default preset), and say so; any other build type warns in
// the text report and is named in the JSON.
TEST(Report, NonReleaseBuildWarns) {
  Report r = sample_report();
  EXPECT_EQ(r.build_type, build_type());
  r.build_type = "Release";
  std::ostringstream release;
  print_text(release, r);
  EXPECT_EQ(release.str().find("WARNING"), std::string::npos) << release.str();
  r.build_type = "Debug";
  std::ostringstream debug, json;
  print_text(debug, r);
  print_json(json, r);
  EXPECT_NE(debug.str().find("WARNING: this is a Debug build: its timings are not comparable"),
            std::string::npos)
      << debug.str();
  EXPECT_NE(json.str().find("\"build_type\": \"Debug\""), std::string::npos) << json.str();
}

}  // namespace
}  // namespace tutorial
