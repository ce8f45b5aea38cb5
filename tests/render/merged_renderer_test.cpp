// Merged-batch renderer on a real ES 2.0 context (Mesa): budgets, batching, and images compared
// with the CPU reference.
#include <cmath>
#include <cstdio>
#include <set>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "offline/lod_fixture.h"
#include "render/cpu_reference.h"
#include "render/gl_check.h"
#include "render/merged_path.h"
#include "render/test_hooks.h"
#include "support/test_support.h"
#include "throng/offline/lod.h"

namespace throng::render {
namespace {

// Merged and reference images may differ only where rasterisation of the two vertex streams
// rounds differently (triangle edges): at most this share of pixels by more than
// kMergedChannelTolerance.
constexpr int kMergedChannelTolerance = 8;
constexpr double kMergedMaxBadPixelShare = 0.003;

std::unique_ptr<Device> makeEs2Device(int max_uniform_vectors = 0) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  if (max_uniform_vectors > 0) hooks.caps.max_vertex_uniform_vectors = max_uniform_vectors;
  test::useGlesVersion(2);
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  EXPECT_TRUE(device.ok()) << device.status().toString();
  if (!device.ok()) return nullptr;
  EXPECT_EQ((*device)->caps().gles_major, 2) << (*device)->caps().version;
  return std::move(device).value();
}

struct MergedTestScene {
  Character character = test::makeTubeCharacter(12, 12);
  std::vector<MeshLod> lods;
  std::vector<BakedClip> baked_clips;
  AnimationTexture texture;
  std::vector<Placement> placements;
  std::vector<AgentPlayback> agents;
  std::vector<InstanceFrames> frames;
  glm::vec3 camera{0.0f, 6.0f, 40.0f};
  glm::mat4 view_projection{1.0f};

  // `rows` x `columns` characters facing the camera, spread over the LOD distances.
  MergedTestScene(int rows, int columns, float depth_step) {
    LodChainOptions options = defaultLodChainOptions();
    options.levels[1].joint_count = 9;
    options.levels[2].joint_count = 6;
    options.levels[3].joint_count = 4;
    for (size_t l = 1; l < options.levels.size(); ++l) options.levels[l].max_error = 1.0f;
    lods = std::move(buildLodChain(character, options).value());
    EXPECT_EQ(lods.size(), 4u);
    // LOD 0 up to 48 units, 1 up to 84, 2 up to 144 (the tube is 12 units tall): every LOD in
    // a small scene, whatever the screen-space distances are.
    lods[0].max_distance = 48.0f;
    lods[1].max_distance = 84.0f;
    lods[2].max_distance = 144.0f;
    texture = test::bakeForTest(character, 30.0f, baked_clips);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        Placement p;
        p.position =
            glm::vec3((static_cast<float>(c) - 0.5f * static_cast<float>(columns - 1)) * 3.0f, 0.0f,
                      -static_cast<float>(r) * depth_step);
        p.heading = 0.3f * static_cast<float>(c);
        placements.push_back(p);
        AgentPlayback a;
        a.time = static_cast<float>((r * columns + c) % 30) / 30.0f;  // whole baked frames
        agents.push_back(a);
      }
    }
    frames.resize(agents.size());
    EXPECT_TRUE((PlaybackJob{baked_clips, agents, frames}.run()));
    const glm::mat4 view = glm::lookAt(camera, glm::vec3(0.0f, 6.0f, 0.0f), glm::vec3(0, 1, 0));
    view_projection = glm::perspective(0.6f, 1.0f, 1.0f, 2000.0f) * view;
  }
  FrameView view() const {
    FrameView out;
    out.view_projection = view_projection;
    out.eye = camera;
    return out;
  }
  MergedScene merged() const {
    return {&character.skeleton, character.clips, baked_clips, &texture, lods};
  }
};

TEST(MergedRenderer, ShaderUniformsAreReadFromTheProgram) {
  auto device = makeEs2Device();
  ASSERT_NE(device, nullptr);
  MergedTestScene scene(1, 1, 0.0f);
  auto renderer = MergedBatchRenderer::create(*device, scene.lods, 13);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  // Besides the palettes and the per-character vectors, merged.vert's stage declares a mat4 (4
  // vectors); the fragment stage's uniforms do not count against the vertex stage's budget.
  EXPECT_EQ((*renderer)->lodInfo(0).other_uniform_vectors, 4);
}

