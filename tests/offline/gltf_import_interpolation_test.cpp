// glTF sampling rules on feature-tests/InterpolationTest: STEP, LINEAR, CUBICSPLINE on T, R, S.
#include <cmath>

#include <gtest/gtest.h>

#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

constexpr const char* kFile = "feature-tests/InterpolationTest/InterpolationTest.glb";

class InterpolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    THRONG_REQUIRE_ASSET(kFile);
    path_ = test::assetPath(kFile).string();
    Result<Character> imported = importGltf(path_);
    ASSERT_TRUE(imported.ok()) << imported.status().toString();
    character_ = std::move(imported).value();
    ASSERT_TRUE(test::loadTinyGltf(path_, model_));
  }

  const Clip& clip(const char* name) {
    const int index = character_.findClip(name);
    EXPECT_GE(index, 0) << name;
    return character_.clips[static_cast<size_t>(std::max(index, 0))];
  }
  const JointTracks& tracks(const Clip& c, const char* node) {
    const int joint = character_.skeleton.findJoint(node);
    EXPECT_GE(joint, 0) << node;
    return c.joints[static_cast<size_t>(std::max(joint, 0))];
  }

  std::string path_;
  Character character_;
  tinygltf::Model model_;
};

// Every mesh node is a joint (no skin): 9 animated cubes, the static cube and the plane.
TEST_F(InterpolationTest, ImportsNodeAnimationAsSkeleton) {
  EXPECT_EQ(character_.mesh.vertexCount(), 220u);
  EXPECT_EQ(character_.skeleton.jointCount(), 10);  // Light and Camera are neither
  EXPECT_EQ(character_.clips.size(), 9u);
  EXPECT_TRUE(validateCharacter(character_, path_).ok());
}

// Known values, by hand from the file's keys (see the test's comments for each).
TEST_F(InterpolationTest, HandCheckedValues) {
  // Step Scale: keys 1, 0.5, 1, 0.5, 1 at 0.0417, 0.4167, 0.875, 1.25, 1.6667: held at 0.6 s.
  const Vec3Track& step_scale = tracks(clip("Step Scale"), "Cube").scale;
  EXPECT_EQ(step_scale.interpolation, Interpolation::kStep);
  EXPECT_NEAR(sampleTrack(step_scale, 0.6f).x, 0.5f, 1e-6f);
  EXPECT_NEAR(sampleTrack(step_scale, 0.874f).x, 0.5f, 1e-6f);
  EXPECT_NEAR(sampleTrack(step_scale, 0.876f).x, 1.0f, 1e-6f);
  // Linear Scale: halfway between 1 and 0.5.
  const Vec3Track& linear_scale = tracks(clip("Linear Scale"), "Cube.001").scale;
  EXPECT_NEAR(sampleTrack(linear_scale, 0.5f * (0.0416667f + 0.4166667f)).y, 0.75f, 1e-4f);
  // CubicSpline Scale: zero tangents, so halfway is also the average of the two values.
  const Vec3Track& cubic_scale = tracks(clip("CubicSpline Scale"), "Cube.002").scale;
  EXPECT_EQ(cubic_scale.interpolation, Interpolation::kCubicSpline);
  EXPECT_EQ(cubic_scale.values.size(), 3 * cubic_scale.times.size());
  EXPECT_NEAR(sampleTrack(cubic_scale, 0.5f * (0.0416667f + 0.4166667f)).z, 0.75f, 1e-4f);
  // Linear Rotation: identity -> -45 deg about Z; halfway is -22.5 deg (slerp).
  const QuatTrack& linear_rotation = tracks(clip("Linear Rotation"), "Cube.005").rotation;
  const glm::quat half = sampleTrack(linear_rotation, 0.5f * 0.4166667f);
  const float angle = glm::radians(-22.5f);
  EXPECT_NEAR(half.z, std::sin(angle / 2), 1e-4f);
  EXPECT_NEAR(half.w, std::cos(angle / 2), 1e-4f);
  // Step Translation: y keys 6.665, 10, 6, 10, 6 at 0, 0.4583, 0.8333, ...: 10 at 0.5 s.
  EXPECT_NEAR(sampleTrack(tracks(clip("Step Translation"), "Cube.006").translation, 0.5f).y, 10.0f,
              1e-4f);
  // Linear Translation: y 10 -> 6 between 0.4167 and 0.8333: 8 halfway.
  EXPECT_NEAR(sampleTrack(tracks(clip("Linear Translation"), "Cube.009").translation, 0.625f).y,
              8.0f, 1e-3f);
  // CubicSpline Translation: zero tangents, y 10 -> 6 between 0.4167 and 0.8333: 8 halfway.
  EXPECT_NEAR(
      sampleTrack(tracks(clip("CubicSpline Translation"), "Cube.008").translation, 0.625f).y, 8.0f,
      1e-3f);
}

