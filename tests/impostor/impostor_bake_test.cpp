// bakeImpostors against references of its own: each tile's alpha coverage against rays cast
// through the mesh posed and projected on the CPU (tests/render/world_mesh.h), the colour of a
// one-colour character, the normals of the faces those rays hit; and the layout search's budget.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "impostor/impostor_fixtures.h"
#include "render/world_mesh.h"
#include "support/test_support.h"
#include "throng/core/animation_texture.h"
#include "throng/crowd/playback.h"
#include "throng/impostor/impostor_bake.h"
#include "throng/impostor/impostor_plan.h"
#include "throng/impostor/impostor_views.h"

namespace throng::impostor {
namespace {

using fixtures::samplePackage;
using fixtures::smallOptions;

// The sample with one colour everywhere: no textures, no vertex colours.
constexpr glm::vec4 kFlatColor{0.2f, 0.6f, 0.35f, 1.0f};
Package flatPackage() {
  Package p = samplePackage();
  for (Material& m : p.materials) {
    m.base_color = kFlatColor;
    m.base_color_texture = TextureRef{};
  }
  for (MeshLod& lod : p.lods) lod.mesh.colors.clear();
  return p;
}

// LOD 0 posed as frame column `column` of row `view` shows it: the playback's frame pair,
// blended, then placed where the bake stands that agent.
test::WorldMesh posedTile(const Package& p, const Impostor& m, uint32_t view, uint32_t column) {
  uint32_t clip = 0, k = column;
  while (k >= m.clip_frames[clip]) k -= m.clip_frames[clip++];
  const BakedClip& c = p.clips[clip];
  const FrameSample s =
      sampleFrames(c, impostorFrameTime(k, m.clip_frames[clip], c.duration, c.loop));
  const glm::mat4 place = glm::translate(glm::mat4(1.0f), impostorAgentPosition(m, view, column));
  std::vector<JointRows> palette(p.animation.joint_count);
  for (uint32_t j = 0; j < p.animation.joint_count; ++j) {
    const JointRows rows = mixRows(loadJointRows(p.animation, s.frame_a, j),
                                   loadJointRows(p.animation, s.frame_b, j), s.blend);
    palette[j] = packRows(place * unpackRows(rows));
  }
  return test::skinToWorld(p.lods[0].mesh, palette);
}

struct TileCheck {
  int texels = 0;
  int covered = 0;      // by the reference
  int mismatched = 0;   // coverage differs
  int off_outline = 0;  // ... where the reference's 3x3 neighbourhood is all one value
  std::vector<float> normal_angles_deg;  // interior texels: atlas normal vs the hit's normal
  int color_off = 0;  // interior texels whose colour is off by more than kColorTolerance
};

// 8-bit rounding of the sRGB encoding, and llvmpipe's interpolation of a constant: 2 levels.
constexpr int kColorTolerance = 2;

int srgbByte(float linear) {
  const float s =
      linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  return static_cast<int>(std::lround(std::clamp(s, 0.0f, 1.0f) * 255.0f));
}

TileCheck checkTile(const Package& p, const Impostor& m, uint32_t view, uint32_t column,
                    const glm::vec4* flat_color) {
  const test::WorldMesh mesh = posedTile(p, m, view, column);
  const std::vector<test::WorldMesh> meshes = {mesh};
  const glm::mat4 vp = impostorRowViewProjection(m, view);
  const int w = static_cast<int>(m.atlasWidth()), h = static_cast<int>(m.tile_height);
  const int tw = static_cast<int>(m.tile_width);
  // Reference coverage over the tile and a one-texel border (for the neighbourhood test).
  const int x0 = static_cast<int>(column) * tw;
  std::vector<std::optional<test::SurfaceHit>> hits((tw + 2) * (h + 2));
  auto hitAt = [&](int x, int y) -> std::optional<test::SurfaceHit>& {
    return hits[(y + 1) * (tw + 2) + (x + 1)];
  };
  for (int y = -1; y <= h; ++y) {
    for (int x = -1; x <= tw; ++x) {
      if (x0 + x < 0 || x0 + x >= w || y < 0 || y >= h) continue;
      const test::PixelRay ray = test::pixelRay(vp, x0 + x, y, w, h);
      hitAt(x, y) = test::castRay(meshes, ray.origin, ray.direction, true);
    }
  }
  TileCheck out;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < tw; ++x) {
      const size_t texel = (static_cast<size_t>(view) * h + y) * w + x0 + x;
      const bool atlas = m.color[texel * 4 + 3] > 0;
      const bool reference = hitAt(x, y).has_value();
      ++out.texels;
      out.covered += reference;
      bool uniform = true;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) uniform &= hitAt(x + dx, y + dy).has_value() == reference;
      }
      if (atlas != reference) {
        ++out.mismatched;
        out.off_outline += uniform;
      }
      if (!(atlas && reference && uniform)) continue;
      const glm::dvec3 n = glm::normalize(hitAt(x, y)->at(mesh, mesh.normals));
      const glm::vec3 stored =
          glm::vec3(m.normals[texel * 3], m.normals[texel * 3 + 1], m.normals[texel * 3 + 2]) /
              127.5f -
          1.0f;
      const double cosine = glm::dot(n, glm::dvec3(glm::normalize(stored)));
      out.normal_angles_deg.push_back(
          static_cast<float>(std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / 3.14159265358979));
      if (flat_color != nullptr) {
        for (int ch = 0; ch < 3; ++ch) {
          if (std::abs(m.color[texel * 4 + ch] - srgbByte((*flat_color)[ch])) > kColorTolerance) {
            ++out.color_off;
            break;
          }
        }
      }
    }
  }
  return out;
}

