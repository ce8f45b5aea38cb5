// Code-built fixture for LOD tests: a long bending tube over a chain of joints, with a side branch.
#pragma once

#include <cmath>
#include <string>

#include "throng/core/character.h"

namespace throng::test {

// `segments` chain joints "j0".."jN-1" one unit apart along +Y, plus a "branch" joint off j1 (so
// the skeleton has a fork). A tube of `sides` sides with 4 rings per segment blends each pair of
// neighbouring joints. Clip "wave" (0..1 s, loops) bends joint i about Z by amplitude
// 0.1 * (i + 1) radians, so joints further up move more.
inline Character makeTubeCharacter(int segments = 8, int sides = 8) {
  RawSkeleton raw;
  for (int j = 0; j < segments; ++j) {
    RawJoint joint;
    joint.name = "j" + std::to_string(j);
    joint.parent = j == 0 ? "" : "j" + std::to_string(j - 1);
    joint.rest.translation = glm::vec3(0.0f, j == 0 ? 0.0f : 1.0f, 0.0f);
    joint.inverse_bind = glm::mat4(1.0f);
    joint.inverse_bind[3] = glm::vec4(0.0f, -static_cast<float>(j), 0.0f, 1.0f);
    raw.joints.push_back(joint);
  }
  RawJoint branch;
  branch.name = "branch";
  branch.parent = "j1";
  branch.rest.translation = glm::vec3(0.5f, 0.0f, 0.0f);
  branch.inverse_bind = glm::mat4(1.0f);
  branch.inverse_bind[3] = glm::vec4(-0.5f, -1.0f, 0.0f, 1.0f);
  raw.joints.push_back(branch);
  Character c;
  c.skeleton = std::move(buildSkeleton(raw, "tube").value());

  SkinnedMesh& m = c.mesh;
  const int rings = segments * 4 + 1;
  for (int ring = 0; ring < rings; ++ring) {
    const float y = 0.25f * static_cast<float>(ring);
    const int lower = std::min(ring / 4, segments - 1);
    const float t = std::min(y - static_cast<float>(lower), 1.0f);
    const int upper = std::min(lower + 1, segments - 1);
    for (int side = 0; side < sides; ++side) {
      const float a = static_cast<float>(side) * 6.2831853f / static_cast<float>(sides);
      const glm::vec3 dir(std::cos(a), 0.0f, std::sin(a));
      m.positions.push_back(glm::vec3(0.0f, y, 0.0f) + 0.3f * dir);
      m.normals.push_back(dir);
      m.uvs.push_back(glm::vec2(static_cast<float>(side) / static_cast<float>(sides),
                                y / static_cast<float>(segments)));
      const int jl = c.skeleton.findJoint("j" + std::to_string(lower));
      const int ju = c.skeleton.findJoint("j" + std::to_string(upper));
      if (upper == lower) {
        m.joints.push_back(glm::u16vec4(jl, 0, 0, 0));
        m.weights.push_back(glm::vec4(1, 0, 0, 0));
      } else {
        m.joints.push_back(glm::u16vec4(jl, ju, 0, 0));
        m.weights.push_back(glm::vec4(1.0f - t * 0.5f, t * 0.5f, 0, 0));
      }
    }
  }
  for (int ring = 0; ring + 1 < rings; ++ring) {
    for (int side = 0; side < sides; ++side) {
      const uint32_t a = ring * sides + side, b = ring * sides + (side + 1) % sides;
      m.indices.insert(m.indices.end(), {a, a + sides, b, b, a + sides, b + sides});
    }
  }
  m.submeshes.push_back({"tube", 0, static_cast<uint32_t>(m.indices.size())});

  Clip clip;
  clip.name = "wave";
  clip.joints.resize(c.skeleton.jointCount());
  for (int i = 0; i < segments; ++i) {
    QuatTrack& r = clip.joints[c.skeleton.findJoint("j" + std::to_string(i))].rotation;
    r.interpolation = Interpolation::kLinear;
    r.times = {0.0f, 0.5f, 1.0f};
    const glm::quat bent = glm::angleAxis(0.1f * static_cast<float>(i + 1), glm::vec3(0, 0, 1));
    r.values = {glm::quat(1, 0, 0, 0), bent, glm::quat(1, 0, 0, 0)};
  }
  updateClipRange(clip);
  c.clips.push_back(std::move(clip));
  return c;
}

}  // namespace throng::test