TEST(MergedRenderer, BudgetsOf128And256AndTheDevicesOwn) {
  MergedTestScene scene(1, 1, 0.0f);
  for (int budget : {128, 256, 0}) {
    auto device = makeEs2Device(budget);
    ASSERT_NE(device, nullptr);
    const int limit = device->caps().max_vertex_uniform_vectors;
    if (budget > 0) {
      EXPECT_EQ(limit, budget);
    }
    auto renderer = MergedBatchRenderer::create(*device, scene.lods, 13);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    for (int i = 0; i < (*renderer)->lodCount(); ++i) {
      const MergedLodInfo& info = (*renderer)->lodInfo(i);
      const int k = info.characters_per_batch;
      ASSERT_GE(k, 1);
      // K is the largest count that fits both limits.
      const int per_character = info.joints * kVec4PerJoint + kVec4PerCharacter;
      EXPECT_LE(k * per_character + info.other_uniform_vectors, limit);
      EXPECT_LE(static_cast<size_t>(k) * info.vertices_per_character, kMaxBatchVertices);
      EXPECT_TRUE((k + 1) * per_character + info.other_uniform_vectors > limit ||
                  (k + 1) * info.vertices_per_character > kMaxBatchVertices)
          << "budget " << limit << " LOD " << i;
    }
    if (budget == 128) {
      EXPECT_EQ((*renderer)->lodInfo(0).characters_per_batch, (128 - 4) / (13 * 3 + 1));
      EXPECT_EQ((*renderer)->lodInfo(3).characters_per_batch, (128 - 4) / (4 * 3 + 1));
    }
    EXPECT_TRUE(checkGl("create").ok());
  }
}

// The 2-vec4 joint encoding fits at least 1.4x the characters of the 3x4 rows in one draw: on a
// typical ES 2.0 phone's 256 vectors for every LOD (13, 9, 6 and 4 joints), and on the device's
// own budget (llvmpipe: printed) for every LOD the 16-bit index limit leaves alone.
TEST(MergedRenderer, QuatEncodingFitsAtLeast1Point4TimesTheCharacters) {
  MergedTestScene scene(1, 1, 0.0f);
  for (int budget : {256, 0}) {
    auto device = makeEs2Device(budget);
    ASSERT_NE(device, nullptr);
    MergedBatchDesc rows_desc, quat_desc;
    quat_desc.joint_encoding = JointEncoding::kQuatScale;
    auto rows = MergedBatchRenderer::create(*device, scene.lods, 13, rows_desc);
    auto quat = MergedBatchRenderer::create(*device, scene.lods, 13, quat_desc);
    ASSERT_TRUE(rows.ok() && quat.ok());
    EXPECT_EQ((*quat)->jointEncoding(), JointEncoding::kQuatScale);
    for (int i = 0; i < (*rows)->lodCount(); ++i) {
      const MergedLodInfo& r = (*rows)->lodInfo(i);
      const MergedLodInfo& q = (*quat)->lodInfo(i);
      EXPECT_EQ(r.encoding, JointEncoding::kRows);
      EXPECT_EQ(q.encoding, JointEncoding::kQuatScale);
      EXPECT_EQ(q.other_uniform_vectors, r.other_uniform_vectors);
      const int limit = device->caps().max_vertex_uniform_vectors;
      std::printf("  budget %d, LOD %d (%d joints): %d characters per draw (3 vec4), %d (2 vec4)\n",
                  limit, i, r.joints, r.characters_per_batch, q.characters_per_batch);
      EXPECT_LE(
          q.characters_per_batch * (2 * q.joints + kVec4PerCharacter) + q.other_uniform_vectors,
          limit);
      const int by_vertices = static_cast<int>(kMaxBatchVertices / q.vertices_per_character);
      if (q.characters_per_batch < by_vertices) {
        EXPECT_GE(q.characters_per_batch, 1.4 * r.characters_per_batch) << "LOD " << i;
      }
    }
    if (budget == 256) {
      EXPECT_EQ((*rows)->lodInfo(0).characters_per_batch, (256 - 4) / (13 * 3 + 1));  // 6
      EXPECT_EQ((*quat)->lodInfo(0).characters_per_batch, (256 - 4) / (13 * 2 + 1));  // 9
    }
  }
}

