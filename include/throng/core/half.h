// IEEE 754 binary16 ("half float") conversion, as stored in RGBA16F animation textures.
#pragma once

#include <cstdint>

namespace throng {

// Largest finite half value; floats beyond it (after rounding) become infinity.
inline constexpr float kMaxHalf = 65504.0f;

// Rounds to the nearest half (ties to even), as GPUs do when uploading RGBA16F. Out-of-range
// values become +-infinity, NaN stays NaN, tiny values become subnormal halves or zero.
uint16_t floatToHalf(float value);
// Exact widening of a half to a float (every half is a float).
float halfToFloat(uint16_t half);
// True for infinities and NaNs (exponent bits all ones).
inline bool halfIsFinite(uint16_t half) {
  return (half & 0x7c00u) != 0x7c00u;
}

}  // namespace throng
