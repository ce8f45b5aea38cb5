// Posed props (crowd/lod_pose.h): the posed mesh holds each prop's vertices at the joint's world
// transform times the offset, from the keyframes and from the baked frames; hidden props leave.
#include <cmath>

#include <gtest/gtest.h>

#include "offline/prop_fixture.h"
#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/crowd/lod_pose.h"
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"

namespace throng {
namespace {

constexpr float kPi = 3.14159265358979f;

// T * Rz * Ry * Rx * S written out with sines and cosines (not through AttachmentOffset).
glm::mat4 offsetMatrix(const glm::vec3& t, const glm::vec3& degrees, float s) {
  const glm::vec3 r = degrees * (kPi / 180.0f);
  const glm::mat4 rx(1, 0, 0, 0, 0, std::cos(r.x), std::sin(r.x), 0, 0, -std::sin(r.x),
                     std::cos(r.x), 0, 0, 0, 0, 1);
  const glm::mat4 ry(std::cos(r.y), 0, -std::sin(r.y), 0, 0, 1, 0, 0, std::sin(r.y), 0,
                     std::cos(r.y), 0, 0, 0, 0, 1);
  const glm::mat4 rz(std::cos(r.z), std::sin(r.z), 0, 0, -std::sin(r.z), std::cos(r.z), 0, 0, 0, 0,
                     1, 0, 0, 0, 0, 1);
  glm::mat4 translate(1.0f);
  translate[3] = glm::vec4(t, 1.0f);
  return translate * rz * ry * rx * glm::mat4(glm::mat3(s));
}

// The largest distance from each posed prop vertex (group `group`) to the nearest expected
// corner, and from each expected corner to the nearest posed prop vertex.
float propMismatch(const LodPose& pose, uint8_t group, const std::vector<glm::vec3>& expected) {
  float worst = 0.0f;
  std::vector<float> nearest(expected.size(), INFINITY);
  size_t count = 0;
  for (size_t v = 0; v < pose.positions.size(); ++v) {
    if (pose.mesh->attachments[v] != group) continue;
    ++count;
    float best = INFINITY;
    for (size_t e = 0; e < expected.size(); ++e) {
      const float d = glm::distance(pose.positions[v], expected[e]);
      best = std::min(best, d);
      nearest[e] = std::min(nearest[e], d);
    }
    worst = std::max(worst, best);
  }
  for (float d : nearest) worst = std::max(worst, d);
  return count == 0 ? INFINITY : worst;
}

TEST(LodPoseProps, PosedMeshHoldsThePropAtTheJointsWorldTimesTheOffset) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  const auto dir = test::makeTempDir("props");
  const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  const std::string prop_file = test::writePropBox(dir, "sword.gltf", red);
  Character character = importGltf(test::assetPath("CesiumMan/CesiumMan.glb").string()).value();
  const std::string joint_name = character.skeleton.names()[character.skeleton.jointCount() - 1];
  const int joint = character.skeleton.jointCount() - 1;
  const size_t submeshes = character.mesh.submeshes.size();
  const glm::vec3 t(0.01f, 0.02f, -0.03f), r(10.0f, 20.0f, 30.0f);
  const float s = 1.5f;
  AttachmentSpec spec{joint_name, prop_file, {t, r, s}};
  ASSERT_TRUE(attachProps(character, std::span(&spec, 1), {}, "CesiumMan").ok());
  ASSERT_EQ(character.attachments.size(), 1u);
  EXPECT_EQ(character.attachments[0].name, "sword");
  EXPECT_EQ(character.mesh.submeshes.size(), submeshes + 1);  // its own material: one draw more

  const float time = 0.7f;
  const LodPose pose =
      poseCharacter(character, {}, {character.clips[0].name, time, 0}, "CesiumMan").value();
  PoseScratch scratch;
  evaluateModels(character.skeleton, &character.clips[0], time, glm::mat4(1.0f), scratch);
  std::vector<glm::vec3> expected;
  for (const glm::vec3& c : test::propBoxCorners()) {
    expected.push_back(
        glm::vec3(scratch.models[static_cast<size_t>(joint)] * offsetMatrix(t, r, s) *
                  glm::vec4(test::kPropNodeScale * c + test::kPropNodeTranslation, 1.0f)));
  }
  EXPECT_LT(propMismatch(pose, 1, expected), 1e-4f);

  // The package: baked frames, and the props it stores.
  BakeOptions options;
  options.fps = 30.0f;
  options.clips = {character.clips[0].name};
  const Package package = bakeCharacter(character, options).value();
  ASSERT_EQ(package.attachments.size(), 1u);
  const BakedClip& clip = package.clips[0];
  const float frame_time = 12.0f / clip.fps;
  const LodPose baked = posePackage(package, {clip.name, frame_time, 0}, "p").value();
  evaluateModels(character.skeleton, &character.clips[0],
                 character.clips[0].start_time + frame_time, glm::mat4(1.0f), scratch);
  for (size_t i = 0; i < expected.size(); ++i) {
    expected[i] = glm::vec3(
        scratch.models[static_cast<size_t>(joint)] * offsetMatrix(t, r, s) *
        glm::vec4(test::kPropNodeScale * test::propBoxCorners()[i] + test::kPropNodeTranslation,
                  1.0f));
  }
  EXPECT_LT(propMismatch(baked, 1, expected), 1e-3f * character.size());
  // Hidden: the prop's triangles leave the posed mesh, the body's stay.
  PoseRequest hidden{clip.name, frame_time, 0};
  hidden.attachments = 0;
  const LodPose without = posePackage(package, hidden, "p").value();
  EXPECT_EQ(without.mesh->triangleCount(), package.lods[0].mesh.triangleCount() - 12);
}

}  // namespace
}  // namespace throng
