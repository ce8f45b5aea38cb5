// The instanced path's per-instance record: 52 bytes the vertex shader and the palette pass read.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <glm/glm.hpp>

#include "throng/core/attachment.h"
#include "throng/core/half.h"
#include "throng/core/skeleton.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/playback.h"

namespace throng::render {

// One character to draw: where it stands, what it plays, and its colour.
struct Instance {
  Placement placement;
  InstanceFrames frames;  // texture frames: see PlaybackJob
  glm::vec4 tint{1.0f};   // RGBA 0..1, multiplies the base colour (stored as 8-bit)
  // Appearance: 0 the package's own materials, v its material variant v - 1 (material_draws.h).
  uint16_t variant = 0;
  uint32_t agent = 0;  // its index in its crowd (ThrongSurface::agent)
  uint8_t state = 0;   // its AgentState (ThrongSurface::state)
  // Its visible props: bit i shows attachment i (Package::attachments; core/attachment.h).
  uint32_t attachments = kAllAttachments;
  // Its layer (crowd/layer.h's layerSample): the layer clip's texture frames, its weight (0: none)
  // and the mask's joints.
  LayerSample layer;
};

// The GPU-driven path's per-agent extras (IndirectInstances::agent_extras): one RGBA32UI texel,
// the record's last four words: its state word (visible props << 8) with the appearance
// (Instance::variant, capped at kMaxRecordAppearances - 1) in the state's byte, then the layer's
// three words (encodeLayerWords).
inline constexpr size_t kAgentExtraWords = 4;
// The layer's words: frames a | b << 16; blend * 255 | weight * 255 << 8 | first joint << 16;
// end joint | parent joint << 16 (kRecordNoParent for none).
inline constexpr size_t kLayerWords = 3;
inline constexpr uint32_t kRecordNoParent = 0xffff;

// Frames are stored in 16 bits: an animation texture of more frames cannot use the instanced path
// (65,536 frames are 36 minutes of animation at 30 frames per second).
inline constexpr uint32_t kMaxRecordFrames = 65536;
// Appearances are stored in 8 bits (material_draws.h's look table allows far fewer anyway).
inline constexpr uint32_t kMaxRecordAppearances = 256;

// What instance i's GPU copy holds, as instanced.vert and palette.vert decode it
// (shaders/common/instance_record.glsl). Quantised where the eye cannot tell: heading to 1/65,536
// of a turn (the shader takes its sine and cosine, so the CPU takes none), scale to a half float,
// frame blends and the fade to 1/255, tint to 8 bits per channel. The last 8 bytes carry what a
// user's shader reads of the agent (its index and state): 32 bytes had no room for them. The
// visible-props mask shares the state's word (bits 8..23): a prop costs no record byte more. The
// last 12 bytes are the agent's layer (zero without one): its clip's frame pair and blend, its
// weight and the mask's joints, what the shader needs to re-root and blend them.
struct InstanceRecord {
  float position[3];         // world units
  uint16_t heading;          // turns * 65,536, wrapped
  uint16_t scale;            // IEEE 754 half
  uint16_t frames[4];        // primary frame a, b; secondary frame a, b (clamped to the last frame)
  uint8_t blends[2];         // primary, secondary blend * 255
  uint8_t fade;              // secondary clip's weight * 255
  uint8_t appearance;        // Instance::variant
  uint8_t tint[4];           // RGBA * 255
  uint32_t agent;            // Instance::agent
  uint8_t state;             // Instance::state
  uint8_t attachments[2];    // Instance::attachments, low byte first
  uint8_t reserved;          // 0
  uint16_t layer_frames[2];  // the layer clip's frame a, b (clamped to the last frame)
  uint8_t layer_blend;       // its blend * 255
  uint8_t layer_weight;      // layerWeight * 255; 0: no layer (and every layer field 0)
  uint16_t layer_first;      // the mask's joints: first .. end - 1
  uint16_t layer_end;
  uint16_t layer_parent;  // the mask root's parent (re-rooted on), kRecordNoParent for none
};
static_assert(sizeof(InstanceRecord) == 52, "instance records are 52 bytes");

// Packs `in`: frames past `last_frame` are clamped to it, blends, fade and tint to 0..1 (NaN to 0),
// the appearance to 255, the props to their kMaxAttachments bits, the layer as encodeLayerWords
// says; a non-finite heading becomes 0;
// position and scale are stored as they are (scale past +-65,504 becomes infinite). No
// transcendental function; allocates nothing.
InstanceRecord encodeInstanceRecord(const Instance& in, uint32_t last_frame);
// The same from an agent's parts (withAgentFrames' pairs: `secondary` may be `primary`).
inline void encodeInstanceRecord(const Placement& placement, const FrameSample& primary,
                                 const FrameSample& secondary, float fade, const glm::vec4& tint,
                                 uint16_t variant, uint32_t agent, uint8_t state,
                                 uint32_t attachments, const LayerSample& layer,
                                 uint32_t last_frame, InstanceRecord& out);
// The layer's kLayerWords words (InstanceRecord's last 12 bytes; the gpu path's extras texel's
// y, z, w): frames clamped to `last_frame`, blend and weight to 0..1 in 1/255 steps; all zero when
// the weight rounds to 0 (no layer).
inline void encodeLayerWords(const LayerSample& layer, uint32_t last_frame, uint32_t* out);
// The values the GPU reads from `record` (heading in radians in [-pi, pi)): what the CPU
// reference must be fed to compare with the shader exactly.
Instance decodeInstanceRecord(const InstanceRecord& record);

namespace detail {
inline constexpr float kTwoPi = 6.283185307179586f;
inline constexpr float kHeadingUnitsPerTurn = 65536.0f;
inline constexpr uint16_t kHalfOne = 0x3C00;  // 1.0 as a half float: the usual scale

// A float's bits (std::bit_cast, which the web build's C++ library lacks).
inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

// 0..1 to 0..255, rounded to nearest; NaN to 0.
inline uint8_t unorm8(float v) {
  v = v > 0.0f ? std::min(v, 1.0f) : 0.0f;
  return static_cast<uint8_t>(v * 255.0f + 0.5f);
}

uint16_t wrappedHeading(float units);  // the rare heading far outside [-pi, pi], or not finite

inline uint16_t encodeHeading(float radians) {
  const float units = radians * (kHeadingUnitsPerTurn / kTwoPi);
  // Headings the crowd keeps in [-pi, pi]; anything far outside is wrapped first.
  if (!(std::abs(units) < 1e9f)) return wrappedHeading(units);
  const int64_t rounded = static_cast<int64_t>(units + (units >= 0.0f ? 0.5f : -0.5f));
  return static_cast<uint16_t>(static_cast<uint64_t>(rounded) & 0xffffu);
}
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the record's words are laid out little-endian, as the shaders read them");
#endif
static_assert(offsetof(InstanceRecord, heading) == 12 && offsetof(InstanceRecord, frames) == 16 &&
                  offsetof(InstanceRecord, blends) == 24 && offsetof(InstanceRecord, tint) == 28 &&
                  offsetof(InstanceRecord, agent) == 32 && offsetof(InstanceRecord, state) == 36 &&
                  offsetof(InstanceRecord, layer_frames) == 40 &&
                  offsetof(InstanceRecord, layer_blend) == 44 &&
                  offsetof(InstanceRecord, layer_end) == 48,
              "the record's words: position, heading | scale, frames, bytes, tint, agent, state, "
              "layer frames, layer bytes | first, layer end | parent");
inline constexpr size_t kRecordWords = sizeof(InstanceRecord) / 4;

// (Non-temporal stores were tried here: no faster on the 2-core machine, see benchmarks.md.)
inline void storeRecordWords(const uint32_t (&words)[kRecordWords], InstanceRecord& out) {
#if defined(__SSE2__)
  auto* to = reinterpret_cast<__m128i*>(&out);
  _mm_storeu_si128(to, _mm_setr_epi32(static_cast<int>(words[0]), static_cast<int>(words[1]),
                                      static_cast<int>(words[2]), static_cast<int>(words[3])));
  _mm_storeu_si128(to + 1, _mm_setr_epi32(static_cast<int>(words[4]), static_cast<int>(words[5]),
                                          static_cast<int>(words[6]), static_cast<int>(words[7])));
  _mm_storeu_si128(to + 2,
                   _mm_setr_epi32(static_cast<int>(words[8]), static_cast<int>(words[9]),
                                  static_cast<int>(words[10]), static_cast<int>(words[11])));
  std::memcpy(reinterpret_cast<unsigned char*>(&out) + 48, &words[12], 4);
#else
  std::memcpy(&out, words, sizeof(words));
#endif
}
}  // namespace detail

inline void encodeInstanceRecord(const Placement& placement, const FrameSample& primary,
                                 const FrameSample& secondary, float fade, const glm::vec4& tint,
                                 uint16_t variant, uint32_t agent, uint8_t state,
                                 uint32_t attachments, const LayerSample& layer,
                                 uint32_t last_frame, InstanceRecord& out) {
  assert(last_frame < kMaxRecordFrames);
  // The record's ten little-endian words, built in registers and stored as two 16-byte parts and
  // one 8-byte part: fields stored one by one and then copied on (or streamed) as wider words
  // stall on store forwarding.
  const auto frame = [last_frame](uint32_t f) { return std::min(f, last_frame); };
  const uint32_t scale = placement.scale == 1.0f ? detail::kHalfOne : floatToHalf(placement.scale);
  uint32_t tint_word = 0xffffffffu;  // untinted, the common case
  if (!(tint.r == 1.0f && tint.g == 1.0f && tint.b == 1.0f && tint.a == 1.0f)) {
    tint_word = uint32_t{detail::unorm8(tint.r)} | uint32_t{detail::unorm8(tint.g)} << 8 |
                uint32_t{detail::unorm8(tint.b)} << 16 | uint32_t{detail::unorm8(tint.a)} << 24;
  }
  uint32_t words[detail::kRecordWords] = {
      detail::floatBits(placement.position.x),
      detail::floatBits(placement.position.y),
      detail::floatBits(placement.position.z),
      uint32_t{detail::encodeHeading(placement.heading)} | scale << 16,
      frame(primary.frame_a) | frame(primary.frame_b) << 16,
      frame(secondary.frame_a) | frame(secondary.frame_b) << 16,
      uint32_t{detail::unorm8(primary.blend)} | uint32_t{detail::unorm8(secondary.blend)} << 8 |
          uint32_t{detail::unorm8(fade)} << 16 |
          std::min<uint32_t>(variant, kMaxRecordAppearances - 1) << 24,
      tint_word,
      agent,
      uint32_t{state} | (attachments & kAllAttachments) << 8,
  };
  encodeLayerWords(layer, last_frame, &words[10]);
  detail::storeRecordWords(words, out);
}

inline void encodeLayerWords(const LayerSample& layer, uint32_t last_frame, uint32_t* out) {
  const uint32_t weight = detail::unorm8(layer.weight);
  if (weight == 0) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  const auto frame = [last_frame](uint32_t f) { return std::min(f, last_frame); };
  const uint32_t parent =
      layer.range.parent == kNoParent ? kRecordNoParent : static_cast<uint32_t>(layer.range.parent);
  out[0] = frame(layer.frames.frame_a) | frame(layer.frames.frame_b) << 16;
  out[1] = uint32_t{detail::unorm8(layer.frames.blend)} | weight << 8 |
           uint32_t{layer.range.first} << 16;
  out[2] = uint32_t{layer.range.end} | parent << 16;
}

}  // namespace throng::render
