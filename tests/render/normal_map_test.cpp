// A normal texture changes the built-in look at known pixels as docs/shaders.md's formula says:
// a test-written glTF (two quads, the second with its u mirrored) read with its TANGENT, and
// without (the importer generates tangents with the MikkTSpace rules), drawn on every path and
// compared with test::shadePbr at the bent normal the glTF spec gives, from the test's own
// tangent frame (never the importer's tangents).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "render/cpu_reference.h"
#include "render/pbr_reference.h"
#include "render/world_mesh.h"
#include "render_test_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace normal_map_test {

constexpr int kWidth = 128;
constexpr int kHeight = 64;
const glm::vec4 kClear(0.0f, 0.0f, 0.0f, 1.0f);
// 8-bit rounding and float shading (the reference is double precision), per channel.
constexpr int kTolerance = 3;
// The bent normals must move the colour by more than this at the checked pixels, or the test
// would not see the texture.
constexpr int kMinimumEffect = 12;
constexpr float kNormalScale = 0.8f;
const glm::vec3 kBaseColor(0.8f, 0.75f, 0.7f);
constexpr float kRoughness = 0.5f;

// The normal texture: two texels side by side (u < 0.5 the first), tangent-space normals encoded
// as glTF says (linear, (n + 1) / 2), nearest.
// Both lean a lot in y (bitangent) and some in x (tangent), so that either handedness or tangent
// sign taken wrongly changes the colour.
constexpr uint8_t kNormalTexels[2][4] = {{166, 191, 231, 255}, {83, 70, 232, 255}};

// Quad q (q = 0, 1) covers x in [2.4 q - 2.2, 2.4 q - 0.2], y in [0, 2] at z = 0, facing +z. Quad
// 0's u grows with x, quad 1's against it (mirrored: its tangent is -x and its handedness -1); v
// grows downwards in both, as glTF's images do.
Character normalMappedQuads() {
  Character c;
  RawSkeleton raw;
  raw.joints.push_back(RawJoint{});
  raw.joints[0].name = "root";
  c.skeleton = std::move(buildSkeleton(raw, "normal quads").value());
  SkinnedMesh& m = c.mesh;
  for (uint32_t q = 0; q < 2; ++q) {
    const float x0 = 2.4f * static_cast<float>(q) - 2.2f;
    const glm::vec3 corners[4] = {{x0, 2, 0}, {x0 + 2, 2, 0}, {x0 + 2, 0, 0}, {x0, 0, 0}};
    const float u_left = q == 0 ? 0.0f : 1.0f;
    const glm::vec2 uvs[4] = {{u_left, 0}, {1.0f - u_left, 0}, {1.0f - u_left, 1}, {u_left, 1}};
    const uint32_t base = static_cast<uint32_t>(m.positions.size());
    for (int k = 0; k < 4; ++k) {
      m.positions.push_back(corners[k]);
      m.normals.emplace_back(0.0f, 0.0f, 1.0f);
      m.uvs.push_back(uvs[k]);
      m.joints.emplace_back(0, 0, 0, 0);
      m.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
      m.tangents.emplace_back(q == 0 ? 1.0f : -1.0f, 0.0f, 0.0f, q == 0 ? 1.0f : -1.0f);
    }
    m.indices.insert(m.indices.end(), {base, base + 3, base + 2, base, base + 2, base + 1});
  }
  m.tangent_source = TangentSource::kFile;
  m.submeshes.push_back({"quads", 0, static_cast<uint32_t>(m.indices.size()), 0, {}});
  SourceImage normals;
  normals.name = "normals";
  normals.pixels.width = 2;
  normals.pixels.height = 1;
  for (const auto& t : kNormalTexels)
    normals.pixels.rgba.insert(normals.pixels.rgba.end(), t, t + 4);
  c.images = {normals};
  Material look;
  look.name = "bumpy";
  look.base_color = glm::vec4(kBaseColor, 1.0f);
  look.metallic_factor = 0.0f;
  look.roughness_factor = kRoughness;
  look.normal_texture.image = 0;
  look.normal_texture.sampler.mag_filter = TextureFilter::kNearest;
  look.normal_texture.sampler.min_filter = TextureFilter::kNearest;
  look.normal_texture.sampler.wrap_s = TextureWrap::kClampToEdge;
  look.normal_texture.sampler.wrap_t = TextureWrap::kClampToEdge;
  look.normal_scale = kNormalScale;
  c.materials = {look};
  Clip clip;
  clip.name = "still";
  clip.joints.resize(1);
  clip.joints[0].rotation.times = {0.0f, 1.0f};
  clip.joints[0].rotation.values = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  updateClipRange(clip);
  c.clips.push_back(std::move(clip));
  return c;
}

