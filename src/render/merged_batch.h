// Merged batches (method A): K copies of a bone-reduced LOD in one 16-bit mesh, one palette each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "render/material_draws.h"
#include "throng/core/attachment.h"
#include "throng/core/joint_encoding.h"
#include "throng/core/material.h"
#include "throng/core/math.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng::render {

// ES 2.0 guarantees only 16-bit indices (32-bit ones need OES_element_index_uint), so one batch
// mesh addresses at most 65,535 vertices: index values 0..65534 (0xFFFF is kept free because ES 3
// reserves it as the primitive-restart index, so the same buffers also work there).
inline constexpr size_t kMaxBatchVertices = 65535;

// GL_MAX_VERTEX_UNIFORM_VECTORS is at least this on every ES 2.0 device.
inline constexpr int kMinEs2VertexUniformVectors = 128;

// Uniform vectors a character of a batch takes besides its palette: its tint (RGBA bytes, as the
// instanced record's), agent index, state and appearance packed in one (packMergedAgent).
inline constexpr int kVec4PerCharacter = 1;

// A character's vector of shaders/gles2/merged.vert's u_agent: (agent index, tint RGB bytes as
// r + 256 g + 65536 b, tint alpha byte + 256 state + 2048 appearance, LOD and hidden props),
// whole numbers below 2^24 so that highp floats hold them exactly. `tint` is RGBA 0..1 (rounded
// to bytes); `agent` is (index, state 0..7, appearance, mergedLodAndProps) as the path gathers it;
// appearances past kMaxPackedAppearance (which no look table reaches: every one draws the own
// materials) are clamped to it.
glm::vec4 packMergedAgent(const glm::vec4& tint, const glm::vec4& agent);
inline constexpr float kMaxPackedAppearance = 4095.0f;  // 2048 * 4096 + 2047 < 2^24

// How many characters one merged batch holds, and why.
struct BatchCapacity {
  int characters = 0;       // K >= 1
  int palette_vectors = 0;  // K * (x * vec4PerJoint(encoding) + kVec4PerCharacter) vectors
  int by_uniforms = 0;      // K allowed by the uniform budget alone
  int by_vertices = 0;      // K allowed by kMaxBatchVertices alone
};

// K = min(floor((max_uniform_vectors - other_uniform_vectors) /
//               (x * vec4PerJoint(encoding) + kVec4PerCharacter)),
//         floor(kMaxBatchVertices / vertices_per_character)).
// `other_uniform_vectors` is what the shader uses besides the palette (see
// MergedBatchRenderer, which reads it from the linked program). kLimitExceeded, naming the limit,
// when not even one character fits; kInvalidArgument for x < 1 or no vertices.
Result<BatchCapacity> computeBatchCapacity(int max_uniform_vectors, int other_uniform_vectors,
                                           int joints_per_character, size_t vertices_per_character,
                                           JointEncoding encoding = JointEncoding::kRows);

// Props (core/attachment.h) on the merged paths, in the attributes and vectors they have already
// (ES 2.0 guarantees 8 attributes, and the palette wants every uniform vector): a vertex's prop
// group rides in BatchVertex::position.w as look row + kMergedPropGroupScale * group (look rows
// stay below 64: kLookVectors), a character's hidden props in its u_agent vector's w as LOD +
// kMergedPropGroupScale * hidden (bit i: prop i hidden, so 0 shows every prop; at most
// 65,535 * 256 + 255 < 2^24, exact in highp floats).
inline constexpr float kMergedPropGroupScale = 256.0f;
// The w of a character's agent vector (packMergedAgent's `agent`): its LOD and hidden props.
inline float mergedLodAndProps(int lod, uint32_t visible_props) {
  const uint32_t hidden = ~visible_props & kAllAttachments;
  return static_cast<float>(lod) + kMergedPropGroupScale * static_cast<float>(hidden);
}

// The batch's interleaved vertex: 112 bytes in 8 attributes (ES 2.0 guarantees 8). Joint indices
// are floats because GLSL ES 1.00 has no integer attributes; they are palette entries of the
// whole batch (copy k: k*x .. k*x+x-1).
struct BatchVertex {
  // xyz; w the look row (MaterialLooks; 0 without material variants) + kMergedPropGroupScale *
  // the prop group (SkinnedMesh::attachments)
  glm::vec4 position;
  glm::vec3 normal;
  glm::vec4 tangent;  // xyz, handedness w; 0 when the mesh has none
  glm::vec4 uv;       // texture coordinate sets 0 and 1 (0 when the mesh has none)
  glm::vec4 color;    // linear RGBA vertex colour (white when the mesh has none)
  glm::vec4 joints;
  glm::vec4 weights;
  float vertex;  // the mesh vertex it copies (its morph texture texels; a float for ES 2.0)
};
static_assert(sizeof(BatchVertex) == 112, "BatchVertex is tightly packed");

// K copies of one LOD mesh. Copy k's vertices are [k*vertices_per_copy, (k+1)*vertices_per_copy).
// The indices are grouped by material (groupIndicesByMaterial): for each range r of `ranges`,
// the K copies of that material's indices follow each other from r.first_index, r.index_count
// each, so the first n characters' share of material r is the index range [r.first_index,
// r.first_index + n * r.index_count): a part-full batch draws shorter ranges.
struct MergedBatchMesh {
  int copies = 0;           // K
  int joints_per_copy = 0;  // x
  uint32_t vertices_per_copy = 0;
  uint32_t indices_per_copy = 0;
  std::vector<BatchVertex> vertices;
  std::vector<uint16_t> indices;
  std::vector<MaterialRange> ranges;  // index_count: per copy
  MaterialLooks looks;  // material variants' table (vertex_source/vertex_row: one copy's vertices)

  // First index of copy k's share of range r.
  uint32_t copyStart(const MaterialRange& r, int k) const {
    return r.first_index + static_cast<uint32_t>(k) * r.index_count;
  }
};

// Builds the merged mesh of `copies` copies of `lod` (whose joint indices are palette slots
// < joints_per_copy; every sub-mesh is drawn, grouped by material; `materials` says which are
// blended, empty: the default material; sub-meshes with material variants are drawn as
// groupIndicesByMaterial says, vertices shared by look rows copied). kLimitExceeded when copies *
// vertices > kMaxBatchVertices or the look table does not fit; kInvalidData when a used joint index
// is >= joints_per_copy; kInvalidArgument for copies < 1.
Result<MergedBatchMesh> buildMergedBatchMesh(const SkinnedMesh& lod, int joints_per_copy,
                                             int copies, std::span<const Material> materials = {});

}  // namespace throng::render
