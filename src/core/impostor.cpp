// Impostor: layout arithmetic and validation (docs/lods.md, "Impostors").
#include "throng/core/impostor.h"

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
