// Joint encodings: 3x4 rows <-> quaternion + translation + uniform scale, and the measured error.
#include "throng/core/joint_encoding.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace throng {

int vec4PerJoint(JointEncoding encoding) {
  return encoding == JointEncoding::kQuatScale ? kVec4PerQuatJoint : kVec4PerJoint;
}

const char* jointEncodingName(JointEncoding encoding) {
  return encoding == JointEncoding::kQuatScale ? "quat+translation+scale (2 vec4)"
                                               : "3x4 rows (3 vec4)";
}

QuatJoint encodeQuatJoint(const JointRows& m, const glm::vec3& pivot) {
  // L[i][j] = m.rows[i][j] is the 3x3 part, t[i] = m.rows[i].w.
  const glm::vec3 r0(m.rows[0]), r1(m.rows[1]), r2(m.rows[2]);
  float s = std::sqrt((glm::dot(r0, r0) + glm::dot(r1, r1) + glm::dot(r2, r2)) / 3.0f);
  QuatJoint out;
  // Shepperd's method on L = s * R. Each case's components are 4 * big * s * (x, y, z, w), big
  // the case's largest component; normalising drops that factor, so no case needs its own square
  // root. The largest of the trace and the diagonal picks the case, keeping big away from zero.
  const float l00 = r0.x, l11 = r1.y, l22 = r2.z;
  const float trace = l00 + l11 + l22;
  const float a = r2.y - r1.z, b = r0.z - r2.x, c = r1.x - r0.y;      // antisymmetric part
  const float p = r0.y + r1.x, q02 = r0.z + r2.x, r12 = r1.z + r2.y;  // symmetric part
  glm::vec4 q;                                                        // x, y, z, w
  if (trace >= l00 && trace >= l11 && trace >= l22) {
    q = glm::vec4(a, b, c, s + trace);
  } else if (l00 >= l11 && l00 >= l22) {
    q = glm::vec4(s + l00 - l11 - l22, p, q02, a);
  } else if (l11 >= l22) {
    q = glm::vec4(p, s - l00 + l11 - l22, r12, b);
  } else {
    q = glm::vec4(q02, r12, s - l00 - l11 + l22, c);
  }
  const float length2 = glm::dot(q, q);
  out.rotation =
      length2 > 0.0f ? q * (1.0f / std::sqrt(length2)) : glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
  // The least-squares uniform scale for this rotation (Umeyama, "Least-squares estimation of
  // transformation parameters between two point patterns", PAMI 1991): trace(R^T L) / 3, written
  // out with R's elements from the quaternion. Equal to the RMS for a similarity; nearer the mean
  // of L's scales for a blend that shrinks a plane.
  {
    const glm::vec4& u = out.rotation;
    const float xx = u.x * u.x, yy = u.y * u.y, zz = u.z * u.z;
    const float fitted = (trace - 2.0f * ((yy + zz) * l00 + (xx + zz) * l11 + (xx + yy) * l22) +
                          2.0f * (u.x * u.y * p + u.x * u.z * q02 + u.y * u.z * r12) +
                          2.0f * u.w * (u.x * a + u.y * b + u.z * c)) /
                         3.0f;
    if (fitted > 0.0f) s = fitted;
  }
  // t' = m(pivot) - s R pivot: the pivot goes where m sends it.
  glm::vec3 translation(m.rows[0].w, m.rows[1].w, m.rows[2].w);
  if (pivot != glm::vec3(0.0f)) {
    const glm::vec3 u(out.rotation);
    const glm::vec3 rotated =
        pivot + 2.0f * glm::cross(u, glm::cross(u, pivot) + out.rotation.w * pivot);
    translation +=
        glm::vec3(glm::dot(r0, pivot), glm::dot(r1, pivot), glm::dot(r2, pivot)) - s * rotated;
  }
  out.translation_scale = glm::vec4(translation, s);
  return out;
}

JointRows decodeQuatJoint(const QuatJoint& joint) {
  const glm::vec4& q = joint.rotation;
  const float s = joint.translation_scale.w;
  const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  JointRows m;
  m.rows[0] = glm::vec4(s * (1.0f - 2.0f * (yy + zz)), s * 2.0f * (xy - wz), s * 2.0f * (xz + wy),
                        joint.translation_scale.x);
  m.rows[1] = glm::vec4(s * 2.0f * (xy + wz), s * (1.0f - 2.0f * (xx + zz)), s * 2.0f * (yz - wx),
                        joint.translation_scale.y);
  m.rows[2] = glm::vec4(s * 2.0f * (xz - wy), s * 2.0f * (yz + wx), s * (1.0f - 2.0f * (xx + yy)),
                        joint.translation_scale.z);
  return m;
}

void encodeQuatJoints(std::span<const JointRows> in, std::span<const glm::vec3> pivots,
                      std::span<QuatJoint> out) {
  assert(in.size() == out.size());
  if (pivots.empty()) {
    for (size_t i = 0; i < in.size(); ++i) out[i] = encodeQuatJoint(in[i]);
    return;
  }
  assert(in.size() % pivots.size() == 0);
  for (size_t first = 0; first < in.size(); first += pivots.size()) {
    for (size_t s = 0; s < pivots.size(); ++s) {
      out[first + s] = encodeQuatJoint(in[first + s], pivots[s]);
    }
  }
}

float quatJointError(const JointRows& m, float reach) {
  const JointRows back = decodeQuatJoint(encodeQuatJoint(m));
  float linear = 0.0f, translation = 0.0f;
  for (int r = 0; r < kVec4PerJoint; ++r) {
    const glm::vec4 d = back.rows[r] - m.rows[r];
    linear += d.x * d.x + d.y * d.y + d.z * d.z;
    translation += d.w * d.w;
  }
  return std::sqrt(linear) * reach + std::sqrt(translation);
}

QuatEncodingCheck checkQuatEncoding(const AnimationTexture& texture, float reach) {
  QuatEncodingCheck check;
  for (uint32_t frame = 0; frame < texture.frame_count; ++frame) {
    for (uint32_t joint = 0; joint < texture.joint_count; ++joint) {
      float error = quatJointError(loadJointRows(texture, frame, joint), reach);
      // A NaN error (non-finite texels) is the worst of all.
      if (std::isnan(error)) error = std::numeric_limits<float>::infinity();
      if (error > check.worst_error) check = {error, frame, joint};
    }
  }
  return check;
}

}  // namespace throng
