// Transform-to-matrix conversion, 3x4 row packing and blending, and finiteness checks.
#include "throng/core/math.h"

#include <algorithm>
#include <cmath>

namespace throng {

glm::mat4 toMatrix(const Transform& t) {
  // T * R * S written out directly: cheaper than three matrix products.
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  glm::mat4 m(1.0f);
  m[0] = glm::vec4(r[0] * t.scale.x, 0.0f);
  m[1] = glm::vec4(r[1] * t.scale.y, 0.0f);
  m[2] = glm::vec4(r[2] * t.scale.z, 0.0f);
  m[3] = glm::vec4(t.translation, 1.0f);
  return m;
}

Transform soaGet(const SoaTransform* blocks, int joint) {
  const SoaTransform& b = blocks[joint / kSoaWidth];
  const int l = joint % kSoaWidth;
  Transform t;
  t.translation = {b.translation[0][l], b.translation[1][l], b.translation[2][l]};
  t.rotation = glm::quat(b.rotation[3][l], b.rotation[0][l], b.rotation[1][l], b.rotation[2][l]);
  t.scale = {b.scale[0][l], b.scale[1][l], b.scale[2][l]};
  return t;
}

void soaSet(SoaTransform* blocks, int joint, const Transform& t) {
  SoaTransform& b = blocks[joint / kSoaWidth];
  const int l = joint % kSoaWidth;
  for (int c = 0; c < 3; ++c) {
    b.translation[c][l] = t.translation[c];
    b.scale[c][l] = t.scale[c];
  }
  b.rotation[0][l] = t.rotation.x;
  b.rotation[1][l] = t.rotation.y;
  b.rotation[2][l] = t.rotation.z;
  b.rotation[3][l] = t.rotation.w;
}

JointRows packRows(const glm::mat4& m) {
  JointRows out;
  for (int r = 0; r < kVec4PerJoint; ++r)
    out.rows[r] = glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
  return out;
}

glm::mat4 unpackRows(const JointRows& rows) {
  glm::mat4 m(1.0f);
  for (int r = 0; r < kVec4PerJoint; ++r) {
    for (int c = 0; c < 4; ++c) m[c][r] = rows.rows[r][c];
  }
  return m;
}

JointRows mixRows(const JointRows& x, const JointRows& y, float t) {
  JointRows out;
  for (int r = 0; r < kVec4PerJoint; ++r) out.rows[r] = x.rows[r] * (1.0f - t) + y.rows[r] * t;
  return out;
}

bool isFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool isFinite(const glm::vec4& v) {
  return isFinite(glm::vec3(v)) && std::isfinite(v.w);
}
bool isFinite(const glm::quat& q) {
  return isFinite(glm::vec4(q.x, q.y, q.z, q.w));
}
bool isFinite(const glm::mat4& m) {
  return isFinite(m[0]) && isFinite(m[1]) && isFinite(m[2]) && isFinite(m[3]);
}
bool isFinite(const Transform& t) {
  return isFinite(t.translation) && isFinite(t.rotation) && isFinite(t.scale);
}

bool isInvertible(const glm::mat4& m) {
  if (!isFinite(m)) return false;
  const glm::dmat4 d(m);
  const double lengths =
      glm::length(glm::dvec3(d[0])) * glm::length(glm::dvec3(d[1])) * glm::length(glm::dvec3(d[2]));
  return lengths > 0.0 && std::abs(glm::determinant(d)) > kMinRelativeDeterminant * lengths;
}

float maxAbsDifference(const glm::mat4& a, const glm::mat4& b) {
  float worst = 0.0f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(a[c][r] - b[c][r]));
  }
  return worst;
}

}  // namespace throng
