// The baked sample's impostor (`throng bake sample --lods --impostors`) drawn by the instanced
// path against its last mesh LOD: silhouettes and mean colour at the switch distance and at a
// size where the tiles' texels show, and its picture changing with playback time.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/core/package_format.h"
#include "throng/crowd/lod_pick.h"
#include "throng/crowd/lod_select.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace impostor_switch_cli_test {
namespace {

constexpr int kSize = 256;
// XOR of the two silhouettes per pixel of the mesh's outline: "about one pixel along the
// outline" (a one-pixel band each side would be 2).
constexpr double kMaxXorPerOutlinePixel = 1.0;
// Mean colour over the pixels both draw (sRGB, 0..255): the atlases hold the material's colour and
// model normals at 39x48 texels, lit by the same light; filtering and the blend of 4 views x 2
// frames soften it (measured 9.7-11.8 on the sample's idle, walk and run, 2026-12-04).
constexpr double kMeanColorTolerance = 14.0;
// Fewer pixels than this make no mean colour worth comparing.
constexpr int kMinColorPixels = 16;
// A frame 0.3 s on in the walk changes this share of the impostor's pixels at least.
constexpr double kMinAnimatedShare = 0.05;

// `throng bake sample --lods --impostors`, once per test process: the file and its package.
struct Baked {
  std::filesystem::path dir = test::makeTempDir("impostor-sample");
  std::string path = (dir / "sample.throng").string();
  Package package;
  Baked() {
    const test::CliResult r = test::runCli("bake sample --lods --impostors -o '" + path + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    Result<Package> read = readPackage(path);
    EXPECT_TRUE(read.ok()) << read.status().toString();
    if (read.ok()) package = std::move(read).value();
  }
  ~Baked() { std::filesystem::remove_all(dir); }
};
const Baked& baked() {
  static const Baked b;
  return b;
}
const Package& bakedWithImpostor() {
  return baked().package;
}

struct Mask {
  std::vector<uint8_t> in;
  int count = 0;
};
Mask silhouette(const Image& image) {
  Mask m;
  m.in.resize(static_cast<size_t>(image.width) * image.height);
  for (size_t p = 0; p < m.in.size(); ++p) {
    const uint8_t* px = &image.rgba[p * 4];
    m.in[p] = px[0] > 0 || px[1] > 0 || px[2] > 0;
    m.count += m.in[p];
  }
  return m;
}
// Pixels of `m` with a 4-neighbour outside it.
int outline(const Mask& m, int size) {
  int n = 0;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      if (!m.in[static_cast<size_t>(y) * size + x]) continue;
      const auto at = [&](int u, int v) {
        return u >= 0 && v >= 0 && u < size && v < size && m.in[static_cast<size_t>(v) * size + u];
      };
      if (!at(x - 1, y) || !at(x + 1, y) || !at(x, y - 1) || !at(x, y + 1)) ++n;
    }
  }
  return n;
}
glm::dvec3 meanColor(const Image& image, const Mask& m) {
  glm::dvec3 sum(0.0);
  for (size_t p = 0; p < m.in.size(); ++p) {
    if (!m.in[p]) continue;
    for (int k = 0; k < 3; ++k) sum[k] += image.rgba[p * 4 + k];
  }
  return m.count > 0 ? sum / static_cast<double>(m.count) : sum;
}

// One agent at the origin playing `clip` at `time`, seen from `distance` (to its centre, 20
// degrees above the horizon) through a 60-degree camera; black clear, no ground, no shadows.
Image draw(Device& device, CrowdRenderer& renderer, float distance, float height, uint16_t clip,
           float time) {
  const glm::vec3 target(0.0f, 0.5f * height, 0.0f);
  const glm::vec3 eye = target + distance * glm::vec3(0.3f, 0.34f, 0.89f);
  const FrameView view =
      lookAtView(eye, target, 1.0471976f, 1.0f, 0.01f * distance, 4.0f * distance);
  const Placement placement{glm::vec3(0.0f), 0.4f, 1.0f};
  AgentPlayback playback;
  playback.clip = clip;
  playback.previous_clip = clip;
  playback.time = time;
  const CrowdFrame frame{std::span<const Placement>(&placement, 1),
                         std::span<const AgentPlayback>(&playback, 1)};
  device.beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_TRUE(renderer.draw(view, frame).ok());
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok());
  return image.ok() ? std::move(image).value() : Image{};
}

