// The impostor's layout search and error measure (docs/lods.md, "Impostors").
#include "throng/impostor/impostor_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/core.h>

#include "throng/core/skinning.h"
#include "throng/crowd/playback.h"

namespace throng::impostor {
namespace {

// The candidates, finest first (docs/lods.md lists them).
constexpr uint32_t kTileHeights[] = {256, 192, 160, 128, 112, 96, 80, 64, 56, 48, 40, 32, 24, 16};
constexpr float kFrameRates[] = {15.0f, 10.0f, 7.5f, 5.0f, 3.0f};
constexpr uint32_t kAzimuths[] = {32, 24, 16, 12, 8, 6, 4};
constexpr uint32_t kElevations[] = {8, 6, 4, 3, 2, 1};
// Tiles at least this tall when the budget allows any: below it a standing character's limbs are
// a texel or less wide, and the impostor's picture stops being the character's. The error sum
// alone would trade texels for views and frames down to the smallest tile, its other terms being
// worst cases over every clip (the quickest limb, the farthest point of a lying pose).
constexpr uint32_t kPreferredMinTileHeight = 48;
// Room around the bounds' outline in a tile (a share of its size), so that no edge texel is cut.
constexpr float kTileMargin = 0.02f;
// Directions the tile size is fitted over: every 5 degrees round and up.
constexpr int kFitSteps = 72;

// Every baked frame of LOD 0, skinned (model space), frame-major.
struct SkinnedFrames {
  size_t vertices = 0;
  std::vector<glm::vec3> positions;
  const glm::vec3* frame(uint32_t f) const { return positions.data() + f * vertices; }
};

SkinnedFrames skinEveryFrame(const Package& p) {
  SkinnedFrames out;
  const SkinnedMesh& mesh = p.lods[0].mesh;
  out.vertices = mesh.vertexCount();
  out.positions.resize(out.vertices * p.animation.frame_count);
  std::vector<JointRows> palette(p.animation.joint_count);
  for (uint32_t f = 0; f < p.animation.frame_count; ++f) {
    for (uint32_t j = 0; j < p.animation.joint_count; ++j) {
      palette[j] = loadJointRows(p.animation, f, j);
    }
    SkinJob job;
    job.positions = mesh.positions;
    job.joints = mesh.joints;
    job.weights = mesh.weights;
    job.palette = palette;
    job.out_positions = std::span<glm::vec3>(out.positions.data() + f * out.vertices, out.vertices);
    job.run();
  }
  return out;
}

// The largest distance a vertex is from itself at the nearest of `n` sampled frames, over every
// baked frame of clip `clip` (the sampled pose blends two baked frames, as playback does).
float clipFrameError(const Package& p, const SkinnedFrames& frames, uint32_t clip_index,
                     uint32_t n) {
  const BakedClip& clip = p.clips[clip_index];
  float worst = 0.0f;
  for (uint32_t f = 0; f < clip.frame_count; ++f) {
    const float t = static_cast<float>(f) / clip.fps;
    // The nearest sample in time (a looping clip's samples wrap round its duration).
    float best_time = 0.0f, best_gap = std::numeric_limits<float>::infinity();
    for (uint32_t k = 0; k <= n; ++k) {
      if (k == n && !clip.loop) break;
      const float s = k == n ? clip.duration : impostorFrameTime(k, n, clip.duration, clip.loop);
      if (std::abs(s - t) < best_gap) {
        best_gap = std::abs(s - t);
        best_time = k == n ? 0.0f : s;
      }
    }
    const FrameSample sample = sampleFrames(clip, best_time);
    const glm::vec3* a = frames.frame(sample.frame_a);
    const glm::vec3* b = frames.frame(sample.frame_b);
    const glm::vec3* here = frames.frame(clip.first_frame + f);
    for (size_t v = 0; v < frames.vertices; ++v) {
      worst = std::max(worst, glm::length(here[v] - glm::mix(a[v], b[v], sample.blend)));
    }
  }
  return worst;
}

// Each clip's frame count and frame error at every candidate rate (the option's, then those below
// it; never above the clip's baked rate).
struct ClipRates {
  std::vector<float> rates;                   // candidates, fastest first
  std::vector<std::vector<uint32_t>> frames;  // [clip][rate]
  std::vector<std::vector<float>> errors;     // [clip][rate]
};

ClipRates clipRates(const Package& p, const SkinnedFrames& skinned, std::vector<float> rates) {
  ClipRates out;
  out.rates = std::move(rates);
  for (uint32_t c = 0; c < p.clips.size(); ++c) {
    std::vector<uint32_t> frames;
    std::vector<float> errors;
    for (float fps : out.rates) {
      const uint32_t n = impostorFrameCount(p.clips[c].duration, std::min(fps, p.clips[c].fps));
      // Rates that round to the same count share the error.
      const bool same = !frames.empty() && frames.back() == n;
      errors.push_back(same ? errors.back() : clipFrameError(p, skinned, c, n));
      frames.push_back(n);
    }
    out.frames.push_back(std::move(frames));
    out.errors.push_back(std::move(errors));
  }
  return out;
}

// Per-clip rates for a frame error of `target`: each clip the slowest candidate whose error is
// within it (its fastest when none is), so quick clips get more frames and slow ones fewer.
struct FrameChoice {
  std::vector<size_t> picks;  // per clip: its rate's index in ClipRates::rates
  std::vector<uint32_t> clip_frames;
  float error = 0.0f;  // the largest clip's
  float fps = 0.0f;    // the fastest rate chosen
};

FrameChoice chooseFrames(const ClipRates& r, float target) {
  FrameChoice out;
  for (size_t c = 0; c < r.frames.size(); ++c) {
    size_t pick = 0;
    for (size_t k = 0; k < r.rates.size(); ++k) {
      if (r.errors[c][k] <= target) pick = k;
    }
    out.picks.push_back(pick);
    out.clip_frames.push_back(r.frames[c][pick]);
    out.error = std::max(out.error, r.errors[c][pick]);
    out.fps = std::max(out.fps, r.rates[pick]);
  }
  return out;
}

uint64_t atlasBytes(const Impostor& m) {
  return static_cast<uint64_t>(m.atlasWidth()) * m.atlasHeight() *
         (kImpostorColorBytes + kImpostorNormalBytes);
}

// What the chosen layout leaves of the budget buys frames: the clip of largest frame error that
// can still grow takes its next faster rate, while the atlases fit. The estimate's frame term is
// the worst clip's, which the target already set; this lowers the others' (a walk and a run the
// target left at 3 and 2 frames get 5 and 6 on the sample).
void spendSpareBytes(const ClipRates& r, uint64_t budget, FrameChoice& choice, ImpostorPlan& plan) {
  Impostor& m = plan.layout;
  for (;;) {
    std::vector<size_t> order(choice.picks.size());
    for (size_t c = 0; c < order.size(); ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return r.errors[a][choice.picks[a]] > r.errors[b][choice.picks[b]];
    });
    bool grew = false;
    for (size_t c : order) {
      size_t k = choice.picks[c];
      while (k > 0 && r.frames[c][k - 1] == r.frames[c][choice.picks[c]]) --k;
      if (k == 0 && r.frames[c][0] == r.frames[c][choice.picks[c]]) continue;  // fastest already
      --k;
      const uint32_t before = m.clip_frames[c];
      m.clip_frames[c] = r.frames[c][k];
      if (m.atlasWidth() > kMaxImpostorAtlasSide || atlasBytes(m) > budget) {
        m.clip_frames[c] = before;
        continue;
      }
      choice.picks[c] = k;
      grew = true;
      break;
    }
    if (!grew) break;
  }
  plan.frame_error = 0.0f;
  m.fps = 0.0f;
  for (size_t c = 0; c < choice.picks.size(); ++c) {
    plan.frame_error = std::max(plan.frame_error, r.errors[c][choice.picks[c]]);
    m.fps = std::max(m.fps, r.rates[choice.picks[c]]);
  }
  plan.bytes = atlasBytes(m);
  m.max_error = plan.texel_error + plan.view_error + plan.frame_error + plan.mesh_error;
}

Bounds clipsBounds(const Package& p) {
  Bounds b = p.clips[0].bounds;
  for (const BakedClip& c : p.clips) {
    b.min = glm::min(b.min, c.bounds.min);
    b.max = glm::max(b.max, c.bounds.max);
  }
  return b;
}

// Width and height of the bounds' outline about their centre, the largest over directions from
// the horizon up (the tile must hold every view), with a margin.
glm::vec2 tileSize(const Bounds& b) {
  const glm::vec3 c = 0.5f * (b.min + b.max);
  const glm::vec3 h = 0.5f * (b.max - b.min);
  glm::vec2 half(0.0f);
  for (int a = 0; a < kFitSteps; ++a) {
    for (int e = 0; e <= kFitSteps / 4; ++e) {
      const float az = static_cast<float>(a) * 2.0f * std::numbers::pi_v<float> / kFitSteps;
      const float el =
          std::min(static_cast<float>(e) * 2.0f * std::numbers::pi_v<float> / kFitSteps, 1.55f);
      const glm::vec3 d(std::cos(el) * std::sin(az), std::sin(el), std::cos(el) * std::cos(az));
      const glm::vec3 up = glm::normalize(glm::vec3(0.0f, 1.0f, 0.0f) - d * d.y);
      const glm::vec3 right = glm::cross(up, d);
      for (int k = 0; k < 8; ++k) {
        const glm::vec3 corner =
            c + glm::vec3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z);
        half.x = std::max(half.x, std::abs(glm::dot(corner - c, right)));
        half.y = std::max(half.y, std::abs(glm::dot(corner - c, up)));
      }
    }
  }
  return 2.0f * half * (1.0f + kTileMargin);
}

