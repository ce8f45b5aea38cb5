// What every benchmark program shares: failing with one line, crowd sizes from the command line
// and the smoke pass's cap on them (scripts/bench-smoke.sh).
#pragma once

#include <errno.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/agent_grid.h"
#include "throng/crowd/playback.h"
#include "throng/render/camera.h"
#include "throng/render/frame_view.h"

namespace throng::bench {

// Prints "<program>: <message>" and exits 1: a benchmark that cannot measure what it says stops.
[[noreturn]] inline void die(const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, message.c_str());
  std::exit(1);
}

// The value of `result`, or die() naming `what`.
template <typename T>
T take(Result<T> result, const char* what) {
  if (!result.ok()) die(std::string(what) + ": " + result.status().toString());
  return std::move(result).value();
}

// Removes "<flag>a,b,c" (flag "--agents=" or "--cpu-agents=") from argv, Google Benchmark
// rejecting flags it does not know; the counts given, else `defaults`. *given says which.
inline std::vector<int> takeCountsFlag(int& argc, char** argv, std::string_view flag,
                                       std::span<const int> defaults, bool* given = nullptr) {
  std::vector<int> agents(defaults.begin(), defaults.end());
  if (given) *given = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.substr(0, flag.size()) != flag) {
      argv[kept++] = argv[i];
      continue;
    }
    agents.clear();
    if (given) *given = true;
    std::string list(arg.substr(flag.size()));
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      const int n = std::atoi(list.substr(start, comma - start).c_str());
      if (n <= 0) die(std::string(flag) + " wants positive counts separated by commas: " + list);
      agents.push_back(n);
      start = comma + 1;
    }
  }
  argc = kept;
  return agents;
}

// THRONG_BENCH_MAX_AGENTS=N (CI's smoke pass, scripts/bench-smoke.sh): every crowd size larger
// than N is run at N instead (sizes then equal are run once), so every benchmark still runs.
inline std::vector<int> capAgents(std::vector<int> counts) {
  const char* cap_text = std::getenv("THRONG_BENCH_MAX_AGENTS");
  if (cap_text == nullptr) return counts;
  const int cap = std::atoi(cap_text);
  if (cap <= 0) die(std::string("THRONG_BENCH_MAX_AGENTS wants a positive count: ") + cap_text);
  std::vector<int> out;
  for (int n : counts) {
    n = std::min(n, cap);
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

// Removes `flag` from argv; whether it was there.
inline bool takeFlag(int& argc, char** argv, const std::string& flag) {
  bool found = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == flag) {
      found = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return found;
}

// A benchmark's crowd: agent i of n on a square grid `spacing` apart, with a heading and a clip
// from a fixed integer hash, and a time on a whole baked frame (so a path posing from the clip's
// keys and one from the baked frames hold the same pose and their images can be compared).
struct HashedCrowd {
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  float half_side = 0.0f;  // world units from the centre to the outermost agents
};
inline HashedCrowd hashedCrowd(int agents, float spacing, const Package& package) {
  HashedCrowd crowd;
  const AgentGrid grid = squareGrid(static_cast<uint32_t>(agents), spacing);
  crowd.half_side = -grid.origin.x;
  for (int i = 0; i < agents; ++i) {
    const uint32_t hash = static_cast<uint32_t>(i) * 2654435761u;
    Placement p;
    p.position = grid.position(static_cast<uint32_t>(i));
    p.heading = static_cast<float>(hash >> 16) * (6.2831853f / 65536.0f);
    crowd.placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>((hash >> 8) % package.clips.size());
    const BakedClip& clip = package.clips[a.clip];
    a.time = static_cast<float>((hash >> 4) % clip.frame_count) / clip.fps;
    crowd.playback.push_back(a);
  }
  return crowd;
}

// Where the crowd is seen from (the same for every path of a run).
enum class CameraKind {
  kOverview,  // the whole crowd framed from above (fit corners): few pixels, far LODs
  kStreet,    // a spectator at the front row looking into the crowd: near characters cover many
              // pixels and use LOD 0-1, the rest fade into coarser LODs (or out of the frame)
};
constexpr CameraKind kCameras[] = {CameraKind::kOverview, CameraKind::kStreet};
const char* cameraName(CameraKind camera) {
  return camera == CameraKind::kOverview ? "overview" : "street";
}
// The street camera, in multiples of the character's size: eye height, how far in front of the
// front row it stands, and how far behind the front row it looks at (the bench of merged_bench).
constexpr float kStreetEyeHeight = 4.0f;
constexpr float kStreetEyeBack = 6.0f;
constexpr float kStreetLookAhead = 20.0f;
constexpr float kStreetFovY = 0.9f;  // radians

// The view of `camera` on a crowd whose outermost agents stand `half_side` world units from the
// origin (a square), characters `size` high, for a frame of `aspect` (width / height); the
// overview frames the square grown by `margin`.
inline render::FrameView crowdView(CameraKind camera, float half_side, float margin, float size,
                                   float aspect) {
  if (camera == CameraKind::kOverview) {
    const float h = half_side + margin;
    const Bounds bounds{glm::vec3(-h, 0.0f, -h), glm::vec3(h, size, h)};
    return render::framingView(bounds, aspect, render::CameraFraming{.fit_corners = true});
  }
  const float front = half_side;  // the camera is on the +Z side, like the overview's
  const glm::vec3 eye(0.0f, kStreetEyeHeight * size, front + kStreetEyeBack * size);
  const glm::vec3 target(0.0f, 0.0f, front - kStreetLookAhead * size);
  const float far = 2.0f * (2.0f * half_side + (kStreetEyeBack + kStreetEyeHeight) * size);
  return render::lookAtView(eye, target, kStreetFovY, aspect, 0.1f * size, far);
}

}  // namespace throng::bench
