// Tests of the built-in sample character: skeleton, closed skinned mesh, and clips that look right.
#include "throng/offline/sample_character.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "throng/core/pose.h"
#include "throng/core/skeleton_file.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

const Character& sample() {
  static const Character character = makeSampleCharacter();
  return character;
}

const Clip& clipNamed(const char* name) {
  const int index = sample().findClip(name);
  EXPECT_GE(index, 0) << name;
  return sample().clips.at(static_cast<size_t>(std::max(index, 0)));
}

int joint(const char* name) {
  const int index = sample().skeleton.findJoint(name);
  EXPECT_GE(index, 0) << name;
  return index;
}

// Model-space matrices of every joint for `clip` at `time` (rest pose when clip is null).
std::vector<glm::mat4> models(const Clip* clip, float time) {
  const Skeleton& skeleton = sample().skeleton;
  std::vector<Transform> locals(skeleton.restPoses().begin(), skeleton.restPoses().end());
  if (clip != nullptr) {
    SampleClipJob sample_job{clip, time, skeleton.restPoses(), locals};
    EXPECT_TRUE(sample_job.run());
  }
  std::vector<glm::mat4> out(skeleton.jointCount());
  LocalToModelJob to_model{skeleton.parents(), locals, glm::mat4(1.0f), out};
  EXPECT_TRUE(to_model.run());
  return out;
}

glm::vec3 jointPosition(const Clip* clip, float time, int j) {
  return glm::vec3(models(clip, time)[j][3]);
}

std::vector<JointRows> palette(const Clip* clip, float time) {
  PoseScratch scratch;
  scratch.resize(sample().skeleton.jointCount());
  std::vector<JointRows> out(sample().skeleton.jointCount());
  evaluatePalette(sample().skeleton, clip, time, scratch, out);
  return out;
}

std::vector<glm::vec3> skinned(const Clip* clip, float time) {
  const SkinnedMesh& mesh = sample().mesh;
  const std::vector<JointRows> p = palette(clip, time);
  std::vector<glm::vec3> out(mesh.vertexCount());
  SkinJob job{mesh.positions, {}, mesh.joints, mesh.weights, p, out, {}};
  EXPECT_TRUE(job.run());
  return out;
}

float maxPaletteDifference(const std::vector<JointRows>& a, const std::vector<JointRows>& b) {
  float worst = 0.0f;
  for (size_t j = 0; j < a.size(); ++j) {
    for (int r = 0; r < kVec4PerJoint; ++r) {
      const glm::vec4 d = glm::abs(a[j].rows[r] - b[j].rows[r]);
      worst = std::max({worst, d.x, d.y, d.z, d.w});
    }
  }
  return worst;
}

TEST(SampleCharacter, IsValidAndDeterministic) {
  const Character& c = sample();
  const Status status = validateCharacter(c, "sample");
  EXPECT_TRUE(status.ok()) << status.toString();
  EXPECT_TRUE(c.warnings.empty());
  const Character again = makeSampleCharacter();
  ASSERT_EQ(again.mesh.vertexCount(), c.mesh.vertexCount());
  EXPECT_EQ(std::memcmp(again.mesh.positions.data(), c.mesh.positions.data(),
                        c.mesh.vertexCount() * sizeof(glm::vec3)),
            0);
  EXPECT_EQ(again.mesh.indices, c.mesh.indices);
  ASSERT_EQ(again.clips.size(), c.clips.size());
  for (size_t i = 0; i < c.clips.size(); ++i) {
    EXPECT_EQ(maxPaletteDifference(palette(&again.clips[i], 0.3f), palette(&c.clips[i], 0.3f)),
              0.0f);
  }
}