Status checkOptions(const ImpostorBakeOptions& o) {
  if (!(o.max_fps > 0.0f) || !std::isfinite(o.max_fps) || o.max_azimuths < 1 ||
      o.max_azimuths > kMaxImpostorAzimuths || o.max_elevations < 1 ||
      o.max_elevations > kMaxImpostorElevations || o.max_tile_height < 16 || o.budget_bytes == 0 ||
      o.error_samples == 0) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("impostor options: max fps {} (> 0), {} azimuths (1..{}), {} "
                    "elevations (1..{}), tile height {} (>= 16), budget {} bytes (> 0), "
                    "{} error samples (>= 1)",
                    o.max_fps, o.max_azimuths, kMaxImpostorAzimuths, o.max_elevations,
                    kMaxImpostorElevations, o.max_tile_height, o.budget_bytes, o.error_samples));
  }
  return Status();
}

// The option's own value first, then the candidates below it.
template <typename T, size_t N>
std::vector<T> upTo(const T (&candidates)[N], T most) {
  std::vector<T> out = {most};
  for (T c : candidates) {
    if (c < most) out.push_back(c);
  }
  return out;
}

// The coarsest mesh LOD whose error stays within `error` (LOD 0's is 0): at a texel a few
// hundredths of the height, the last mesh LODs draw the same picture for a fraction of the
// triangles.
int coarsestLodWithin(const Package& p, float error) {
  int lod = 0;
  for (size_t l = 1; l < p.lods.size(); ++l) {
    if (p.lods[l].max_error <= error) lod = static_cast<int>(l);
  }
  return lod;
}

