// Four-lane float vectors shared by the hot loops of core and crowd (pose chain, palettes): SSE2
// where the compiler targets it, plain arrays elsewhere (WebAssembly, other CPUs; or with
// THRONG_NO_SIMD), giving the same IEEE results lane by lane. Internal: not a stable API.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "throng/core/half.h"

#if defined(__SSE2__) && !defined(THRONG_NO_SIMD)
#define THRONG_SIMD_SSE2 1
#include <emmintrin.h>
#endif

// Marks a hot loop for an AVX clone picked at load time where the CPU has AVX (GCC/Clang
// function multi-versioning, x86-64 Linux): the same SSE2-level operations in VEX encoding, with
// three operands (no register copies) and broadcasts from memory. No FMA, so both clones give
// the same IEEE results; the SSE2 clone stays the baseline. GCC only: Clang 14 (the fuzz build's)
// does not clone function templates.
#if defined(THRONG_SIMD_SSE2) && defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && \
    !defined(__clang__) && !defined(THRONG_NO_CLONES)
#define THRONG_HOT_LOOP __attribute__((target_clones("avx", "default")))
#else
#define THRONG_HOT_LOOP
#endif
// Helpers of hot loops are inlined into each clone.
#if defined(__GNUC__) || defined(__clang__)
#define THRONG_INLINE inline __attribute__((always_inline))
#else
#define THRONG_INLINE inline
#endif

namespace throng::simd {

#if defined(THRONG_SIMD_SSE2)

struct F4 {
  __m128 v;
};

inline F4 load(const float* p) {
  return {_mm_loadu_ps(p)};
}
inline void store(float* p, F4 a) {
  _mm_storeu_ps(p, a.v);
}
// A non-temporal store (past the caches, no read for ownership) to 16-byte aligned p; call
// streamFence() before others read what was streamed.
inline void stream(float* p, F4 a) {
  _mm_stream_ps(p, a.v);
}
inline void streamFence() {
  _mm_sfence();
}
inline F4 splat(float x) {
  return {_mm_set1_ps(x)};
}
// Every lane set to *p (one load where the CPU broadcasts from memory, as with AVX).
inline F4 splatFrom(const float* p) {
  return {_mm_load1_ps(p)};
}
inline F4 set(float x, float y, float z, float w) {
  return {_mm_setr_ps(x, y, z, w)};
}
inline F4 zero() {
  return {_mm_setzero_ps()};
}
inline F4 operator+(F4 a, F4 b) {
  return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
  return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
  return {_mm_mul_ps(a.v, b.v)};
}
inline F4 operator/(F4 a, F4 b) {
  return {_mm_div_ps(a.v, b.v)};
}
inline F4 sqrt(F4 a) {
  return {_mm_sqrt_ps(a.v)};
}
// Lane masks: all bits set where the comparison holds.
inline F4 greater(F4 a, F4 b) {
  return {_mm_cmpgt_ps(a.v, b.v)};
}
// The lanes of a mask as 4 bits (lane 0 in bit 0).
inline uint32_t laneBits(F4 mask) {
  return static_cast<uint32_t>(_mm_movemask_ps(mask.v));
}
// mask ? a : b, lane by lane (mask lanes all ones or all zeros).
inline F4 select(F4 mask, F4 a, F4 b) {
  return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))};
}
// The sign bits of a (the rest cleared), and a with those bits flipped by `sign`.
inline F4 signBits(F4 a) {
  return {_mm_and_ps(a.v, _mm_set1_ps(-0.0f))};
}
inline F4 flipSign(F4 a, F4 sign) {
  return {_mm_xor_ps(a.v, sign.v)};
}
// Lanes whose bit is set in the low 4 bits of `bits` all ones, the others zero.
inline F4 laneMask(uint32_t bits) {
  return {_mm_castsi128_ps(_mm_setr_epi32(bits & 1u ? -1 : 0, bits & 2u ? -1 : 0,
                                          bits & 4u ? -1 : 0, bits & 8u ? -1 : 0))};
}
// Every lane set to lane I of a (pshufd: one instruction, no copy, unlike shufps).
template <int I>
inline F4 broadcast(F4 a) {
  return {_mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(a.v), _MM_SHUFFLE(I, I, I, I)))};
}
// Rows (a, b, c, d) become columns.
inline void transpose(F4& a, F4& b, F4& c, F4& d) {
  _MM_TRANSPOSE4_PS(a.v, b.v, c.v, d.v);
}
// Four IEEE half floats widened exactly (subnormals, infinities and NaNs included): the half's
// exponent and mantissa shifted into a float's place are off by 2^(127 - 15), which one
// multiplication restores (subnormal halves become normal floats on the way); infinities and
// NaNs get the all-ones exponent back.
inline F4 loadHalf4(const uint16_t* p) {
  const __m128i h =
      _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_setzero_si128());
  const __m128i magnitude = _mm_and_si128(h, _mm_set1_epi32(0x7fff));
  const __m128i sign = _mm_slli_epi32(_mm_xor_si128(h, magnitude), 16);
  const __m128 scaled = _mm_mul_ps(_mm_castsi128_ps(_mm_slli_epi32(magnitude, 13)),
                                   _mm_castsi128_ps(_mm_set1_epi32((127 + 112) << 23)));
  const __m128i inf_nan =
      _mm_and_si128(_mm_cmpgt_epi32(magnitude, _mm_set1_epi32(0x7bff)), _mm_set1_epi32(0xff << 23));
  return {_mm_or_ps(scaled, _mm_castsi128_ps(_mm_or_si128(sign, inf_nan)))};
}

