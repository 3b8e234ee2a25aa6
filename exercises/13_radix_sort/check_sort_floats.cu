// Checker of exercise 13.2: floats sorted by value, bit for bit against std::stable_sort on the
// host by the floats' order (-0.0 before +0.0; the NaNs, of both signs and many payloads, last
// in their input order). Random bit patterns (every magnitude and both signs, denormals and NaNs
// among them) with the special values mixed in, the special values alone, ordinary floats of
// [-1, 1), and the floats already in order and in reverse, at awkward sizes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.cuh"
#include "exercise.cuh"
#include "tutorial/grading/exercise_gpu.cuh"
#include "tutorial/harness/device_buffer.cuh"
#include "tutorial/harness/poison.hpp"
#include "tutorial/harness/random.hpp"

namespace {

using namespace tutorial;

uint32_t bits_of(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float float_of(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// What an unwritten float of the output reads (poison.hpp: every byte 0xFF, a NaN). No input
/// holds it, so that no right answer does.
const uint32_t kPoisonBits = bits_of(poison_value<float>());

/// The values the inputs mix in: zeros, infinities, the smallest and largest denormals and
/// normals, and NaNs of both signs, quiet and signalling, with different payloads.
const uint32_t kSpecials[] = {
    0x00000000u, 0x80000000u,                            // +0, -0
    0x7F800000u, 0xFF800000u,                            // +inf, -inf
    0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu,  // denormals
    0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,  // smallest and largest normals
    0x3F800000u, 0xBF800000u,                            // +1, -1
    0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u,  // NaNs: quiet, signalling, both signs
    0x7FC0BEEFu, 0xFFFFFFFEu, 0x7FFFFFFFu, 0xFFA5A5A5u,  // NaNs with other payloads
};
constexpr int kSpecialCount = sizeof kSpecials / sizeof kSpecials[0];

/// A random bit pattern, but one in eight times a special value; never the poison.
uint32_t random_bits(SplitMix64& rng) {
  const uint64_t r = rng.next();
  const uint32_t bits = r % 8 == 0 ? kSpecials[(r >> 3) % kSpecialCount] : uint32_t(r >> 32);
  return bits == kPoisonBits ? 0x7FC00001u : bits;
}

/// The order the sort must give, written apart from the exercise: every NaN is one key past all
/// the others; otherwise a negative float's bits inverted, a positive float's sign bit set.
uint32_t order_key(uint32_t bits) {
  if (std::isnan(float_of(bits))) return 0xFFFFFFFFu;
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

std::vector<uint32_t> reference_sorted(std::vector<uint32_t> bits) {
  std::stable_sort(bits.begin(), bits.end(),
                   [](uint32_t a, uint32_t b) { return order_key(a) < order_key(b); });
  return bits;
}

/// "-1.5 (0xbfc00000)".
std::string show(uint32_t bits) {
  return format_number(float_of(bits)) + " (" + check13::hex(bits) + ")";
}

/// Sorts the floats whose bits are @p bits with exercise13::sort_floats into a poisoned output
/// (the temporary arrays poisoned too) and checks every bit of the result.
void check_one(const std::vector<uint32_t>& bits, const std::string& what) {
  const int64_t n = static_cast<int64_t>(bits.size());
  std::vector<float> floats(bits.size());
  std::memcpy(floats.data(), bits.data(), bits.size() * sizeof(float));
  const DeviceBuffer<float> d_in(floats);
  DeviceBuffer<float> d_out(n);
  DeviceBuffer<uint32_t> d_temp_a(n), d_temp_b(n);
  d_out.poison();
  d_temp_a.poison();
  d_temp_b.poison();
  exercise13::sort_floats(d_in.data(), n, d_out.data(), d_temp_a.data(), d_temp_b.data());
  const std::vector<float> got_floats = d_out.to_host();
  std::vector<uint32_t> got(got_floats.size());
  std::memcpy(got.data(), got_floats.data(), got.size() * sizeof(float));
  check13::expect_words(got, reference_sorted(bits), what, show, kPoisonBits);
}

void check_sort_floats(const CheckRun& run) {
  uint64_t seed = 132;
  for (const int64_t n : check13::sizes(run)) {
    const std::string size = "n = " + std::to_string(n);
    std::vector<uint32_t> bits(static_cast<size_t>(n));
    fill_random(bits, ++seed, random_bits);
    check_one(bits, size + ", random bit patterns with special values");
    std::vector<uint32_t> few(static_cast<size_t>(n));
    fill_random(few, ++seed, [](SplitMix64& rng) { return kSpecials[rng.next() % kSpecialCount]; });
    check_one(few, size + ", only the 22 special values (8 NaNs among them)");
    const std::vector<float> ordinary = random_floats(n, ++seed, -1.0f, 1.0f);
    std::vector<uint32_t> ordinary_bits(ordinary.size());
    std::transform(ordinary.begin(), ordinary.end(), ordinary_bits.begin(), bits_of);
    check_one(ordinary_bits, size + ", floats of [-1, 1)");
    std::vector<uint32_t> in_order = reference_sorted(bits);
    check_one(in_order, size + ", random bit patterns already in order");
    std::reverse(in_order.begin(), in_order.end());
    check_one(in_order, size + ", random bit patterns in reverse order");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_gpu_exercise(argc, argv, "13.2", "floats in the order of their values",
                          check_sort_floats);
}