// The quads written as glTF (with TANGENT, or with it removed from the file), read back and baked.
Package importedPackage(bool with_tangents) {
  const auto dir =
      test::makeTempDir(with_tangents ? "normal-map-tangents" : "normal-map-generated");
  const std::string path = (dir / "quads.gltf").string();
  EXPECT_TRUE(writeGltf(normalMappedQuads(), path).ok());
  if (!with_tangents) {
    nlohmann::json j = nlohmann::json::parse(test::readFile(path));
    for (nlohmann::json& primitive : j["meshes"][0]["primitives"]) {
      EXPECT_EQ(primitive["attributes"].erase("TANGENT"), 1u);
    }
    test::writeFile(path, j.dump());
  }
  Result<Character> character = importGltf(path);
  EXPECT_TRUE(character.ok()) << character.status().toString();
  std::filesystem::remove_all(dir);
  if (!character.ok()) return {};
  EXPECT_EQ(character->mesh.tangent_source,
            with_tangents ? TangentSource::kFile : TangentSource::kGenerated);
  BakeOptions bake;
  bake.threads = 1;
  return bakeCharacter(*character, bake).value();
}

const Package& package(bool with_tangents) {
  static const Package from_file = importedPackage(true);
  static const Package generated = importedPackage(false);
  return with_tangents ? from_file : generated;
}

FrameView frontView() {
  return lookAtView(glm::vec3(0.3f, 1.4f, 5.0f), glm::vec3(0.0f, 1.0f, 0.0f), 0.6f,
                    static_cast<float>(kWidth) / kHeight, 0.5f, 20.0f);
}

// The colour docs/shaders.md gives at world point `point` of quad `quad` with texture coordinate
// u: the normal texture's texel there, scaled in x and y, turned into the world by the quad's
// own tangent frame (T = +x, w = +1 on quad 0; T = -x, w = -1 on quad 1; B = cross(N, T) w).
glm::ivec3 expectedColour(const glm::dvec3& point, int quad, double u, bool bent) {
  const FrameView view = frontView();
  const uint8_t* texel = kNormalTexels[u < 0.5 ? 0 : 1];
  glm::dvec3 t_space(texel[0] / 255.0 * 2.0 - 1.0, texel[1] / 255.0 * 2.0 - 1.0,
                     texel[2] / 255.0 * 2.0 - 1.0);
  t_space = glm::normalize(t_space * glm::dvec3(kNormalScale, kNormalScale, 1.0));
  const glm::dvec3 n(0.0, 0.0, 1.0);
  const glm::dvec3 t(quad == 0 ? 1.0 : -1.0, 0.0, 0.0);
  const double w = quad == 0 ? 1.0 : -1.0;
  const glm::dvec3 b = glm::cross(n, t) * w;
  test::PbrPoint p;
  p.base_color = glm::dvec3(kBaseColor);
  p.metallic = 0.0;
  p.roughness = kRoughness;
  p.normal = bent ? glm::normalize(t * t_space.x + b * t_space.y + n * t_space.z) : n;
  p.view = glm::normalize(glm::dvec3(view.eye) - point);
  return test::encodedColour(test::shadePbr(p, view));
}

struct PathCase {
  RenderPath path;
  int gles_major;
  bool with_tangents;
};
std::string caseName(const ::testing::TestParamInfo<PathCase>& info) {
  return test::pathOnEsName(info.param.path, info.param.gles_major) +
         (info.param.with_tangents ? "FileTangents" : "GeneratedTangents");
}

class NormalMap : public ::testing::TestWithParam<PathCase> {};

