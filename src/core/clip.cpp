// Keyframe sampling with glTF 2.0 interpolation semantics, clip time mapping and clip validation.
#include "throng/core/clip.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include <fmt/core.h>

#include "throng/core/excerpt.h"

namespace throng {
namespace {

// Index k of the key interval [times[k], times[k+1]) holding `time`, and the fraction within it.
// Precondition: time strictly inside (times.front(), times.back()).
struct KeySpan {
  size_t k;
  float u;
  float dt;
};
KeySpan findSpan(const std::vector<float>& times, float time) {
  const auto it = std::upper_bound(times.begin(), times.end(), time);
  const size_t k1 = static_cast<size_t>(it - times.begin());
  const size_t k = k1 - 1;
  const float dt = times[k1] - times[k];
  return {k, (time - times[k]) / dt, dt};
}

// glTF appendix C: slerp along the shorter arc; nlerp when the angle is tiny (sin ~ 0).
glm::quat slerpShortest(const glm::quat& a, glm::quat b, float u) {
  float d = glm::dot(a, b);
  if (d < 0.0f) {
    b = -b;
    d = -d;
  }
  if (d > 0.9995f) return glm::normalize(a * (1.0f - u) + b * u);
  const float theta = std::acos(std::min(d, 1.0f));
  const float s = std::sin(theta);
  return a * (std::sin((1.0f - u) * theta) / s) + b * (std::sin(u * theta) / s);
}

template <typename T>
T hermite(const T& p0, const T& m0, const T& p1, const T& m1, float u) {
  const float u2 = u * u;
  const float u3 = u2 * u;
  return p0 * (2 * u3 - 3 * u2 + 1) + m0 * (u3 - 2 * u2 + u) + p1 * (-2 * u3 + 3 * u2) +
         m1 * (u3 - u2);
}

// Value of key k (the middle element of a cubic spline key's triplet).
template <typename T>
const T& keyValue(const Track<T>& track, size_t k) {
  return track.interpolation == Interpolation::kCubicSpline ? track.values[3 * k + 1]
                                                            : track.values[k];
}

template <typename T, typename Lerp>
T sampleGeneric(const Track<T>& track, float time, Lerp lerp) {
  const auto& times = track.times;
  if (!(time > times.front())) return keyValue(track, 0);  // also catches NaN
  if (time >= times.back()) return keyValue(track, times.size() - 1);
  const KeySpan s = findSpan(times, time);
  switch (track.interpolation) {
    case Interpolation::kStep:
      return track.values[s.k];
    case Interpolation::kLinear:
      return lerp(track.values[s.k], track.values[s.k + 1], s.u);
    case Interpolation::kCubicSpline: {
      const T& p0 = track.values[3 * s.k + 1];
      const T m0 = track.values[3 * s.k + 2] * s.dt;  // out-tangent of k
      const T& p1 = track.values[3 * (s.k + 1) + 1];
      const T m1 = track.values[3 * (s.k + 1)] * s.dt;  // in-tangent of k+1
      return hermite(p0, m0, p1, m1, s.u);
    }
  }
  return keyValue(track, 0);
}

template <typename T>
Status validateTrack(const Track<T>& track, const char* what, const Clip& clip, int joint,
                     std::string_view source) {
  if (track.times.empty()) {
    if (!track.values.empty()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: clip '{}', joint {}, {}: values without key times", source,
                                excerpt(clip.name), joint, what));
    }
    return {};
  }
  const size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (track.values.size() != track.times.size() * per_key) {
    return Status(
        ErrorCode::kInvalidData,
        fmt::format("{}: clip '{}', joint {}, {}: {} values for {} keys", source,
                    excerpt(clip.name), joint, what, track.values.size(), track.times.size()));
  }
  for (size_t k = 0; k < track.times.size(); ++k) {
    const float t = track.times[k];
    if (!std::isfinite(t) || (k > 0 && !(t > track.times[k - 1]))) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: clip '{}', joint {}, {}: key {} time {} is not finite and "
                                "strictly increasing",
                                source, excerpt(clip.name), joint, what, k, t));
    }
    if (t < clip.start_time || t > clip.end_time) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: clip '{}', joint {}, {}: key time {} outside the clip range "
                      "[{}, {}]",
                      source, excerpt(clip.name), joint, what, t, clip.start_time, clip.end_time));
    }
  }
  for (size_t v = 0; v < track.values.size(); ++v) {
    if (!isFinite(track.values[v])) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: clip '{}', joint {}, {}: value {} is not finite", source,
                                excerpt(clip.name), joint, what, v));
    }
  }
  return {};
}

}  // namespace