TEST(MergedRenderer, TooManyJointsFallsBackOrFailsClearly) {
  MergedTestScene scene(1, 1, 0.0f);
  // 13 joints need 39 + 1 vectors: with 43 - 4 = 39 free only the 9-, 6- and 4-joint LODs fit.
  auto device = makeEs2Device(43);
  ASSERT_NE(device, nullptr);
  auto renderer = MergedBatchRenderer::create(*device, scene.lods, 13);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  EXPECT_EQ((*renderer)->lodInfo(0).drawn_lod, 1);
  EXPECT_EQ((*renderer)->lodInfo(0).joints, 9);
  EXPECT_EQ((*renderer)->paletteJoints(0).size(), 9u);
  // The fallback is said aloud: which LOD, the budget, the LOD drawn and its error.
  EXPECT_FLOAT_EQ((*renderer)->lodInfo(0).error, scene.lods[1].max_error);
  EXPECT_EQ((*renderer)->lodInfo(1).error, scene.lods[1].max_error);
  ASSERT_EQ((*renderer)->warnings().size(), 1u);
  const std::string& warning = (*renderer)->warnings()[0].message;
  EXPECT_NE(warning.find("LOD 0 (13 joints) does not fit 43 uniform vectors; drawing LOD 1 (9 "
                         "joints)"),
            std::string::npos)
      << warning;
  EXPECT_NE(warning.find("% of the height"), std::string::npos) << warning;
  // A strict error cap below LOD 1's error fails; one above it is met.
  MergedBatchDesc capped;
  capped.max_fallback_error = 0.5f * scene.lods[1].max_error;
  auto over = MergedBatchRenderer::create(*device, scene.lods, 13, capped);
  EXPECT_EQ(over.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(over.status().message().find("over the cap"), std::string::npos)
      << over.status().message();
  EXPECT_NE(over.status().message().find("LOD 1"), std::string::npos);
  capped.max_fallback_error = 2.0f * scene.lods[1].max_error;
  EXPECT_TRUE(MergedBatchRenderer::create(*device, scene.lods, 13, capped).ok());
  // With room for every LOD there is nothing to say.
  auto roomy = makeEs2Device(256);
  auto fits = MergedBatchRenderer::create(*roomy, scene.lods, 13);
  ASSERT_TRUE(fits.ok());
  EXPECT_TRUE((*fits)->warnings().empty());
  // Nothing to draw is a caller's mistake, said as such.
  const auto no_lods = MergedBatchRenderer::create(*roomy, {}, 13);
  EXPECT_EQ(no_lods.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(no_lods.status().message(), "merged batch: no LODs");
  MergedBatchDesc strict;
  strict.fall_back_to_fewer_joints = false;
  auto failed = MergedBatchRenderer::create(*device, scene.lods, 13, strict);
  EXPECT_EQ(failed.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(failed.status().message().find("LOD 0"), std::string::npos);
  // Nothing fits at all.
  auto tiny = makeEs2Device(0);
  MergedBatchDesc none;
  none.max_vertex_uniform_vectors = 10;
  EXPECT_EQ(MergedBatchRenderer::create(*tiny, scene.lods, 13, none).status().code(),
            ErrorCode::kLimitExceeded);
}

TEST(MergedRenderer, DrawsKCharactersPerCall) {
  auto device = makeEs2Device(256);
  ASSERT_NE(device, nullptr);
  MergedTestScene scene(1, 20, 0.0f);
  scene.lods.resize(1);  // every character at LOD 0
  scene.lods[0].max_distance = 0.0f;
  auto renderer = MergedBatchRenderer::create(*device, scene.lods, 13);
  ASSERT_TRUE(renderer.ok());
  const int k = (*renderer)->lodInfo(0).characters_per_batch;
  ASSERT_EQ(k, (256 - (*renderer)->lodInfo(0).other_uniform_vectors) / 40);
  MergedPathScratch scratch;
  device->beginFrame({0, 0, 0, 1});
  const MergedFrameStats stats =
      drawMergedCrowd(**renderer, scene.merged(), PaletteSource::kSkeletonTree, scene.view(),
                      scene.placements, scene.agents, {}, scratch);
  device->finish();
  EXPECT_TRUE(checkGl("draw").ok());
  EXPECT_EQ(stats.characters, 20);
  EXPECT_EQ(stats.draw_calls, (20 + k - 1) / k);
  EXPECT_EQ(stats.batches, stats.draw_calls);
  MergedBatchDesc per_character;
  per_character.max_characters_per_batch = 1;
  auto baseline = MergedBatchRenderer::create(*device, scene.lods, 13, per_character);
  ASSERT_TRUE(baseline.ok());
  device->beginFrame({0, 0, 0, 1});
  EXPECT_EQ(drawMergedCrowd(**baseline, scene.merged(), PaletteSource::kSkeletonTree, scene.view(),
                            scene.placements, scene.agents, {}, scratch)
                .draw_calls,
            20);
}

// The vertex uniform vectors merged.vert declares besides the palettes and tints (asserted by
// ShaderUniformsAreReadFromTheProgram).
constexpr int kMergedShaderUniformVectors = 17;

// The LOD drawn for an agent `distance` units from the eye, worked out from the LOD data alone
// (not from the renderer under test): the distance rule picks the first LOD whose max_distance
// is 0 (none) or at least the distance; a LOD whose palette does not fit the uniform budget
// (3 vectors per joint and a tint per character: (budget - the shader's own) / (3 * joints + 1)
// characters per draw, at least 1) is drawn with the next coarser one that fits.
int expectedDrawnLod(std::span<const MeshLod> lods, int joints, int budget, float distance) {
  size_t lod = 0;
  while (lod + 1 < lods.size() && lods[lod].max_distance != 0.0f &&
         lods[lod].max_distance < distance) {
    ++lod;
  }
  for (; lod < lods.size(); ++lod) {
    const int lod_joints = lods[lod].palette_joints.empty()
                               ? joints
                               : static_cast<int>(lods[lod].palette_joints.size());
    if ((budget - kMergedShaderUniformVectors) / (3 * lod_joints + 1) >= 1)
      return static_cast<int>(lod);
  }
  ADD_FAILURE() << "no LOD fits " << budget << " uniform vectors";
  return static_cast<int>(lods.size()) - 1;
}

// The merged image of both palette sources equals the CPU reference (the test's own shading of
// SkinJob's vertices) of the LODs and palette joints the package data says, at the same poses.
TEST(MergedRenderer, ImagesMatchTheCpuReference) {
  for (int budget : {128, 256}) {
    auto device = makeEs2Device(budget);
    ASSERT_NE(device, nullptr);
    MergedTestScene scene(4, 5, 40.0f);  // rows at 40, 80, 120, 160 units: LODs 0, 1, 2, 3
    auto renderer = MergedBatchRenderer::create(*device, scene.lods, 13);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);

    std::vector<test::ReferenceCharacter> reference;
    std::set<int> lods_seen;
    for (size_t i = 0; i < scene.agents.size(); ++i) {
      const Placement& p = scene.placements[i];
      const int lod =
          expectedDrawnLod(scene.lods, 13, budget, glm::length(p.position - scene.camera));
      lods_seen.insert(lod);
      const MeshLod& drawn = scene.lods[static_cast<size_t>(lod)];
      test::ReferenceCharacter c;
      c.mesh = &drawn.mesh;
      c.palette = test::referencePalette(scene.character.skeleton, &scene.character.clips[0],
                                         scene.agents[i].time, p.position, p.heading, p.scale,
                                         drawn.palette_joints);
      reference.push_back(std::move(c));
    }
    EXPECT_EQ(lods_seen.size(), 4u);
    Result<Image> expected =
        test::drawCpuReference(*device, reference, scene.view_projection, clear);
    ASSERT_TRUE(expected.ok()) << expected.status().toString();

    for (PaletteSource source : {PaletteSource::kSkeletonTree, PaletteSource::kBakedFrames}) {
      MergedPathScratch scratch;
      device->beginFrame(clear);
      drawMergedCrowd(**renderer, scene.merged(), source, scene.view(), scene.placements,
                      scene.agents, scene.frames, scratch);
      device->finish();
      Result<Image> image = device->readPixels();
      ASSERT_TRUE(image.ok());
      const ImageDifference diff = compareImages(*image, *expected, kMergedChannelTolerance);
      const double share =
          static_cast<double>(diff.bad_pixels) / static_cast<double>(image->width * image->height);
      EXPECT_LE(share, kMergedMaxBadPixelShare)
          << "budget " << budget << " source " << static_cast<int>(source) << ": "
          << diff.bad_pixels << " pixels differ by more than " << kMergedChannelTolerance
          << " (max " << diff.max_channel_difference << ")";
      // The characters are on screen: the image is not just the clear colour.
      int lit = 0;
      for (size_t px = 0; px < image->rgba.size(); px += 4) lit += image->rgba[px] > 60;
      EXPECT_GT(lit, 500);
    }
  }
}

}  // namespace
}  // namespace throng::render
