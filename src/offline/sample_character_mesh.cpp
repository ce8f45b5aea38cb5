// The sample character's mesh: one closed swept surface per body part, skinned by bone distance.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "offline/sample_character_internal.h"

namespace throng::sample {
namespace {

// Spacing of the rings along a part's path (model units): small enough that elbows and knees
// bend through several rings.
constexpr float kRingSpacing = 0.02f;
// Influences whose normalised weight is below this are dropped before the top four are kept:
// they move a vertex by well under a millimetre and only cost shader work.
constexpr float kMinWeight = 0.02f;
// Weights fall off as 1/distance^4 from each bone segment: sharp enough that mid-bone vertices
// follow one bone, smooth enough that a joint blends over about one limb radius on each side.
constexpr float kFalloffPower = 4.0f;
// Keeps the falloff finite for a vertex lying on a bone segment (0.5 mm).
constexpr float kFalloffEpsilon = 5e-4f;

struct PartNode {
  glm::vec3 position;
  float ra;  // cross-section radius along the part's reference axis
  float rb;  // cross-section radius along the third axis
};

struct Part {
  std::vector<PartNode> nodes;  // the path, at least two nodes
  glm::vec3 reference;          // the ra axis, made perpendicular to the path at each ring
  float cap_start;              // length of the start cap beyond the first node
  float cap_end;                // length of the end cap beyond the last node
  int cap_rings;                // rings per cap, the pole excluded
  int segments;                 // vertices per ring
  std::vector<int> bones;       // joints allowed to influence the part
};

struct Ring {
  glm::vec3 center;
  glm::vec3 tangent;
  float ra;
  float rb;
};

float smoothstep(float x) {
  return x * x * (3.0f - 2.0f * x);
}

// The bone segment of a joint for skin weights. The hips' segment reaches down through the
// pelvis so that the crotch follows the hips rather than either leg.
void boneSegment(int joint, glm::vec3& a, glm::vec3& b) {
  a = jointInfo(joint).position;
  b = jointInfo(joint).bone_tip;
  if (joint == kHips) a = glm::vec3(0.0f, 0.86f, 0.0f);
}

float distanceToSegment(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
  const glm::vec3 ab = b - a;
  const float t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
  return glm::length(p - (a + t * ab));
}

std::vector<Ring> partRings(const Part& part) {
  const auto& nodes = part.nodes;
  const size_t count = nodes.size();
  std::vector<glm::vec3> directions(count - 1);
  for (size_t i = 0; i + 1 < count; ++i) {
    directions[i] = glm::normalize(nodes[i + 1].position - nodes[i].position);
  }
  std::vector<Ring> rings;
  const float half_pi = std::numbers::pi_v<float> / 2.0f;
  // Start cap, from the pole outwards (the pole itself is a separate vertex).
  const glm::vec3 d0 = directions.front();
  for (int k = 1; k < part.cap_rings; ++k) {
    const float phi = half_pi * k / part.cap_rings;
    rings.push_back({nodes[0].position - d0 * (part.cap_start * std::cos(phi)), d0,
                     nodes[0].ra * std::sin(phi), nodes[0].rb * std::sin(phi)});
  }
  // Body: rings spaced about kRingSpacing apart, radii eased between nodes.
  for (size_t i = 0; i + 1 < count; ++i) {
    const PartNode& from = nodes[i];
    const PartNode& to = nodes[i + 1];
    const float length = glm::length(to.position - from.position);
    const int steps = std::max(1, static_cast<int>(std::ceil(length / kRingSpacing)));
    for (int j = 0; j < steps; ++j) {
      const float u = static_cast<float>(j) / steps;
      const float e = smoothstep(u);
      glm::vec3 tangent = directions[i];
      if (j == 0 && i > 0) tangent = glm::normalize(directions[i - 1] + directions[i]);
      rings.push_back({glm::mix(from.position, to.position, u), tangent,
                       glm::mix(from.ra, to.ra, e), glm::mix(from.rb, to.rb, e)});
    }
  }
  const glm::vec3 dn = directions.back();
  rings.push_back({nodes.back().position, dn, nodes.back().ra, nodes.back().rb});
  // End cap, towards the pole.
  for (int k = part.cap_rings - 1; k >= 1; --k) {
    const float phi = half_pi * k / part.cap_rings;
    rings.push_back({nodes.back().position + dn * (part.cap_end * std::cos(phi)), dn,
                     nodes.back().ra * std::sin(phi), nodes.back().rb * std::sin(phi)});
  }
  return rings;
}

// Appends the part's vertices (positions, uvs, skin) and triangles to `mesh`.
void addPart(const Part& part, SkinnedMesh& mesh) {
  const std::vector<Ring> rings = partRings(part);
  const int ring_count = static_cast<int>(rings.size());
  const int segments = part.segments;
  const glm::vec3 start_pole = part.nodes.front().position - rings.front().tangent * part.cap_start;
  const glm::vec3 end_pole = part.nodes.back().position + rings.back().tangent * part.cap_end;

  // Arc length along the ring centres, for the v coordinate.
  std::vector<float> arc(ring_count + 2, 0.0f);
  glm::vec3 previous = start_pole;
  for (int r = 0; r < ring_count; ++r) {
    arc[r + 1] = arc[r] + glm::length(rings[r].center - previous);
    previous = rings[r].center;
  }
  arc[ring_count + 1] = arc[ring_count] + glm::length(end_pole - previous);
  const float total = arc[ring_count + 1];

  const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
  auto addVertex = [&](glm::vec3 p, glm::vec2 uv) {
    mesh.positions.push_back(p);
    mesh.uvs.push_back(uv);
  };
  addVertex(start_pole, {0.5f, 0.0f});
  for (int r = 0; r < ring_count; ++r) {
    const Ring& ring = rings[r];
    const glm::vec3 a =
        glm::normalize(part.reference - ring.tangent * glm::dot(part.reference, ring.tangent));
    const glm::vec3 b = glm::cross(ring.tangent, a);
    for (int s = 0; s < segments; ++s) {
      const float theta = 2.0f * std::numbers::pi_v<float> * s / segments;
      addVertex(ring.center + a * (ring.ra * std::cos(theta)) + b * (ring.rb * std::sin(theta)),
                {static_cast<float>(s) / segments, arc[r + 1] / total});
    }
  }
  addVertex(end_pole, {0.5f, 1.0f});
  const uint32_t end_pole_index = static_cast<uint32_t>(mesh.positions.size() - 1);

  // (a, b, tangent) is right-handed, so these windings face outwards (counter-clockwise seen
  // from outside, glTF's front face).
  auto ringVertex = [&](int r, int s) {
    return base + 1 + static_cast<uint32_t>(r * segments + (s % segments));
  };
  for (int s = 0; s < segments; ++s) {
    mesh.indices.insert(mesh.indices.end(), {base, ringVertex(0, s + 1), ringVertex(0, s)});
  }
  for (int r = 0; r + 1 < ring_count; ++r) {
    for (int s = 0; s < segments; ++s) {
      const uint32_t v00 = ringVertex(r, s), v01 = ringVertex(r, s + 1);
      const uint32_t v10 = ringVertex(r + 1, s), v11 = ringVertex(r + 1, s + 1);
      mesh.indices.insert(mesh.indices.end(), {v00, v01, v11, v00, v11, v10});
    }
  }
  for (int s = 0; s < segments; ++s) {
    mesh.indices.insert(mesh.indices.end(), {ringVertex(ring_count - 1, s),
                                             ringVertex(ring_count - 1, s + 1), end_pole_index});
  }

  // Skin: inverse-distance falloff to the part's bone segments, then the four largest.
  for (size_t v = base; v < mesh.positions.size(); ++v) {
    Influence influences[16];
    const int count = static_cast<int>(part.bones.size());
    assert(count <= 16);
    float sum = 0.0f;
    for (int i = 0; i < count; ++i) {
      glm::vec3 a, b;
      boneSegment(part.bones[i], a, b);
      const float d = distanceToSegment(mesh.positions[v], a, b) + kFalloffEpsilon;
      influences[i] = {part.bones[i], 1.0f / std::pow(d, kFalloffPower)};
      sum += influences[i].weight;
    }
    for (int i = 0; i < count; ++i) {
      if (influences[i].weight < kMinWeight * sum) influences[i].weight = 0.0f;
    }
    glm::u16vec4 joints;
    glm::vec4 weights;
    const bool ok = reduceInfluences(influences, count, joints, weights);
    assert(ok);
    (void)ok;
    mesh.joints.push_back(joints);
    mesh.weights.push_back(weights);
  }
}

// Smooth normals: area-weighted face normals summed at each (shared) vertex.
void computeNormals(SkinnedMesh& mesh) {
  mesh.normals.assign(mesh.positions.size(), glm::vec3(0.0f));
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const uint32_t i0 = mesh.indices[t], i1 = mesh.indices[t + 1], i2 = mesh.indices[t + 2];
    const glm::vec3 n = glm::cross(mesh.positions[i1] - mesh.positions[i0],
                                   mesh.positions[i2] - mesh.positions[i0]);
    mesh.normals[i0] += n;
    mesh.normals[i1] += n;
    mesh.normals[i2] += n;
  }
  for (glm::vec3& n : mesh.normals) n = glm::normalize(n);
}

Part mirrored(Part part, std::vector<int> bones) {
  for (PartNode& node : part.nodes) node.position = mirror(node.position);
  part.reference = mirror(part.reference);
  part.bones = std::move(bones);
  return part;
}

Part armPart(int clavicle, int upper, int lower, int hand) {
  const glm::vec3 shoulder = jointInfo(upper).position;
  const glm::vec3 elbow = jointInfo(lower).position;
  const glm::vec3 wrist = jointInfo(hand).position;
  return {{{shoulder, 0.052f, 0.052f},
           {glm::mix(shoulder, elbow, 0.5f), 0.046f, 0.046f},
           {elbow, 0.039f, 0.039f},
           {glm::mix(elbow, wrist, 0.4f), 0.038f, 0.036f},
           {wrist, 0.03f, 0.027f}},
          {0.0f, 0.0f, 1.0f},
          0.05f,
          0.03f,
          6,
          14,
          {clavicle, upper, lower, hand}};
}

Part handPart(int lower, int hand) {
  const glm::vec3 wrist = jointInfo(hand).position;
  const glm::vec3 dir = restBoneDirection(hand);
  return {{{wrist + dir * 0.02f, 0.036f, 0.018f},
           {wrist + dir * 0.08f, 0.045f, 0.017f},
           {wrist + dir * 0.11f, 0.04f, 0.015f}},
          {0.0f, 0.0f, 1.0f},
          0.025f,
          0.04f,
          6,
          10,
          {lower, hand}};
}

Part legPart(int upper, int lower, int foot) {
  const glm::vec3 hip = jointInfo(upper).position;
  const glm::vec3 knee = jointInfo(lower).position;
  const glm::vec3 ankle = jointInfo(foot).position;
  return {{{hip, 0.082f, 0.082f},
           {glm::mix(hip, knee, 0.5f), 0.07f, 0.072f},
           {knee, 0.052f, 0.052f},
           {glm::mix(knee, ankle, 0.35f) + glm::vec3(0.0f, 0.0f, -0.005f), 0.05f, 0.056f},
           {ankle, 0.036f, 0.038f}},
          {1.0f, 0.0f, 0.0f},
          0.08f,
          0.036f,
          6,
          18,
          {kHips, upper, lower, foot}};
}

Part footPart(int lower, int foot, int toes) {
  const float x = jointInfo(foot).position.x;
  return {{{{x, 0.045f, -0.04f}, 0.038f, 0.042f},
           {{x, 0.045f, 0.09f}, 0.048f, 0.042f},
           {{x, 0.036f, 0.17f}, 0.04f, 0.031f}},
          {1.0f, 0.0f, 0.0f},
          0.035f,
          0.025f,
          6,
          14,
          {lower, foot, toes}};
}

}  // namespace