glm::vec3 sampleTrack(const Vec3Track& track, float time) {
  return sampleGeneric(
      track, time, [](const glm::vec3& a, const glm::vec3& b, float u) { return a + (b - a) * u; });
}

glm::quat sampleTrack(const QuatTrack& track, float time) {
  return glm::normalize(sampleGeneric(track, time, slerpShortest));
}

float sampleTrack(const FloatTrack& track, float time) {
  return sampleGeneric(track, time, [](float a, float b, float u) { return a + (b - a) * u; });
}

float clipTime(const Clip& clip, float playback_seconds, bool loop) {
  const float d = clip.duration();
  if (!(d > 0.0f)) return clip.start_time;
  if (!loop) return clip.start_time + std::clamp(playback_seconds, 0.0f, d);
  float t = std::fmod(playback_seconds, d);
  if (t < 0.0f) t += d;
  if (t >= d) t = 0.0f;  // fmod of values just below a multiple of d can round up to d
  return clip.start_time + t;
}

void updateClipRange(Clip& clip) {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  auto visit = [&](const std::vector<float>& times) {
    if (times.empty()) return;
    lo = std::min(lo, times.front());
    hi = std::max(hi, times.back());
  };
  for (const JointTracks& j : clip.joints) {
    visit(j.translation.times);
    visit(j.rotation.times);
    visit(j.scale.times);
  }
  for (const FloatTrack& w : clip.weights) visit(w.times);
  if (lo > hi) lo = hi = 0.0f;
  clip.start_time = lo;
  clip.end_time = hi;
}

Status validateClipEvents(std::span<const ClipEvent> events, float duration,
                          std::string_view source, std::string_view clip_name) {
  for (size_t e = 0; e < events.size(); ++e) {
    const ClipEvent& event = events[e];
    const std::string where =
        fmt::format("{}: clip '{}' event {} ('{}')", source, clip_name, e, event.name);
    if (event.name.empty()) return Status(ErrorCode::kInvalidData, where + ": no name");
    if (!(std::isfinite(event.time) && event.time >= 0.0f && event.time <= duration)) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: time {} s is outside the clip (0 .. {} s)", where, event.time,
                                duration));
    }
    if (e > 0 && event.time < events[e - 1].time) {
      return Status(ErrorCode::kInvalidData, where + ": events are not sorted by time");
    }
  }
  return {};
}

Status validateClip(const Clip& clip, int joint_count, std::string_view source) {
  if (clip.joints.size() != static_cast<size_t>(joint_count)) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: clip '{}' has tracks for {} joints, the skeleton has {}", source,
                              excerpt(clip.name), clip.joints.size(), joint_count));
  }
  if (!std::isfinite(clip.start_time) || !std::isfinite(clip.end_time) ||
      clip.end_time < clip.start_time) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: clip '{}': bad time range [{}, {}]", source, excerpt(clip.name),
                              clip.start_time, clip.end_time));
  }
  for (int j = 0; j < joint_count; ++j) {
    const JointTracks& t = clip.joints[j];
    if (Status s = validateTrack(t.translation, "translation", clip, j, source); !s.ok()) return s;
    if (Status s = validateTrack(t.rotation, "rotation", clip, j, source); !s.ok()) return s;
    if (Status s = validateTrack(t.scale, "scale", clip, j, source); !s.ok()) return s;
  }
  for (size_t t = 0; t < clip.weights.size(); ++t) {
    // Named "joint <t>, morph weight" by validateTrack: t is the morph target here.
    if (Status s =
            validateTrack(clip.weights[t], "morph weight", clip, static_cast<int>(t), source);
        !s.ok()) {
      return s;
    }
  }
  return validateClipEvents(clip.events, clip.duration(), source, clip.name);
}

