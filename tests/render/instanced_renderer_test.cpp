// Tests of the instanced baked-texture renderer: GPU skinning vs the CPU oracle (transform
// feedback), draw-call counts, texture limits, unsupported devices and bad packages.
#include "render/instanced_renderer.h"
#include "render/test_hooks.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/bake.h"

namespace throng::render {
namespace {

std::unique_ptr<InstancedRenderer> makeRenderer(Device& device, const Package& package) {
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(device, package);
  EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
  return renderer.ok() ? std::move(renderer).value() : nullptr;
}

TEST(InstancedRenderer, TransformFeedbackMatchesCpuSkinnerFloat) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  EXPECT_EQ(renderer->textureFormat(), TexelFormat::kRgba32F);
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const auto instances = test::randomInstances(package, 64, seed);
    const test::SkinningError error = test::compareWithCpu(*renderer, package, instances);
    EXPECT_LT(error.position, test::kSkinPositionTolerance) << "seed " << seed;
    EXPECT_LT(error.normal, test::kSkinNormalTolerance) << "seed " << seed;
  }
}

TEST(InstancedRenderer, TransformFeedbackMatchesCpuSkinnerHalf) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const Package package =
      test::bakeForTest(test::makeChainWithTwoClips(), 30.0f, TexelFormat::kRgba16F);
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  EXPECT_EQ(renderer->textureFormat(), TexelFormat::kRgba16F);
  // Both sides read the same half texels (widened exactly), so the tolerance stays the float one.
  const auto instances = test::randomInstances(package, 128, 7);
  const test::SkinningError error = test::compareWithCpu(*renderer, package, instances);
  EXPECT_LT(error.position, test::kSkinPositionTolerance);
  EXPECT_LT(error.normal, test::kSkinNormalTolerance);
}

TEST(InstancedRenderer, FloatBakeOnAHalfOnlyDeviceIsConverted) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.disable_float_textures = true;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  EXPECT_EQ(renderer->textureFormat(), TexelFormat::kRgba16F);
  // The oracle reads the half-rounded texture: the GPU must match it like for like.
  Package rounded = test::bakeForTest(test::makeChainWithTwoClips(), 30.0f, TexelFormat::kRgba16F);
  const auto instances = test::randomInstances(package, 32, 3);
  const test::SkinningError error = test::compareWithCpu(*renderer, rounded, instances);
  EXPECT_LT(error.position, test::kSkinPositionTolerance);
}

TEST(InstancedRenderer, ExactFramesEqualTheClipSampledAtThatTime) {
  // Independent of FramePaletteJob: frame f of a clip, no blend, no fade, is the pose at f / fps.
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const Character character = test::makeChainWithTwoClips();
  const Package package = test::bakeForTest(character, 24.0f);
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  const uint32_t vertex_count = renderer->vertexCount(0);
  PoseScratch scratch;
  scratch.resize(character.skeleton.jointCount());
  std::vector<JointRows> palette(character.skeleton.jointCount());
  std::vector<glm::vec3> expected(vertex_count), expected_normals(vertex_count);
  for (size_t c = 0; c < package.clips.size(); ++c) {
    const BakedClip& clip = package.clips[c];
    for (uint32_t f = 0; f < clip.frame_count; f += 5) {
      Instance instance;
      instance.frames.primary = {clip.first_frame + f, clip.first_frame + f, 0.0f};
      instance.frames.secondary = instance.frames.primary;
      std::vector<glm::vec3> positions(vertex_count), normals(vertex_count);
      ASSERT_TRUE(renderer
                      ->captureSkinnedVertices(std::span<const Instance>(&instance, 1), 0,
                                               positions, normals)
                      .ok());
      evaluatePalette(character.skeleton, &character.clips[c],
                      character.clips[c].start_time + static_cast<float>(f) / clip.fps, scratch,
                      palette);
      SkinJob skin{character.mesh.positions,
                   character.mesh.normals,
                   character.mesh.joints,
                   character.mesh.weights,
                   palette,
                   expected,
                   expected_normals};
      ASSERT_TRUE(skin.run());
      for (uint32_t v = 0; v < vertex_count; ++v)
        EXPECT_LT(glm::length(positions[v] - expected[v]), 1e-5f)
            << "clip " << clip.name << " frame " << f << " vertex " << v;
    }
  }
}

