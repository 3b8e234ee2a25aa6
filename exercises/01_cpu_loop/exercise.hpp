/**
 * @file exercises/01_cpu_loop/exercise.hpp
 * @brief The functions of exercises 1.1 and 1.2, shared by the learner's files and the checker.
 */
#pragma once

#include <cstdint>
#include <vector>

namespace exercise01 {

//! [exercise_1_1]
/// Exercise 1.1: would `a + b` overflow int32? Answer without computing the overflowing sum
/// (signed overflow is undefined behaviour), without wider types and without compiler builtins.
bool add_would_overflow(int32_t a, int32_t b);
//! [exercise_1_1]

//! [exercise_1_2]
/// Exercise 1.2: the Kahan-Babuska-Neumaier sum of @p values in float arithmetic.
float neumaier_sum(const std::vector<float>& values);
//! [exercise_1_2]

}  // namespace exercise01