namespace {

// Component c of value v of a track (vec3 or quat as x, y, z, w).
float component(const glm::vec3& v, int c) {
  return v[c];
}
float component(const glm::quat& q, int c) {
  const float xyzw[4] = {q.x, q.y, q.z, q.w};
  return xyzw[c];
}

// What a lane without a track of this channel holds (padding lanes: the identity transform).
float identityComponent(PackedClip::Channel channel, int c) {
  switch (channel) {
    case PackedClip::Channel::kTranslation:
      return 0.0f;
    case PackedClip::Channel::kRotation:
      return c == 3 ? 1.0f : 0.0f;
    case PackedClip::Channel::kScale:
      return 1.0f;
  }
  return 0.0f;
}

// True when every key of `track` equals the first, bit for bit (a constant the sampler need not
// interpolate). Cubic splines are never folded: their tangents shape the curve.
template <typename T>
bool isConstant(const Track<T>& track) {
  if (track.empty() || track.interpolation == Interpolation::kCubicSpline) return false;
  for (const T& v : track.values) {
    if (std::memcmp(&v, &track.values.front(), sizeof(T)) != 0) return false;
  }
  return true;
}

// Each joint's values where no group writes (`base`: the rest, or the constant of a folded
// track) and which of its channels groups write (`sampled`, by PackedClip::Channel).
struct Unsampled {
  std::vector<Transform> base;
  std::vector<std::array<bool, 3>> sampled;
};

Unsampled foldTracks(const Clip& clip, std::span<const Transform> rest,
                     const PackOptions& options) {
  Unsampled out{std::vector<Transform>(rest.begin(), rest.end()),
                std::vector<std::array<bool, 3>>(rest.size(), {false, false, false})};
  for (size_t j = 0; j < rest.size(); ++j) {
    const JointTracks& t = clip.joints[j];
    Transform& base = out.base[j];
    auto fold = [&](const auto& track, auto& value, int channel) {
      if (track.empty()) return;
      if (options.fold_constant_tracks && isConstant(track)) {
        value = track.values.front();
      } else {
        out.sampled[j][channel] = true;
      }
    };
    fold(t.translation, base.translation, 0);
    fold(t.rotation, base.rotation, 1);
    fold(t.scale, base.scale, 2);
    // Sampled rotations are normalised, as sampleTrack's are.
    if (!t.rotation.empty() && !out.sampled[j][1]) base.rotation = glm::normalize(base.rotation);
  }
  return out;
}

// The rest blocks of `blocks` joint blocks (padding lanes identity), and the channels the
// sampler copies from each.
void packRest(const Unsampled& unsampled, int blocks, std::vector<SoaTransform>& rest,
              std::vector<PackedClip::RestBlock>& rest_blocks) {
  const int joint_count = static_cast<int>(unsampled.base.size());
  rest.resize(static_cast<size_t>(blocks));
  for (int j = 0; j < blocks * kSoaWidth; ++j) {
    soaSet(rest.data(), j, j < joint_count ? unsampled.base[j] : Transform{});
  }
  for (int b = 0; b < blocks; ++b) {
    uint8_t channels = 0;
    for (int j = b * kSoaWidth; j < std::min(joint_count, (b + 1) * kSoaWidth); ++j) {
      for (int c = 0; c < 3; ++c) {
        if (!unsampled.sampled[j][c]) channels |= static_cast<uint8_t>(1u << c);
      }
    }
    if (channels != 0) rest_blocks.push_back({static_cast<uint16_t>(b), channels});
  }
}

// A group's identity: tracks with the same timeline, channel and interpolation.
struct GroupKey {
  uint32_t timeline;
  PackedClip::Channel channel;
  Interpolation interpolation;
  auto operator<=>(const GroupKey&) const = default;
};

// The sampled tracks sorted into groups, in first-seen order, each with its joints (ascending);
// identical key-time arrays are stored once, as timelines.
struct Grouping {
  std::vector<float> times;
  std::vector<PackedClip::Timeline> timelines;
  std::vector<GroupKey> order;
  std::map<GroupKey, std::vector<int>> members;
};

Grouping groupTracks(const Clip& clip, const Unsampled& unsampled) {
  Grouping out;
  std::map<std::vector<float>, uint32_t> timeline_of;
  auto timeline = [&](const std::vector<float>& times) {
    const auto [it, inserted] =
        timeline_of.emplace(times, static_cast<uint32_t>(out.timelines.size()));
    if (inserted) {
      out.timelines.push_back(
          {static_cast<uint32_t>(out.times.size()), static_cast<uint32_t>(times.size())});
      out.times.insert(out.times.end(), times.begin(), times.end());
    }
    return it->second;
  };
  auto add = [&](int joint, PackedClip::Channel channel, const auto& track) {
    if (!unsampled.sampled[joint][static_cast<int>(channel)]) return;
    const GroupKey key{timeline(track.times), channel, track.interpolation};
    auto [it, inserted] = out.members.try_emplace(key);
    if (inserted) out.order.push_back(key);
    it->second.push_back(joint);
  };
  for (int j = 0; j < static_cast<int>(unsampled.base.size()); ++j) {
    add(j, PackedClip::Channel::kTranslation, clip.joints[j].translation);
    add(j, PackedClip::Channel::kRotation, clip.joints[j].rotation);
    add(j, PackedClip::Channel::kScale, clip.joints[j].scale);
  }
  return out;
}

// Appends the joint blocks of a group's `joints` (ascending, so each block appears once, in
// order) to `blocks`, with their track and store lanes.
void appendGroupBlocks(const std::vector<int>& joints, int joint_count, uint32_t first_block,
                       std::vector<PackedClip::Block>& blocks) {
  for (const int j : joints) {
    const uint16_t jb = static_cast<uint16_t>(j / kSoaWidth);
    if (blocks.size() == first_block || blocks.back().joint_block != jb) {
      PackedClip::Block block;
      block.joint_block = jb;
      for (int l = 0; l < kSoaWidth; ++l) {
        if (jb * kSoaWidth + l >= joint_count) block.store_lanes |= 1u << l;
      }
      blocks.push_back(block);
    }
    blocks.back().track_lanes |= static_cast<uint8_t>(1u << (j % kSoaWidth));
    blocks.back().store_lanes |= static_cast<uint8_t>(1u << (j % kSoaWidth));
  }
}

// Writes key k of `block` in `group`'s layout to dst: per slot, component and lane, the track's
// value, or in lanes without a track the identity (0 for cubic-spline tangents).
void writeKey(const Clip& clip, const PackedClip::Group& group, const PackedClip::Block& block,
              uint32_t k, float* dst) {
  const int components = group.channel == PackedClip::Channel::kRotation ? 4 : 3;
  const int slots = group.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  for (int slot = 0; slot < slots; ++slot) {
    for (int c = 0; c < components; ++c) {
      for (int l = 0; l < kSoaWidth; ++l) {
        float v = slot == 1 || slots == 1 ? identityComponent(group.channel, c) : 0.0f;
        if (block.track_lanes & (1u << l)) {
          const JointTracks& t = clip.joints[block.joint_block * kSoaWidth + l];
          const size_t index = size_t{k} * slots + slot;
          switch (group.channel) {
            case PackedClip::Channel::kTranslation:
              v = component(t.translation.values[index], c);
              break;
            case PackedClip::Channel::kRotation:
              v = component(t.rotation.values[index], c);
              break;
            case PackedClip::Channel::kScale:
              v = component(t.scale.values[index], c);
              break;
          }
        }
        dst[(slot * components + c) * kSoaWidth + l] = v;
      }
    }
  }
}

}  // namespace