TEST(InstancedRenderer, TooWideTextureIsLaidOutAgainToFit) {
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());  // 9 texels per frame
  ASSERT_EQ(package.animation.height, 1u);
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.max_texture_size = 64;  // 7 frames per row instead of all 54 in one
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  EXPECT_EQ(renderer->framesPerRow(), 7u);
  EXPECT_EQ(renderer->textureWidth(), 63u);
  EXPECT_EQ(renderer->textureHeight(), (package.animation.frame_count + 6) / 7);
  const auto instances = test::randomInstances(package, 64, 11);
  EXPECT_LT(test::compareWithCpu(*renderer, package, instances).position,
            test::kSkinPositionTolerance);
}

TEST(InstancedRenderer, TextureThatCannotFitIsRefusedWithAClearMessage) {
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    hooks.caps.max_texture_size = 8;  // 2 rows per frame of 3 joints: 108 rows > 8
    auto device = test::makeTestDevice(desc);
    ASSERT_NE(device, nullptr);
    auto renderer = InstancedRenderer::create(*device, package);
    ASSERT_FALSE(renderer.ok());
    EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(renderer.status().message().find("GL_MAX_TEXTURE_SIZE 8"), std::string::npos)
        << renderer.status().message();
  }
  {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    hooks.caps.max_texture_size = 9;  // one frame per row: 54 rows > 9
    auto device = test::makeTestDevice(desc);
    ASSERT_NE(device, nullptr);
    auto renderer = InstancedRenderer::create(*device, package);
    ASSERT_FALSE(renderer.ok());
    EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(renderer.status().message().find("frames"), std::string::npos);
  }
  {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    hooks.caps.max_texture_size = 2;  // narrower than one joint's 3 texels (ES guarantees 64)
    auto device = test::makeTestDevice(desc);
    ASSERT_NE(device, nullptr);
    auto renderer = InstancedRenderer::create(*device, package);
    ASSERT_FALSE(renderer.ok());
    EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(renderer.status().message().find(
                  "animation texture: the device's GL_MAX_TEXTURE_SIZE 2 cannot hold one joint"),
              std::string::npos)
        << renderer.status().message();
  }
}

TEST(InstancedRenderer, OneDrawCallPerLodWhateverTheCrowdSize) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Package package = test::bakeForTest(test::makeChainWithTwoClips());
  package.lods.push_back(package.lods[0]);  // a second LOD (same mesh) is enough to count draws
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  const uint64_t triangles = package.lods[0].mesh.triangleCount();
  FrameView view;
  for (int count : {1, 1000}) {
    const auto instances = test::randomInstances(package, count, 5);
    device->beginFrame({0, 0, 0, 1});
    ASSERT_TRUE(renderer->draw(view, instances).ok());
    EXPECT_EQ(renderer->stats().draw_calls, 1u) << count << " agents";
    EXPECT_EQ(renderer->stats().instances, static_cast<uint32_t>(count));
    EXPECT_EQ(renderer->stats().triangles, triangles * count);
  }
  const auto instances = test::randomInstances(package, 1000, 6);
  const uint32_t split[2] = {400, 600};
  ASSERT_TRUE(renderer->draw(view, instances, split).ok());
  EXPECT_EQ(renderer->stats().draw_calls, 2u);
  const uint32_t only_far[2] = {0, 1000};
  ASSERT_TRUE(renderer->draw(view, instances, only_far).ok());
  EXPECT_EQ(renderer->stats().draw_calls, 1u);
  ASSERT_TRUE(renderer->draw(view, {}).ok());
  EXPECT_EQ(renderer->stats().draw_calls, 0u);
  device->finish();
}

TEST(InstancedRenderer, SecondLodInstancesUseTheirOwnInstanceRecords) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Package package = test::bakeForTest(test::makeChainWithTwoClips());
  package.lods.push_back(package.lods[0]);
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  // Capture LOD 1 after a two-LOD draw: captures start from instance 0 of what they are given.
  const auto instances = test::randomInstances(package, 16, 9);
  const uint32_t split[2] = {8, 8};
  device->beginFrame({0, 0, 0, 1});
  ASSERT_TRUE(renderer->draw(FrameView{}, instances, split).ok());
  EXPECT_LT(test::compareWithCpu(*renderer, package, instances, 1).position,
            test::kSkinPositionTolerance);
}