TEST(SampleCharacter, SkeletonIsAReadableHumanoid) {
  const Skeleton& s = sample().skeleton;
  EXPECT_GE(s.jointCount(), 20);
  EXPECT_LE(s.jointCount(), 30);
  const std::pair<const char*, const char*> expected[] = {{"hips", "root"},
                                                          {"spine_01", "hips"},
                                                          {"spine_02", "spine_01"},
                                                          {"spine_03", "spine_02"},
                                                          {"neck", "spine_03"},
                                                          {"head", "neck"},
                                                          {"clavicle.L", "spine_03"},
                                                          {"upper_arm.L", "clavicle.L"},
                                                          {"lower_arm.L", "upper_arm.L"},
                                                          {"hand.L", "lower_arm.L"},
                                                          {"hand.R", "lower_arm.R"},
                                                          {"upper_leg.L", "hips"},
                                                          {"lower_leg.L", "upper_leg.L"},
                                                          {"foot.L", "lower_leg.L"},
                                                          {"toes.L", "foot.L"},
                                                          {"toes.R", "foot.R"}};
  for (const auto& [name, parent] : expected) {
    const int j = s.findJoint(name);
    ASSERT_GE(j, 0) << name;
    ASSERT_NE(s.parents()[j], kNoParent) << name;
    EXPECT_EQ(s.names()[s.parents()[j]], parent) << name;
  }
  // Rest == bind: the rest palette is the identity.
  const std::vector<JointRows> rest = palette(nullptr, 0.0f);
  JointRows identity = packRows(glm::mat4(1.0f));
  EXPECT_LT(maxPaletteDifference(rest, std::vector<JointRows>(rest.size(), identity)), 1e-5f);
  // Left is +X, the feet are at the bottom, the head on top.
  EXPECT_GT(jointPosition(nullptr, 0, joint("hand.L")).x, 0.3f);
  EXPECT_LT(jointPosition(nullptr, 0, joint("hand.R")).x, -0.3f);
  EXPECT_GT(jointPosition(nullptr, 0, joint("head")).y, 1.5f);
  EXPECT_GT(jointPosition(nullptr, 0, joint("toes.L")).z, 0.05f);
}

TEST(SampleCharacter, MeshIsAbout1Point8TallOnTheGroundFacingPlusZ) {
  const SkinnedMesh& mesh = sample().mesh;
  const Bounds b = computeBounds(mesh.positions);
  EXPECT_GE(b.min.y, 0.0f);
  EXPECT_LT(b.min.y, 0.01f);
  EXPECT_GT(b.max.y, 1.75f);
  EXPECT_LT(b.max.y, 1.85f);
  // Symmetric about x = 0, toes further forward than the heels reach back.
  EXPECT_NEAR(b.min.x, -b.max.x, 1e-4f);
  EXPECT_GT(b.max.z, 0.18f);
  EXPECT_GT(b.max.z, -b.min.z + 0.03f);
}

TEST(SampleCharacter, MeshHasEnoughVerticesAndBlendedInfluences) {
  const SkinnedMesh& mesh = sample().mesh;
  EXPECT_GE(mesh.vertexCount(), 3000u);
  ASSERT_EQ(mesh.uvs.size(), mesh.vertexCount());
  size_t blended = 0;
  std::vector<int> used(sample().skeleton.jointCount(), 0);
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    int count = 0;
    float sum = 0.0f;
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      ASSERT_GE(w, 0.0f);
      if (w > 0.0f) {
        ++count;
        ++used[mesh.joints[v][i]];
      }
      sum += w;
    }
    ASSERT_GE(count, 1) << "vertex " << v;
    ASSERT_LE(count, kMaxInfluences) << "vertex " << v;
    ASSERT_NEAR(sum, 1.0f, 1e-5f) << "vertex " << v;
    if (count >= 2) ++blended;
    EXPECT_NEAR(glm::length(mesh.normals[v]), 1.0f, 1e-4f);
  }
  EXPECT_GT(blended, mesh.vertexCount() / 4) << blended << " of " << mesh.vertexCount();
  for (const char* name : {"hips", "spine_02", "head", "lower_arm.L", "hand.R", "upper_leg.L",
                           "lower_leg.R", "foot.L", "toes.R"}) {
    EXPECT_GT(used[joint(name)], 20) << name << " drives almost no vertices";
  }
}

