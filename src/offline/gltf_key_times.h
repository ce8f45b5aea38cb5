// Animation key times as exporters write them: repeated times (a step) kept, backwards refused.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "throng/core/status.h"

namespace throng::gltf {

// What stepKeyTimes did to a sampler's keys.
struct KeyTimeSteps {
  size_t steps = 0;      // repeated times kept as a step (a run of equal times counts once)
  size_t first_key = 0;  // the first repeated key (the later of the pair), when steps > 0
  float first_time = 0.0f;
};

// Checks a sampler's key `times` (seconds) and keeps repeated times as a step: before a repeated
// time T the track interpolates toward the earlier key, from T on it holds the later one, as
// three.js and Blender play such files. A track's times stay strictly increasing (core/clip.h):
// the earlier key of the pair moves to the float just below T (no float lies between the two, so
// every sampled time sees exactly the step), and keys no time can reach (the middle ones of three
// or more equal times, an earlier key with no float left below T) are dropped, as is the earlier
// key of a repeat at the track's very start (the track starts at T on the later key). `values`
// holds `values_per_key` entries per key (3 for CUBICSPLINE: in-tangent, value, out-tangent) and
// loses the dropped keys' entries. Times that go backwards (or are not numbers) are kInvalidData
// naming `what` and the key.
template <typename T>
Result<KeyTimeSteps> stepKeyTimes(std::vector<float>& times, std::vector<T>& values,
                                  size_t values_per_key, const std::string& what) {
  KeyTimeSteps report;
  for (size_t k = 1; k < times.size(); ++k) {
    if (!(times[k] >= times[k - 1])) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: key times go backwards at key {} ({} after {})", what, k,
                                times[k], times[k - 1]));
    }
    if (times[k] == times[k - 1] && (k < 2 || times[k - 1] != times[k - 2])) {
      if (report.steps++ == 0) {
        report.first_key = k;
        report.first_time = times[k];
      }
    }
  }
  if (report.steps == 0) return report;
  std::vector<float> kept_times;
  std::vector<T> kept_values;
  kept_times.reserve(times.size());
  kept_values.reserve(values.size());
  const auto keep = [&](size_t k, float time) {
    kept_times.push_back(time);
    kept_values.insert(kept_values.end(), values.begin() + k * values_per_key,
                       values.begin() + (k + 1) * values_per_key);
  };
  for (size_t k = 0; k < times.size(); ++k) {
    const bool repeats_next = k + 1 < times.size() && times[k + 1] == times[k];
    const bool repeats_previous = k > 0 && times[k - 1] == times[k];
    if (repeats_next && repeats_previous) continue;  // the middle of a run: never sampled
    if (!repeats_next) {
      keep(k, times[k]);
      continue;
    }
    // The earlier key of a step: just below T, when that is still after the key kept before. At
    // the track's start it is dropped: the track starts at T holding the later key (kept below T
    // it would start the clip an instant early, showing the earlier key at the clip's start).
    const float below = std::nextafter(times[k], -std::numeric_limits<float>::infinity());
    if (!kept_times.empty() && below > kept_times.back()) keep(k, below);
  }
  times = std::move(kept_times);
  values = std::move(kept_values);
  return report;
}

}  // namespace throng::gltf
