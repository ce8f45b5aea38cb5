// Float <-> half conversion with round-to-nearest-even, written out bit by bit.
#include "throng/core/half.h"

#include <cstring>

namespace throng {
namespace {

// std::bit_cast, which the web build's standard library (emscripten 3.1.6's libc++) lacks.
template <class To, class From>
To bitCast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

}  // namespace

uint16_t floatToHalf(float value) {
  const uint32_t f = bitCast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t exponent = (f >> 23) & 0xffu;
  uint32_t mantissa = f & 0x7fffffu;
  if (exponent == 0xffu) {  // infinity or NaN (keep NaN a NaN: force a mantissa bit)
    return static_cast<uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u));
  }
  const int e = static_cast<int>(exponent) - 127 + 15;        // rebiased exponent
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> infinity
  if (e <= 0) {
    // Subnormal half (or zero): shift the mantissa, with its implicit 1, right by 1 - e + 13.
    if (e < -10) return sign;  // below half the smallest subnormal: rounds to zero
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    uint32_t half_mantissa = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half_mantissa & 1u))) ++half_mantissa;
    return static_cast<uint16_t>(sign | half_mantissa);  // a carry makes the smallest normal
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  // Round to nearest even; a carry out of the mantissa bumps the exponent, up to infinity.
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float halfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits = 0;
  if (exponent == 0x1fu) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise it (every subnormal half is a normal float).
    int e = -14;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= 0x3ffu;
    bits = sign | (static_cast<uint32_t>(e + 127) << 23) | (mantissa << 13);
  }
  return bitCast<float>(bits);
}

}  // namespace throng