TEST(SampleCharacter, EachSubMeshHasItsOwnColouredMaterial) {
  const Character& c = sample();
  ASSERT_EQ(c.materials.size(), 3u);
  for (size_t s = 0; s < c.mesh.submeshes.size(); ++s) {
    const SubMesh& sub = c.mesh.submeshes[s];
    EXPECT_EQ(sub.material, s);
    EXPECT_EQ(c.materials[s].name, sub.name);
    EXPECT_EQ(c.materials[s].alpha_mode, AlphaMode::kOpaque);
    EXPECT_NE(c.materials[s].base_color, glm::vec4(1.0f));  // not the grey default
  }
  // Clothes, skin and shoes are told apart.
  EXPECT_NE(c.materials[0].base_color, c.materials[1].base_color);
  EXPECT_NE(c.materials[1].base_color, c.materials[2].base_color);
  EXPECT_TRUE(validateCharacter(c, "sample").ok());
}

// Every edge of each sub-mesh is shared by exactly two triangles, which traverse it in opposite
// directions (closed and consistently oriented), and the enclosed volume is positive (outward).
TEST(SampleCharacter, EveryPartIsClosedAndFacesOutwards) {
  const SkinnedMesh& mesh = sample().mesh;
  ASSERT_EQ(mesh.submeshes.size(), 3u);
  uint32_t covered = 0;
  for (const SubMesh& sub : mesh.submeshes) {
    SCOPED_TRACE(sub.name);
    EXPECT_EQ(sub.first_index, covered);
    covered += sub.index_count;
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    double volume = 0.0;
    for (uint32_t t = sub.first_index; t < sub.first_index + sub.index_count; t += 3) {
      const uint32_t tri[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
      for (int e = 0; e < 3; ++e) ++directed[{tri[e], tri[(e + 1) % 3]}];
      const glm::dvec3 a(mesh.positions[tri[0]]), b(mesh.positions[tri[1]]),
          c(mesh.positions[tri[2]]);
      volume += glm::dot(a, glm::cross(b, c)) / 6.0;
      // Smooth normals agree with the face they belong to.
      const glm::vec3 face = glm::cross(mesh.positions[tri[1]] - mesh.positions[tri[0]],
                                        mesh.positions[tri[2]] - mesh.positions[tri[0]]);
      ASSERT_GT(glm::length(face), 0.0f) << "degenerate triangle " << t / 3;
      for (const uint32_t v : tri) ASSERT_GT(glm::dot(face, mesh.normals[v]), 0.0f);
    }
    size_t open = 0;
    for (const auto& [edge, count] : directed) {
      const auto reverse = directed.find({edge.second, edge.first});
      if (count != 1 || reverse == directed.end() || reverse->second != 1) ++open;
    }
    EXPECT_EQ(open, 0u);
    EXPECT_GT(volume, 0.001);
  }
  EXPECT_EQ(covered, mesh.indices.size());
}

TEST(SampleCharacter, HasTheFiveClipsWithSensibleKeys) {
  const struct {
    const char* name;
    float min_duration, max_duration;
  } expected[] = {{"idle", 2.0f, 5.0f},
                  {"walk", 0.8f, 1.4f},
                  {"run", 0.5f, 0.9f},
                  {"attack", 0.8f, 2.0f},
                  {"die", 1.0f, 3.0f}};
  ASSERT_EQ(sample().clips.size(), 5u);
  for (const auto& e : expected) {
    const Clip& clip = clipNamed(e.name);
    SCOPED_TRACE(e.name);
    EXPECT_EQ(clip.start_time, 0.0f);
    EXPECT_GE(clip.duration(), e.min_duration);
    EXPECT_LE(clip.duration(), e.max_duration);
    int animated = 0;
    for (const JointTracks& tracks : clip.joints) {
      if (tracks.rotation.empty()) continue;
      ++animated;
      EXPECT_EQ(tracks.rotation.interpolation, Interpolation::kLinear);
      EXPECT_GE(tracks.rotation.times.size(), static_cast<size_t>(clip.duration() * 29.0f));
      for (const glm::quat& q : tracks.rotation.values) EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f);
      for (size_t k = 1; k < tracks.rotation.values.size(); ++k) {
        // Neighbouring keys stay close: no flips, no jumps (a punch turns the elbow fastest,
        // under 40 degrees per 1/30 s).
        const float dot =
            std::abs(glm::dot(tracks.rotation.values[k - 1], tracks.rotation.values[k]));
        EXPECT_GT(dot, std::cos(glm::radians(20.0f))) << "key " << k;
      }
    }
    EXPECT_GE(animated, 10);
    EXPECT_FALSE(clip.joints[joint("hips")].translation.empty());
  }
}