struct Comparison {
  int xor_pixels = 0;
  int outline = 0;  // the mesh silhouette's
  double xor_per_outline = 0.0;
  double mean_difference = 0.0;  // largest channel's
  int mesh_pixels = 0;
};

Comparison compareAt(float distance, uint16_t clip, float time, const std::string& name) {
  const Package& package = bakedWithImpostor();
  auto device = test::makeTestDevice(3, kSize);
  const int mesh = static_cast<int>(package.lods.size()) - 1;
  Image pictures[2];
  for (int which = 0; which < 2; ++which) {
    CrowdRendererDesc desc;
    desc.path = RenderPath::kInstanced;
    desc.fixed_lod = which == 0 ? mesh : mesh + 1;
    CrowdRenderer renderer(*device, package, desc);
    EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
    const float height = computeBounds(package.lods[0].mesh.positions).size().y;
    pictures[which] = draw(*device, renderer, distance, height, clip, time);
  }
  const Mask a = silhouette(pictures[0]), b = silhouette(pictures[1]);
  int xor_pixels = 0;
  for (size_t p = 0; p < a.in.size(); ++p) xor_pixels += a.in[p] != b.in[p];
  Comparison c;
  c.mesh_pixels = a.count;
  c.xor_pixels = xor_pixels;
  c.outline = outline(a, kSize);
  c.xor_per_outline = static_cast<double>(xor_pixels) / std::max(c.outline, 1);
  // Colour where both draw the character (the silhouettes' difference is the XOR's).
  Mask both;
  both.in.resize(a.in.size());
  for (size_t p = 0; p < a.in.size(); ++p) {
    both.in[p] = a.in[p] && b.in[p];
    both.count += both.in[p];
  }
  const glm::dvec3 d = glm::abs(meanColor(pictures[0], both) - meanColor(pictures[1], both));
  c.mean_difference = std::max({d.x, d.y, d.z});
  if (c.xor_per_outline > kMaxXorPerOutlinePixel || c.mean_difference > kMeanColorTolerance) {
    (void)writePng(pictures[0], name + "_mesh.png");
    (void)writePng(pictures[1], name + "_impostor.png");
  }
  return c;
}

TEST(ImpostorSwitch, MatchesTheLastMeshLodAtTheSwitchDistance) {
  const Package& package = bakedWithImpostor();
  ASSERT_FALSE(package.impostor.empty());
  // The chain as the renderer picks from it: the mesh LODs, then the impostor's error.
  std::vector<MeshLod> chain;
  for (const MeshLod& lod : package.lods) {
    chain.emplace_back();
    chain.back().max_error = lod.max_error;
  }
  chain.emplace_back();
  chain.back().max_error = package.impostor.max_error;
  // At kSize pixels and 60 degrees (LodProjection's reference is 1080 px: scaled).
  LodProjection projection;
  projection.viewport_height_px = static_cast<float>(kSize);
  const float distance = lodPickDistance(chain, static_cast<int>(chain.size()) - 1, projection);
  ASSERT_TRUE(std::isfinite(distance));
  // The pick measures to the agent's nearest point: its reach nearer than its origin.
  const float reach = lodReach(package.lods);
  // With the bake's error (its worst cases of view and frame quantisation: about half the
  // height, docs/lods.md) the character is a pixel or two tall there: the pictures must agree on
  // those pixels (XOR within the outline; an empty mesh picture allows one pixel).
  const Comparison c = compareAt(distance + reach, 0, 0.35f, "impostor_switch");
  EXPECT_LE(c.xor_pixels, std::max(c.outline, 1)) << c.mesh_pixels << " mesh pixels";
  if (c.mesh_pixels > kMinColorPixels) {
    EXPECT_LE(c.mean_difference, kMeanColorTolerance);
  }
  std::printf("switch distance %.1f: %d mesh pixels, XOR %d pixels, outline %d\n", distance,
              c.mesh_pixels, c.xor_pixels, c.outline);
}