// Tiles checked: every view of a walk frame and of an idle frame (columns from both ends).
std::vector<std::pair<uint32_t, uint32_t>> tilesToCheck(const Impostor& m) {
  std::vector<std::pair<uint32_t, uint32_t>> tiles;
  for (uint32_t v = 0; v < m.viewCount(); ++v) {
    tiles.push_back({v, 0});
    tiles.push_back({v, m.frameCount() - 1 - v % 3});
  }
  return tiles;
}

TEST(ImpostorBake, AlphaCoverageMatchesTheProjectedMeshUpToItsOutline) {
  const Package& p = samplePackage();
  Result<Impostor> m = bakeImpostors(p, smallOptions());
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_TRUE(validateImpostor(*m, p.clips.size(), "baked").ok());
  for (auto [view, column] : tilesToCheck(*m)) {
    SCOPED_TRACE(testing::Message() << "view " << view << " column " << column);
    const TileCheck c = checkTile(p, *m, view, column, nullptr);
    // The character is in its tile (which holds every clip from every view: a standing frame
    // seen from above covers a few dozen of its texels).
    EXPECT_GE(c.covered, 20);
    // Texel centres on a triangle edge may go either way (GL's fill rule against the ray
    // caster's): only texels beside the outline may differ, and few of them.
    EXPECT_EQ(c.off_outline, 0);
    EXPECT_LE(c.mismatched, std::max(2, c.covered / 25)) << c.covered << " covered";
  }
}

TEST(ImpostorBake, StoresTheMaterialColourAndTheFacesNormals) {
  const Package p = flatPackage();
  Result<Impostor> m = bakeImpostors(p, smallOptions());
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::vector<float> angles;
  int interior = 0, color_off = 0;
  for (auto [view, column] : tilesToCheck(*m)) {
    const TileCheck c = checkTile(p, *m, view, column, &kFlatColor);
    angles.insert(angles.end(), c.normal_angles_deg.begin(), c.normal_angles_deg.end());
    interior += static_cast<int>(c.normal_angles_deg.size());
    color_off += c.color_off;
  }
  ASSERT_GT(interior, 80);
  EXPECT_EQ(color_off, 0) << "of " << interior << " interior texels";
  // Normals: 8 bits a channel and the rasteriser's interpolation at the texel centre against the
  // ray's exact hit: within 3 degrees at the median, 10 at the 99th percentile.
  std::sort(angles.begin(), angles.end());
  EXPECT_LT(angles[angles.size() / 2], 3.0f);
  EXPECT_LT(angles[angles.size() * 99 / 100], 10.0f);
}

TEST(ImpostorBake, FramesOfAClipDiffer) {
  const Package& p = samplePackage();
  Result<Impostor> m = bakeImpostors(p, smallOptions());
  ASSERT_TRUE(m.ok()) << m.status().message();
  // The walk clip (index 1) from the side: its first two frames' silhouettes differ.
  const uint32_t first = m->firstFrame(1);
  ASSERT_GE(m->clip_frames[1], 2u);
  const uint32_t view = 1;  // azimuth 90 degrees: the camera on the model's +X side
  int differ = 0;
  for (uint32_t y = 0; y < m->tile_height; ++y) {
    for (uint32_t x = 0; x < m->tile_width; ++x) {
      const size_t row = (static_cast<size_t>(view) * m->tile_height + y) * m->atlasWidth();
      const bool a = m->color[(row + first * m->tile_width + x) * 4 + 3] > 0;
      const bool b = m->color[(row + (first + 1) * m->tile_width + x) * 4 + 3] > 0;
      differ += a != b;
    }
  }
  EXPECT_GT(differ, 10);
}