TEST(SampleCharacter, LoopingClipsAreSeamless) {
  for (const char* name : {"idle", "walk", "run"}) {
    const Clip& clip = clipNamed(name);
    EXPECT_LT(maxPaletteDifference(palette(&clip, clip.start_time), palette(&clip, clip.end_time)),
              1e-5f)
        << name;
    // And the loop moves: the middle differs from the ends.
    EXPECT_GT(maxPaletteDifference(palette(&clip, clip.start_time),
                                   palette(&clip, clip.start_time + clip.duration() * 0.4f)),
              1e-3f)
        << name;
  }
  const Clip& die = clipNamed("die");
  EXPECT_GT(maxPaletteDifference(palette(&die, die.start_time), palette(&die, die.end_time)), 0.1f);
}

TEST(SampleCharacter, IdleBreathesWithFeetPlanted) {
  const Clip& idle = clipNamed("idle");
  float chest_motion = 0.0f, foot_motion = 0.0f;
  const glm::vec3 chest0 = jointPosition(&idle, 0.0f, joint("neck"));
  const glm::vec3 foot0 = jointPosition(nullptr, 0.0f, joint("foot.L"));
  for (int k = 0; k <= 30; ++k) {
    const float t = idle.duration() * k / 30.0f;
    chest_motion =
        std::max(chest_motion, glm::length(jointPosition(&idle, t, joint("neck")) - chest0));
    foot_motion =
        std::max(foot_motion, glm::length(jointPosition(&idle, t, joint("foot.L")) - foot0));
  }
  EXPECT_GT(chest_motion, 0.005f);
  EXPECT_LT(chest_motion, 0.06f);
  EXPECT_LT(foot_motion, 0.012f);
}

TEST(SampleCharacter, WalkAlternatesFeetAndSwingsArmsAgainstThem) {
  const Clip& walk = clipNamed("walk");
  float most_left = 0.0f, most_right = 0.0f, arm_at_left = 0.0f, arm_at_right = 0.0f;
  float lowest = 1.0f;
  for (int k = 0; k < 40; ++k) {
    const float t = walk.duration() * k / 40.0f;
    const std::vector<glm::mat4> m = models(&walk, t);
    const float lead = m[joint("foot.L")][3].z - m[joint("foot.R")][3].z;
    const float arm_lead = m[joint("hand.L")][3].z - m[joint("hand.R")][3].z;
    if (lead > most_left) most_left = lead, arm_at_left = arm_lead;
    if (lead < most_right) most_right = lead, arm_at_right = arm_lead;
    for (const glm::vec3& p : skinned(&walk, t)) lowest = std::min(lowest, p.y);
  }
  // The left foot is well ahead at one time, the right at another, and each time the arm of the
  // leading foot's side is back.
  EXPECT_GT(most_left, 0.3f);
  EXPECT_LT(most_right, -0.3f);
  EXPECT_LT(arm_at_left, -0.1f);
  EXPECT_GT(arm_at_right, 0.1f);
  // The planted foot stays on the ground: neither floating nor sinking.
  EXPECT_GT(lowest, -0.02f);
  EXPECT_LT(lowest, 0.02f);
  // The hips bob.
  float low = 10.0f, high = -10.0f;
  for (int k = 0; k < 20; ++k) {
    const float y = jointPosition(&walk, walk.duration() * k / 20.0f, joint("hips")).y;
    low = std::min(low, y);
    high = std::max(high, y);
  }
  EXPECT_GT(high - low, 0.02f);
}

