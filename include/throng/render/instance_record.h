// The instanced path's per-instance record: 32 bytes the vertex shader and the palette pass read.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/glm.hpp>

#include "throng/core/half.h"
#include "throng/crowd/playback.h"

namespace throng::render {

// One character to draw: where it stands, what it plays, and its colour.
struct Instance {
  Placement placement;
  InstanceFrames frames;  // texture frames: see PlaybackJob
  glm::vec4 tint{1.0f};   // RGBA 0..1, multiplies the base colour (stored as 8-bit)
  // Appearance: 0 the package's own materials, v its material variant v - 1 (material_draws.h).
  uint16_t variant = 0;
};

// Frames are stored in 16 bits: an animation texture of more frames cannot use the instanced path
// (65,536 frames are 36 minutes of animation at 30 frames per second).
inline constexpr uint32_t kMaxRecordFrames = 65536;
// Appearances are stored in 8 bits (material_draws.h's look table allows far fewer anyway).
inline constexpr uint32_t kMaxRecordAppearances = 256;

// What instance i's GPU copy holds, as instanced.vert and palette.vert decode it
// (shaders/common/instance_record.glsl). Quantised where the eye cannot tell: heading to 1/65,536
// of a turn (the shader takes its sine and cosine, so the CPU takes none), scale to a half float,
// frame blends and the fade to 1/255, tint to 8 bits per channel.
struct InstanceRecord {
  float position[3];   // world units
  uint16_t heading;    // turns * 65,536, wrapped
  uint16_t scale;      // IEEE 754 half
  uint16_t frames[4];  // primary frame a, b; secondary frame a, b (clamped to the last frame)
  uint8_t blends[2];   // primary, secondary blend * 255
  uint8_t fade;        // secondary clip's weight * 255
  uint8_t appearance;  // Instance::variant
  uint8_t tint[4];     // RGBA * 255
};
static_assert(sizeof(InstanceRecord) == 32, "instance records are 32 bytes");

// Packs `in`: frames past `last_frame` are clamped to it, blends, fade and tint to 0..1 (NaN to 0),
// the appearance to 255; a non-finite heading becomes 0; position and scale are stored as they
// are (scale past +-65,504 becomes infinite). No transcendental function; allocates nothing.
InstanceRecord encodeInstanceRecord(const Instance& in, uint32_t last_frame);
// The same from an agent's parts (withAgentFrames' pairs: `secondary` may be `primary`).
inline void encodeInstanceRecord(const Placement& placement, const FrameSample& primary,
                                 const FrameSample& secondary, float fade, const glm::vec4& tint,
                                 uint16_t variant, uint32_t last_frame, InstanceRecord& out);
// The values the GPU reads from `record` (heading in radians in [-pi, pi)): what the CPU
// reference must be fed to compare with the shader exactly.
Instance decodeInstanceRecord(const InstanceRecord& record);

namespace detail {
inline constexpr float kTwoPi = 6.283185307179586f;
inline constexpr float kHeadingUnitsPerTurn = 65536.0f;
inline constexpr uint16_t kHalfOne = 0x3C00;  // 1.0 as a half float: the usual scale

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
}  // namespace detail

inline void encodeInstanceRecord(const Placement& placement, const FrameSample& primary,
                                 const FrameSample& secondary, float fade, const glm::vec4& tint,
                                 uint16_t variant, uint32_t last_frame, InstanceRecord& out) {
  assert(last_frame < kMaxRecordFrames);
  out.position[0] = placement.position.x;
  out.position[1] = placement.position.y;
  out.position[2] = placement.position.z;
  out.heading = detail::encodeHeading(placement.heading);
  out.scale = placement.scale == 1.0f ? detail::kHalfOne : floatToHalf(placement.scale);
  out.frames[0] = static_cast<uint16_t>(std::min(primary.frame_a, last_frame));
  out.frames[1] = static_cast<uint16_t>(std::min(primary.frame_b, last_frame));
  out.frames[2] = static_cast<uint16_t>(std::min(secondary.frame_a, last_frame));
  out.frames[3] = static_cast<uint16_t>(std::min(secondary.frame_b, last_frame));
  out.blends[0] = detail::unorm8(primary.blend);
  out.blends[1] = detail::unorm8(secondary.blend);
  out.fade = detail::unorm8(fade);
  out.appearance = static_cast<uint8_t>(std::min<uint32_t>(variant, kMaxRecordAppearances - 1));
  if (tint.r == 1.0f && tint.g == 1.0f && tint.b == 1.0f && tint.a == 1.0f) {
    std::memset(out.tint, 0xff, sizeof(out.tint));  // untinted, the common case
  } else {
    for (int c = 0; c < 4; ++c) out.tint[c] = detail::unorm8(tint[c]);
  }
}

}  // namespace throng::render