TEST(ImpostorSwitch, MatchesTheLastMeshLodWhereItsTexelsShow) {
  const Package& package = bakedWithImpostor();
  ASSERT_FALSE(package.impostor.empty());
  // The character about as many pixels tall as its tiles have texels.
  const float height = computeBounds(package.lods[0].mesh.positions).size().y;
  const float texels =
      static_cast<float>(package.impostor.tile_height) * height / package.impostor.size.y;
  const float distance = height / (2.0f * std::tan(0.5f * 1.0471976f)) * kSize / texels;
  for (uint16_t clip = 0; clip < std::min<size_t>(package.clips.size(), 3); ++clip) {
    const Comparison c =
        compareAt(distance, clip, 0.3f * package.clips[clip].duration, "impostor_texels");
    EXPECT_LE(c.xor_per_outline, kMaxXorPerOutlinePixel) << "clip " << clip;
    EXPECT_LE(c.mean_difference, kMeanColorTolerance) << "clip " << clip;
    std::printf("clip %u at %.1f: %d mesh pixels, XOR %.2f per outline pixel, mean colour %.1f\n",
                clip, distance, c.mesh_pixels, c.xor_per_outline, c.mean_difference);
  }
}

TEST(ImpostorSwitch, AnimatesWithPlaybackTime) {
  const Package& package = bakedWithImpostor();
  ASSERT_FALSE(package.impostor.empty());
  auto device = test::makeTestDevice(3, kSize);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  desc.fixed_lod = static_cast<int>(package.lods.size());
  CrowdRenderer renderer(*device, package, desc);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const float height = computeBounds(package.lods[0].mesh.positions).size().y;
  // The clip that moves most: the one whose two frames differ most.
  double best = 0.0;
  for (uint16_t clip = 0; clip < package.clips.size(); ++clip) {
    const Image a = draw(*device, renderer, 3.0f * height, height, clip, 0.1f);
    const Image b = draw(*device, renderer, 3.0f * height, height, clip, 0.4f);
    const Mask ma = silhouette(a);
    int changed = 0;
    for (size_t p = 0; p < ma.in.size(); ++p) {
      int d = 0;
      for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(a.rgba[p * 4 + k] - b.rgba[p * 4 + k]));
      changed += d > 16;
    }
    best = std::max(best, static_cast<double>(changed) / std::max(ma.count, 1));
  }
  EXPECT_GE(best, kMinAnimatedShare);
}

TEST(ImpostorCli, RenderCountsImpostorAgentsAndOffRefusesTheirLod) {
  const std::string package = "'" + baked().path + "'";
  const std::filesystem::path dir = test::makeTempDir("impostor-cli");
  const std::string png = "'" + (dir / "x.png").string() + "'";
  const test::CliResult on =
      test::runCli("render " + package + " --agents 20 --lod 4 --json --path instanced -o " + png);
  ASSERT_EQ(on.exit_code, 0) << on.output;
  const nlohmann::json j = nlohmann::json::parse(on.output.substr(on.output.find('{')));
  EXPECT_EQ(j["impostors"]["lod"], 4);
  EXPECT_EQ(j["impostors"]["agents"], j["visible"]);
  EXPECT_GT(j["visible"].get<int>(), 0);
  EXPECT_EQ(j["lods"][4]["kind"], "impostor");
  EXPECT_EQ(j["lods"][3]["kind"], "mesh");
  EXPECT_EQ(j["triangles"].get<int>(), 2 * j["visible"].get<int>());
  const test::CliResult off =
      test::runCli("render " + package + " --agents 20 --lod 4 --impostors off -o " + png);
  EXPECT_EQ(off.exit_code, 2) << off.output;
  EXPECT_NE(off.output.find("has LODs 0..3"), std::string::npos) << off.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace impostor_switch_cli_test
}  // namespace throng::render