// The fastest backward speed of a foot relative to the hips while it is the lowest foot: the
// speed the body must move at for the planted foot not to slide.
float plantedFootSpeed(const Clip& clip) {
  constexpr int kSteps = 200;
  float fastest = 0.0f;
  const int feet[2] = {joint("foot.L"), joint("foot.R")};
  for (int k = 0; k < kSteps; ++k) {
    const float t0 = clip.duration() * k / kSteps;
    const float t1 = clip.duration() * (k + 1) / kSteps;
    const std::vector<glm::mat4> a = models(&clip, t0), b = models(&clip, t1);
    const int low = a[feet[0]][3].y < a[feet[1]][3].y ? feet[0] : feet[1];
    if (a[low][3].y > 0.1f) continue;  // in flight
    fastest = std::max(fastest, (a[low][3].z - b[low][3].z) / (t1 - t0));
  }
  return fastest;
}

TEST(SampleCharacter, WalkAndRunSpeedsMatchTheirFeet) {
  const float walk = plantedFootSpeed(clipNamed("walk"));
  const float run = plantedFootSpeed(clipNamed("run"));
  EXPECT_NEAR(walk, kSampleWalkSpeed, 0.1f * kSampleWalkSpeed);
  EXPECT_NEAR(run, kSampleRunSpeed, 0.1f * kSampleRunSpeed);
}

TEST(SampleCharacter, RunIsFasterAndWiderThanWalk) {
  const Clip& walk = clipNamed("walk");
  const Clip& run = clipNamed("run");
  EXPECT_LT(run.duration(), walk.duration());
  auto kneeLift = [](const Clip& clip) {
    float highest = 0.0f;
    for (int k = 0; k < 40; ++k) {
      highest =
          std::max(highest, jointPosition(&clip, clip.duration() * k / 40.0f, joint("foot.L")).y);
    }
    return highest;
  };
  EXPECT_GT(kneeLift(run), kneeLift(walk) + 0.1f);
  EXPECT_GT(kSampleRunSpeed, 1.8f * kSampleWalkSpeed);
}

TEST(SampleCharacter, AttackWindsUpThenPunchesForward) {
  const Clip& attack = clipNamed("attack");
  const int hand = joint("hand.R");
  const float rest_z = jointPosition(nullptr, 0.0f, hand).z;
  float windup_z = 1.0f, strike_z = -1.0f, t_windup = 0.0f, t_strike = 0.0f;
  for (int k = 0; k <= 60; ++k) {
    const float t = attack.duration() * k / 60.0f;
    const float z = jointPosition(&attack, t, hand).z;
    if (z < windup_z) windup_z = z, t_windup = t;
    if (z > strike_z) strike_z = z, t_strike = t;
  }
  EXPECT_LT(windup_z, rest_z - 0.05f);
  EXPECT_GT(strike_z, rest_z + 0.35f);
  EXPECT_LT(t_windup, t_strike);  // wind-up comes first
  // The punch is at shoulder height.
  EXPECT_GT(jointPosition(&attack, t_strike, hand).y, 1.2f);
  // It ends back at the start pose.
  EXPECT_LT(maxPaletteDifference(palette(&attack, 0.0f), palette(&attack, attack.end_time)), 1e-4f);
}

TEST(SampleCharacter, DieEndsLyingOnTheGround) {
  const Clip& die = clipNamed("die");
  EXPECT_LT(jointPosition(&die, die.end_time, joint("hips")).y, 0.2f);
  EXPECT_LT(jointPosition(&die, die.end_time, joint("head")).y, 0.3f);
  const Bounds start = computeBounds(skinned(&die, 0.0f));
  const Bounds end = computeBounds(skinned(&die, die.end_time));
  EXPECT_GT(start.max.y, 1.7f);
  EXPECT_LT(end.max.y, 0.5f);
  EXPECT_GT(end.min.y, -0.05f);
  // Nothing sinks into the floor on the way down (keys are lifted; 1 cm for interpolation).
  for (const char* name : {"die", "attack"}) {
    const Clip& clip = clipNamed(name);
    for (int k = 0; k <= 50; ++k) {
      const float t = clip.duration() * k / 50.0f;
      EXPECT_GT(computeBounds(skinned(&clip, t)).min.y, -0.01f) << name << " at " << t;
    }
  }
  // Clamped past the end: the pose holds.
  EXPECT_EQ(clipTime(die, die.duration() + 5.0f, false), die.end_time);
}

