// The benchmark humanoid: the sample character grown to a game rig (fingers, twist, face and IK
// joints) whose every channel is keyed at 30 Hz, as exporters write clips.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "offline/sample_character_internal.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace sample {
namespace {

constexpr const char* kSuffix[2] = {".L", ".R"};

// What drives an extra joint's local rotation at each key.
enum class Drive : uint8_t {
  kBase,      // one of the sample's 23 joints: its key, as the sample clip has it
  kTwist,     // a share of its parent's twist about the parent's bone
  kFinger,    // a finger phalanx curling towards the palm
  kThumb,     // a thumb phalanx folding across the palm
  kJaw,       // opens and closes about X
  kEye,       // glances left and right
  kIkRoot,    // stays at the origin (animated with constant keys, as exported)
  kIkFollow,  // copies a base joint's model-space transform, relative to its IK parent
};

struct ExtraJoint {
  std::string name;
  std::string parent;
  glm::vec3 position;  // model-space rest position (rest rotations are identity)
  Drive drive;
  int side = 0;        // 0 left, 1 right
  int phalanx = 0;     // 0..2 from the palm; the finger's number for kFinger (below)
  int finger = 0;      // 0 index .. 3 pinky
  float share = 0.0f;  // kTwist: fraction of the parent's twist (negative counter-rotates)
  int follow = -1;     // kIkFollow: the base joint whose model transform is copied
};

// Finger phalanx lengths (model units), index to pinky, palm outwards.
constexpr float kFingerLength[4][3] = {{0.040f, 0.025f, 0.020f},
                                       {0.045f, 0.028f, 0.020f},
                                       {0.042f, 0.026f, 0.019f},
                                       {0.033f, 0.020f, 0.017f}};
// Knuckle offsets across the palm (along Z) and along the hand's bone.
constexpr float kKnuckleAcross[4] = {0.027f, 0.009f, -0.009f, -0.025f};
constexpr float kKnuckleAlong[4] = {0.088f, 0.090f, 0.087f, 0.080f};
constexpr float kThumbLength[3] = {0.035f, 0.030f, 0.025f};
constexpr const char* kFingerNames[4] = {"index", "middle", "ring", "pinky"};

std::vector<ExtraJoint> extraJoints() {
  std::vector<ExtraJoint> out;
  auto add = [&out](ExtraJoint j) { out.push_back(std::move(j)); };
  for (int s = 0; s < 2; ++s) {
    const std::string sfx = kSuffix[s];
    const int upper = s == 0 ? kUpperArmL : kUpperArmR;
    const int lower = s == 0 ? kLowerArmL : kLowerArmR;
    const int hand = s == 0 ? kHandL : kHandR;
    const int thigh = s == 0 ? kUpperLegL : kUpperLegR;
    const int shin = s == 0 ? kLowerLegL : kLowerLegR;
    const int foot = s == 0 ? kFootL : kFootR;
    const glm::vec3 shoulder = jointInfo(upper).position, elbow = jointInfo(lower).position;
    const glm::vec3 wrist = jointInfo(hand).position;
    add({"upper_arm_twist" + sfx, jointInfo(upper).name, glm::mix(shoulder, elbow, 0.5f),
         Drive::kTwist, s, 0, 0, -0.5f});
    add({"lower_arm_twist" + sfx, jointInfo(lower).name, glm::mix(elbow, wrist, 0.75f),
         Drive::kTwist, s, 0, 0, 0.5f});
    const glm::vec3 hip = jointInfo(thigh).position, knee = jointInfo(shin).position;
    const glm::vec3 ankle = jointInfo(foot).position;
    add({"upper_leg_twist" + sfx, jointInfo(thigh).name, glm::mix(hip, knee, 0.5f), Drive::kTwist,
         s, 0, 0, -0.5f});
    add({"lower_leg_twist" + sfx, jointInfo(shin).name, glm::mix(knee, ankle, 0.5f), Drive::kTwist,
         s, 0, 0, 0.5f});
    // Fingers: chains of three phalanges along the hand's bone, spread across the palm.
    const glm::vec3 along = restBoneDirection(hand);
    for (int f = 0; f < 4; ++f) {
      glm::vec3 p = wrist + along * kKnuckleAlong[f] + kAxisZ * kKnuckleAcross[f];
      std::string parent = jointInfo(hand).name;
      for (int k = 0; k < 3; ++k) {
        std::string name = std::string(kFingerNames[f]) + "_0" + std::to_string(k + 1) + sfx;
        add({name, parent, p, Drive::kFinger, s, k, f});
        parent = std::move(name);
        p += along * kFingerLength[f][k];
      }
    }
    const glm::vec3 thumb_dir = glm::normalize(along + kAxisZ * 0.9f);
    glm::vec3 p = wrist + along * 0.025f + kAxisZ * 0.03f;
    std::string parent = jointInfo(hand).name;
    for (int k = 0; k < 3; ++k) {
      std::string name = "thumb_0" + std::to_string(k + 1) + sfx;
      add({name, parent, p, Drive::kThumb, s, k});
      parent = std::move(name);
      p += thumb_dir * kThumbLength[k];
    }
  }
  add({"jaw", "head", {0.0f, 1.63f, 0.04f}, Drive::kJaw});
  add({"eye.L", "head", {0.032f, 1.70f, 0.085f}, Drive::kEye, 0});
  add({"eye.R", "head", {-0.032f, 1.70f, 0.085f}, Drive::kEye, 1});
  // IK helpers of game rigs: unweighted, they carry the feet's and hands' model transforms.
  add({"ik_foot_root", "root", glm::vec3(0.0f), Drive::kIkRoot});
  add({"ik_foot.L", "ik_foot_root", jointInfo(kFootL).position, Drive::kIkFollow, 0, 0, 0, 0.0f,
       kFootL});
  add({"ik_foot.R", "ik_foot_root", jointInfo(kFootR).position, Drive::kIkFollow, 1, 0, 0, 0.0f,
       kFootR});
  add({"ik_hand_root", "root", glm::vec3(0.0f), Drive::kIkRoot});
  add({"ik_hand_gun", "ik_hand_root", jointInfo(kHandR).position, Drive::kIkFollow, 1, 0, 0, 0.0f,
       kHandR});
  add({"ik_hand.L", "ik_hand_gun", jointInfo(kHandL).position, Drive::kIkFollow, 0, 0, 0, 0.0f,
       kHandL});
  add({"ik_hand.R", "ik_hand_gun", jointInfo(kHandR).position, Drive::kIkFollow, 1, 0, 0, 0.0f,
       kHandR});
  return out;
}

// One joint of the humanoid, in its skeleton's order.
struct HumanoidJoint {
  Drive drive = Drive::kBase;
  int base = -1;  // the sample joint (kBase) or the followed joint (kIkFollow)
  ExtraJoint extra;
};

// The twist part of `q` about unit `axis` (swing-twist decomposition).
glm::quat twistAbout(const glm::quat& q, glm::vec3 axis) {
  const glm::vec3 v(q.x, q.y, q.z);
  const glm::vec3 p = axis * glm::dot(v, axis);
  glm::quat t(q.w, p.x, p.y, p.z);
  const float length = glm::length(t);
  return length < 1e-6f ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : t / length;
}

// Share `s` of rotation `q` (slerp from identity).
glm::quat partOf(const glm::quat& q, float s) {
  return glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), q, s);
}

