// Packing and unpacking of the 52-byte instance record.
#include "render/instance_record.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace throng::render {
namespace detail {

uint16_t wrappedHeading(float units) {
  if (!std::isfinite(units)) return 0;
  const float wrapped = std::fmod(units, kHeadingUnitsPerTurn);
  const int64_t rounded = static_cast<int64_t>(wrapped + (wrapped >= 0.0f ? 0.5f : -0.5f));
  return static_cast<uint16_t>(static_cast<uint64_t>(rounded) & 0xffffu);
}

}  // namespace detail

InstanceRecord encodeInstanceRecord(const Instance& in, uint32_t last_frame) {
  InstanceRecord out;
  encodeInstanceRecord(in.placement, in.frames.primary, in.frames.secondary, in.frames.fade,
                       in.tint, in.variant, in.agent, in.state, in.attachments, in.layer,
                       last_frame, out);
  return out;
}

Instance decodeInstanceRecord(const InstanceRecord& record) {
  Instance out;
  out.placement.position = glm::vec3(record.position[0], record.position[1], record.position[2]);
  out.placement.heading = static_cast<float>(static_cast<int16_t>(record.heading)) *
                          (detail::kTwoPi / detail::kHeadingUnitsPerTurn);
  out.placement.scale = halfToFloat(record.scale);
  out.frames.primary = {record.frames[0], record.frames[1], record.blends[0] / 255.0f};
  out.frames.secondary = {record.frames[2], record.frames[3], record.blends[1] / 255.0f};
  out.frames.fade = record.fade / 255.0f;
  out.variant = record.appearance;
  for (int c = 0; c < 4; ++c) out.tint[c] = record.tint[c] / 255.0f;
  out.agent = record.agent;
  out.state = record.state;
  out.attachments = uint32_t{record.attachments[0]} | uint32_t{record.attachments[1]} << 8;
  if (record.layer_weight > 0) {
    out.layer.frames = {record.layer_frames[0], record.layer_frames[1],
                        record.layer_blend / 255.0f};
    out.layer.weight = record.layer_weight / 255.0f;
    out.layer.range.first = record.layer_first;
    out.layer.range.end = record.layer_end;
    out.layer.range.parent = record.layer_parent == kRecordNoParent
                                 ? kNoParent
                                 : static_cast<int16_t>(record.layer_parent);
  }
  return out;
}

}  // namespace throng::render