TEST(InstancedRenderer, BoneReducedLodIndexesSkeletonJointsThroughItsPalette) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Package package = test::bakeForTest(test::makeChainWithTwoClips());
  // LOD 1 keeps joints {0, 2}: slot 0 -> joint 0, slot 1 -> joint 2; "mid" goes to root.
  MeshLod reduced = package.lods[0];
  reduced.palette_joints = {0, 2};
  for (auto& joints : reduced.mesh.joints)
    for (int i = 0; i < 4; ++i) joints[i] = joints[i] == 2 ? 1 : 0;
  package.lods.push_back(reduced);
  auto renderer = makeRenderer(*device, package);
  ASSERT_NE(renderer, nullptr);
  const auto instances = test::randomInstances(package, 16, 13);
  EXPECT_LT(test::compareWithCpu(*renderer, package, instances, 1).position,
            test::kSkinPositionTolerance);
}

TEST(InstancedRenderer, Es2DeviceOrNoInstancingIsUnsupported) {
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.disable_instancing = true;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  auto renderer = InstancedRenderer::create(*device, package);
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kUnsupported);
  device.reset();
  desc = {};
  hooks = {};
  desc.test_hooks = &hooks;
  hooks.caps.max_vertex_texture_image_units = 0;
  device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(InstancedRenderer::create(*device, package).status().code(), ErrorCode::kUnsupported);
  device.reset();
  desc = {};
  hooks = {};
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(InstancedRenderer::create(*device, package).status().code(), ErrorCode::kUnsupported);
}

// The renderer trusts a package: validatePackage, run once when a package is read or baked, is
// the one gate, and it refuses every inconsistency the renderer would trip over.
TEST(InstancedRenderer, InconsistentPackagesFailTheOneValidation) {
  const Package good = test::bakeForTest(test::makeChainWithTwoClips());
  const auto refused = [](const Package& p) {
    return validatePackage(p, "test").code() == ErrorCode::kInvalidData;
  };
  EXPECT_TRUE(validatePackage(good, "test").ok());
  Package bad = good;
  bad.animation.texels32.pop_back();
  EXPECT_TRUE(refused(bad));
  bad = good;
  bad.lods[0].mesh.joints[3][0] = 3;  // no joint 3
  EXPECT_TRUE(refused(bad));
  bad = good;
  bad.lods.clear();
  EXPECT_TRUE(refused(bad));
  bad = good;
  bad.clips[1].frame_count += 1;
  EXPECT_TRUE(refused(bad));
  bad = good;
  bad.lods[0].palette_joints = {0, 1, 7};
  EXPECT_TRUE(refused(bad));
}

// A character with `joints` joints: a root and joints-1 leaves around it, each leaf with its own
// triangle (weighted 0.8 to the leaf, 0.2 to the root) and its own rotation track, so every
// joint's texels are read and a wrong address moves a visible triangle.
Character makeManyJointCharacter(int joints) {
  RawSkeleton raw;
  RawJoint root;
  root.name = "root";
  raw.joints.push_back(root);
  for (int j = 1; j < joints; ++j) {
    RawJoint leaf;
    leaf.name = "leaf" + std::to_string(j);
    leaf.parent = "root";
    const float a = 6.2831853f * static_cast<float>(j) / static_cast<float>(joints - 1);
    leaf.rest.translation = glm::vec3(std::cos(a), 0.02f * static_cast<float>(j % 50), std::sin(a));
    leaf.inverse_bind = glm::inverse(glm::translate(glm::mat4(1.0f), leaf.rest.translation));
    raw.joints.push_back(leaf);
  }
  Character c;
  c.skeleton = std::move(buildSkeleton(raw, "many").value());
  SkinnedMesh& m = c.mesh;
  for (int j = 1; j < joints; ++j) {
    const int joint = c.skeleton.findJoint("leaf" + std::to_string(j));
    const glm::vec3 at = c.skeleton.restPoses()[joint].translation;
    for (const glm::vec3& corner :
         {glm::vec3(0.0f), glm::vec3(0.05f, 0.0f, 0.0f), glm::vec3(0.0f, 0.05f, 0.0f)}) {
      m.indices.push_back(static_cast<uint32_t>(m.positions.size()));
      m.positions.push_back(at + corner);
      m.normals.push_back(glm::vec3(0, 0, 1));
      m.joints.push_back(glm::u16vec4(joint, 0, 0, 0));
      m.weights.push_back(glm::vec4(0.8f, 0.2f, 0.0f, 0.0f));
    }
  }
  m.submeshes.push_back({"leaves", 0, static_cast<uint32_t>(m.indices.size())});
  Clip clip;
  clip.name = "flutter";
  clip.joints.resize(c.skeleton.jointCount());
  for (int j = 0; j < c.skeleton.jointCount(); ++j) {
    QuatTrack& r = clip.joints[j].rotation;
    r.interpolation = Interpolation::kLinear;
    r.times = {0.0f, 0.25f, 0.5f};
    const glm::vec3 axis = glm::normalize(glm::vec3(1.0f, static_cast<float>(j % 7), 0.5f));
    const glm::quat turned = glm::angleAxis(0.3f + 0.001f * static_cast<float>(j), axis);
    r.values = {glm::quat(1, 0, 0, 0), turned, glm::quat(1, 0, 0, 0)};
  }
  updateClipRange(clip);
  c.clips.push_back(std::move(clip));
  return c;
}