TEST(SampleCharacter, SkeletonFileRoundTripGivesIdenticalPalettes) {
  const Skeleton& skeleton = sample().skeleton;
  Result<Skeleton> back = parseSkeletonText(formatSkeletonText(skeleton), "sample.skel");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->jointCount(), skeleton.jointCount());
  PoseScratch sa, sb;
  sa.resize(skeleton.jointCount());
  sb.resize(skeleton.jointCount());
  std::vector<JointRows> pa(skeleton.jointCount()), pb(skeleton.jointCount());
  for (const Clip& clip : sample().clips) {
    for (int k = 0; k <= 6; ++k) {
      const float t = clip.duration() * k / 6.0f;
      evaluatePalette(skeleton, &clip, t, sa, pa);
      evaluatePalette(*back, &clip, t, sb, pb);
      EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(JointRows)), 0)
          << clip.name << " at " << t;
    }
  }
}

const Character& humanoid() {
  static const Character character = makeBenchmarkHumanoid();
  return character;
}

TEST(BenchmarkHumanoid, IsAValidGameRigKeyedLikeAnExport) {
  const Character& h = humanoid();
  const Status status = validateCharacter(h, "humanoid");
  ASSERT_TRUE(status.ok()) << status.toString();
  EXPECT_TRUE(h.warnings.empty());
  const Skeleton& s = h.skeleton;
  EXPECT_EQ(s.jointCount(), kBenchmarkHumanoidJoints);
  EXPECT_GE(s.jointCount(), 65);
  // Fingers hang off the hands, three phalanges each; twist, face and IK joints are there.
  for (const char* side : {".L", ".R"}) {
    for (const char* finger : {"thumb", "index", "middle", "ring", "pinky"}) {
      const int j1 = s.findJoint(std::string(finger) + "_01" + side);
      const int j3 = s.findJoint(std::string(finger) + "_03" + side);
      ASSERT_GE(j1, 0) << finger << side;
      ASSERT_GE(j3, 0) << finger << side;
      EXPECT_EQ(s.names()[s.parents()[j1]], std::string("hand") + side);
      EXPECT_EQ(s.names()[s.parents()[s.parents()[j3]]], s.names()[j1]);
    }
    EXPECT_GE(s.findJoint(std::string("lower_arm_twist") + side), 0);
    EXPECT_GE(s.findJoint(std::string("ik_foot") + side), 0);
  }
  for (const char* name : {"jaw", "eye.L", "ik_hand_gun", "hips", "toes.R"}) {
    EXPECT_GE(s.findJoint(name), 0) << name;
  }
  // The sample's clips, every channel of every joint a LINEAR track on one 30 Hz timeline.
  ASSERT_EQ(h.clips.size(), sample().clips.size());
  for (size_t c = 0; c < h.clips.size(); ++c) {
    const Clip& clip = h.clips[c];
    SCOPED_TRACE(clip.name);
    EXPECT_EQ(clip.name, sample().clips[c].name);
    EXPECT_EQ(clip.duration(), sample().clips[c].duration());
    const std::vector<float>& times = clip.joints[0].rotation.times;
    EXPECT_NEAR(static_cast<float>(times.size() - 1) / clip.duration(), 30.0f, 0.5f);
    for (const JointTracks& t : clip.joints) {
      for (const auto* track : {&t.translation, &t.scale}) {
        EXPECT_EQ(track->interpolation, Interpolation::kLinear);
        EXPECT_EQ(track->times, times);
      }
      EXPECT_EQ(t.rotation.interpolation, Interpolation::kLinear);
      EXPECT_EQ(t.rotation.times, times);
    }
  }
}

