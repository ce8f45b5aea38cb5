// Animation clips: per-joint translation/rotation/scale tracks with glTF interpolation semantics.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

enum class Interpolation : uint8_t {
  kStep,         // hold the previous key
  kLinear,       // lerp; rotations use shortest-path slerp (glTF 2.0, appendix C)
  kCubicSpline,  // Hermite; each key stores (in-tangent, value, out-tangent)
};

// A keyframed track. `times` are seconds on the clip's own (file) timeline, strictly increasing.
// `values` holds one value per key, or three per key for kCubicSpline. An empty track means
// "not animated": the joint keeps its rest value.
template <typename T>
struct Track {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;
  std::vector<T> values;

  bool empty() const { return times.empty(); }
};
using Vec3Track = Track<glm::vec3>;
using QuatTrack = Track<glm::quat>;

struct JointTracks {
  Vec3Track translation;
  QuatTrack rotation;
  Vec3Track scale;
};

// A named moment of a clip (a footstep, the hit of a swing): `time` is seconds from the clip's
// start, within [0, duration].
struct ClipEvent {
  std::string name;
  float time = 0.0f;
};

// A named animation; `joints` has one entry per skeleton joint, in skeleton order.
struct Clip {
  std::string name;
  float start_time = 0.0f;  // seconds: first key of any track (clips need not start at 0)
  float end_time = 0.0f;    // seconds: last key of any track
  std::vector<JointTracks> joints;
  std::vector<ClipEvent> events;  // sorted by time (see validateClip)

  float duration() const { return end_time - start_time; }
};

// Value of a track at `time` (file timeline): clamped to the first/last key outside the keys.
// Rotations are normalised. Requires a non-empty, validated track.
glm::vec3 sampleTrack(const Vec3Track& track, float time);
glm::quat sampleTrack(const QuatTrack& track, float time);

// Maps seconds of playback (0 = clip start) to the clip's file timeline: wraps into
// [start, end) when looping, clamps to [start, end] otherwise. A zero-length clip maps to start.
float clipTime(const Clip& clip, float playback_seconds, bool loop);

// Checks sizes (one JointTracks per joint, key/value counts), strictly increasing finite times,
// finite values, that start/end cover the keys, and that events are named, sorted and within
// [0, duration]. Errors name `source`, the clip and the joint.
Status validateClip(const Clip& clip, int joint_count, std::string_view source);

// Checks clip events: non-empty names, finite times in [0, duration], sorted by time. Errors
// (kInvalidData) name `source`, the clip and the event.
Status validateClipEvents(std::span<const ClipEvent> events, float duration,
                          std::string_view source, std::string_view clip_name);
// Recomputes start_time/end_time from the keys (0/0 for a clip without keys).
void updateClipRange(Clip& clip);

}  // namespace throng