#else

struct F4 {
  float v[4];
};

#define THRONG_SIMD_LANES(expr)              \
  F4 r;                                      \
  for (int i = 0; i < 4; ++i) r.v[i] = expr; \
  return r

inline F4 load(const float* p) {
  F4 r;
  std::memcpy(r.v, p, sizeof(r.v));
  return r;
}
inline void store(float* p, F4 a) {
  std::memcpy(p, a.v, sizeof(a.v));
}
inline void stream(float* p, F4 a) {
  store(p, a);
}
inline void streamFence() {}
inline F4 splat(float x) {
  return {{x, x, x, x}};
}
inline F4 splatFrom(const float* p) {
  return splat(*p);
}
inline F4 set(float x, float y, float z, float w) {
  return {{x, y, z, w}};
}
inline F4 zero() {
  return {{0.0f, 0.0f, 0.0f, 0.0f}};
}
inline F4 operator+(F4 a, F4 b) {
  THRONG_SIMD_LANES(a.v[i] + b.v[i]);
}
inline F4 operator-(F4 a, F4 b) {
  THRONG_SIMD_LANES(a.v[i] - b.v[i]);
}
inline F4 operator*(F4 a, F4 b) {
  THRONG_SIMD_LANES(a.v[i] * b.v[i]);
}
inline F4 operator/(F4 a, F4 b) {
  THRONG_SIMD_LANES(a.v[i] / b.v[i]);
}
inline F4 sqrt(F4 a) {
  THRONG_SIMD_LANES(std::sqrt(a.v[i]));
}
inline uint32_t bitsOf(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof(u));
  return u;
}
inline float floatOf(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof(x));
  return x;
}
inline F4 greater(F4 a, F4 b) {
  THRONG_SIMD_LANES(floatOf(a.v[i] > b.v[i] ? 0xffffffffu : 0u));
}
inline uint32_t laneBits(F4 mask) {
  uint32_t bits = 0;
  for (int i = 0; i < 4; ++i) bits |= (bitsOf(mask.v[i]) >> 31) << i;
  return bits;
}
inline F4 select(F4 mask, F4 a, F4 b) {
  THRONG_SIMD_LANES(
      floatOf((bitsOf(mask.v[i]) & bitsOf(a.v[i])) | (~bitsOf(mask.v[i]) & bitsOf(b.v[i]))));
}
inline F4 signBits(F4 a) {
  THRONG_SIMD_LANES(floatOf(bitsOf(a.v[i]) & 0x80000000u));
}
inline F4 flipSign(F4 a, F4 sign) {
  THRONG_SIMD_LANES(floatOf(bitsOf(a.v[i]) ^ bitsOf(sign.v[i])));
}
inline F4 laneMask(uint32_t bits) {
  THRONG_SIMD_LANES(floatOf((bits >> i) & 1u ? 0xffffffffu : 0u));
}
template <int I>
inline F4 broadcast(F4 a) {
  return splat(a.v[I]);
}
inline void transpose(F4& a, F4& b, F4& c, F4& d) {
  const F4 rows[4] = {a, b, c, d};
  F4* out[4] = {&a, &b, &c, &d};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) out[i]->v[j] = rows[j].v[i];
  }
}

inline F4 loadHalf4(const uint16_t* p) {
  THRONG_SIMD_LANES(halfToFloat(p[i]));
}

#undef THRONG_SIMD_LANES

#endif

}  // namespace throng::simd
