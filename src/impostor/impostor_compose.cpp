// The run time's blend of an impostor's tiles, on the CPU (impostor_compose.h).
#include "throng/impostor/impostor_compose.h"

#include <array>
#include <cmath>

namespace throng::impostor {
namespace {

// sRGB byte -> linear, once.
const std::array<float, 256>& srgbToLinearTable() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const float s = static_cast<float>(i) / 255.0f;
      t[i] = s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
    }
    return t;
  }();
  return table;
}

}  // namespace

std::vector<uint8_t> ComposedTile::coverage() const {
  std::vector<uint8_t> out(premultiplied.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = premultiplied[i].a >= kImpostorCoverageAlpha;
  return out;
}

ComposedTile composeImpostorTile(const Impostor& m, const ImpostorBlend& blend) {
  const std::array<float, 256>& linear = srgbToLinearTable();
  ComposedTile out;
  out.width = m.tile_width;
  out.height = m.tile_height;
  out.premultiplied.assign(static_cast<size_t>(m.tile_width) * m.tile_height, glm::vec4(0.0f));
  const size_t atlas_width = m.atlasWidth();
  for (int v = 0; v < 4; ++v) {
    for (int f = 0; f < 2; ++f) {
      const float w =
          blend.view_weights[v] * (f == 0 ? 1.0f - blend.frame_weight : blend.frame_weight);
      if (w == 0.0f) continue;
      for (uint32_t y = 0; y < m.tile_height; ++y) {
        const size_t row = static_cast<size_t>(blend.views[v]) * m.tile_height + y;
        const uint8_t* in =
            m.color.data() +
            (row * atlas_width + static_cast<size_t>(blend.frames[f]) * m.tile_width) * 4;
        glm::vec4* o = out.premultiplied.data() + static_cast<size_t>(y) * m.tile_width;
        for (uint32_t x = 0; x < m.tile_width; ++x, in += 4) {
          const float a = static_cast<float>(in[3]) / 255.0f;
          o[x] += w * glm::vec4(a * linear[in[0]], a * linear[in[1]], a * linear[in[2]], a);
        }
      }
    }
  }
  return out;
}

}  // namespace throng::impostor
