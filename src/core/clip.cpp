// Keyframe sampling with glTF 2.0 interpolation semantics, clip time mapping and clip validation.
#include "throng/core/clip.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  if (lo > hi) lo = hi = 0.0f;
  clip.start_time = lo;
  clip.end_time = hi;
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
  return {};
}

}  // namespace throng
