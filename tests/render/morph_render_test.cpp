// Morph animation on the GPU paths (docs/morph.md): the instanced path's vertices of a VAT
// creature and of a skinned character with target deltas, captured by transform feedback, against
// the CPU reference (FrameMorphJob then SkinJob, placed); the gpu path's picture against the
// instanced path's; the merged paths' refusals.
#include <array>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "render/instanced_renderer.h"
#include "render/test_hooks.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/crowd.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/frame_view.h"

namespace throng {
namespace {

using nlohmann::json;
using render::Instance;
using render::InstancedRenderer;
using render::InstancedRendererOptions;
using render::PalettePassMode;

// Float32 textures and the same arithmetic: what is left is the order of float operations and
// the records' quantised placement (relative to the character's size).
constexpr float kPositionTolerance = 1e-4f;
constexpr float kNormalTolerance = 1e-3f;

Package bakeFile(const std::string& path) {
  Result<Character> c = importGltf(path);
  EXPECT_TRUE(c.ok()) << c.status().toString();
  if (!c.ok()) return {};
  BakeOptions options;
  options.source = path;
  Result<Package> p = bakeCharacter(*c, options);
  EXPECT_TRUE(p.ok()) << p.status().toString();
  return p.ok() ? std::move(p).value() : Package{};
}

// A skinned two-bone quad whose upper edge two targets raise and push while the child joint
// turns: baked as target deltas.
std::string writeSkinnedMorph(const std::filesystem::path& dir) {
  test::TwoBoneFile file;
  const int up = file.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0.5f, 0.5f, 0}, "VEC3");
  const int push = file.gltf.addFloats({0, 0, 0.2f, 0, 0, 0.1f, 0, 0, 0.3f, 0, 0, 0}, "VEC3");
  file.primitive()["targets"] = json::array({{{"POSITION", up}}, {{"POSITION", push}}});
  test::blendUpperEdge(file);
  test::addBendAnimation(file, {0.0f, 0.5f, 1.0f, 0.25f});
  return file.gltf.write(dir, "bend.gltf");
}

// Instances at every frame pair of the texture, mid-frame blends and cross-fades among them
// (randomInstances), plus one explicit cross-fade between the first and the last frames.
std::vector<Instance> morphInstances(const Package& package) {
  std::vector<Instance> instances = test::randomInstances(package, 24, 5);
  Instance fade;
  fade.placement = {glm::vec3(1.0f, 0.0f, -2.0f), 1.5707964f, 1.5f};
  const uint32_t last = package.animation.frame_count - 1;
  fade.frames.primary = {0, last > 0 ? 1u : 0u, 0.4f};
  fade.frames.secondary = {last, last, 0.6f};
  fade.frames.fade = 0.5f;
  instances.push_back(fade);
  return instances;
}

// The instanced path's capture against FrameMorphJob + SkinJob, with and without the palette
// pass, on every LOD.
void expectInstancedMatchesCpu(const Package& package, const char* what) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const std::vector<Instance> instances = morphInstances(package);
  for (const PalettePassMode mode : {PalettePassMode::kOff, PalettePassMode::kOn}) {
    InstancedRendererOptions options;
    options.palette_pass = mode;
    auto renderer = InstancedRenderer::create(*device, package, options);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    for (int lod = 0; lod < (*renderer)->lodCount(); ++lod) {
      const test::SkinningError e = test::compareWithCpu(**renderer, package, instances, lod);
      std::printf("  %s, LOD %d, palette pass %s: position error %.3g, normal error %.3g\n", what,
                  lod, mode == PalettePassMode::kOn ? "on" : "off", static_cast<double>(e.position),
                  static_cast<double>(e.normal));
      EXPECT_LT(e.position, kPositionTolerance) << what << " LOD " << lod;
      EXPECT_LT(e.normal, kNormalTolerance) << what << " LOD " << lod;
    }
  }
}

// The capture must see the morph: the same instance at two frames moves the vertices (else a
// shader that ignores the texture would pass against a reference that ignores it too).
void expectFramesDiffer(const Package& package) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  auto renderer = InstancedRenderer::create(*device, package);
  ASSERT_TRUE(renderer.ok());
  const uint32_t n = (*renderer)->vertexCount(0);
  float moved = 0.0f;
  std::vector<glm::vec3> first(n), other(n), normals(n);
  Instance a;
  ASSERT_TRUE((*renderer)->captureSkinnedVertices({&a, 1}, 0, first, normals).ok());
  for (uint32_t f = 1; f < package.animation.frame_count; ++f) {
    Instance b;
    b.frames.primary = {f, f, 0.0f};
    b.frames.secondary = b.frames.primary;
    ASSERT_TRUE((*renderer)->captureSkinnedVertices({&b, 1}, 0, other, normals).ok());
    for (uint32_t v = 0; v < n; ++v) moved = std::max(moved, glm::length(other[v] - first[v]));
  }
  EXPECT_GT(moved, 1e-3f);
}

