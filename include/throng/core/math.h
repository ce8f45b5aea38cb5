// Math types shared by every layer: joint transforms and the 3x4 "rows" packing of palette entries.
#pragma once

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace throng {

// A joint's transform relative to its parent: scale, then rotate, then translate (glTF TRS).
struct Transform {
  glm::vec3 translation{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // glm::quat(w, x, y, z): identity
  glm::vec3 scale{1.0f};
};

glm::mat4 toMatrix(const Transform& transform);

// Lanes of the structure-of-arrays pose blocks: one SSE2 register (or WebAssembly v128) of floats.
inline constexpr int kSoaWidth = 4;

// kSoaWidth joint transforms side by side: lane l of each component array is joint (block * 4 + l).
// The layout the fast pose chain samples into and reads from; padding lanes hold identity.
struct alignas(16) SoaTransform {
  float translation[3][kSoaWidth];  // x, y, z
  float rotation[4][kSoaWidth];     // x, y, z, w (unit quaternions)
  float scale[3][kSoaWidth];        // x, y, z
};
static_assert(sizeof(SoaTransform) == 10 * kSoaWidth * sizeof(float), "tightly packed lanes");

// Joint j's transform in a span of SoA blocks, and the reverse.
Transform soaGet(const SoaTransform* blocks, int joint);
void soaSet(SoaTransform* blocks, int joint, const Transform& transform);

// Number of vec4 a joint takes in a palette: the 3 rows of its 3x4 affine matrix. The same
// layout is used by CPU palettes, ES2 uniform arrays and ES3 animation-texture texels.
inline constexpr int kVec4PerJoint = 3;

// One palette entry: row r holds (m[0][r], m[1][r], m[2][r], m[3][r]) of a column-major affine
// glm::mat4, so that p' = (dot(rows[0], p1), dot(rows[1], p1), dot(rows[2], p1)) with p1 = (p, 1).
struct JointRows {
  glm::vec4 rows[kVec4PerJoint];
};
static_assert(sizeof(JointRows) == 12 * sizeof(float),
              "palette entries are 12 tightly packed floats");

JointRows packRows(const glm::mat4& affine);
glm::mat4 unpackRows(const JointRows& rows);
// Row by row x * (1 - t) + y * t (GLSL's mix): the one blend of two palette entries, used by
// frame interpolation, cross-fades and the shaders' CPU twins.
JointRows mixRows(const JointRows& x, const JointRows& y, float t);

inline glm::vec3 transformPoint(const JointRows& m, const glm::vec3& p) {
  const glm::vec4 p1(p, 1.0f);
  return {glm::dot(m.rows[0], p1), glm::dot(m.rows[1], p1), glm::dot(m.rows[2], p1)};
}
inline glm::vec3 transformVector(const JointRows& m, const glm::vec3& v) {
  const glm::vec4 v0(v, 0.0f);
  return {glm::dot(m.rows[0], v0), glm::dot(m.rows[1], v0), glm::dot(m.rows[2], v0)};
}

inline bool isFinite(float v) {
  return std::isfinite(v);
}
bool isFinite(const glm::vec3& v);
bool isFinite(const glm::vec4& v);
bool isFinite(const glm::quat& q);
bool isFinite(const glm::mat4& m);
bool isFinite(const Transform& t);

// Below this, |det| of a matrix's 3x3 part relative to the product of its column lengths (1 for
// any rotation with scale, 0 when singular, the sine of the skew in between) means the matrix is
// numerically singular in float: its inverse would lose most of float's 24 bits.
inline constexpr double kMinRelativeDeterminant = 1e-6;
// Whether `m` can be inverted reliably, whatever its scale: finite, and |det(m)| above
// kMinRelativeDeterminant times the product of the 3x3 part's column lengths. Scale-free, so a
// joint scaled by 1e-4 (gltfpack folds quantisation into inverse binds) is as invertible as one
// scaled by 1.
bool isInvertible(const glm::mat4& m);

// Largest absolute element difference between two matrices.
float maxAbsDifference(const glm::mat4& a, const glm::mat4& b);

}  // namespace throng