size_t PackedClip::byteSize() const {
  return times_.size() * sizeof(float) + timelines_.size() * sizeof(Timeline) +
         groups_.size() * sizeof(Group) + blocks_.size() * sizeof(Block) +
         values_.size() * sizeof(float) + rest_.size() * sizeof(SoaTransform) +
         rest_blocks_.size() * sizeof(RestBlock);
}

PackedClip packClip(const Clip& clip, std::span<const Transform> rest, const PackOptions& options) {
  assert(clip.joints.size() == rest.size());
  PackedClip out;
  out.name_ = clip.name;
  out.joint_count_ = static_cast<int>(rest.size());
  out.start_time_ = clip.start_time;
  out.end_time_ = clip.end_time;
  const Unsampled unsampled = foldTracks(clip, rest, options);
  packRest(unsampled, out.blockCount(), out.rest_, out.rest_blocks_);
  Grouping grouping = groupTracks(clip, unsampled);
  out.times_ = std::move(grouping.times);
  out.timelines_ = std::move(grouping.timelines);
  for (const GroupKey& key : grouping.order) {
    PackedClip::Group group;
    group.timeline = key.timeline;
    group.channel = key.channel;
    group.interpolation = key.interpolation;
    group.first_block = static_cast<uint32_t>(out.blocks_.size());
    appendGroupBlocks(grouping.members[key], out.joint_count_, group.first_block, out.blocks_);
    group.block_count = static_cast<uint32_t>(out.blocks_.size()) - group.first_block;
    const int components = key.channel == PackedClip::Channel::kRotation ? 4 : 3;
    const int slots = key.interpolation == Interpolation::kCubicSpline ? 3 : 1;
    group.stride = static_cast<uint32_t>(slots * components * kSoaWidth);
    group.first_value = static_cast<uint32_t>(out.values_.size());
    const uint32_t keys = out.timelines_[key.timeline].count;
    out.values_.resize(out.values_.size() + size_t{keys} * group.block_count * group.stride);
    for (uint32_t k = 0; k < keys; ++k) {
      for (uint32_t b = 0; b < group.block_count; ++b) {
        writeKey(
            clip, group, out.blocks_[group.first_block + b], k,
            out.values_.data() + group.first_value + (k * group.block_count + b) * group.stride);
      }
    }
    out.groups_.push_back(group);
  }
  return out;
}

std::span<uint32_t> SamplingContext::cursorsFor(const PackedClip& clip) {
  const size_t count = static_cast<size_t>(clip.timelineCount());
  if (clip_ != &clip || cursors_.size() != count) {
    clip_ = &clip;
    cursors_.assign(count, 0u);
  }
  return cursors_;
}

}  // namespace throng
