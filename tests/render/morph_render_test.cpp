// Morph animation on the GPU paths (docs/morph.md): the instanced path's vertices of a VAT
// creature and of a skinned character with target deltas, captured by transform feedback, against
// the CPU reference (FrameMorphJob then SkinJob, placed); the gpu path's picture against the
// instanced path's; the merged and per-character paths' pictures (ES 2.0: no transform feedback)
// against the test's reference image of the same vertices; their refusals.
#include <array>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "render/cpu_reference.h"
#include "render/instanced_renderer.h"
#include "render/test_hooks.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/frame_morph.h"
#include "throng/crowd/frame_palette.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/render/camera.h"
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

// A morph texture over the device's size limit is refused before upload, naming the LOD, on the
// instanced and the merged path.
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
  // The merged path (ES 2.0) uploads the same textures, refused alike.
  render::CapsOverride caps;
  caps.max_texture_size = 64;
  auto es2 = test::makeTestDevice(2, 64, caps);
  ASSERT_NE(es2, nullptr);
  render::CrowdRendererDesc merged_desc;
  merged_desc.path = render::RenderPath::kMerged;
  render::CrowdRenderer merged(*es2, package, merged_desc);
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(merged.status().message().find("merged batch: LOD 0's morph texture (vertex frames) "
                                           "needs "),
            std::string::npos)
      << merged.status().message();
}

// The merged and per-character paths' herd (ES 2.0 device, vertex texture fetch) against the
// reference image of the same agents: FrameMorphJob's vertices for each agent's frames (whole
// frames, mid-frame blends, cross-fades), skinned by SkinJob with FramePaletteJob's palette and
// placed, drawn by the test's own shaders (render/cpu_reference.h); the library's shaders take no
// part in it. The reference drawn from the rest shape must differ from it by far more than the
// tolerance: a path that ignored the morph texture would fail.
// The merged paths' pictures against the reference: the same triangles, skinned in float32 by
// the same arithmetic, land on the same pixels (0 differ on llvmpipe); a few edge pixels may
// round the other way elsewhere. Tighter than test::kPathMaxBadPixelShare (which allows for the
// quaternion joint encoding of skinned crowds): a path that drops the mid-frame blend differs in
// 8 to 52 pixels of these herds, and must fail.
constexpr double kMorphMaxBadPixelShare = 0.0001;  // 4 pixels of 200 x 200

