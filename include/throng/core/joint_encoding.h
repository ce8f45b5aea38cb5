// Palette joint encodings for ES 2.0 uniforms: 3x4 rows (3 vec4) or rotation quaternion plus
// translation and uniform scale (2 vec4), the conversion between them and its measured error.
#pragma once

#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "throng/core/animation_texture.h"
#include "throng/core/math.h"

namespace throng {

enum class JointEncoding : uint8_t {
  kRows,       // JointRows: any affine matrix (kVec4PerJoint = 3 vec4)
  kQuatScale,  // QuatJoint: similarity transforms only (kVec4PerQuatJoint = 2 vec4)
};

// A QuatJoint's uniform vectors: the rotation, then translation and scale.
inline constexpr int kVec4PerQuatJoint = 2;

// Uniform vectors per joint: 3 for kRows, 2 for kQuatScale.
int vec4PerJoint(JointEncoding encoding);
// "3x4 rows (3 vec4)" or "quat+translation+scale (2 vec4)".
const char* jointEncodingName(JointEncoding encoding);

// The largest error of the 2-vec4 encoding a character may have, as a share of its height,
// before it keeps the 3-vec4 rows: 1/1000 moves no vertex by more than half a pixel until the
// character is 500 pixels tall (half a 1080p screen), past any crowd view, so both encodings
// draw the same picture within the render tests' tolerance. Rigid rigs with uniform scale
// measure ~1e-7 (float rounding) and half-float textures ~1e-4; non-uniform scale or shear in a
// skinning matrix (inverse bind times model) measures its size, e.g. 0.05 for 5% stretch.
inline constexpr float kMaxQuatJointError = 1e-3f;

// p' = translation_scale.w * rotate(rotation, p) + translation_scale.xyz: a similarity transform
// in 2 vec4, as shaders/gles2/merged.vert reads it (rotation: unit quaternion x, y, z, w).
struct QuatJoint {
  glm::vec4 rotation;
  glm::vec4 translation_scale;
};
static_assert(sizeof(QuatJoint) == kVec4PerQuatJoint * sizeof(glm::vec4), "two packed vec4");

// The nearest similarity transform of `m` for the 2-vec4 encoding: the rotation from the 3x3
// part L (Shepperd's method: "Quaternion from rotation matrix", J. Guidance and Control 1978) made
// unit, the scale trace(R^T L) / 3 (the least-squares fit for that rotation), the translation
// chosen so that `pivot` (model units) lands where m puts it. Exact (to float rounding) when m
// is a rotation with uniform scale and a translation, whatever the pivot; otherwise
// decodeQuatJoint(result) differs from m at p by (s R - L)(p - pivot): what the encoding cannot
// hold (non-uniform scale, shear, mirroring, or the shrink of a linear blend of two rotations),
// smallest near the pivot. Skinning passes the centre of the vertices the joint moves. Never fails:
// a zero matrix gives the identity rotation, scale 0.
QuatJoint encodeQuatJoint(const JointRows& m, const glm::vec3& pivot = glm::vec3(0.0f));
// The 3x4 rows of the similarity transform `q`: the CPU twin of merged.vert's skinPoint.
JointRows decodeQuatJoint(const QuatJoint& q);
// out[i] = encodeQuatJoint(in[i], pivots[i % pivots.size()]) (pivots: one per palette slot of a
// character, repeated for each character in `in`; empty: the origin). out.size() must equal
// in.size() and in.size() be a multiple of pivots.size() (asserted). Allocates nothing.
void encodeQuatJoints(std::span<const JointRows> in, std::span<const glm::vec3> pivots,
                      std::span<QuatJoint> out);

// An upper bound (model units) on how far decodeQuatJoint(encodeQuatJoint(m)) moves a point at
// most `reach` from the origin, compared with m: |L' - L|_F * reach + |t' - t|.
float quatJointError(const JointRows& m, float reach);

// The worst quatJointError over every frame and joint of a baked texture.
struct QuatEncodingCheck {
  float worst_error = 0.0f;  // model units
  uint32_t frame = 0;        // where it was found
  uint32_t joint = 0;
};
// Measures every baked frame of `texture` (reach: the farthest bind vertex from the origin, in
// model units). An empty texture measures 0. O(frames * joints); allocates nothing.
QuatEncodingCheck checkQuatEncoding(const AnimationTexture& texture, float reach);

}  // namespace throng
