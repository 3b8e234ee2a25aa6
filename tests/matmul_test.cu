// Tests of chapter 07's host helpers that chapters 09 and 10 use too: the options of a matrix
// chapter (matmul_spec) and the double-precision entry of C that the sampled checks compare
// with (reference_matmul_entry). No GPU needed.
#include "07_tiled_matmul/matmul.cuh"

#include <gtest/gtest.h>

#include <vector>

namespace tutorial {
namespace {

TEST(ParseOptions, MatmulSpecDefaultsEverySizeAndTheReps) {
  const OptionSpec spec = matmul_spec("mm", 48, 3);
  const char* argv[] = {"mm", "--n", "5"};
  const Options o = parse_options(3, argv, spec);
  EXPECT_EQ(o.m, 48);
  EXPECT_EQ(o.n, 5);
  EXPECT_EQ(o.k, 48);
  EXPECT_EQ(o.reps, 3);
  EXPECT_EQ(spec.program, "mm");
}

TEST(ReferenceMatmul, RowMajorEntry) {
  // A = [1 2 3; 4 5 6] (2x3), B = [7 8; 9 10; 11 12] (3x2): C = [58 64; 139 154].
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9, 10, 11, 12};
  EXPECT_DOUBLE_EQ(reference_matmul_entry(a, b, 2, 3, 0, 0), 58);
  EXPECT_DOUBLE_EQ(reference_matmul_entry(a, b, 2, 3, 0, 1), 64);
  EXPECT_DOUBLE_EQ(reference_matmul_entry(a, b, 2, 3, 1, 0), 139);
  EXPECT_DOUBLE_EQ(reference_matmul_entry(a, b, 2, 3, 1, 1), 154);
}

}  // namespace
}  // namespace tutorial
