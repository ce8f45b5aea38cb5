// The CPU reference skinner: plain linear blend skinning, written to be obviously correct.
#include "throng/core/skinning.h"

namespace throng {

bool SkinJob::validate() const {
  const size_t n = positions.size();
  if (joints.size() != n || weights.size() != n || out_positions.size() != n) return false;
  if (normals.size() != out_normals.size()) return false;
  if (!normals.empty() && normals.size() != n) return false;
  if (tangents.size() != out_tangents.size()) return false;
  if (!tangents.empty() && tangents.size() != n) return false;
  for (size_t v = 0; v < n; ++v) {
    for (int i = 0; i < 4; ++i) {
      if (joints[v][i] >= palette.size()) return false;
    }
  }
  return true;
}

bool SkinJob::run() const {
  if (!validate()) return false;
  const bool with_normals = !normals.empty();
  const bool with_tangents = !tangents.empty();
  auto unit = [](glm::vec3 v) {
    const float len = glm::length(v);
    return len > 0.0f ? v / len : v;
  };
  for (size_t v = 0; v < positions.size(); ++v) {
    glm::vec3 p(0.0f);
    glm::vec3 n(0.0f);
    glm::vec3 t(0.0f);
    for (int i = 0; i < 4; ++i) {
      const float w = weights[v][i];
      if (w == 0.0f) continue;
      const JointRows& m = palette[joints[v][i]];
      p += w * transformPoint(m, positions[v]);
      if (with_normals) n += w * transformVector(m, normals[v]);
      if (with_tangents) t += w * transformVector(m, glm::vec3(tangents[v]));
    }
    out_positions[v] = p;
    if (with_normals) out_normals[v] = unit(n);
    if (with_tangents) out_tangents[v] = glm::vec4(unit(t), tangents[v].w);
  }
  return true;
}

}  // namespace throng
