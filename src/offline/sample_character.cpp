// The sample character's skeleton, and the assembly of skeleton, mesh and clips.
#include "throng/offline/sample_character.h"

#include <cassert>

#include "offline/sample_character_internal.h"

namespace throng {
namespace sample {
namespace {

// cos(45 degrees): the A pose holds the arms 45 degrees below the horizontal.
constexpr float kDiag = 0.70710677f;

const glm::vec3 kPosUpperArm{0.18f, 1.44f, 0.0f};
const glm::vec3 kArmDownL{kDiag, -kDiag, 0.0f};
constexpr float kUpperArmLength = 0.28f;
constexpr float kLowerArmLength = 0.26f;
constexpr float kHandLength = 0.15f;

const glm::vec3 kPosLowerArm = kPosUpperArm + kArmDownL * kUpperArmLength;
const glm::vec3 kPosHand = kPosLowerArm + kArmDownL * kLowerArmLength;
const glm::vec3 kPosHandTip = kPosHand + kArmDownL * kHandLength;

const JointInfo kJoints[kJointCount] = {
    {"root", -1, {0.0f, 0.0f, 0.0f}, {0.0f, 0.98f, 0.0f}},
    {"hips", kRoot, {0.0f, 0.98f, 0.0f}, {0.0f, 1.08f, 0.0f}},
    {"spine_01", kHips, {0.0f, 1.08f, 0.0f}, {0.0f, 1.20f, 0.0f}},
    {"spine_02", kSpine1, {0.0f, 1.20f, 0.0f}, {0.0f, 1.32f, 0.0f}},
    {"spine_03", kSpine2, {0.0f, 1.32f, 0.0f}, {0.0f, 1.47f, 0.0f}},
    {"neck", kSpine3, {0.0f, 1.47f, 0.0f}, {0.0f, 1.60f, 0.01f}},
    {"head", kNeck, {0.0f, 1.60f, 0.01f}, {0.0f, 1.78f, 0.01f}},
    {"clavicle.L", kSpine3, {0.03f, 1.44f, 0.0f}, kPosUpperArm},
    {"upper_arm.L", kClavicleL, kPosUpperArm, kPosLowerArm},
    {"lower_arm.L", kUpperArmL, kPosLowerArm, kPosHand},
    {"hand.L", kLowerArmL, kPosHand, kPosHandTip},
    {"clavicle.R", kSpine3, mirror({0.03f, 1.44f, 0.0f}), mirror(kPosUpperArm)},
    {"upper_arm.R", kClavicleR, mirror(kPosUpperArm), mirror(kPosLowerArm)},
    {"lower_arm.R", kUpperArmR, mirror(kPosLowerArm), mirror(kPosHand)},
    {"hand.R", kLowerArmR, mirror(kPosHand), mirror(kPosHandTip)},
    {"upper_leg.L", kHips, {0.09f, 0.93f, 0.0f}, {0.09f, 0.51f, 0.0f}},
    {"lower_leg.L", kUpperLegL, {0.09f, 0.51f, 0.0f}, {0.09f, 0.09f, -0.01f}},
    {"foot.L", kLowerLegL, {0.09f, 0.09f, -0.01f}, {0.09f, 0.03f, 0.12f}},
    {"toes.L", kFootL, {0.09f, 0.03f, 0.12f}, {0.09f, 0.03f, 0.19f}},
    {"upper_leg.R", kHips, {-0.09f, 0.93f, 0.0f}, {-0.09f, 0.51f, 0.0f}},
    {"lower_leg.R", kUpperLegR, {-0.09f, 0.51f, 0.0f}, {-0.09f, 0.09f, -0.01f}},
    {"foot.R", kLowerLegR, {-0.09f, 0.09f, -0.01f}, {-0.09f, 0.03f, 0.12f}},
    {"toes.R", kFootR, {-0.09f, 0.03f, 0.12f}, {-0.09f, 0.03f, 0.19f}},
};

Skeleton buildSampleSkeleton() {
  // Rest rotations are identity, so each joint's local translation is the offset from its parent
  // and its rest model matrix a pure translation; rest == bind.
  RawSkeleton raw;
  std::vector<glm::mat4> models(kJointCount);
  for (int j = 0; j < kJointCount; ++j) {
    const JointInfo& info = kJoints[j];
    RawJoint& out = raw.joints.emplace_back();
    out.name = info.name;
    if (info.parent >= 0) out.parent = kJoints[info.parent].name;
    out.rest.translation =
        info.parent >= 0 ? info.position - kJoints[info.parent].position : info.position;
    models[j] = (info.parent >= 0 ? models[info.parent] : glm::mat4(1.0f)) * toMatrix(out.rest);
    out.inverse_bind = glm::inverse(models[j]);
  }
  Result<Skeleton> skeleton = buildSkeleton(raw, "sample character");
  assert(skeleton.ok());
  // The enum is the depth-first order buildSkeleton produces.
  for (int j = 0; j < kJointCount; ++j) assert(skeleton->names()[j] == kJoints[j].name);
  return std::move(skeleton).value();
}

}  // namespace

const JointInfo& jointInfo(int joint) {
  assert(joint >= 0 && joint < kJointCount);
  return kJoints[joint];
}

glm::vec3 restBoneDirection(int joint) {
  const JointInfo& info = jointInfo(joint);
  return glm::normalize(info.bone_tip - info.position);
}

}  // namespace sample

namespace {

// One material per sub-mesh, in their order: plain base colours (linear), so the crowd is not
// grey; matte (dielectric, fully rough: no highlights), opaque and single-sided (the parts are
// closed surfaces).
std::vector<Material> sampleMaterials() {
  auto make = [](const char* name, glm::vec3 linear) {
    Material m;
    m.name = name;
    m.base_color = glm::vec4(linear, 1.0f);
    m.metallic_factor = 0.0f;
    m.roughness_factor = 1.0f;
    return m;
  };
  return {make("clothes", {0.10f, 0.22f, 0.50f}), make("skin", {0.72f, 0.43f, 0.30f}),
          make("shoes", {0.09f, 0.055f, 0.035f})};
}

}  // namespace

Character makeSampleCharacter() {
  Character character;
  character.skeleton = sample::buildSampleSkeleton();
  character.mesh = sample::buildSampleMesh();
  character.materials = sampleMaterials();
  character.clips = sample::buildSampleClips(character.skeleton, character.mesh);
  return character;
}

}  // namespace throng
