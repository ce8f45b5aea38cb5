// Impostor: layout arithmetic and validation (docs/lods.md, "Impostors").
#include "throng/core/impostor.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/core.h>

namespace throng {
namespace {

Status invalid(std::string_view where, const std::string& what) {
  return Status(ErrorCode::kInvalidData, fmt::format("{}: {}", where, what));
}

bool finiteNonNegative(float v) {
  return std::isfinite(v) && v >= 0.0f;
}

}  // namespace

uint32_t Impostor::frameCount() const {
  uint64_t sum = 0;
  for (uint32_t n : clip_frames) sum += n;
  return sum > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(sum);
}

uint32_t Impostor::firstFrame(uint32_t clip) const {
  uint32_t first = 0;
  for (uint32_t c = 0; c < clip && c < clip_frames.size(); ++c) first += clip_frames[c];
  return first;
}

float impostorAzimuth(uint32_t azimuths, uint32_t j) {
  return static_cast<float>(j) * 2.0f * std::numbers::pi_v<float> / static_cast<float>(azimuths);
}

float impostorElevation(uint32_t elevations, uint32_t i) {
  return (static_cast<float>(i) + 0.5f) * 0.5f * std::numbers::pi_v<float> /
         static_cast<float>(elevations);
}

glm::vec3 impostorViewDirection(uint32_t azimuths, uint32_t elevations, uint32_t i, uint32_t j) {
  const float a = impostorAzimuth(azimuths, j);
  const float e = impostorElevation(elevations, i);
  return {std::cos(e) * std::sin(a), std::sin(e), std::cos(e) * std::cos(a)};
}

uint32_t impostorFrameCount(float duration, float fps) {
  const float n = std::round(duration * fps);
  return n < 1.0f ? 1u : static_cast<uint32_t>(n);
}

float impostorFrameTime(uint32_t k, uint32_t n, float duration, bool loop) {
  if (loop) return static_cast<float>(k) * duration / static_cast<float>(n);
  if (n < 2) return 0.0f;
  return static_cast<float>(k) * duration / static_cast<float>(n - 1);
}

ImpostorBlend impostorBlend(const Impostor& m, glm::vec3 to_camera, uint32_t clip, float time,
                            float duration, bool loop) {
  constexpr float kPi = std::numbers::pi_v<float>;
  ImpostorBlend blend;
  const float horizontal = std::sqrt(to_camera.x * to_camera.x + to_camera.z * to_camera.z);

  float azimuth = std::atan2(to_camera.x, to_camera.z) / (2.0f * kPi);  // turns, in [-0.5, 0.5]
  azimuth -= std::floor(azimuth);
  const float a = azimuth * static_cast<float>(m.azimuths);
  const float a_floor = std::floor(a);
  const uint32_t j0 = static_cast<uint32_t>(a_floor) % m.azimuths;
  const uint32_t j1 = (j0 + 1) % m.azimuths;
  const float wa = a - a_floor;

  const float elevation = std::atan2(std::max(to_camera.y, 0.0f), horizontal);
  const float last_band = static_cast<float>(m.elevations - 1);
  const float e = std::clamp(elevation / (0.5f * kPi) * static_cast<float>(m.elevations) - 0.5f,
                             0.0f, last_band);
  const uint32_t i0 = std::min(static_cast<uint32_t>(e), m.elevations - 1);
  const uint32_t i1 = std::min(i0 + 1, m.elevations - 1);
  const float we = e - static_cast<float>(i0);

  blend.views[0] = i0 * m.azimuths + j0;
  blend.views[1] = i0 * m.azimuths + j1;
  blend.views[2] = i1 * m.azimuths + j0;
  blend.views[3] = i1 * m.azimuths + j1;
  blend.view_weights[0] = (1.0f - wa) * (1.0f - we);
  blend.view_weights[1] = wa * (1.0f - we);
  blend.view_weights[2] = (1.0f - wa) * we;
  blend.view_weights[3] = wa * we;

  const uint32_t n = m.clip_frames[clip];
  const uint32_t first = m.firstFrame(clip);
  uint32_t k0 = 0;
  uint32_t k1 = 0;
  float wf = 0.0f;
  if (duration > 0.0f && n > 1) {
    if (loop) {
      float f = time / duration;
      f = (f - std::floor(f)) * static_cast<float>(n);
      const float f_floor = std::floor(f);
      k0 = std::min(static_cast<uint32_t>(f_floor), n - 1);
      k1 = (k0 + 1) % n;
      wf = std::clamp(f - f_floor, 0.0f, 1.0f);
    } else {
      const float f = std::clamp(time / duration, 0.0f, 1.0f) * static_cast<float>(n - 1);
      k0 = std::min(static_cast<uint32_t>(f), n - 1);
      k1 = std::min(k0 + 1, n - 1);
      wf = f - static_cast<float>(k0);
    }
  }
  blend.frames[0] = first + k0;
  blend.frames[1] = first + k1;
  blend.frame_weight = wf;
  return blend;
}

Status validateImpostor(const Impostor& m, size_t clip_count, std::string_view where) {
  if (m.empty()) {
    if (m.elevations != 0 || m.tile_width != 0 || m.tile_height != 0 || !m.clip_frames.empty() ||
        !m.color.empty() || !m.normals.empty()) {
      return invalid(where, "no views but tiles, frames or atlas data");
    }
    return Status();
  }
  if (m.azimuths > kMaxImpostorAzimuths || m.elevations > kMaxImpostorElevations) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} x {} views exceed the limit of {} x {}", where, m.azimuths,
                              m.elevations, kMaxImpostorAzimuths, kMaxImpostorElevations));
  }
  if (m.elevations == 0 || m.tile_width == 0 || m.tile_height == 0) {
    return invalid(where, fmt::format("{} elevations and {}x{} tiles: none may be 0", m.elevations,
                                      m.tile_width, m.tile_height));
  }
  if (m.clip_frames.size() != clip_count) {
    return invalid(where, fmt::format("frame counts for {} clips, the package has {}",
                                      m.clip_frames.size(), clip_count));
  }
  for (size_t c = 0; c < m.clip_frames.size(); ++c) {
    if (m.clip_frames[c] == 0) return invalid(where, fmt::format("clip {} has 0 frames", c));
  }
  const uint64_t width = static_cast<uint64_t>(m.frameCount()) * m.tile_width;
  const uint64_t height = static_cast<uint64_t>(m.viewCount()) * m.tile_height;
  if (width > kMaxImpostorAtlasSide || height > kMaxImpostorAtlasSide) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: atlas {}x{} exceeds the limit of {} per side", where, width,
                              height, kMaxImpostorAtlasSide));
  }
  if (m.color.size() != width * height * kImpostorColorBytes ||
      m.normals.size() != width * height * kImpostorNormalBytes) {
    return invalid(
        where, fmt::format("atlases of {} and {} bytes, {}x{} needs {} and {}", m.color.size(),
                           m.normals.size(), width, height, width * height * kImpostorColorBytes,
                           width * height * kImpostorNormalBytes));
  }
  if (!finiteNonNegative(m.max_error) || !finiteNonNegative(m.fps) || m.fps == 0.0f ||
      !finiteNonNegative(m.size.x) || !finiteNonNegative(m.size.y) || !std::isfinite(m.center.x) ||
      !std::isfinite(m.center.y) || !std::isfinite(m.center.z)) {
    return invalid(where, "rate, size, centre or error is negative, zero-rate or not finite");
  }
  return Status();
}

}  // namespace throng