// 700 joints make 2100 texels per frame, wider than a 2048 texture: a frame spans two rows.
TEST(InstancedRenderer, MoreJointsThanOneTextureRowHolds) {
  const Character character = makeManyJointCharacter(700);
  ASSERT_TRUE(validateCharacter(character, "many").ok());
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.max_texture_size = 2048;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  ASSERT_EQ(device->caps().max_texture_size, 2048);
  for (uint32_t max_width : {4096u, 2048u}) {
    // 4096: the package has one frame per row and the renderer lays it out again; 2048: the
    // baker already spans rows.
    BakeOptions options;
    options.max_width = max_width;
    Result<Package> package = bakeCharacter(character, options);
    ASSERT_TRUE(package.ok()) << package.status().toString();
    EXPECT_EQ(package->animation.rowsPerFrame(), max_width == 2048u ? 2u : 1u);
    auto renderer = makeRenderer(*device, *package);
    ASSERT_NE(renderer, nullptr);
    EXPECT_EQ(renderer->rowsPerFrame(), 2u);
    EXPECT_LE(renderer->textureWidth(), 2048u);
    const auto instances = test::randomInstances(*package, 16, 21);
    const test::SkinningError error = test::compareWithCpu(*renderer, *package, instances);
    EXPECT_LT(error.position, test::kSkinPositionTolerance) << "max width " << max_width;
    EXPECT_LT(error.normal, test::kSkinNormalTolerance) << "max width " << max_width;
    // Independent of the texture: one exact frame against the clip sampled at its time.
    const BakedClip& clip = package->clips[0];
    const uint32_t frame = clip.frame_count / 2;
    Instance instance;
    instance.frames.primary = {clip.first_frame + frame, clip.first_frame + frame, 0.0f};
    instance.frames.secondary = instance.frames.primary;
    const uint32_t vertex_count = renderer->vertexCount(0);
    std::vector<glm::vec3> positions(vertex_count), normals(vertex_count);
    ASSERT_TRUE(
        renderer
            ->captureSkinnedVertices(std::span<const Instance>(&instance, 1), 0, positions, normals)
            .ok());
    PoseScratch scratch;
    std::vector<JointRows> palette(character.skeleton.jointCount());
    evaluatePalette(character.skeleton, &character.clips[0],
                    character.clips[0].start_time + static_cast<float>(frame) / clip.fps, scratch,
                    palette);
    std::vector<glm::vec3> expected(vertex_count), expected_normals(vertex_count);
    ASSERT_TRUE((SkinJob{character.mesh.positions, character.mesh.normals, character.mesh.joints,
                         character.mesh.weights, palette, expected, expected_normals}
                     .run()));
    float worst = 0.0f;
    for (uint32_t v = 0; v < vertex_count; ++v)
      worst = std::max(worst, glm::length(positions[v] - expected[v]));
    EXPECT_LT(worst, 1e-4f) << "max width " << max_width;
  }
}

// Records hold frame numbers in 16 bits: a texture of more frames is refused with the limit
// named (CrowdRenderer's auto choice then takes the merged path).
TEST(InstancedRenderer, RefusesMoreFramesThanRecordsHold) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const Character character = test::makeChainWithTwoClips();
  float seconds = 0.0f;
  for (const Clip& clip : character.clips) seconds += clip.duration();
  const Package package =
      test::bakeForTest(character, (static_cast<float>(kMaxRecordFrames) + 64.0f) / seconds);
  ASSERT_GT(package.animation.frame_count, kMaxRecordFrames);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, package);
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(renderer.status().message().find("16 bits"), std::string::npos)
      << renderer.status().message();
}

}  // namespace
}  // namespace throng::render
