// The impostor's error as drawn (impostor_error.h).
#include "throng/impostor/impostor_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/core.h>

#include "impostor/impostor_rows.h"
#include "throng/impostor/impostor_compose.h"

namespace throng::impostor {
namespace {

// "No covered texel" in the squared distance transform: far above any squared distance in a tile
// (spacings near 1), far below the envelope's bounds kBound, so no sum overflows.
constexpr double kFar = 1e20;
constexpr double kBound = 1e30;

// One line of the squared distance transform (Felzenszwalb and Huttenlocher's lower envelope of
// parabolas): d[p] = min over q of (spacing (p - q))^2 + f[q]. `v` and `z` are scratch of n and
// n + 1.
void distanceLine(const double* f, int n, double spacing, double* d, int* v, double* z) {
  const double s2 = spacing * spacing;
  auto meet = [&](int q, int r) {
    return ((f[q] + s2 * q * q) - (f[r] + s2 * r * r)) / (2.0 * s2 * (q - r));
  };
  int k = 0;
  v[0] = 0;
  z[0] = -kBound;
  z[1] = kBound;
  for (int q = 1; q < n; ++q) {
    double s = meet(q, v[k]);
    while (s <= z[k]) s = meet(q, v[--k]);  // z[0] is below every meeting point: k stays >= 0
    ++k;
    v[k] = q;
    z[k] = s;
    z[k + 1] = kBound;
  }
  k = 0;
  for (int p = 0; p < n; ++p) {
    while (z[k + 1] < p) ++k;
    const double dp = p - v[k];
    d[p] = s2 * dp * dp + f[v[k]];
  }
}

// Squared distance from every texel of the w x h window to the nearest covered texel of `mask`.
std::vector<double> squaredDistances(const std::vector<uint8_t>& mask, int w, int h,
                                     glm::vec2 texel) {
  std::vector<double> grid(static_cast<size_t>(w) * h);
  for (size_t i = 0; i < grid.size(); ++i) grid[i] = mask[i] ? 0.0 : kFar;
  const int n = std::max(w, h);
  std::vector<double> f(n), d(n), z(n + 1);
  std::vector<int> v(n);
  for (int x = 0; x < w; ++x) {
    for (int y = 0; y < h; ++y) f[y] = grid[static_cast<size_t>(y) * w + x];
    distanceLine(f.data(), h, texel.y, d.data(), v.data(), z.data());
    for (int y = 0; y < h; ++y) grid[static_cast<size_t>(y) * w + x] = d[y];
  }
  for (int y = 0; y < h; ++y) {
    double* row = grid.data() + static_cast<size_t>(y) * w;
    std::copy(row, row + w, f.begin());
    distanceLine(f.data(), w, texel.x, row, v.data(), z.data());
  }
  return grid;
}

float percentile(std::vector<float> values, float q) {
  if (values.empty()) return 0.0f;
  std::sort(values.begin(), values.end());
  const size_t i = static_cast<size_t>(std::ceil(q * static_cast<float>(values.size()))) - 1;
  return values[std::min(i, values.size() - 1)];
}

}  // namespace

float silhouetteDistance(std::span<const uint8_t> a, std::span<const uint8_t> b, uint32_t width,
                         uint32_t height, glm::vec2 texel) {
  // The window both masks' covered texels lie in: nearest texels are inside it.
  uint32_t x0 = width, y0 = height, x1 = 0, y1 = 0;
  bool any_a = false, any_b = false, same = true;
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const size_t i = static_cast<size_t>(y) * width + x;
      any_a |= a[i] != 0;
      any_b |= b[i] != 0;
      same &= (a[i] != 0) == (b[i] != 0);
      if (a[i] || b[i]) {
        x0 = std::min(x0, x);
        y0 = std::min(y0, y);
        x1 = std::max(x1, x);
        y1 = std::max(y1, y);
      }
    }
  }
  if (same) return 0.0f;
  if (!any_a || !any_b) {  // the whole shape is wrong: its extent
    return glm::length(glm::vec2(static_cast<float>(x1 - x0 + 1), static_cast<float>(y1 - y0 + 1)) *
                       texel);
  }
  const int w = static_cast<int>(x1 - x0 + 1), h = static_cast<int>(y1 - y0 + 1);
  std::vector<uint8_t> wa(static_cast<size_t>(w) * h), wb(wa.size());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const size_t i = static_cast<size_t>(y0 + y) * width + x0 + x;
      wa[static_cast<size_t>(y) * w + x] = a[i] != 0;
      wb[static_cast<size_t>(y) * w + x] = b[i] != 0;
    }
  }
  // In units of the smaller texel side, so that spacings are near 1 (kFar's margin).
  const float unit = std::min(texel.x, texel.y);
  const std::vector<double> to_a = squaredDistances(wa, w, h, texel / unit);
  const std::vector<double> to_b = squaredDistances(wb, w, h, texel / unit);
  double worst = 0.0;
  for (size_t i = 0; i < wa.size(); ++i) {
    if (wa[i]) worst = std::max(worst, to_b[i]);
    if (wb[i]) worst = std::max(worst, to_a[i]);
  }
  return unit * static_cast<float>(std::sqrt(worst));
}