TEST(MorphRender, VatCreatureOnTheInstancedPathMatchesFrameMorphJob) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string());
  ASSERT_EQ(package.morph.kind, MorphBakeKind::kVertexFrames);
  expectInstancedMatchesCpu(package, "AnimatedMorphCube (VAT)");
  expectFramesDiffer(package);
}

TEST(MorphRender, MorphStressTestOnTheInstancedPathMatchesFrameMorphJob) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/MorphStressTest/MorphStressTest.glb").string());
  ASSERT_NE(package.morph.kind, MorphBakeKind::kNone);
  expectInstancedMatchesCpu(package, "MorphStressTest");
}

// LODs: each holds its own vertices' rows (buildLodChain then bakeMorphAnimation, as `throng bake
// --lods` does); every LOD's capture against the reference.
TEST(MorphRender, EveryLodOfAMorphCharacterMatchesFrameMorphJob) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  const std::string path =
      test::assetPath("feature-tests/MorphStressTest/MorphStressTest.glb").string();
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok());
  Package package = bakeFile(path);
  Result<std::vector<MeshLod>> lods = buildLodChain(*c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  ASSERT_GT(lods->size(), 1u);
  package.lods = std::move(lods).value();
  ASSERT_TRUE(bakeMorphAnimation(*c, package, 4096).ok());
  ASSERT_TRUE(validatePackage(package, path).ok());
  expectInstancedMatchesCpu(package, "MorphStressTest with LODs");
}

TEST(MorphRender, SkinnedTargetDeltasOnTheInstancedPathMatchFrameMorphJobThenSkinJob) {
  const std::filesystem::path dir = test::makeTempDir("morph-render");
  const Package package = bakeFile(writeSkinnedMorph(dir));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(package.morph.kind, MorphBakeKind::kTargetDeltas);
  ASSERT_EQ(package.morph.targets.size(), 2u);
  expectInstancedMatchesCpu(package, "skinned quad (target deltas)");
  expectFramesDiffer(package);
}

// Half-float textures: within the bake's reported bounds (the palette's and the morph's).
TEST(MorphRender, HalfFloatVatStaysWithinTheReportedError) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const std::string path =
      test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string();
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok());
  BakeOptions options;
  options.format = TexelFormat::kRgba16F;
  Result<Package> p = bakeCharacter(*c, options);
  ASSERT_TRUE(p.ok());
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  auto renderer = InstancedRenderer::create(*device, *p);
  ASSERT_TRUE(renderer.ok());
  // The reference reads the same half texels, widened exactly: only float order remains.
  const test::SkinningError e = test::compareWithCpu(**renderer, *p, morphInstances(*p));
  EXPECT_LT(e.position, kPositionTolerance);
}

