// Joint encodings: 3x4 rows <-> quaternion + translation + uniform scale, and the measured error.
#include "throng/core/joint_encoding.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "throng/core/simd.h"

namespace throng {

int vec4PerJoint(JointEncoding encoding) {
  return encoding == JointEncoding::kQuatScale ? kVec4PerQuatJoint : kVec4PerJoint;
}

const char* jointEncodingName(JointEncoding encoding) {
  return encoding == JointEncoding::kQuatScale ? "quat+translation+scale (2 vec4)"
                                               : "3x4 rows (3 vec4)";
}

namespace {

using simd::F4;

// a || b for lane masks.
THRONG_INLINE F4 either(F4 a, F4 b) {
  return simd::select(a, a, b);
}

// The one implementation of the 2-vec4 fit, four joints at a time (one per lane): in[l] about
// pivots[l] into out[l] for l < n (n <= 4; the other lanes compute a copy of in[0], unused).
THRONG_INLINE void encodeLanes(const JointRows* in, const glm::vec3 (&pivots)[4], size_t n,
                               QuatJoint* out) {
  // L[r][c] and t[r]: lane l holds joint l's element (row r of its 3x4 matrix, column c).
  F4 L[3][3], t[3];
  for (int r = 0; r < 3; ++r) {
    F4 lane[4];
    for (size_t l = 0; l < 4; ++l) lane[l] = simd::load(&in[l < n ? l : 0].rows[r].x);
    simd::transpose(lane[0], lane[1], lane[2], lane[3]);
    L[r][0] = lane[0];
    L[r][1] = lane[1];
    L[r][2] = lane[2];
    t[r] = lane[3];
  }
  const F4 zero = simd::zero(), one = simd::splat(1.0f), two = simd::splat(2.0f);
  const F4 third = simd::splat(1.0f / 3.0f);
  F4 squares = zero;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) squares = squares + L[r][c] * L[r][c];
  }
  // The RMS of the rows' lengths: s for a similarity, the "1" of Shepperd's cases below.
  F4 s = simd::sqrt(squares * third);
  const F4 l00 = L[0][0], l11 = L[1][1], l22 = L[2][2];
  const F4 trace = l00 + l11 + l22;
  const F4 a = L[2][1] - L[1][2], b = L[0][2] - L[2][0], c = L[1][0] - L[0][1];  // antisymmetric
  const F4 p = L[0][1] + L[1][0], q02 = L[0][2] + L[2][0], r12 = L[1][2] + L[2][1];  // symmetric
  // Shepperd's method on L = s * R: each case's components are 4 * big * s * (x, y, z, w), big
  // the case's largest component, and normalising drops that factor (no square root per case).
  // The largest of the trace and the diagonal picks the case, keeping big away from zero: z,
  // then y where l11 >= l22, x where l00 >= l11 and l22, w where the trace is largest.
  F4 qx = q02, qy = r12, qz = s - l00 - l11 + l22, qw = c;
  const F4 not_y = simd::greater(l22, l11);
  qx = simd::select(not_y, qx, p);
  qy = simd::select(not_y, qy, s - l00 + l11 - l22);
  qz = simd::select(not_y, qz, r12);
  qw = simd::select(not_y, qw, b);
  const F4 not_x = either(simd::greater(l11, l00), simd::greater(l22, l00));
  qx = simd::select(not_x, qx, s + l00 - l11 - l22);
  qy = simd::select(not_x, qy, p);
  qz = simd::select(not_x, qz, q02);
  qw = simd::select(not_x, qw, a);
  const F4 not_w = either(either(simd::greater(l00, trace), simd::greater(l11, trace)),
                          simd::greater(l22, trace));
  qx = simd::select(not_w, qx, a);
  qy = simd::select(not_w, qy, b);
  qz = simd::select(not_w, qz, c);
  qw = simd::select(not_w, qw, s + trace);
  const F4 length2 = qx * qx + qy * qy + qz * qz + qw * qw;
  const F4 some = simd::greater(length2, zero);  // else the identity rotation
  const F4 inverse = one / simd::sqrt(simd::select(some, length2, one));
  qx = simd::select(some, qx * inverse, zero);
  qy = simd::select(some, qy * inverse, zero);
  qz = simd::select(some, qz * inverse, zero);
  qw = simd::select(some, qw * inverse, one);
  // The least-squares uniform scale for this rotation (Umeyama, "Least-squares estimation of
  // transformation parameters between two point patterns", PAMI 1991): trace(R^T L) / 3, written
  // out with R's elements from the quaternion. Equal to the RMS for a similarity; nearer the mean
  // of L's scales for a blend that shrinks a plane.
  const F4 xx = qx * qx, yy = qy * qy, zz = qz * qz;
  const F4 fitted = (trace - two * ((yy + zz) * l00 + (xx + zz) * l11 + (xx + yy) * l22) +
                     two * (qx * qy * p + qx * qz * q02 + qy * qz * r12) +
                     two * qw * (qx * a + qy * b + qz * c)) *
                    third;
  s = simd::select(simd::greater(fitted, zero), fitted, s);
  // t' = m(pivot) - s R pivot: the pivot goes where m sends it. R v = v + 2 u x (u x v + w v).
  const F4 px = simd::set(pivots[0].x, pivots[1].x, pivots[2].x, pivots[3].x);
  const F4 py = simd::set(pivots[0].y, pivots[1].y, pivots[2].y, pivots[3].y);
  const F4 pz = simd::set(pivots[0].z, pivots[1].z, pivots[2].z, pivots[3].z);
  const F4 cx = qy * pz - qz * py + qw * px;
  const F4 cy = qz * px - qx * pz + qw * py;
  const F4 cz = qx * py - qy * px + qw * pz;
  const F4 rx = px + two * (qy * cz - qz * cy);
  const F4 ry = py + two * (qz * cx - qx * cz);
  const F4 rz = pz + two * (qx * cy - qy * cx);
  F4 tx = t[0] + (L[0][0] * px + L[0][1] * py + L[0][2] * pz) - s * rx;
  F4 ty = t[1] + (L[1][0] * px + L[1][1] * py + L[1][2] * pz) - s * ry;
  F4 tz = t[2] + (L[2][0] * px + L[2][1] * py + L[2][2] * pz) - s * rz;
  simd::transpose(qx, qy, qz, qw);
  simd::transpose(tx, ty, tz, s);
  const F4 rotations[4] = {qx, qy, qz, qw}, translations[4] = {tx, ty, tz, s};
  for (size_t l = 0; l < n; ++l) {
    simd::store(&out[l].rotation.x, rotations[l]);
    simd::store(&out[l].translation_scale.x, translations[l]);
  }
}

}  // namespace

QuatJoint encodeQuatJoint(const JointRows& m, const glm::vec3& pivot) {
  const glm::vec3 pivots[4] = {pivot, pivot, pivot, pivot};
  QuatJoint out;
  encodeLanes(&m, pivots, 1, &out);
  return out;
}

void encodeQuatJoints(std::span<const JointRows> in, std::span<const glm::vec3> pivots,
                      std::span<QuatJoint> out) {
  assert(in.size() == out.size());
  assert(pivots.empty() || in.size() % pivots.size() == 0);
  glm::vec3 lanes[4] = {};
  size_t slot = 0;  // i % pivots.size(), without a division per entry
  for (size_t i = 0; i < in.size(); i += 4) {
    const size_t n = std::min<size_t>(4, in.size() - i);
    for (size_t l = 0; l < n && !pivots.empty(); ++l) {
      lanes[l] = pivots[slot];
      if (++slot == pivots.size()) slot = 0;
    }
    encodeLanes(&in[i], lanes, n, &out[i]);
  }
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