// `caps`: the device's capabilities overridden (a device without 32-bit float textures stores the
// morph texture in half floats), `max_bad_share` the share of pixels allowed to differ.
void expectMergedPathsMatchReference(const Package& textured, const char* what,
                                     render::CapsOverride caps = {},
                                     double max_bad_share = kMorphMaxBadPixelShare) {
  constexpr int kSize = 200;
  // The reference draws material factors, not textures (cpu_reference.h): drawn without them.
  Package package = textured;
  for (Material& m : package.materials) {
    m.base_color_texture = m.metallic_roughness_texture = m.normal_texture = m.occlusion_texture =
        m.emissive_texture = TextureRef{};
  }
  auto device = test::makeTestDevice(2, kSize, caps);
  ASSERT_NE(device, nullptr);
  ASSERT_EQ(device->caps().gles_major, 2);
  ASSERT_GT(device->caps().max_vertex_texture_image_units, 0) << "llvmpipe has vertex textures";
  const MeshLod& lod = package.lods[0];
  const float size = computeBounds(lod.mesh.positions).largestExtent();
  const BakedClip& clip = package.clips[0];
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position =
        1.2f * size * glm::vec3(static_cast<float>(i % 3 - 1), 0.0f, -static_cast<float>(i / 3));
    p.heading = 0.7f * static_cast<float>(i);
    p.scale = 0.9f + 0.05f * static_cast<float>(i % 4);
    placements.push_back(p);
    AgentPlayback a;
    // Whole frames, mid-frame blends and (every third agent) a cross-fade from another time.
    a.time = static_cast<float>(i) * 1.37f / clip.fps;
    if (i % 3 == 2) {
      a.previous_time = clip.duration * 0.61f;
      a.fade = 0.45f;
    }
    playback.push_back(a);
  }
  // The reference's meshes: each agent's morphed LOD 0, or the rest shape.
  const size_t n = lod.mesh.vertexCount();
  std::vector<SkinnedMesh> morphed(placements.size(), lod.mesh);
  std::vector<JointRows> palette(package.skeleton.jointCount());
  std::vector<test::ReferenceCharacter> reference, rest;
  for (size_t i = 0; i < placements.size(); ++i) {
    const InstanceFrames frames =
        agentFrames(std::span<const BakedClip>(package.clips), playback[i]);
    FrameMorphJob morph;
    morph.package = &package;
    morph.frames = frames;
    morph.out_positions = morphed[i].positions;
    morphed[i].normals.resize(n);
    morph.out_normals = morphed[i].normals;
    ASSERT_TRUE(morph.run());
    FramePaletteJob blend;
    blend.texture = &package.animation;
    blend.frames = frames;
    blend.palette = palette;
    ASSERT_TRUE(blend.run());
    test::ReferenceCharacter c;
    c.mesh = &morphed[i];
    c.materials = package.materials;
    const glm::mat4 place = placementMatrix(placements[i]);
    const size_t slots = lod.palette_joints.empty() ? palette.size() : lod.palette_joints.size();
    for (size_t s = 0; s < slots; ++s) {
      const JointRows& m = lod.palette_joints.empty() ? palette[s] : palette[lod.palette_joints[s]];
      c.palette.push_back(packRows(place * unpackRows(m)));
    }
    reference.push_back(c);
    c.mesh = &lod.mesh;
    rest.push_back(c);
  }
  // The herd's ground square, as high as the creature: framed tightly so that the morph shows.
  const Bounds mesh_bounds = computeBounds(lod.mesh.positions);
  const Bounds bounds{glm::vec3(-1.7f * size, mesh_bounds.min.y, -2.9f * size),
                      glm::vec3(1.7f * size, mesh_bounds.max.y, 0.5f * size)};
  const render::FrameView view = render::framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  Result<render::Image> expected =
      test::drawCpuReference(*device, reference, view.view_projection, clear);
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  Result<render::Image> unmorphed =
      test::drawCpuReference(*device, rest, view.view_projection, clear);
  ASSERT_TRUE(unmorphed.ok()) << unmorphed.status().toString();
  const double pixels = static_cast<double>(kSize) * kSize;
  const render::ImageDifference moved =
      render::compareImages(*unmorphed, *expected, test::kPathChannelTolerance);
  std::printf("  %s: the rest shape differs from the morphed reference in %lld pixels\n", what,
              static_cast<long long>(moved.bad_pixels));
  // The rest shape would fail the comparison below by far more than the pixels it allows.
  EXPECT_GT(static_cast<double>(moved.bad_pixels) / pixels, 20 * kMorphMaxBadPixelShare)
      << what << ": the morph must show in the picture";
  const char* out = std::getenv("THRONG_TEST_IMAGES");
  for (const render::RenderPath path :
       {render::RenderPath::kMerged, render::RenderPath::kPerCharacter}) {
    SCOPED_TRACE(render::renderPathName(path));
    render::CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 0;  // the reference's mesh
    desc.tint = false;   // materials as authored, as the reference draws them
    render::CrowdRenderer renderer(*device, package, desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    ASSERT_EQ(renderer.path(), path) << renderer.pathReason();
    device->beginFrame(clear);
    ASSERT_TRUE(renderer.draw(view, render::CrowdFrame{placements, playback}).ok())
        << renderer.status().toString();
    device->finish();
    EXPECT_EQ(renderer.stats().visible, placements.size());
    Result<render::Image> image = device->readPixels();
    ASSERT_TRUE(image.ok()) << image.status().toString();
    const render::ImageDifference d =
        render::compareImages(*image, *expected, test::kPathChannelTolerance);
    std::printf(
        "  %s, %s path: %lld pixels differ from the reference by more than %d (largest "
        "%d)\n",
        what, render::renderPathName(path), static_cast<long long>(d.bad_pixels),
        test::kPathChannelTolerance, d.max_channel_difference);
    EXPECT_LE(static_cast<double>(d.bad_pixels) / pixels, max_bad_share) << what;
    if (out != nullptr) {
      const std::string name =
          std::string(out) + "/morph_" + what + "_" + render::renderPathName(path) + ".png";
      EXPECT_TRUE(render::writePng(*image, name).ok());
      EXPECT_TRUE(
          render::writePng(*expected, std::string(out) + "/morph_" + what + "_reference.png").ok());
    }
  }
}