// The gpu path (compute playback, indirect draws from the same vertex shader) draws a herd of
// VAT creatures as the instanced path does, shadow map (the depth pass) included, and the
// creatures cast shadows on the ground.
TEST(MorphRender, TheGpuPathDrawsTheSameHerdAndShadowsAsTheInstancedPath) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string());
  constexpr int kSize = 96;
  std::string skip;
  auto device = test::makeEs31Device(&skip, kSize, kSize);
  THRONG_REQUIRE(skip.empty(), skip);
  ASSERT_NE(device, nullptr);
  const ClipSet clips = clipSetByName(package.clips).value();  // one clip: every state plays it
  // Spaced and framed by the creature's size, whatever its units.
  const float size = computeBounds(package.lods[0].mesh.positions).largestExtent();
  const render::FrameView view =
      render::lookAtView(size * glm::vec3(0.0f, 5.0f, 6.0f), size * glm::vec3(0.0f, 0.0f, -3.0f),
                         0.9f, 1.0f, 0.05f * size, 100.0f * size);
  const glm::vec4 clear(0.1f, 0.1f, 0.12f, 1.0f);
  // The same herd (same seeds) drawn by a renderer of `path` with `shadows`.
  auto draw = [&](render::RenderPath path, render::ShadowMode shadows) {
    render::CrowdRendererDesc desc;
    desc.path = path;
    desc.shadows = shadows;
    desc.ground.grid = true;
    render::CrowdRenderer renderer(*device, package, desc);
    EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
    Crowd crowd(package.clips, clips);
    std::mt19937 random(3);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int i = 0; i < 16; ++i) {
      Placement p;
      p.position = 2.0f * size *
                   glm::vec3(static_cast<float>(i % 4) - 1.5f, 0.0f, -static_cast<float>(i / 4));
      p.heading = unit(random) * 6.0f;
      crowd.addAgent(p, unit(random));
    }
    for (int t = 0; t < 12; ++t) renderer.update(crowd, 1.0f / 30.0f);
    device->beginFrame(clear);
    EXPECT_TRUE(renderer.draw(view, crowd).ok()) << renderer.status().toString();
    device->finish();
    return device->readPixels().value();
  };
  const render::Image instanced = draw(render::RenderPath::kInstanced, render::ShadowMode::kMap);
  const render::Image gpu = draw(render::RenderPath::kGpu, render::ShadowMode::kMap);
  const render::Image unshadowed = draw(render::RenderPath::kInstanced, render::ShadowMode::kOff);
  constexpr int kTolerance = 12;
  const render::ImageDifference d = render::compareImages(instanced, gpu, kTolerance);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kSize * kSize), 0.01);
  int darker = 0;
  for (size_t px = 0; px < gpu.rgba.size(); px += 4)
    darker += unshadowed.rgba[px + 1] - gpu.rgba[px + 1] > kTolerance;
  EXPECT_GT(darker, kSize * kSize / 200) << "the creatures must cast shadows";
  if (const char* out = std::getenv("THRONG_TEST_IMAGES")) {
    ASSERT_TRUE(render::writePng(gpu, std::string(out) + "/morph_gpu.png").ok());
    ASSERT_TRUE(render::writePng(instanced, std::string(out) + "/morph_instanced.png").ok());
    ASSERT_TRUE(render::writePng(unshadowed, std::string(out) + "/morph_unshadowed.png").ok());
  }
}

// A morph texture over the device's size limit is refused before upload, naming the LOD.
TEST(MorphRender, AMorphTextureLargerThanTheDeviceAllowsIsRefused) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string());
  ASSERT_GT(package.morph.lods[0].width, 64u);
  render::DeviceDesc desc;
  render::DeviceTestHooks hooks;
  hooks.caps.max_texture_size = 64;  // the animation texture is laid out again to fit; the VAT not
  desc.test_hooks = &hooks;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  auto renderer = InstancedRenderer::create(*device, package);
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(renderer.status().message().find("instanced renderer: LOD 0's morph texture (vertex "
                                             "frames) needs "),
            std::string::npos)
      << renderer.status().message();
  EXPECT_NE(renderer.status().message().find("over the device's GL_MAX_TEXTURE_SIZE 64"),
            std::string::npos);
}

// The merged and per-character paths keep palettes in uniforms: a morph package is refused with
// the reason, and on a device without vertex texture fetch the limit is named.
TEST(MorphRender, MergedPathsRefuseMorphAnimationNamingTheLimit) {
  const std::filesystem::path dir = test::makeTempDir("morph-render");
  const Package package = bakeFile(writeSkinnedMorph(dir));
  std::filesystem::remove_all(dir);
  ASSERT_NE(package.morph.kind, MorphBakeKind::kNone);
  {
    auto device = test::makeTestDevice();
    ASSERT_NE(device, nullptr);
    for (const render::RenderPath path :
         {render::RenderPath::kMerged, render::RenderPath::kPerCharacter}) {
      render::CrowdRendererDesc desc;
      desc.path = path;
      render::CrowdRenderer renderer(*device, package, desc);
      ASSERT_FALSE(renderer.ok());
      EXPECT_EQ(renderer.status().code(), ErrorCode::kUnsupported);
      EXPECT_NE(renderer.status().message().find("animates its vertices (target deltas), which "
                                                 "this path does not draw yet"),
                std::string::npos)
          << renderer.status().message();
    }
  }
  render::DeviceDesc desc;
  render::DeviceTestHooks hooks;
  hooks.caps.max_vertex_texture_image_units = 0;
  desc.test_hooks = &hooks;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  // Auto (no vertex texture fetch: the per-character path on this ES 3 device) and merged.
  for (const auto& [path, name] : {std::pair{render::RenderPath::kAuto, "per-character path: "},
                                   std::pair{render::RenderPath::kMerged, "merged path: "}}) {
    render::CrowdRendererDesc renderer_desc;
    renderer_desc.path = path;
    render::CrowdRenderer renderer(*device, package, renderer_desc);
    ASSERT_FALSE(renderer.ok());
    EXPECT_EQ(renderer.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(renderer.status().message().find(
                  std::string(name) + package.source +
                  " animates its vertices (target deltas), which needs vertex texture fetch; the "
                  "device has none (GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS 0)"),
              std::string::npos)
        << renderer.status().message();
  }
}

}  // namespace
}  // namespace throng
