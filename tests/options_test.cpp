#include "tutorial/harness/options.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
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

// A chapter's own options: a flag, and an option with a value and a default.
OptionSpec extra_spec() {
  OptionSpec spec{"ch99", 100};
  spec.extra = {{"--explain", "", "print which lanes touch which banks"},
                {"--tune", "T", "threads per block", "256"}};
  return spec;
}
const OptionSpec kExtraSpec = extra_spec();

TEST(ExtraOptions, DefaultsWhenNotGiven) {
  const Options o = parse({}, kExtraSpec);
  EXPECT_FALSE(o.has("--explain"));
  EXPECT_TRUE(o.has("--tune"));
  EXPECT_EQ(o.value("--tune"), "256");
  EXPECT_THROW(o.value("--explain"), std::logic_error);     // a flag not given has no value
  EXPECT_THROW(o.value("--undeclared"), std::logic_error);  // asking for it is a bug
}

TEST(ExtraOptions, FlagAndValueGivenAmongTheSharedOnes) {
  const Options o = parse({"--tune", "64", "--n", "7", "--explain", "--json"}, kExtraSpec);
  EXPECT_TRUE(o.has("--explain"));
  EXPECT_EQ(o.value("--explain"), "");
  EXPECT_EQ(o.value("--tune"), "64");
  EXPECT_EQ(o.n, 7);
  EXPECT_TRUE(o.json);
  EXPECT_EQ(parse({"--tune", "1", "--tune", "2"}, kExtraSpec).value("--tune"), "2");  // last wins
}

TEST(ExtraOptions, MissingValueOrUndeclaredOptionIsAUsageError) {
  try {
    parse({"--explain", "--tune"}, kExtraSpec);
    ADD_FAILURE() << "--tune without a value was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--tune needs a value"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse({"--explain", "5"}, kExtraSpec), UsageError);  // a flag takes no value
  EXPECT_THROW(parse({"--explain"}), UsageError);  // another program does not declare it
}

TEST(ExtraOptions, UsageListsThemWithHelpAndDefault) {
  const std::string text = usage(kExtraSpec);
  EXPECT_NE(text.find("[--explain] [--tune T] [--help]"), std::string::npos) << text;
  EXPECT_NE(text.find("  --explain   print which lanes touch which banks\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  --tune T    threads per block (default 256)\n"), std::string::npos)
      << text;
  EXPECT_EQ(usage({"prog", 100}).find("--explain"), std::string::npos);
}

}  // namespace
}  // namespace tutorial