std::vector<glm::vec3> impostorErrorDirections(const Impostor& m) {
  const float band = 0.5f * std::numbers::pi_v<float> / static_cast<float>(m.elevations);
  const float highest = kMaxMeasuredElevationDeg * std::numbers::pi_v<float> / 180.0f;
  std::vector<glm::vec3> out;
  for (uint32_t i = 0; i <= m.elevations; ++i) {
    const float e = std::min(static_cast<float>(i) * band, highest);
    for (uint32_t j = 0; j < m.azimuths; ++j) {
      const float a = (static_cast<float>(j) + 0.5f) * 2.0f * std::numbers::pi_v<float> /
                      static_cast<float>(m.azimuths);
      out.push_back({std::cos(e) * std::sin(a), std::sin(e), std::cos(e) * std::cos(a)});
    }
  }
  return out;
}

std::vector<ClipTime> impostorErrorTimes(const Package& p, const Impostor& m) {
  std::vector<ClipTime> out;
  for (uint32_t c = 0; c < m.clip_frames.size(); ++c) {
    const BakedClip& clip = p.clips[c];
    const uint32_t n = m.clip_frames[c];
    if (n < 2) {
      out.push_back({c, 0.5f * clip.duration});
      continue;
    }
    const uint32_t steps = clip.loop ? n : n - 1;
    for (uint32_t k = 0; k < steps; ++k) {
      out.push_back(
          {c, (static_cast<float>(k) + 0.5f) * clip.duration / static_cast<float>(steps)});
    }
  }
  return out;
}

Result<ImpostorError> measureImpostorError(const Package& p, const Impostor& m,
                                           const ImpostorErrorOptions& options) {
  if (options.max_samples == 0) {
    return Status(ErrorCode::kInvalidArgument, "impostor error: max samples 0 (>= 1)");
  }
  Result<std::unique_ptr<render::Device>> device = makeImpostorDevice(m);
  if (!device.ok()) return device.status();
  Result<std::unique_ptr<render::CrowdRenderer>> renderer =
      makeImpostorRenderer(**device, p, 0, "impostor error reference", kImpostorColorShader);
  if (!renderer.ok()) return renderer.status();

  const std::vector<glm::vec3> directions = impostorErrorDirections(m);
  const std::vector<ClipTime> times = impostorErrorTimes(p, m);
  const uint64_t all = static_cast<uint64_t>(directions.size()) * times.size();
  const uint64_t stride = (all + options.max_samples - 1) / options.max_samples;
  const glm::vec2 texel =
      m.size / glm::vec2(static_cast<float>(m.tile_width), static_cast<float>(m.tile_height));
  ImpostorError out;
  out.texel = texel.y;
  std::vector<float> distances;
  std::vector<AgentPlayback> columns;
  std::vector<uint32_t> sampled;  // indices into times, one per column
  std::vector<uint8_t> mesh(static_cast<size_t>(m.tile_width) * m.tile_height);
  for (size_t d = 0; d < directions.size(); ++d) {
    columns.clear();
    sampled.clear();
    for (uint32_t t = 0; t < times.size(); ++t) {
      if ((d + t) % stride != 0) continue;
      AgentPlayback a;
      a.clip = static_cast<uint16_t>(times[t].clip);
      a.time = times[t].time;
      a.previous_clip = a.clip;
      a.previous_time = a.time;
      columns.push_back(a);
      sampled.push_back(t);
    }
    if (columns.empty()) continue;
    Result<render::Image> row = drawImpostorRow(**device, **renderer, m, directions[d], columns);
    if (!row.ok()) return row.status();
    for (size_t c = 0; c < sampled.size(); ++c) {
      const ClipTime& t = times[sampled[c]];
      const BakedClip& clip = p.clips[t.clip];
      for (uint32_t y = 0; y < m.tile_height; ++y) {
        const uint8_t* in =
            row->rgba.data() + (static_cast<size_t>(y) * row->width + c * m.tile_width) * 4;
        for (uint32_t x = 0; x < m.tile_width; ++x) {
          // The same alpha test as the composed picture's (byte 128 is the first >= 0.5).
          mesh[static_cast<size_t>(y) * m.tile_width + x] = in[x * 4 + 3] >= 128;
        }
      }
      const ImpostorBlend blend =
          impostorBlend(m, directions[d], t.clip, t.time, clip.duration, clip.loop);
      const std::vector<uint8_t> drawn = composeImpostorTile(m, blend).coverage();
      const float distance = silhouetteDistance(mesh, drawn, m.tile_width, m.tile_height, texel);
      if (distances.empty() || distance > out.silhouette) {
        out.silhouette = distance;
        out.worst_direction = directions[d];
        out.worst_clip = t.clip;
        out.worst_time = t.time;
      }
      distances.push_back(distance);
    }
  }
  out.samples = static_cast<uint32_t>(distances.size());
  out.silhouette_p90 = percentile(std::move(distances), 0.9f);
  return out;
}

}  // namespace throng::impostor