// Every channel, at every key and between keys, against values computed from the raw accessors.
TEST_F(InterpolationTest, EveryChannelMatchesRawAccessorData) {
  for (size_t a = 0; a < model_.animations.size(); ++a) {
    const tinygltf::Animation& animation = model_.animations[a];
    const Clip& c = clip(animation.name.c_str());
    for (const tinygltf::AnimationChannel& channel : animation.channels) {
      const tinygltf::AnimationSampler& sampler =
          animation.samplers[static_cast<size_t>(channel.sampler)];
      const std::vector<float> times = test::accessorFloats(model_, sampler.input);
      const JointTracks& t =
          tracks(c, model_.nodes[static_cast<size_t>(channel.target_node)].name.c_str());
      const size_t node = static_cast<size_t>(channel.target_node);
      std::vector<float> probes;
      for (size_t k = 0; k < times.size(); ++k) {
        probes.push_back(times[k]);
        if (k + 1 < times.size()) {
          probes.push_back(0.25f * times[k] + 0.75f * times[k + 1]);
          probes.push_back(0.5f * (times[k] + times[k + 1]));
        }
      }
      probes.push_back(times.front() - 1.0f);  // clamped before the first key
      probes.push_back(times.back() + 1.0f);   // clamped after the last key
      for (float time : probes) {
        // The oracle's transform of the target node at `time` (every node here is a scene root,
        // so its world matrix is its local one).
        const std::vector<glm::mat4> worlds =
            test::worldMatrices(model_, static_cast<int>(a), time);
        const glm::mat4 local = worlds[node];
        if (channel.target_path == "translation") {
          const glm::vec3 ours = sampleTrack(t.translation, time);
          EXPECT_LT(glm::length(ours - glm::vec3(local[3])), 1e-4f)
              << animation.name << " " << time;
        } else if (channel.target_path == "scale") {
          const glm::vec3 ours = sampleTrack(t.scale, time);
          EXPECT_NEAR(ours.x, glm::length(glm::vec3(local[0])), 1e-4f)
              << animation.name << " " << time;
          EXPECT_NEAR(ours.y, glm::length(glm::vec3(local[1])), 1e-4f)
              << animation.name << " " << time;
        } else {
          const glm::quat ours = sampleTrack(t.rotation, time);
          const glm::mat3 expected = glm::mat3(local);
          const glm::mat3 got = glm::mat3_cast(ours);
          float worst = 0.0f;
          for (int i = 0; i < 3; ++i) worst = std::max(worst, glm::length(got[i] - expected[i]));
          EXPECT_LT(worst, 1e-4f) << animation.name << " " << time;
        }
      }
    }
  }
}

// The whole mesh, every clip, on and off keys, against the oracle's rigid node transforms.
TEST_F(InterpolationTest, MeshesFollowTheirNodes) {
  for (size_t a = 0; a < model_.animations.size(); ++a) {
    const Clip& c = clip(model_.animations[a].name.c_str());
    for (float time : {0.0f, 0.3f, 0.6f, 1.0f, 1.3f, 1.7f}) {
      EXPECT_LT(test::maxDistance(test::skinPositions(character_, &c, time),
                                  test::referencePositions(model_, static_cast<int>(a), time)),
                1e-4f * character_.size())
          << c.name << " at " << time;
    }
  }
}

TEST_F(InterpolationTest, LoopingAndClampingAtTheEnds) {
  const Clip& c = clip("Linear Translation");
  const Vec3Track& track = tracks(c, "Cube.009").translation;
  const float duration = c.duration();
  ASSERT_GT(duration, 0.0f);
  // Looping wraps playback seconds into [start, end).
  EXPECT_NEAR(clipTime(c, duration + 0.25f, true), c.start_time + 0.25f, 1e-5f);
  EXPECT_NEAR(clipTime(c, 3.0f * duration + 0.1f, true), c.start_time + 0.1f, 1e-4f);
  // Clamping holds the last (or first) key.
  EXPECT_FLOAT_EQ(clipTime(c, 100.0f, false), c.end_time);
  EXPECT_FLOAT_EQ(clipTime(c, -1.0f, false), c.start_time);
  EXPECT_NEAR(sampleTrack(track, clipTime(c, 100.0f, false)).y, track.values.back().y, 1e-6f);
  EXPECT_NEAR(sampleTrack(track, c.end_time + 5.0f).y, track.values.back().y, 1e-6f);
  EXPECT_NEAR(sampleTrack(track, c.start_time - 5.0f).y, track.values.front().y, 1e-6f);
  // Clips need not start at 0: "Step Scale" starts at its first key, 1/24 s.
  EXPECT_NEAR(clip("Step Scale").start_time, 1.0f / 24.0f, 1e-4f);
}

}  // namespace
}  // namespace throng
