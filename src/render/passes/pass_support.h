// What the frame's passes share: work in chunks on the job system, scratch that grows with the
// crowd, and the wall clock of a phase.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

#include "throng/core/job_system.h"

namespace throng::render {

// Smallest chunks of agents handed to the job system: below these the hand-over costs more than
// the work saved (a chunk of agents' playback or cull takes ~20 us; a palette ~1 us per joint row).
inline constexpr size_t kMinAgentsPerChunk = 4096;
inline constexpr size_t kMinPalettesPerChunk = 64;

// fn(begin, end) over chunks of `chunk` items: on the job system's threads, or in order on the
// calling thread when there is none.
template <typename Fn>
void forChunks(JobSystem* jobs, size_t count, size_t chunk, Fn&& fn) {
  if (jobs) {
    jobs->parallelFor(count, chunk, fn);
    return;
  }
  for (size_t begin = 0; begin < count; begin += chunk) fn(begin, std::min(count, begin + chunk));
}

// Grows `v` to at least `n` entries (scratch: never shrinks, so a frame of a crowd no larger than
// a previous one allocates nothing).
template <typename T>
void growTo(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

using PassClock = std::chrono::steady_clock;
inline double millisecondsSince(PassClock::time_point start) {
  return std::chrono::duration<double, std::milli>(PassClock::now() - start).count();
}

}  // namespace throng::render