TEST_P(NormalMap, TheTextureBendsTheShadingAsTheFormulaSays) {
  DeviceDesc desc;
  desc.width = kWidth;
  desc.height = kHeight;
  desc.gles_major = GetParam().gles_major;
  if (GetParam().path == RenderPath::kGpu) desc.gles_minor = 1;
  std::unique_ptr<Device> device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  if (GetParam().path == RenderPath::kGpu) {
    THRONG_REQUIRE(device->caps().compute, "no ES 3.1 compute on " + device->caps().version);
  }
  const Package& p = package(GetParam().with_tangents);
  ASSERT_FALSE(p.lods.empty());
  CrowdRendererDesc rd;
  rd.path = GetParam().path;
  rd.fixed_lod = 0;
  CrowdRenderer renderer(*device, p, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const Placement placements[] = {Placement{}};
  const AgentPlayback playback[1];
  const FrameView view = frontView();
  device->beginFrame(kClear);
  ASSERT_TRUE(renderer.draw(view, CrowdFrame{placements, playback}).ok())
      << renderer.status().toString();
  device->finish();
  Result<Image> image = device->readPixels();
  ASSERT_TRUE(image.ok());

  // The quads as the package holds them, for where each pixel's ray meets them.
  const std::vector<JointRows> palette(1, packRows(glm::mat4(1.0f)));
  const test::WorldMesh meshes[] = {test::skinToWorld(p.lods[0].mesh, palette)};
  int checked[2] = {0, 0}, bad = 0, worst = 0, weakest_effect = 255;
  std::string first_bad;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const test::PixelRay ray = test::pixelRay(view.view_projection, x, y, kWidth, kHeight);
      const std::optional<test::SurfaceHit> hit =
          test::castRay(meshes, ray.origin, ray.direction, true);
      if (!hit) continue;
      // Quad and u from the world point (the test's layout), away from edges and the texel
      // boundary, where a pixel may show either side.
      const int quad = hit->point.x < 0.0 ? 0 : 1;
      const double x_in = hit->point.x - (2.4 * quad - 2.2);
      const double u = quad == 0 ? x_in / 2.0 : 1.0 - x_in / 2.0;
      if (x_in < 0.08 || x_in > 1.92 || std::abs(u - 0.5) < 0.04 || hit->point.y < 0.08 ||
          hit->point.y > 1.92)
        continue;
      const glm::ivec3 want = expectedColour(hit->point, quad, u, true);
      const glm::ivec3 flat = expectedColour(hit->point, quad, u, false);
      const uint8_t* px = &image->rgba[(static_cast<size_t>(y) * kWidth + x) * 4];
      const glm::ivec3 got(px[0], px[1], px[2]);
      const glm::ivec3 d = glm::abs(got - want);
      const int error = std::max({d.x, d.y, d.z});
      const glm::ivec3 e = glm::abs(want - flat);
      weakest_effect = std::min(weakest_effect, std::max({e.x, e.y, e.z}));
      ++checked[quad];
      worst = std::max(worst, error);
      if (error > kTolerance && bad++ == 0) {
        first_bad = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") quad " +
                    std::to_string(quad) + " u " + std::to_string(u) + ": got (" +
                    std::to_string(got.x) + ", " + std::to_string(got.y) + ", " +
                    std::to_string(got.z) + "), expected (" + std::to_string(want.x) + ", " +
                    std::to_string(want.y) + ", " + std::to_string(want.z) + "), flat (" +
                    std::to_string(flat.x) + ", " + std::to_string(flat.y) + ", " +
                    std::to_string(flat.z) + ")";
      }
    }
  }
  std::printf("  %d + %d pixels checked, worst %d; the texture moves them by at least %d\n",
              checked[0], checked[1], worst, weakest_effect);
  EXPECT_GT(checked[0], 300);
  EXPECT_GT(checked[1], 300);
  EXPECT_GT(weakest_effect, kMinimumEffect);
  EXPECT_EQ(bad, 0) << bad << " pixels beyond " << kTolerance << "; first " << first_bad;
}

INSTANTIATE_TEST_SUITE_P(Paths, NormalMap,
                         ::testing::Values(PathCase{RenderPath::kMerged, 2, true},
                                           PathCase{RenderPath::kMerged, 2, false},
                                           PathCase{RenderPath::kInstanced, 3, true},
                                           PathCase{RenderPath::kInstanced, 3, false},
                                           PathCase{RenderPath::kPerCharacter, 3, false},
                                           PathCase{RenderPath::kGpu, 3, false}),
                         caseName);

}  // namespace normal_map_test
}  // namespace throng::render