SkinnedMesh buildSampleMesh() {
  const Part torso{
      {{{0.0f, 0.90f, 0.0f}, 0.145f, 0.10f},
       {{0.0f, 1.02f, 0.0f}, 0.14f, 0.095f},
       {{0.0f, 1.14f, 0.005f}, 0.135f, 0.095f},
       {{0.0f, 1.28f, 0.005f}, 0.155f, 0.105f},
       {{0.0f, 1.40f, 0.0f}, 0.17f, 0.105f},
       {{0.0f, 1.46f, 0.0f}, 0.14f, 0.09f}},
      {1.0f, 0.0f, 0.0f},
      0.08f,
      0.04f,
      6,
      28,
      {kHips, kSpine1, kSpine2, kSpine3, kNeck, kClavicleL, kClavicleR, kUpperLegL, kUpperLegR}};
  const Part neck{{{{0.0f, 1.44f, 0.0f}, 0.05f, 0.05f}, {{0.0f, 1.64f, 0.01f}, 0.045f, 0.045f}},
                  {1.0f, 0.0f, 0.0f},
                  0.04f,
                  0.04f,
                  6,
                  14,
                  {kSpine3, kNeck, kHead}};
  const Part head{{{{0.0f, 1.655f, 0.02f}, 0.08f, 0.095f}, {{0.0f, 1.705f, 0.02f}, 0.08f, 0.095f}},
                  {1.0f, 0.0f, 0.0f},
                  0.075f,
                  0.085f,
                  10,
                  22,
                  {kNeck, kHead}};
  const Part arm_l = armPart(kClavicleL, kUpperArmL, kLowerArmL, kHandL);
  const Part arm_r = mirrored(arm_l, {kClavicleR, kUpperArmR, kLowerArmR, kHandR});
  const Part hand_l = handPart(kLowerArmL, kHandL);
  const Part hand_r = mirrored(hand_l, {kLowerArmR, kHandR});
  const Part leg_l = legPart(kUpperLegL, kLowerLegL, kFootL);
  const Part leg_r = mirrored(leg_l, {kHips, kUpperLegR, kLowerLegR, kFootR});
  const Part foot_l = footPart(kLowerLegL, kFootL, kToesL);
  const Part foot_r = mirrored(foot_l, {kLowerLegR, kFootR, kToesR});

  struct Group {
    const char* name;
    std::vector<const Part*> parts;
  };
  const Group groups[] = {
      {"clothes", {&torso, &arm_l, &arm_r, &leg_l, &leg_r}},
      {"skin", {&neck, &head, &hand_l, &hand_r}},
      {"shoes", {&foot_l, &foot_r}},
  };
  SkinnedMesh mesh;
  for (const Group& group : groups) {
    SubMesh submesh;
    submesh.name = group.name;
    submesh.first_index = static_cast<uint32_t>(mesh.indices.size());
    for (const Part* part : group.parts) addPart(*part, mesh);
    submesh.index_count = static_cast<uint32_t>(mesh.indices.size()) - submesh.first_index;
    submesh.material = static_cast<uint32_t>(mesh.submeshes.size());  // sampleMaterials() order
    mesh.submeshes.push_back(std::move(submesh));
  }
  computeNormals(mesh);
  return mesh;
}

}  // namespace throng::sample