TEST(ImpostorPlan, DefaultsFitTheBudgetAndSmallerBudgetsCostError) {
  const Package& p = samplePackage();
  Result<ImpostorPlan> full = planImpostor(p);
  ASSERT_TRUE(full.ok()) << full.status().message();
  EXPECT_LE(full->bytes, kDefaultImpostorBudgetBytes);
  EXPECT_EQ(full->bytes,
            static_cast<uint64_t>(full->layout.atlasWidth()) * full->layout.atlasHeight() * 7);
  EXPECT_FLOAT_EQ(full->layout.max_error, full->texel_error + full->view_error + full->frame_error);
  ImpostorBakeOptions small;
  small.budget_bytes = 1 << 20;
  Result<ImpostorPlan> tight = planImpostor(p, small);
  ASSERT_TRUE(tight.ok()) << tight.status().message();
  EXPECT_LE(tight->bytes, small.budget_bytes);
  EXPECT_GT(tight->layout.max_error, full->layout.max_error);
  // The frame error at a lower rate is larger (the walk moves between samples).
  ImpostorBakeOptions slow;
  slow.max_fps = 3.0f;
  Result<ImpostorPlan> coarse = planImpostor(p, slow);
  ASSERT_TRUE(coarse.ok());
  EXPECT_GT(coarse->frame_error, full->frame_error);
}

TEST(ImpostorPlan, EachClipGetsItsOwnRate) {
  const Package& p = samplePackage();
  ImpostorBakeOptions one_rate;
  one_rate.per_clip_rates = false;
  Result<ImpostorPlan> single = planImpostor(p, one_rate);
  Result<ImpostorPlan> per_clip = planImpostor(p);
  ASSERT_TRUE(single.ok() && per_clip.ok());
  // One rate: every clip at it (the sample's clips are baked at 10 fps here).
  for (size_t c = 0; c < p.clips.size(); ++c) {
    EXPECT_EQ(single->layout.clip_frames[c],
              impostorFrameCount(p.clips[c].duration, single->layout.fps));
  }
  // Per clip: the slow 3-second idle (clip 0) needs fewer frames than one rate gives it, the quick
  // one-shot attack (clip 3) at least as many; within the budget, at no more estimated error.
  ASSERT_EQ(p.clips[0].name, "idle");
  ASSERT_EQ(p.clips[3].name, "attack");
  EXPECT_LT(per_clip->layout.clip_frames[0], single->layout.clip_frames[0]);
  EXPECT_GE(per_clip->layout.clip_frames[3], single->layout.clip_frames[3]);
  EXPECT_LE(per_clip->bytes, kDefaultImpostorBudgetBytes);
  EXPECT_LE(per_clip->layout.max_error, single->layout.max_error);
  EXPECT_EQ(per_clip->bytes, static_cast<uint64_t>(per_clip->layout.atlasWidth()) *
                                 per_clip->layout.atlasHeight() * 7);
  // The spare bytes went on frames: less than one frame column of the budget is left (the
  // sample's clips step a frame or two at a time; 3,568,384 bytes were left without the pass), or
  // every clip is at its fastest rate.
  const uint64_t tile_column =
      static_cast<uint64_t>(per_clip->layout.tile_width) * per_clip->layout.atlasHeight() * 7;
  bool all_fastest = true;
  for (size_t c = 0; c < p.clips.size(); ++c) {
    all_fastest &= per_clip->layout.clip_frames[c] ==
                   impostorFrameCount(p.clips[c].duration, std::min(10.0f, p.clips[c].fps));
  }
  EXPECT_TRUE(all_fastest || per_clip->bytes + tile_column > kDefaultImpostorBudgetBytes)
      << per_clip->bytes << " bytes";
}

TEST(ImpostorPlan, ABudgetTooSmallOrBadOptionsAreRefused) {
  const Package& p = samplePackage();
  ImpostorBakeOptions o;
  o.budget_bytes = 100;
  Result<ImpostorPlan> r = planImpostor(p, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("impostor: no layout fits a budget of 100 bytes (the "
                                      "smallest takes "),
            std::string::npos)
      << r.status().message();
  Package long_clips = p;
  long_clips.clips[0].duration = 10000.0f;  // 30,000 frames at the lowest rate
  r = planImpostor(long_clips);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("impostor: no layout fits 8192 texels a side ("),
            std::string::npos)
      << r.status().message();
  o = ImpostorBakeOptions{};
  o.max_azimuths = 65;
  r = planImpostor(p, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("impostor options: max fps 10 (> 0), 65 azimuths (1..64)"),
            std::string::npos)
      << r.status().message();
  o = ImpostorBakeOptions{};
  o.error_samples = 0;
  r = planImpostor(p, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("0 error samples (>= 1)"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace throng::impostor