// The 23 joints it shares with the sample move exactly as the sample's, and the extra joints do
// move: fingers curl into a fist for the punch, IK feet follow the feet.
TEST(BenchmarkHumanoid, MovesLikeTheSampleWithLivingHandsAndIkJoints) {
  const Character& h = humanoid();
  PoseScratch scratch;
  std::vector<JointRows> hp(h.skeleton.jointCount()), sp(sample().skeleton.jointCount());
  for (size_t c = 0; c < h.clips.size(); ++c) {
    for (int k = 0; k <= 9; ++k) {
      const float t = h.clips[c].duration() * k / 9.0f;
      evaluatePalette(h.skeleton, &h.clips[c], t, scratch, hp);
      evaluatePalette(sample().skeleton, &sample().clips[c], t, scratch, sp);
      for (int j = 0; j < sample().skeleton.jointCount(); ++j) {
        const int hj = h.skeleton.findJoint(sample().skeleton.names()[j]);
        ASSERT_GE(hj, 0);
        EXPECT_LT(maxAbsDifference(unpackRows(hp[hj]), unpackRows(sp[j])), 1e-5f)
            << h.clips[c].name << " " << sample().skeleton.names()[j] << " at " << t;
      }
    }
  }
  // A fist at the punch: the index fingertip joint is much nearer the wrist than at rest.
  auto model = [&](const Clip* clip, float t, const char* name) {
    const Skeleton& s = h.skeleton;
    std::vector<Transform> locals(s.restPoses().begin(), s.restPoses().end());
    if (clip != nullptr) {
      EXPECT_TRUE((SampleClipJob{clip, t, s.restPoses(), locals}.run()));
    }
    std::vector<glm::mat4> models(s.jointCount());
    EXPECT_TRUE((LocalToModelJob{s.parents(), locals, glm::mat4(1.0f), models}.run()));
    return glm::vec3(models[s.findJoint(name)][3]);
  };
  const Clip& attack = h.clips[h.findClip("attack")];
  const float rest_reach =
      glm::length(model(nullptr, 0, "index_03.R") - model(nullptr, 0, "hand.R"));
  const float fist_reach =
      glm::length(model(&attack, 0.6f, "index_03.R") - model(&attack, 0.6f, "hand.R"));
  EXPECT_LT(fist_reach, 0.8f * rest_reach);
  const Clip& walk = h.clips[h.findClip("walk")];
  for (const float t : {0.1f, 0.4f, 0.8f}) {
    EXPECT_LT(glm::length(model(&walk, t, "ik_foot.L") - model(&walk, t, "foot.L")), 1e-4f);
    EXPECT_LT(glm::length(model(&walk, t, "ik_hand.L") - model(&walk, t, "hand.L")), 1e-4f);
  }
}

// The fast pose chain (packed clips, key cursors, SoA, SIMD) against the reference chain on the
// benchmark humanoid, every clip played forwards through 3 loops as a crowd does: palettes agree
// within 2e-5 of (1 + |entry|). The difference is the fast chain's polynomial slerp (1.1e-7 per
// quaternion component, pose.h) carried down chains of up to 9 joints and scaled by the bone
// offsets (translations are exact). Measured: 2.4e-6 at most.
TEST(BenchmarkHumanoid, FastChainMatchesTheReferenceChain) {
  const Character& h = humanoid();
  const SoaSkeleton soa(h.skeleton);
  const int n = h.skeleton.jointCount();
  PoseScratch reference_scratch, scratch;
  std::vector<JointRows> expected(n), palette(n);
  float worst = 0.0f;
  for (const Clip& clip : h.clips) {
    const PackedClip packed = packClip(clip, h.skeleton.restPoses());
    SamplingContext context;
    for (int step = 0; step < 3 * 90; ++step) {
      const float t = clipTime(clip, clip.duration() * static_cast<float>(step) / 90.0f, true);
      evaluatePalette(h.skeleton, &clip, t, reference_scratch, expected);
      evaluatePalette(soa, &packed, t, context, scratch, palette);
      for (int j = 0; j < n; ++j) {
        for (int r = 0; r < kVec4PerJoint; ++r) {
          for (int c = 0; c < 4; ++c) {
            const float e = expected[j].rows[r][c];
            const float d = std::abs(palette[j].rows[r][c] - e) / (1.0f + std::abs(e));
            worst = std::max(worst, d);
            ASSERT_LE(d, 2e-5f) << clip.name << " at " << t << ", joint " << j;
          }
        }
      }
    }
  }
  std::printf("largest relative palette difference: %.3g\n", worst);
}

}  // namespace
}  // namespace throng