TEST(MorphRender, VatCreatureOnTheMergedPathsMatchesTheReferenceImage) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string());
  ASSERT_EQ(package.morph.kind, MorphBakeKind::kVertexFrames);
  expectMergedPathsMatchReference(package, "AnimatedMorphCube");
}

// ES 2.0 with OES_texture_half_float only: the texture goes up as GL_HALF_FLOAT_OES. Half floats
// hold 11 significant bits (positions within 1/2048 of their magnitude): a few edge pixels move;
// still far fewer than the rest shape's.
TEST(MorphRender, HalfFloatVatOnTheMergedPathsMatchesTheReferenceImage) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb").string());
  render::CapsOverride caps;
  caps.disable_float_textures = true;
  constexpr double kHalfFloatMaxBadPixelShare = 0.001;  // 40 of 40000 pixels
  expectMergedPathsMatchReference(package, "AnimatedMorphCube_half", caps,
                                  kHalfFloatMaxBadPixelShare);
}

TEST(MorphRender, MorphStressTestOnTheMergedPathsMatchesTheReferenceImage) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  const Package package =
      bakeFile(test::assetPath("feature-tests/MorphStressTest/MorphStressTest.glb").string());
  ASSERT_NE(package.morph.kind, MorphBakeKind::kNone);
  expectMergedPathsMatchReference(package, "MorphStressTest");
}

TEST(MorphRender, SkinnedTargetDeltasOnTheMergedPathsMatchTheReferenceImage) {
  const std::filesystem::path dir = test::makeTempDir("morph-render");
  const Package package = bakeFile(writeSkinnedMorph(dir));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(package.morph.kind, MorphBakeKind::kTargetDeltas);
  expectMergedPathsMatchReference(package, "skinned_quad");
}

// Without vertex texture fetch (or float textures) the merged paths cannot read the morph
// texture: a morph package is refused naming what the device lacks (tested through the caps
// override).
TEST(MorphRender, MergedPathsRefuseMorphAnimationNamingTheLimit) {
  const std::filesystem::path dir = test::makeTempDir("morph-render");
  const Package package = bakeFile(writeSkinnedMorph(dir));
  std::filesystem::remove_all(dir);
  ASSERT_NE(package.morph.kind, MorphBakeKind::kNone);
  {
    render::CapsOverride caps;
    caps.max_vertex_texture_image_units = 0;
    auto device = test::makeTestDevice(3, 64, caps);
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
                    " animates its vertices (target deltas), which needs vertex texture fetch; "
                    "the device has none (GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS 0)"),
                std::string::npos)
          << renderer.status().message();
    }
  }
  // An ES 2.0 device with vertex texture fetch but neither float texture extension.
  render::CapsOverride caps;
  caps.disable_float_textures = true;
  caps.disable_half_float_textures = true;
  auto device = test::makeTestDevice(2, 64, caps);
  ASSERT_NE(device, nullptr);
  render::CrowdRendererDesc desc;
  desc.path = render::RenderPath::kMerged;
  render::CrowdRenderer renderer(*device, package, desc);
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(renderer.status().message().find(
                "merged path: " + package.source +
                " animates its vertices (target deltas), which needs float textures; the device "
                "has neither OES_texture_float nor OES_texture_half_float"),
            std::string::npos)
      << renderer.status().message();
}

}  // namespace
}  // namespace throng
