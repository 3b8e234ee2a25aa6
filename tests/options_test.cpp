#include "tutorial/options.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tutorial {
namespace {

Options parse(std::vector<const char*> args, const OptionSpec& spec = {"prog", 100}) {
  args.insert(args.begin(), "prog");
  return parse_options(static_cast<int>(args.size()), args.data(), spec);
}

TEST(ParseSize, PlainSuffixesAndPowers) {
  EXPECT_EQ(parse_size("1"), 1);
  EXPECT_EQ(parse_size("1000003"), 1000003);
  EXPECT_EQ(parse_size("3k"), 3 * 1024);
  EXPECT_EQ(parse_size("16M"), 16 * 1024 * 1024);
  EXPECT_EQ(parse_size("2G"), int64_t{2} << 30);
  EXPECT_EQ(parse_size("2^24"), 16777216);
  EXPECT_EQ(parse_size("10^6"), 1000000);
  EXPECT_EQ(parse_size("2^0"), 1);
  EXPECT_EQ(parse_size("1^999999999999"), 1);  // answered at once, not after 10^12 steps
}

TEST(ParseSize, RejectsBadInput) {
  for (const char* bad : {"", "0", "-5", "abc", "12x", "M", "2^", "^3", "1.5", "2^63",
                          "2^999999999999", "99999999999999999999", "0^3", "16MM", " 7"}) {
    EXPECT_THROW(parse_size(bad), UsageError) << "'" << bad << "'";
  }
}

TEST(ParseOptions, Defaults) {
  const Options o = parse({});
  EXPECT_EQ(o.n, 100);
  EXPECT_EQ(o.reps, 20);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_FALSE(o.json);
  EXPECT_FALSE(o.help);
}

TEST(ParseOptions, AllOptions) {
  const Options o = parse({"--n", "2^20", "--reps", "7", "--seed", "42", "--json"});
  EXPECT_EQ(o.n, 1 << 20);
  EXPECT_EQ(o.reps, 7);
  EXPECT_EQ(o.seed, 42u);
  EXPECT_TRUE(o.json);
  EXPECT_TRUE(parse({"--help"}).help);
}

TEST(ParseOptions, MatmulTakesMAndK) {
  const OptionSpec spec{"mm", 64, true, 32, 16};
  const Options o = parse({"--m", "5", "--k", "7"}, spec);
  EXPECT_EQ(o.m, 5);
  EXPECT_EQ(o.n, 64);
  EXPECT_EQ(o.k, 7);
  EXPECT_THROW(parse({"--m", "5"}), UsageError);  // not a matmul program
}

TEST(ParseOptions, RejectsBadCommandLines) {
  EXPECT_THROW(parse({"--n"}), UsageError);
  EXPECT_THROW(parse({"--n", "0"}), UsageError);
  EXPECT_THROW(parse({"--n", "-1"}), UsageError);
  EXPECT_THROW(parse({"--reps", "0"}), UsageError);
  EXPECT_THROW(parse({"--reps", "1000000"}), UsageError);
  EXPECT_THROW(parse({"--seed", "-3"}), UsageError);
  EXPECT_THROW(parse({"--seed", "x"}), UsageError);
  EXPECT_THROW(parse({"--frobnicate"}), UsageError);
  EXPECT_THROW(parse({"7"}), UsageError);
}

TEST(Usage, NamesEveryOption) {
  const std::string text = usage({"prog", 100});
  for (const char* option : {"--n", "--reps", "--seed", "--json", "--help"}) {
    EXPECT_NE(text.find(option), std::string::npos) << option;
  }
  EXPECT_EQ(text.find("--m"), std::string::npos);
  EXPECT_NE(usage({"mm", 1, true}).find("--m M"), std::string::npos);
}

}  // namespace
}  // namespace tutorial