// Frames of every clip at `fps`.
uint64_t impostorFrames(const Package& p, float fps) {
  uint64_t n = 0;
  for (const BakedClip& c : p.clips) n += impostorFrameCount(c.duration, std::min(fps, c.fps));
  return n;
}

}  // namespace

Result<ImpostorPlan> planImpostor(const Package& p, const ImpostorBakeOptions& o) {
  if (Status s = checkOptions(o); !s.ok()) return s;
  const SkinnedFrames frames = skinEveryFrame(p);
  const Bounds bounds = clipsBounds(p);
  const glm::vec3 center = 0.5f * (bounds.min + bounds.max);
  const glm::vec2 size = tileSize(bounds);
  // Turning about +Y moves a point by its distance from the vertical axis through the centre;
  // tilting, by its distance from the centre.
  float radius = 0.0f, axis_radius = 0.0f;
  for (const glm::vec3& v : frames.positions) {
    radius = std::max(radius, glm::length(v - center));
    axis_radius = std::max(axis_radius, glm::length(glm::vec2(v.x - center.x, v.z - center.z)));
  }

  // Frame error targets: every clip's error at every rate (each is where some clip's choice
  // changes), distinct frame choices only.
  const ClipRates rates = clipRates(p, frames, upTo(kFrameRates, o.max_fps));
  std::vector<FrameChoice> choices;
  if (o.per_clip_rates) {
    for (const std::vector<float>& errors : rates.errors) {
      for (float target : errors) {
        FrameChoice choice = chooseFrames(rates, target);
        const bool seen = std::any_of(choices.begin(), choices.end(), [&](const FrameChoice& c) {
          return c.clip_frames == choice.clip_frames;
        });
        if (!seen) choices.push_back(std::move(choice));
      }
    }
  } else {
    for (size_t k = 0; k < rates.rates.size(); ++k) {
      FrameChoice choice;
      choice.fps = rates.rates[k];
      for (size_t c = 0; c < p.clips.size(); ++c) {
        choice.picks.push_back(k);
        choice.clip_frames.push_back(rates.frames[c][k]);
        choice.error = std::max(choice.error, rates.errors[c][k]);
      }
      choices.push_back(std::move(choice));
    }
  }

  std::optional<ImpostorPlan> best;
  size_t best_choice = 0;
  uint64_t smallest = std::numeric_limits<uint64_t>::max();
  for (size_t choice_index = 0; choice_index < choices.size(); ++choice_index) {
    const FrameChoice& choice = choices[choice_index];
    const float fps = choice.fps;
    const float frame_error = choice.error;
    const std::vector<uint32_t>& clip_frames = choice.clip_frames;
    for (uint32_t azimuths : upTo(kAzimuths, o.max_azimuths)) {
      for (uint32_t elevations : upTo(kElevations, o.max_elevations)) {
        const float view_error = std::max(
            axis_radius * std::sin(std::numbers::pi_v<float> / static_cast<float>(azimuths)),
            radius * std::sin(std::numbers::pi_v<float> / (4.0f * static_cast<float>(elevations))));
        for (uint32_t tile_height : upTo(kTileHeights, o.max_tile_height)) {
          ImpostorPlan plan;
          Impostor& m = plan.layout;
          m.azimuths = azimuths;
          m.elevations = elevations;
          m.tile_height = tile_height;
          m.tile_width = std::max(1u, static_cast<uint32_t>(std::lround(
                                          static_cast<float>(tile_height) * size.x / size.y)));
          m.center = center;
          m.size = size;
          m.fps = fps;
          m.clip_frames = clip_frames;
          const uint64_t width = static_cast<uint64_t>(m.frameCount()) * m.tile_width;
          const uint64_t height = static_cast<uint64_t>(m.viewCount()) * m.tile_height;
          if (width > kMaxImpostorAtlasSide || height > kMaxImpostorAtlasSide) continue;
          plan.bytes = atlasBytes(m);
          smallest = std::min(smallest, plan.bytes);
          if (plan.bytes > o.budget_bytes) continue;
          plan.texel_error = size.y / static_cast<float>(tile_height);
          plan.view_error = view_error;
          plan.frame_error = frame_error;
          plan.lod = coarsestLodWithin(p, 0.5f * plan.texel_error);
          plan.mesh_error = p.lods[plan.lod].max_error;
          m.max_error = plan.texel_error + plan.view_error + plan.frame_error + plan.mesh_error;
          const bool preferred = tile_height >= kPreferredMinTileHeight;
          const bool best_preferred = best && best->layout.tile_height >= kPreferredMinTileHeight;
          if (!best || (preferred && !best_preferred) ||
              (preferred == best_preferred &&
               (m.max_error < best->layout.max_error ||
                (m.max_error == best->layout.max_error && plan.bytes < best->bytes)))) {
            best = std::move(plan);
            best_choice = choice_index;
          }
        }
      }
    }
  }
  if (smallest == std::numeric_limits<uint64_t>::max()) {
    return Status(
        ErrorCode::kLimitExceeded,
        fmt::format("impostor: no layout fits {} texels a side ({} frames at {} fps)",
                    kMaxImpostorAtlasSide,
                    impostorFrames(p, std::min(kFrameRates[std::size(kFrameRates) - 1], o.max_fps)),
                    std::min(kFrameRates[std::size(kFrameRates) - 1], o.max_fps)));
  }
  if (!best) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("impostor: no layout fits a budget of {} bytes (the smallest "
                              "takes {} bytes)",
                              o.budget_bytes, smallest));
  }
  if (o.per_clip_rates) spendSpareBytes(rates, o.budget_bytes, choices[best_choice], *best);
  return *best;
}

}  // namespace throng::impostor