// How far the fingers close (0 relaxed .. 1 a fist) in clip `clip` at `t` seconds, and a small
// per-finger ripple so that the hand looks alive.
float fistAmount(int clip, float t, float duration) {
  const float u = duration > 0.0f ? t / duration : 0.0f;
  switch (clip) {
    case 2:  // run: fists loosely closed
      return 0.45f;
    case 3: {  // attack: clench for the punch, open again to recover
      auto ramp = [](float x, float a, float b) {
        const float y = std::clamp((x - a) / (b - a), 0.0f, 1.0f);
        return y * y * (3.0f - 2.0f * y);
      };
      return ramp(t, 0.1f, 0.4f) * (1.0f - ramp(t, 0.8f, 1.25f));
    }
    case 4:  // die: the hands fall open
      return -0.6f * u;
    default:
      return 0.0f;
  }
}

// Seconds of one ripple cycle per clip: the idle breathes slowly, the gaits swing once a cycle.
float ripplePeriod(int clip, float duration) {
  return clip == 1 || clip == 2 ? duration : 3.0f;
}

glm::quat extraRotation(const HumanoidJoint& j, int clip, float t, float duration,
                        const std::array<glm::quat, kJointCount>& base, int parent_base) {
  const ExtraJoint& e = j.extra;
  const float cycle = 2.0f * kPi * t / ripplePeriod(clip, duration);
  switch (j.drive) {
    case Drive::kTwist: {
      assert(parent_base >= 0);
      return partOf(twistAbout(base[parent_base], restBoneDirection(parent_base)), e.share);
    }
    case Drive::kFinger: {
      const float relaxed = std::array<float, 3>{18.0f, 22.0f, 15.0f}[e.phalanx];
      const float fist = fistAmount(clip, t, duration);
      const float ripple =
          4.0f * std::sin(cycle + 0.6f * static_cast<float>(e.finger) + static_cast<float>(e.side));
      const float degrees = std::max(0.0f, relaxed + fist * (85.0f - relaxed) + ripple);
      // Curling bends towards the palm: about -Z on the left hand, +Z on the right.
      return glm::angleAxis(glm::radians(degrees), -kSideX[e.side] * kAxisZ);
    }
    case Drive::kThumb: {
      const float relaxed = std::array<float, 3>{10.0f, 12.0f, 8.0f}[e.phalanx];
      const float fist = fistAmount(clip, t, duration);
      const float degrees =
          std::max(0.0f, relaxed + fist * (50.0f - relaxed) + 3.0f * std::sin(cycle + 1.3f));
      const glm::vec3 along = restBoneDirection(e.side == 0 ? kHandL : kHandR);
      return glm::angleAxis(glm::radians(degrees), along);
    }
    case Drive::kJaw: {
      float degrees = 1.5f + 1.0f * std::sin(cycle);
      if (clip == 3) degrees = 0.5f;  // clenched for the punch
      if (clip == 4) degrees = 12.0f * std::min(1.0f, t / duration * 1.5f);
      return glm::angleAxis(glm::radians(degrees), kAxisX);
    }
    case Drive::kEye: {
      const float yaw = 6.0f * std::sin(cycle * 2.0f) + 2.0f * std::sin(cycle * 5.0f);
      const float pitch = 2.0f * std::sin(cycle * 3.0f + 0.4f);
      return glm::angleAxis(glm::radians(yaw), kAxisY) *
             glm::angleAxis(glm::radians(pitch), kAxisX);
    }
    default:
      return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
}

struct Humanoid {
  Skeleton skeleton;
  std::vector<HumanoidJoint> joints;  // skeleton order
};

Humanoid buildHumanoidSkeleton() {
  const std::vector<ExtraJoint> extras = extraJoints();
  RawSkeleton raw;
  std::vector<glm::vec3> positions;
  auto position_of = [&](const std::string& name) {
    for (size_t i = 0; i < raw.joints.size(); ++i) {
      if (raw.joints[i].name == name) return positions[i];
    }
    assert(false && "parents are listed first");
    return glm::vec3(0.0f);
  };
  for (int j = 0; j < kJointCount; ++j) {
    const JointInfo& info = jointInfo(j);
    RawJoint& out = raw.joints.emplace_back();
    out.name = info.name;
    if (info.parent >= 0) out.parent = jointInfo(info.parent).name;
    positions.push_back(info.position);
  }
  for (const ExtraJoint& e : extras) {
    RawJoint& out = raw.joints.emplace_back();
    out.name = e.name;
    out.parent = e.parent;
    positions.push_back(e.position);
  }
  // Identity rest rotations: a joint's rest translation is the offset from its parent, its rest
  // model matrix a translation, and rest == bind.
  for (size_t i = 0; i < raw.joints.size(); ++i) {
    RawJoint& joint = raw.joints[i];
    joint.rest.translation =
        joint.parent.empty() ? positions[i] : positions[i] - position_of(joint.parent);
    joint.inverse_bind = glm::inverse(glm::translate(glm::mat4(1.0f), positions[i]));
  }
  Result<Skeleton> skeleton = buildSkeleton(raw, "benchmark humanoid");
  assert(skeleton.ok());
  Humanoid h;
  h.skeleton = std::move(skeleton).value();
  h.joints.resize(h.skeleton.jointCount());
  for (int j = 0; j < h.skeleton.jointCount(); ++j) {
    const std::string& name = h.skeleton.names()[j];
    HumanoidJoint& out = h.joints[j];
    for (int b = 0; b < kJointCount; ++b) {
      if (name == jointInfo(b).name) out.base = b;
    }
    if (out.base >= 0) continue;
    for (const ExtraJoint& e : extras) {
      if (e.name == name) {
        out.extra = e;
        out.drive = e.drive;
        out.base = e.follow;
      }
    }
  }
  return h;
}

// Model-space transform of every sample joint at one key (translation, rotation).
struct ModelPose {
  std::array<glm::vec3, kJointCount> position;
  std::array<glm::quat, kJointCount> rotation;
};

ModelPose forwardKinematics(const glm::vec3& hips_translation,
                            const std::array<glm::quat, kJointCount>& local) {
  ModelPose m;
  for (int j = 0; j < kJointCount; ++j) {
    const int parent = jointInfo(j).parent;
    const glm::vec3 offset =
        j == kHips
            ? hips_translation
            : jointInfo(j).position - (parent >= 0 ? jointInfo(parent).position : glm::vec3(0.0f));
    if (parent < 0) {
      m.position[j] = offset;
      m.rotation[j] = local[j];
    } else {
      m.position[j] = m.position[parent] + m.rotation[parent] * offset;
      m.rotation[j] = glm::normalize(m.rotation[parent] * local[j]);
    }
  }
  return m;
}

// Joints whose parent is an IK joint store their transform relative to that parent.
Transform ikLocal(const Humanoid& h, int joint, const ModelPose& m) {
  const HumanoidJoint& info = h.joints[joint];
  Transform out;
  const int parent = h.skeleton.parents()[joint];
  const HumanoidJoint& p = h.joints[parent];
  glm::vec3 parent_position(0.0f);
  glm::quat parent_rotation(1.0f, 0.0f, 0.0f, 0.0f);
  if (p.drive == Drive::kIkFollow) {
    parent_position = m.position[p.base];
    parent_rotation = m.rotation[p.base];
  }
  const glm::quat inverse = glm::inverse(parent_rotation);
  out.translation = inverse * (m.position[info.base] - parent_position);
  out.rotation = glm::normalize(inverse * m.rotation[info.base]);
  return out;
}

Clip humanoidClip(const Humanoid& h, const Clip& source, int clip_index, bool loop) {
  // The sample's clips key all their tracks at the same times.
  const std::vector<float>& times = source.joints[kHips].translation.times;
  const int joints = h.skeleton.jointCount();
  const float duration = source.duration();
  Clip clip;
  clip.name = source.name;
  clip.joints.resize(joints);
  for (JointTracks& tracks : clip.joints) {
    for (Vec3Track* track : {&tracks.translation, &tracks.scale}) {
      track->interpolation = Interpolation::kLinear;
      track->times = times;
    }
    tracks.rotation.interpolation = Interpolation::kLinear;
    tracks.rotation.times = times;
  }
  for (size_t k = 0; k < times.size(); ++k) {
    // A loop's last key is its first (seamless), as the sample's are.
    const size_t key = loop && k + 1 == times.size() ? 0 : k;
    const float t = times[key];
    std::array<glm::quat, kJointCount> base;
    for (int b = 0; b < kJointCount; ++b) {
      const QuatTrack& r = source.joints[b].rotation;
      base[b] = r.empty() ? glm::quat(1.0f, 0.0f, 0.0f, 0.0f) : r.values[key];
    }
    const glm::vec3 hips = source.joints[kHips].translation.values[key];
    const ModelPose model = forwardKinematics(hips, base);
    for (int j = 0; j < joints; ++j) {
      const HumanoidJoint& info = h.joints[j];
      Transform local = h.skeleton.restPoses()[j];
      if (info.drive == Drive::kBase) {
        local.rotation = base[info.base];
        if (info.base == kHips) local.translation = hips;
      } else if (info.drive == Drive::kIkFollow) {
        local = ikLocal(h, j, model);
      } else if (info.drive != Drive::kIkRoot) {
        const int parent = h.skeleton.parents()[j];
        local.rotation = extraRotation(info, clip_index, t, duration, base, h.joints[parent].base);
      }
      JointTracks& tracks = clip.joints[j];
      tracks.translation.values.push_back(local.translation);
      glm::quat q = local.rotation;
      // Neighbouring keys in one hemisphere, as exporters write them.
      if (!tracks.rotation.values.empty() && glm::dot(tracks.rotation.values.back(), q) < 0.0f) {
        q = -q;
      }
      tracks.rotation.values.push_back(q);
      tracks.scale.values.push_back(local.scale);
    }
  }
  updateClipRange(clip);
  return clip;
}

}  // namespace
}  // namespace sample

Character makeBenchmarkHumanoid() {
  using namespace sample;
  const Character source = makeSampleCharacter();
  const Humanoid h = buildHumanoidSkeleton();
  Character character;
  character.skeleton = h.skeleton;
  // The sample's mesh and looks (its sub-meshes index the sample's materials), its joint indices
  // moved to the humanoid's order.
  character.mesh = source.mesh;
  character.materials = source.materials;
  character.images = source.images;
  character.variants = source.variants;
  std::array<uint16_t, kJointCount> to_humanoid{};
  for (int b = 0; b < kJointCount; ++b) {
    to_humanoid[b] = static_cast<uint16_t>(character.skeleton.findJoint(jointInfo(b).name));
  }
  for (glm::u16vec4& v : character.mesh.joints) {
    for (int i = 0; i < 4; ++i) v[i] = to_humanoid[v[i]];
  }
  for (size_t c = 0; c < source.clips.size(); ++c) {
    // idle, walk and run loop; attack and die play once (kSampleClipNames).
    character.clips.push_back(humanoidClip(h, source.clips[c], static_cast<int>(c), c < 3));
  }
  return character;
}

}  // namespace throng
