// The sample character's clips: procedural body curves sampled into 30 Hz LINEAR keys.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "offline/sample_character_internal.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/sample_character.h"

namespace throng::sample {
namespace {

// Keys per second: dense enough that linear interpolation of these smooth curves is visually
// indistinguishable from the curves themselves.
constexpr float kKeyRate = 30.0f;

constexpr float kTwoPi = 2.0f * kPi;

constexpr float kIdlePeriod = 3.0f;
constexpr float kAttackDuration = 1.3f;
constexpr float kDieDuration = 2.0f;

glm::quat rotation(float degrees, glm::vec3 axis) {
  return glm::angleAxis(glm::radians(degrees), axis);
}

// The smallest rotation taking unit vector `from` to unit vector `to`.
glm::quat fromTo(glm::vec3 from, glm::vec3 to) {
  const float d = glm::dot(from, to);
  if (d < -0.9999f) {
    glm::vec3 axis = glm::cross(kAxisX, from);
    if (glm::length(axis) < 1e-3f) axis = glm::cross(kAxisY, from);
    return glm::angleAxis(kPi, glm::normalize(axis));
  }
  const glm::vec3 c = glm::cross(from, to);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

float ease(float x) {
  return x * x * (3.0f - 2.0f * x);
}

// Everything a clip animates, in readable units: degrees, unit directions, model units.
// Index 0 of the per-side arrays is the left side (+X), 1 the right side.
struct Body {
  glm::vec3 hips_offset{0.0f};
  float hips_pitch = 0.0f;   // positive: the top of the pelvis tips forward (+Z)
  float hips_yaw = 0.0f;     // positive: turns to its left (counter-clockwise seen from above)
  float hips_roll = 0.0f;    // positive: the top of the pelvis tips to its right (-X)
  float spine_pitch = 0.0f;  // per spine joint, positive leans forward
  float spine_yaw = 0.0f;    // per spine joint
  float spine_roll = 0.0f;   // per spine joint
  float neck_pitch = 0.0f;
  float head_pitch = 0.0f;  // positive nods down
  float head_yaw = 0.0f;
  std::array<float, 2> clavicle_raise{};  // positive lifts the shoulder
  std::array<glm::vec3, 2> upper_arm{};   // direction in the chest (spine_03) frame
  std::array<float, 2> elbow{};           // flexion, the forearm turning towards chest-forward
  std::array<float, 2> hip_flex{};        // positive swings the thigh forward
  std::array<float, 2> hip_abduct{};      // positive swings the thigh outwards
  std::array<float, 2> knee{};            // positive bends the shin backwards
  std::array<float, 2> ankle{};           // positive lifts the toes
  std::array<float, 2> toes{};            // positive bends the toes up
};

// The arm direction of the A pose lowered by `degrees` more and swung forward by `swing`.
glm::vec3 armDirection(int side, float below_horizontal, float swing) {
  const float a = glm::radians(below_horizontal);
  const glm::vec3 lowered(kSideX[side] * std::cos(a), -std::sin(a), 0.0f);
  return rotation(swing, -kAxisX) * lowered;
}

// A relaxed standing body: arms hanging 75 degrees below the horizontal, elbows soft.
Body standing() {
  Body body;
  for (int side = 0; side < 2; ++side) {
    body.upper_arm[side] = armDirection(side, 75.0f, 3.0f);
    body.elbow[side] = 12.0f;
  }
  return body;
}

// Turns unit direction `a` towards `b` by fraction t of the angle between them (directions
// far apart would pass near zero length with a plain lerp, and swing in one frame).
glm::vec3 slerpDirection(glm::vec3 a, glm::vec3 b, float t) {
  a = glm::normalize(a);
  b = glm::normalize(b);
  const float angle = std::acos(std::clamp(glm::dot(a, b), -1.0f, 1.0f));
  if (angle < 1e-4f) return glm::normalize(glm::mix(a, b, t));
  const glm::quat full = fromTo(a, b);
  return glm::angleAxis(angle * t, glm::axis(full)) * a;
}

Body blend(const Body& a, const Body& b, float t) {
  auto mix = [t](float x, float y) { return x + (y - x) * t; };
  Body out;
  out.hips_offset = glm::mix(a.hips_offset, b.hips_offset, t);
  out.hips_pitch = mix(a.hips_pitch, b.hips_pitch);
  out.hips_yaw = mix(a.hips_yaw, b.hips_yaw);
  out.hips_roll = mix(a.hips_roll, b.hips_roll);
  out.spine_pitch = mix(a.spine_pitch, b.spine_pitch);
  out.spine_yaw = mix(a.spine_yaw, b.spine_yaw);
  out.spine_roll = mix(a.spine_roll, b.spine_roll);
  out.neck_pitch = mix(a.neck_pitch, b.neck_pitch);
  out.head_pitch = mix(a.head_pitch, b.head_pitch);
  out.head_yaw = mix(a.head_yaw, b.head_yaw);
  for (int s = 0; s < 2; ++s) {
    out.clavicle_raise[s] = mix(a.clavicle_raise[s], b.clavicle_raise[s]);
    out.upper_arm[s] = slerpDirection(a.upper_arm[s], b.upper_arm[s], t);
    out.elbow[s] = mix(a.elbow[s], b.elbow[s]);
    out.hip_flex[s] = mix(a.hip_flex[s], b.hip_flex[s]);
    out.hip_abduct[s] = mix(a.hip_abduct[s], b.hip_abduct[s]);
    out.knee[s] = mix(a.knee[s], b.knee[s]);
    out.ankle[s] = mix(a.ankle[s], b.ankle[s]);
    out.toes[s] = mix(a.toes[s], b.toes[s]);
  }
  return out;
}

struct Pose {
  glm::vec3 hips_offset{0.0f};
  std::array<glm::quat, kJointCount> local;  // local rotations (rest rotations are identity)
};

glm::quat yawPitchRoll(float yaw, float pitch, float roll) {
  return rotation(yaw, kAxisY) * rotation(pitch, kAxisX) * rotation(roll, kAxisZ);
}

Pose toPose(const Body& body) {
  Pose pose;
  pose.local.fill(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  pose.hips_offset = body.hips_offset;
  pose.local[kHips] = yawPitchRoll(body.hips_yaw, body.hips_pitch, body.hips_roll);
  for (const int j : {kSpine1, kSpine2, kSpine3}) {
    pose.local[j] = yawPitchRoll(body.spine_yaw, body.spine_pitch, body.spine_roll);
  }
  pose.local[kNeck] = rotation(body.neck_pitch, kAxisX);
  pose.local[kHead] = rotation(body.head_yaw, kAxisY) * rotation(body.head_pitch, kAxisX);

  const int clavicles[2] = {kClavicleL, kClavicleR};
  const int uppers[2] = {kUpperArmL, kUpperArmR};
  const int lowers[2] = {kLowerArmL, kLowerArmR};
  const int thighs[2] = {kUpperLegL, kUpperLegR};
  const int shins[2] = {kLowerLegL, kLowerLegR};
  const int feet[2] = {kFootL, kFootR};
  const int toes[2] = {kToesL, kToesR};
  for (int s = 0; s < 2; ++s) {
    const glm::quat clavicle = rotation(body.clavicle_raise[s], kSideX[s] * kAxisZ);
    pose.local[clavicles[s]] = clavicle;
    // Upper arm: aimed in the chest frame, expressed relative to the clavicle.
    const glm::vec3 rest_dir = restBoneDirection(uppers[s]);
    const glm::vec3 upper_dir = glm::normalize(body.upper_arm[s]);
    const glm::quat upper_in_chest = fromTo(rest_dir, upper_dir);
    pose.local[uppers[s]] = glm::inverse(clavicle) * upper_in_chest;
    // Forearm: the upper arm direction bent towards chest-forward by the elbow angle.
    glm::vec3 hinge = glm::cross(upper_dir, kAxisZ);
    hinge = glm::length(hinge) < 1e-3f ? kSideX[s] * kAxisX : glm::normalize(hinge);
    const glm::vec3 fore_dir = rotation(body.elbow[s], hinge) * upper_dir;
    pose.local[lowers[s]] =
        glm::inverse(upper_in_chest) * fromTo(restBoneDirection(lowers[s]), fore_dir);
    // Legs: hinges about the X axis, abduction about Z (outwards is +Z on the left).
    pose.local[thighs[s]] =
        rotation(body.hip_flex[s], -kAxisX) * rotation(body.hip_abduct[s], kSideX[s] * kAxisZ);
    pose.local[shins[s]] = rotation(body.knee[s], kAxisX);
    pose.local[feet[s]] = rotation(body.ankle[s], -kAxisX);
    pose.local[toes[s]] = rotation(body.toes[s], -kAxisX);
  }
  return pose;
}

// Lowest skinned vertex height of `pose` (model units).
float lowestPoint(const Pose& pose, const Skeleton& skeleton, const SkinnedMesh& mesh) {
  std::vector<Transform> locals(skeleton.restPoses().begin(), skeleton.restPoses().end());
  locals[kHips].translation += pose.hips_offset;
  for (int j = 0; j < kJointCount; ++j) locals[j].rotation = pose.local[j];
  std::vector<glm::mat4> models(kJointCount);
  std::vector<JointRows> palette(kJointCount);
  std::vector<glm::vec3> positions(mesh.vertexCount());
  const bool ok =
      LocalToModelJob{skeleton.parents(), locals, glm::mat4(1.0f), models}.run() &&
      PaletteJob{models, skeleton.inverseBinds(), palette}.run() &&
      SkinJob{mesh.positions, {}, mesh.joints, mesh.weights, palette, positions, {}}.run();
  assert(ok);
  (void)ok;
  float lowest = std::numeric_limits<float>::max();
  for (const glm::vec3& p : positions) lowest = std::min(lowest, p.y);
  return lowest;
}

// Samples `body_at` at kKeyRate into LINEAR tracks. Joints that never leave identity keep empty
// tracks (the rest pose). For a loop the last key is a copy of the first, so the loop is seamless.
// With `grounded`, a pose that would push a vertex below y = 0 is lifted until it does not (the
// key poses of falls and lunges are authored by angles, which cannot keep every limb above the
// floor in between).
Clip sampleClip(const char* name, float duration, bool loop, bool grounded,
                const Skeleton& skeleton, const SkinnedMesh& mesh,
                const std::function<Body(float)>& body_at) {
  const int intervals = static_cast<int>(std::lround(duration * kKeyRate));
  std::vector<Pose> poses;
  std::vector<float> times;
  for (int k = 0; k <= intervals; ++k) {
    times.push_back(duration * static_cast<float>(k) / static_cast<float>(intervals));
    if (loop && k == intervals) {
      poses.push_back(poses.front());
      continue;
    }
    Pose pose = toPose(body_at(times.back()));
    if (grounded) pose.hips_offset.y -= std::min(0.0f, lowestPoint(pose, skeleton, mesh));
    poses.push_back(pose);
  }
  times.back() = duration;

  Clip clip;
  clip.name = name;
  clip.joints.resize(skeleton.jointCount());
  for (int j = 0; j < kJointCount; ++j) {
    bool moves = false;
    for (const Pose& pose : poses) {
      moves = moves || std::abs(std::abs(pose.local[j].w) - 1.0f) > 1e-7f;
    }
    if (!moves) continue;
    QuatTrack& track = clip.joints[j].rotation;
    track.interpolation = Interpolation::kLinear;
    track.times = times;
    for (const Pose& pose : poses) {
      glm::quat q = pose.local[j];
      // Keep consecutive keys in the same hemisphere (slerp takes the short way anyway).
      if (!track.values.empty() && glm::dot(track.values.back(), q) < 0.0f) q = -q;
      track.values.push_back(q);
    }
    if (loop) track.values.back() = track.values.front();
  }
  Vec3Track& hips = clip.joints[kHips].translation;
  hips.interpolation = Interpolation::kLinear;
  hips.times = times;
  const glm::vec3 rest = skeleton.restPoses()[kHips].translation;
  for (const Pose& pose : poses) hips.values.push_back(rest + pose.hips_offset);
  updateClipRange(clip);
  return clip;
}

Body idleAt(float t) {
  const float phase = kTwoPi * t / kIdlePeriod;
  Body body = standing();
  const float breath = std::sin(phase);
  body.spine_pitch = -0.8f * breath;
  for (float& raise : body.clavicle_raise) raise = 1.5f * breath + 1.0f;
  // Sway over the feet: the hips shift sideways while the legs lean back to keep them planted.
  const float sway = 0.012f * std::sin(phase + 0.5f);
  body.hips_offset = {sway, -0.004f + 0.002f * breath, 0.0f};
  body.hips_roll = 1.2f * std::sin(phase + 0.5f);
  body.spine_roll = -0.5f * body.hips_roll;
  const float lean = glm::degrees(std::asin(sway / 0.88f));
  // World tilt of a leg about +Z is roll + abduct (left) or roll - abduct (right); it must be
  // -lean for the foot to stay under its rest place.
  body.hip_abduct = {-lean - body.hips_roll, lean + body.hips_roll};
  body.head_yaw = 7.0f * std::sin(phase);
  body.head_pitch = 2.0f * std::sin(2.0f * phase);
  for (int side = 0; side < 2; ++side) {
    body.upper_arm[side] = armDirection(side, 75.0f, 3.0f + 2.0f * std::sin(phase + 1.0f));
    body.elbow[side] = 12.0f + 3.0f * breath;
  }
  return body;
}

// A gait: each foot's ankle follows a target (planted and sliding back at constant speed during
// stance, lifted and carried forward during swing) and two-bone IK turns it into hip and knee
// angles, so planted feet neither slide nor sink. Leg phase u in [0, 1): stance on [0, duty).
struct Gait {
  float period;       // seconds per cycle (two steps)
  float duty;         // fraction of the cycle a foot is planted
  float stride;       // model units a planted foot travels backwards relative to the body
  float lift;         // model units the ankle rises at mid-swing
  float hips_mean;    // hips height offset, mean (model units)
  float hips_bob;     // amplitude of the hips height change (two bobs per cycle)
  float bob_sign;     // +1: highest at mid-stance (walk), -1: lowest at mid-stance (run)
  float arm_below;    // arm hang, degrees below the horizontal
  float arm_swing;    // degrees either side
  float arm_bias;     // degrees forward
  float elbow;        // degrees
  float elbow_swing;  // extra degrees when the arm is forward
  float lean;         // degrees of forward lean of the spine
  float pelvis_yaw;   // degrees
  float sway;         // model units over the stance leg
  constexpr float speed() const { return stride / (duty * period); }
};

constexpr Gait kWalk{1.0f,  0.6f, 0.6f,  0.08f, -0.037f, 0.03f, 1.0f,  75.0f,
                     18.0f, 2.0f, 15.0f, 15.0f, 4.0f,    5.0f,  0.015f};
constexpr Gait kRun{0.6f,  0.35f, 0.5f,  0.28f, -0.065f, 0.03f, -1.0f, 60.0f,
                    35.0f, 10.0f, 80.0f, 15.0f, 12.0f,   9.0f,  0.01f};

constexpr bool nearlyEqual(float a, float b) {
  return a - b < 1e-3f && b - a < 1e-3f;
}
static_assert(nearlyEqual(kWalk.speed(), kSampleWalkSpeed), "kSampleWalkSpeed follows kWalk");
static_assert(nearlyEqual(kRun.speed(), kSampleRunSpeed), "kSampleRunSpeed follows kRun");

float fraction(float x) {
  return x - std::floor(x);
}

// Model-space ankle target of a foot at leg phase u.
glm::vec3 ankleTarget(const Gait& g, int side, float u) {
  const glm::vec3 rest = jointInfo(side == 0 ? kFootL : kFootR).position;
  if (u < g.duty) {
    return rest + glm::vec3(0.0f, 0.0f, g.stride * (0.5f - u / g.duty));
  }
  const float w = (u - g.duty) / (1.0f - g.duty);
  return rest + glm::vec3(0.0f, g.lift * std::sin(kPi * w), g.stride * (ease(w) - 0.5f));
}

// Hip flexion and knee bend (degrees) that put the ankle at `target` (model space).
void solveLeg(const Body& body, int side, glm::vec3 target, float& hip_flex, float& knee) {
  const int thigh = side == 0 ? kUpperLegL : kUpperLegR;
  const int shin = side == 0 ? kLowerLegL : kLowerLegR;
  const int foot = side == 0 ? kFootL : kFootR;
  const glm::vec3 hips = jointInfo(kHips).position + body.hips_offset;
  const glm::quat hips_rotation = yawPitchRoll(body.hips_yaw, body.hips_pitch, body.hips_roll);
  const glm::vec3 local = glm::inverse(hips_rotation) * (target - hips) -
                          (jointInfo(thigh).position - jointInfo(kHips).position);
  const float l1 = glm::length(jointInfo(shin).position - jointInfo(thigh).position);
  const glm::vec3 shin_vector = jointInfo(foot).position - jointInfo(shin).position;
  const float l2 = glm::length(shin_vector);
  // The rest shin leans back slightly; the knee angle is measured from that rest direction.
  const float shin_tilt = std::atan2(-shin_vector.z, -shin_vector.y);
  const float down = -local.y;
  const float forward = local.z;
  // Out of reach: stretch the leg as far as it goes along the same line.
  const float reach =
      std::clamp(std::hypot(down, forward), std::abs(l1 - l2) + 1e-4f, (l1 + l2) * 0.9995f);
  const float alpha = std::atan2(forward, down);
  const float beta =
      std::acos(std::clamp((l1 * l1 + reach * reach - l2 * l2) / (2 * l1 * reach), -1.0f, 1.0f));
  const float bend =
      std::acos(std::clamp((reach * reach - l1 * l1 - l2 * l2) / (2 * l1 * l2), -1.0f, 1.0f));
  hip_flex = glm::degrees(alpha + beta);
  knee = glm::degrees(bend - shin_tilt);
}

Body gaitAt(const Gait& g, float t) {
  Body body;
  const float cycle = t / g.period;
  const float u[2] = {fraction(cycle), fraction(cycle + 0.5f)};
  const float mid_stance = 0.5f * g.duty;
  // Two bobs per cycle, extreme at each foot's mid-stance.
  body.hips_offset.y =
      g.hips_mean + g.bob_sign * g.hips_bob * std::cos(4.0f * kPi * (u[0] - mid_stance));
  body.hips_offset.x = g.sway * std::cos(kTwoPi * (u[0] - mid_stance));
  // The pelvis turns the hip of the forward leg forwards; the chest turns against it.
  const float forward_left = std::cos(kTwoPi * u[0]);  // 1 when the left foot lands
  body.hips_yaw = -g.pelvis_yaw * forward_left;
  body.spine_yaw = 0.45f * g.pelvis_yaw * forward_left;
  body.head_yaw = -0.35f * g.pelvis_yaw * forward_left;
  body.spine_pitch = g.lean / 3.0f;
  body.head_pitch = -g.lean * 0.6f;
  for (int side = 0; side < 2; ++side) {
    solveLeg(body, side, ankleTarget(g, side, u[side]), body.hip_flex[side], body.knee[side]);
    // The sole stays level while planted; in the air the toes lift before landing.
    float pitch = 0.0f;
    if (u[side] >= g.duty) {
      const float w = (u[side] - g.duty) / (1.0f - g.duty);
      pitch = 20.0f * std::sin(kPi * w) * (w - 0.4f);  // toes down after lift-off, up to land
    }
    body.ankle[side] = body.knee[side] - body.hip_flex[side] + pitch;
    // Arms swing against the leg of their side: back when that foot lands.
    const float arm = -std::cos(kTwoPi * u[side]);
    body.upper_arm[side] = armDirection(side, g.arm_below, g.arm_bias + g.arm_swing * arm);
    body.elbow[side] = g.elbow + g.elbow_swing * std::max(0.0f, arm);
  }
  return body;
}

// Key poses eased into each other; `keys` are (time, body), times increasing.
Body keyed(const std::vector<std::pair<float, Body>>& keys, float t) {
  if (t <= keys.front().first) return keys.front().second;
  for (size_t k = 0; k + 1 < keys.size(); ++k) {
    if (t <= keys[k + 1].first) {
      const float u = (t - keys[k].first) / (keys[k + 1].first - keys[k].first);
      return blend(keys[k].second, keys[k + 1].second, ease(u));
    }
  }
  return keys.back().second;
}

// A right cross: crouch and pull the right fist back (wind-up), twist through the hips and
// extend the arm straight forward (strike), hold, recover to standing.
std::vector<std::pair<float, Body>> attackKeys() {
  const Body rest = standing();
  Body windup = rest;
  windup.hips_offset = {0.0f, -0.03f, -0.02f};
  windup.hips_yaw = -20.0f;
  windup.spine_yaw = -8.0f;
  windup.spine_pitch = -1.0f;
  windup.head_yaw = 35.0f;
  windup.hip_flex = {18.0f, 12.0f};
  windup.knee = {25.0f, 22.0f};
  windup.ankle = {7.0f, 10.0f};
  windup.upper_arm[1] = glm::normalize(glm::vec3(-0.5f, -0.8f, -0.2f));
  windup.elbow[1] = 125.0f;
  windup.upper_arm[0] = glm::normalize(glm::vec3(0.3f, -0.7f, 0.6f));
  windup.elbow[0] = 115.0f;
  windup.clavicle_raise = {4.0f, 6.0f};

  Body strike = windup;
  strike.hips_offset = {0.0f, -0.04f, 0.06f};
  strike.hips_yaw = 15.0f;
  strike.spine_yaw = 8.0f;
  strike.spine_pitch = 5.0f;
  strike.head_yaw = -35.0f;
  strike.hip_flex = {30.0f, -5.0f};
  strike.knee = {35.0f, 10.0f};
  strike.ankle = {5.0f, 15.0f};
  strike.upper_arm[1] = glm::normalize(glm::vec3(0.05f, 0.1f, 1.0f));
  strike.elbow[1] = 3.0f;
  strike.upper_arm[0] = glm::normalize(glm::vec3(0.4f, -0.75f, 0.35f));
  strike.elbow[0] = 125.0f;
  strike.clavicle_raise = {2.0f, 10.0f};

  Body hold = strike;
  hold.spine_pitch = 4.0f;
  hold.elbow[1] = 8.0f;
  return {{0.0f, rest}, {0.4f, windup}, {0.58f, strike}, {0.78f, hold}, {kAttackDuration, rest}};
}

// Hit, knees buckle, sit down hard, fall back and lie on the back, arms spread on the ground.
std::vector<std::pair<float, Body>> dieKeys() {
  const Body rest = standing();
  Body hit = rest;
  hit.hips_offset = {0.0f, 0.0f, -0.05f};
  hit.spine_pitch = -6.0f;
  hit.head_pitch = -20.0f;
  hit.upper_arm = {glm::normalize(glm::vec3(0.75f, 0.2f, -0.3f)),
                   glm::normalize(glm::vec3(-0.75f, 0.2f, -0.3f))};
  hit.elbow = {30.0f, 30.0f};

  Body buckle = rest;
  buckle.hips_offset = {0.0f, -0.30f, -0.03f};
  buckle.hip_flex = {50.0f, 45.0f};
  buckle.knee = {100.0f, 95.0f};
  buckle.ankle = {50.0f, 50.0f};
  buckle.spine_pitch = 8.0f;
  buckle.head_pitch = 15.0f;
  buckle.upper_arm = {glm::normalize(glm::vec3(0.45f, -0.85f, 0.1f)),
                      glm::normalize(glm::vec3(-0.45f, -0.85f, 0.1f))};
  buckle.elbow = {20.0f, 20.0f};

  Body sit = buckle;
  sit.hips_offset = {0.0f, -0.85f, -0.25f};
  sit.hips_pitch = -20.0f;
  // The pelvis tilts back 20 degrees, so the thighs point 130 degrees forward: knees up, feet
  // forward on the ground.
  sit.hip_flex = {110.0f, 105.0f};
  sit.knee = {78.0f, 82.0f};
  sit.ankle = {-30.0f, -25.0f};
  sit.spine_pitch = 6.0f;
  sit.upper_arm = {glm::normalize(glm::vec3(0.5f, -0.8f, -0.3f)),
                   glm::normalize(glm::vec3(-0.5f, -0.8f, -0.3f))};

  Body lying = sit;
  lying.hips_offset = {0.0f, -0.87f, -0.35f};
  lying.hips_pitch = -90.0f;
  lying.hip_flex = {8.0f, 3.0f};
  lying.hip_abduct = {8.0f, 6.0f};
  lying.knee = {12.0f, 6.0f};
  lying.ankle = {-35.0f, -40.0f};
  lying.spine_pitch = 0.0f;
  lying.head_pitch = -12.0f;
  lying.head_yaw = 20.0f;
  lying.upper_arm = {glm::normalize(glm::vec3(0.95f, 0.25f, -0.12f)),
                     glm::normalize(glm::vec3(-0.9f, 0.35f, -0.12f))};
  lying.elbow = {15.0f, 25.0f};

  Body settled = lying;
  settled.hips_offset = {0.0f, -0.865f, -0.35f};
  settled.head_yaw = 30.0f;
  settled.knee = {8.0f, 4.0f};
  return {{0.0f, rest}, {0.2f, hit},   {0.7f, buckle},
          {1.05f, sit}, {1.5f, lying}, {kDieDuration, settled}};
}

}  // namespace

std::vector<Clip> buildSampleClips(const Skeleton& skeleton, const SkinnedMesh& mesh) {
  std::vector<Clip> clips;
  clips.push_back(
      sampleClip(kSampleClipNames[0], kIdlePeriod, true, false, skeleton, mesh, idleAt));
  clips.push_back(sampleClip(kSampleClipNames[1], kWalk.period, true, false, skeleton, mesh,
                             [](float t) { return gaitAt(kWalk, t); }));
  clips.push_back(sampleClip(kSampleClipNames[2], kRun.period, true, false, skeleton, mesh,
                             [](float t) { return gaitAt(kRun, t); }));
  const auto attack = attackKeys();
  clips.push_back(sampleClip(kSampleClipNames[3], kAttackDuration, false, true, skeleton, mesh,
                             [&attack](float t) { return keyed(attack, t); }));
  const auto die = dieKeys();
  clips.push_back(sampleClip(kSampleClipNames[4], kDieDuration, false, true, skeleton, mesh,
                             [&die](float t) { return keyed(die, t); }));
  return clips;
}

}  // namespace throng::sample
