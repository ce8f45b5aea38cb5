// The package's IMPS section (layout in docs/formats.md).
#include "package_impostor.h"

#include <fmt/core.h>

namespace throng::detail {

void writeImpostor(ByteWriter& w, const Impostor& m) {
  w.u32(m.azimuths);
  w.u32(m.elevations);
  w.u32(m.tile_width);
  w.u32(m.tile_height);
  w.vec3(m.center);
  w.f32(m.size.x);
  w.f32(m.size.y);
  w.f32(m.fps);
  w.f32(m.max_error);
  w.array(m.clip_frames);
  w.raw(m.color.data(), m.color.size());
  w.raw(m.normals.data(), m.normals.size());
}

Impostor readImpostor(ByteReader& r) {
  Impostor m;
  m.azimuths = r.u32("azimuth count");
  m.elevations = r.u32("elevation count");
  m.tile_width = r.u32("tile width");
  m.tile_height = r.u32("tile height");
  m.center = r.vec3("centre");
  m.size.x = r.f32("width");
  m.size.y = r.f32("height");
  m.fps = r.f32("frame rate");
  m.max_error = r.f32("max error");
  m.clip_frames = r.array<uint32_t>("clip frame counts");
  if (!r.ok()) return m;
  if (m.azimuths > kMaxImpostorAzimuths || m.elevations > kMaxImpostorElevations) {
    r.fail(fmt::format("{} x {} views exceed the limit of {} x {}", m.azimuths, m.elevations,
                       kMaxImpostorAzimuths, kMaxImpostorElevations));
    return m;
  }
  const uint64_t width = static_cast<uint64_t>(m.frameCount()) * m.tile_width;
  const uint64_t height = static_cast<uint64_t>(m.viewCount()) * m.tile_height;
  if (width > kMaxImpostorAtlasSide || height > kMaxImpostorAtlasSide) {
    r.fail(fmt::format("atlas {}x{} exceeds the limit of {} per side", width, height,
                       kMaxImpostorAtlasSide));
    return m;
  }
  const uint64_t texels = width * height;  // < 2^26: no overflow below
  if (!r.fits(texels, kImpostorColorBytes, "colour atlas")) return m;
  m.color.resize(texels * kImpostorColorBytes);
  r.raw(m.color.data(), m.color.size(), "colour atlas");
  if (!r.fits(texels, kImpostorNormalBytes, "normal atlas")) return m;
  m.normals.resize(texels * kImpostorNormalBytes);
  r.raw(m.normals.data(), m.normals.size(), "normal atlas");
  r.expectEnd();
  return m;
}

}  // namespace throng::detail
