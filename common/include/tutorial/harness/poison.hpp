/**
 * @file poison.hpp
 * @brief The poison: what an output holds before the code under test writes it, so that an
 *        element the code forgets to write shows up as wrong instead of passing as a stale or
 *        lucky right answer. DeviceBuffer::poison() fills a buffer with it.
 *
 * A poison only works if no right answer can equal it. Every byte of a poisoned element holds
 * one byte value, chosen by the element's type:
 * - `float` and `double`: 0xFF, a NaN. Every comparison with a reference is false for a NaN
 *   (`got == want`, `|got - want| <= tolerance`), so it never passes.
 * - Everything else (integers, and structs such as an ArgMax): 0x7F, so an int32 reads
 *   2139062143 (0x7F7F7F7F) and an int64 9187201950435737471. No int32 output of the chapters
 *   and exercises is a value that large (their sums and scans of int32 inputs go into int64;
 *   their int32 outputs are maxima or minima of inputs within +-10^9, sums of a few inputs
 *   within +-2^20, counts and indices), and no int64 sum or scan is (at most 2^32 inputs within
 *   +-2^30: below 2^62 in magnitude). A double inside a struct reads 1.4 x 10^306. A 16-bit
 *   float (BF16, half) would get 0x7F too, a finite 3.4 x 10^38: give it a NaN of its own
 *   before poisoning one (none is poisoned today: they are only inputs).
 *   The old poison, 0xFF, was -1 for every integer type: a sum or a scan takes that value.
 *
 * Where every value of the type is a right answer for some input (the minimum and maximum of
 * ints from the whole int32 range), there is a second poison, 0x80 (an int32 reads
 * -2139062144): the check runs once after each (kBothPoisons), and an element never written
 * equals the right answer after at most one of them, so it fails at least once.
 */
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace tutorial {

/// Which poison: the first suits every check whose right answers cannot take it; the second
/// is for the checks where any value of the type can be a right answer (see the file's text).
enum class Poison { kFirst, kSecond };

/// Both poisons, in order: a check whose output can take any value runs once after each.
inline constexpr Poison kBothPoisons[] = {Poison::kFirst, Poison::kSecond};

/// The byte value that fills every byte of a poisoned @p T.
template <typename T>
constexpr unsigned char poison_byte(Poison which = Poison::kFirst) {
  if constexpr (std::is_floating_point_v<T>) {
    return 0xFF;  // a NaN, whichever poison: no right answer is a NaN
  } else {
    return which == Poison::kFirst ? 0x7F : 0x80;
  }
}

/// What every element of a poisoned buffer of @p T reads: a @p T whose every byte is
/// poison_byte<T>(which). Usable in constant expressions (device code included) for integers.
template <typename T>
constexpr T poison_value(Poison which = Poison::kFirst) {
  static_assert(std::is_trivially_copyable_v<T>, "a poison is a pattern of bytes");
  const unsigned char byte = poison_byte<T>(which);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    std::make_unsigned_t<T> bits = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      bits = static_cast<std::make_unsigned_t<T>>((bits << 8) | byte);
    }
    return static_cast<T>(bits);  // two's complement: the same bytes as a signed T
  } else {
    T value{};
    std::memset(&value, byte, sizeof value);
    return value;
  }
}

}  // namespace tutorial
