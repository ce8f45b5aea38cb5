// glTF mesh primitives -> one SkinnedMesh in skeleton model space (skinned and rigid meshes).
#include "offline/gltf_read_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "offline/gltf_read_accessor.h"
#include "offline/gltf_read_material.h"

namespace throng::gltf {
namespace {

// Total vertices of the character: joint-indexed 32-bit index buffers with headroom.
constexpr size_t kMaxVertices = size_t{1} << 28;

// Where a primitive's vertices go: the joint of a rigid mesh, or the skin of a skinned one.
struct Binding {
  int rigid_joint = -1;      // >= 0: every vertex is bound to this joint with weight 1
  int skin = -1;             // >= 0: read JOINTS_n / WEIGHTS_n against this skin
  glm::mat4 to_model{1.0f};  // primitive space -> skeleton model space at bind time
  NodeMorph morph;           // the node's character morph targets (count 0: none)
};

// Area-weighted smooth normals: the sum of the (unnormalised) face normals around each vertex.
void computeNormals(const std::vector<glm::vec3>& positions, const std::vector<uint32_t>& indices,
                    std::vector<glm::vec3>& normals) {
  normals.assign(positions.size(), glm::vec3(0.0f));
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const glm::vec3& a = positions[indices[t]];
    const glm::vec3& b = positions[indices[t + 1]];
    const glm::vec3& c = positions[indices[t + 2]];
    const glm::vec3 face = glm::cross(b - a, c - a);  // length = 2 * area
    for (int k = 0; k < 3; ++k) normals[indices[t + static_cast<size_t>(k)]] += face;
  }
  for (glm::vec3& n : normals) {
    const float length = glm::length(n);
    n = length > 0.0f ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
  }
}

// Appends `values` (`components` floats per vertex) to `stream`, first padding it with `fill` for
// earlier primitives that lacked it; pads instead when this primitive lacks it but others had it.
template <typename V>
void appendStream(std::vector<V>& stream, const std::vector<float>& values, size_t base,
                  size_t count, V fill) {
  constexpr int kComponents = V::length();
  if (values.empty()) {
    if (!stream.empty()) stream.resize(base + count, fill);
    return;
  }
  stream.resize(base, fill);
  for (size_t v = 0; v < count; ++v) {
    V value;
    for (int c = 0; c < kComponents; ++c)
      value[c] = values[kComponents * v + static_cast<size_t>(c)];
    stream.push_back(value);
  }
}

// Sub-meshes that draw with the same material (and the same variant mapping) become one, in
// first-use order: one draw per material.
void groupByMaterial(SkinnedMesh& mesh) {
  std::vector<SubMesh> groups;
  std::vector<std::vector<uint32_t>> group_indices;
  for (const SubMesh& sm : mesh.submeshes) {
    size_t g = 0;
    while (g < groups.size() && !(groups[g].material == sm.material &&
                                  groups[g].variant_materials == sm.variant_materials)) {
      ++g;
    }
    if (g == groups.size()) {
      groups.push_back(sm);
      group_indices.emplace_back();
    }
    const auto first = mesh.indices.begin() + sm.first_index;
    group_indices[g].insert(group_indices[g].end(), first, first + sm.index_count);
  }
  mesh.indices.clear();
  for (size_t g = 0; g < groups.size(); ++g) {
    groups[g].first_index = static_cast<uint32_t>(mesh.indices.size());
    groups[g].index_count = static_cast<uint32_t>(group_indices[g].size());
    mesh.indices.insert(mesh.indices.end(), group_indices[g].begin(), group_indices[g].end());
  }
  mesh.submeshes = std::move(groups);
}

// A primitive's vertex streams as read, in primitive space; a stream the primitive lacks is empty.
struct PrimitiveStreams {
  size_t vertex_count = 0;
  std::vector<float> positions;  // xyz per vertex
  std::vector<float> normals;    // xyz per vertex
  std::vector<float> uvs;        // TEXCOORD_0, uv per vertex
  std::vector<float> uvs1;       // TEXCOORD_1, uv per vertex
  std::vector<float> colors;     // COLOR_0, RGBA per vertex
  std::vector<float> tangents;   // TANGENT, xyzw per vertex
};

// A TANGENT's w is +1 or -1; quantised files may store it within this of either.
constexpr float kHandednessTolerance = 1e-3f;

// What a primitive draws with: its glTF material (kNoGltfMaterial: none) and variant mapping.
struct PrimitiveLook {
  uint32_t material = kNoGltfMaterial;
  std::vector<uint32_t> variant_materials;
};

// The accessor of vertex attribute `name`; negative when the primitive has none.
int attributeAccessor(const tinygltf::Primitive& primitive, const char* name) {
  auto it = primitive.attributes.find(name);
  return it == primitive.attributes.end() ? -1 : it->second;
}

// The accepted forms of a texture coordinate set (quantised files store any integer form).
std::vector<ComponentForm> texCoordForms(bool quantized) {
  return quantized ? std::vector<ComponentForm>{kFloatForm, kNormUByteForm, kNormUShortForm,
                                                kByteForm,  kNormByteForm,  kUByteForm,
                                                kShortForm, kNormShortForm, kUShortForm}
                   : std::vector<ComponentForm>{kFloatForm, kNormUByteForm, kNormUShortForm};
}

// Primitives that share every vertex accessor (and binding) share their vertices: exporters
// write one primitive per material over one vertex set, and copies would multiply the mesh.
std::string vertexSetKey(const tinygltf::Primitive& primitive, const Binding& binding) {
  // Nodes with targets have their own weights: their vertices are never shared with another node.
  std::string key = fmt::format("{}|{}|{}|", binding.skin, binding.rigid_joint,
                                binding.morph.count > 0 ? binding.morph.first : -1);
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) key += fmt::format("{},", binding.to_model[c][r]);
  }
  for (const auto& [name, accessor] : primitive.attributes) {
    key += fmt::format("|{}={}", name, accessor);
  }
  for (size_t t = 0; t < primitive.targets.size(); ++t) {  // deltas belong to the vertices too
    for (const auto& [name, accessor] : primitive.targets[t]) {
      key += fmt::format("|{}:{}={}", t, name, accessor);
    }
  }
  return key;
}

class PrimitiveReader {
 public:
  PrimitiveReader(Document& doc, const SkeletonImport& skeleton, SkinnedMesh& mesh,
                  size_t variant_count)
      : doc_(doc), skeleton_(skeleton), mesh_(mesh), variant_count_(variant_count) {
    // TEXCOORD_1 is worth its memory only when some material samples it; then every primitive
    // keeps it, so vertex sets shared by several materials stay shared.
    for (size_t m = 0; m < doc.model.materials.size(); ++m) {
      reads_uvs1_ = reads_uvs1_ || samplesUvSet1(doc, static_cast<int>(m));
    }
  }

  // Reads primitive `p` of mesh `m` and appends it to the mesh.
  Status read(int m, int p, const Binding& binding, const std::string& submesh_name);

  bool skipped_non_triangles = false;

 private:
  // POSITION (within kMaxVertices), NORMAL, TEXCOORD_0 and TANGENT.
  Status readGeometry(const tinygltf::Primitive& primitive, const std::string& what,
                      PrimitiveStreams& streams);
  // The material (kept as a glTF index until readLooks), its variants, and the streams they
  // need: TEXCOORD_1 and COLOR_0.
  Status readLook(const tinygltf::Primitive& primitive, const std::string& what,
                  PrimitiveLook& look, PrimitiveStreams& streams);
  // Vertex attribute `name` as `componentCount(type)` floats per vertex, `vertex_count` of them;
  // empty when the primitive has no such attribute.
  Result<std::vector<float>> readAttribute(const tinygltf::Primitive& primitive, const char* name,
                                           int type, const std::vector<ComponentForm>& forms,
                                           size_t vertex_count, const std::string& what);
  // Indices given or 0..n-1, then strips and fans turned into a triangle list.
  Result<std::vector<uint32_t>> readTriangles(const tinygltf::Primitive& primitive, int mode,
                                              size_t vertex_count, const std::string& what);
  // The primitive's vertices carried into model space and appended to the mesh, with their
  // joints and weights; normals computed where the primitive has none (or degenerate ones).
  Status appendVertices(const tinygltf::Primitive& primitive, const std::string& what,
                        const Binding& binding, const PrimitiveStreams& streams,
                        const std::vector<uint32_t>& indices);
  // The primitive's TANGENT in model space: xyz through each vertex's transform, w flipped where
  // it mirrors; empty when the primitive has none, or unusable ones (zero length, w not +-1:
  // warned, and generated later).
  std::vector<glm::vec4> modelTangents(const std::string& what, const PrimitiveStreams& streams,
                                       const Binding& binding,
                                       const std::vector<glm::u16vec4>& joints,
                                       const std::vector<glm::mat4>& corrections);
  // The primitive's morph target deltas (readTargetDeltas) in model space, into the mesh's
  // targets at vertices [base, base + vertex_count); every target grows to the mesh's vertices.
  Status appendMorphDeltas(const tinygltf::Primitive& primitive, const std::string& what,
                           const Binding& binding, const PrimitiveStreams& streams,
                           const std::vector<glm::u16vec4>& joints,
                           const std::vector<glm::mat4>& corrections, bool normals_computed,
                           size_t base);
  Status readInfluences(const tinygltf::Primitive& primitive, const std::string& what,
                        size_t vertex_count, const Binding& binding,
                        std::vector<glm::u16vec4>& joints, std::vector<glm::vec4>& weights);
  // Per skeleton joint, the correction of a skin whose inverse binds differ from the skeleton's
  // (another skin listed the joint first); empty when none differs.
  std::vector<glm::mat4> skinCorrections(const Binding& binding, const std::string& what);
  // A sub-mesh of `indices`, relative to the vertex set starting at `first_vertex`.
  void appendSubMesh(const std::string& name, const PrimitiveLook& look,
                     const std::vector<uint32_t>& indices, uint32_t first_vertex);

  Document& doc_;
  const SkeletonImport& skeleton_;
  SkinnedMesh& mesh_;
  size_t variant_count_ = 0;
  bool reads_uvs1_ = false;
  std::map<std::string, uint32_t> shared_vertices_;  // vertex-set key -> first vertex
};

Status PrimitiveReader::read(int m, int p, const Binding& binding,
                             const std::string& submesh_name) {
  const tinygltf::Primitive& primitive =
      doc_.model.meshes[static_cast<size_t>(m)].primitives[static_cast<size_t>(p)];
  const std::string what = fmt::format("mesh {} primitive {}", m, p);
  const int mode = primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
  if (mode < TINYGLTF_MODE_POINTS || mode > TINYGLTF_MODE_TRIANGLE_FAN) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: mode {} is not a glTF primitive mode", what, mode)));
  }
  if (mode < TINYGLTF_MODE_TRIANGLES) {
    warn(doc_, WarningKind::kPrimitiveSkipped,
         fmt::format("{}: mode {} (points or lines) is not supported; primitive skipped", what,
                     mode),
         what)
        .with("primitive", what)
        .with("mode", mode);
    skipped_non_triangles = true;
    return {};
  }
  PrimitiveStreams streams;
  if (Status s = readGeometry(primitive, what, streams); !s.ok()) return s;
  PrimitiveLook look;
  if (Status s = readLook(primitive, what, look, streams); !s.ok()) return s;
  Result<std::vector<uint32_t>> indices =
      readTriangles(primitive, mode, streams.vertex_count, what);
  if (!indices.ok()) return indices.status();

  const std::string key = vertexSetKey(primitive, binding);
  if (auto shared = shared_vertices_.find(key); shared != shared_vertices_.end()) {
    appendSubMesh(submesh_name, look, *indices, shared->second);
    return {};
  }
  const auto first_vertex = static_cast<uint32_t>(mesh_.positions.size());
  shared_vertices_.emplace(key, first_vertex);
  if (Status s = appendVertices(primitive, what, binding, streams, *indices); !s.ok()) return s;
  appendSubMesh(submesh_name, look, *indices, first_vertex);
  return {};
}

Result<std::vector<float>> PrimitiveReader::readAttribute(const tinygltf::Primitive& primitive,
                                                          const char* name, int type,
                                                          const std::vector<ComponentForm>& forms,
                                                          size_t vertex_count,
                                                          const std::string& what) {
  const int accessor = attributeAccessor(primitive, name);
  if (accessor < 0) return std::vector<float>{};
  Result<std::vector<float>> read =
      readFloats(doc_, {accessor, type, forms, fmt::format("{} {}", what, name)});
  if (!read.ok()) return read.status();
  const size_t components = static_cast<size_t>(componentCount(type));
  if (read->size() / components != vertex_count) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: {} has {} elements, POSITION {}", what, name,
                                          read->size() / components, vertex_count)));
  }
  return read;
}

Status PrimitiveReader::readGeometry(const tinygltf::Primitive& primitive, const std::string& what,
                                     PrimitiveStreams& streams) {
  const int position_accessor = attributeAccessor(primitive, "POSITION");
  if (position_accessor < 0) {
    return Status(ErrorCode::kInvalidData, place(doc_, fmt::format("{}: no POSITION", what)));
  }
  std::vector<ComponentForm> position_forms =
      doc_.quantized ? std::vector<ComponentForm>{kFloatForm,     kByteForm,      kNormByteForm,
                                                  kUByteForm,     kNormUByteForm, kShortForm,
                                                  kNormShortForm, kUShortForm,    kNormUShortForm}
                     : std::vector<ComponentForm>{kFloatForm};
  Result<std::vector<float>> positions =
      readFloats(doc_, {position_accessor, TINYGLTF_TYPE_VEC3, position_forms, what + " POSITION"});
  if (!positions.ok()) return positions.status();
  streams.vertex_count = positions->size() / 3;
  streams.positions = std::move(positions).value();
  if (mesh_.positions.size() + streams.vertex_count > kMaxVertices) {
    return Status(
        ErrorCode::kLimitExceeded,
        place(doc_, fmt::format("{}: more than {} vertices in the character", what, kMaxVertices)));
  }
  Result<std::vector<float>> normals = readAttribute(
      primitive, "NORMAL", TINYGLTF_TYPE_VEC3,
      doc_.quantized ? std::vector<ComponentForm>{kFloatForm, kNormByteForm, kNormShortForm}
                     : std::vector<ComponentForm>{kFloatForm},
      streams.vertex_count, what);
  if (!normals.ok()) return normals.status();
  streams.normals = std::move(normals).value();
  Result<std::vector<float>> uvs =
      readAttribute(primitive, "TEXCOORD_0", TINYGLTF_TYPE_VEC2, texCoordForms(doc_.quantized),
                    streams.vertex_count, what);
  if (!uvs.ok()) return uvs.status();
  streams.uvs = std::move(uvs).value();
  Result<std::vector<float>> tangents = readAttribute(
      primitive, "TANGENT", TINYGLTF_TYPE_VEC4,
      doc_.quantized ? std::vector<ComponentForm>{kFloatForm, kNormByteForm, kNormShortForm}
                     : std::vector<ComponentForm>{kFloatForm},
      streams.vertex_count, what);
  if (!tangents.ok()) return tangents.status();
  streams.tangents = std::move(tangents).value();
  return {};
}

Status PrimitiveReader::readLook(const tinygltf::Primitive& primitive, const std::string& what,
                                 PrimitiveLook& look, PrimitiveStreams& streams) {
  if (primitive.material < -1 ||
      (primitive.material >= 0 &&
       static_cast<size_t>(primitive.material) >= doc_.model.materials.size())) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: material {} does not exist ({} materials)", what,
                                          primitive.material, doc_.model.materials.size())));
  }
  Result<std::vector<uint32_t>> variant_materials =
      readVariantMapping(doc_, primitive, variant_count_, what);
  if (!variant_materials.ok()) return variant_materials.status();
  look.variant_materials = std::move(variant_materials).value();
  look.material =
      primitive.material < 0 ? kNoGltfMaterial : static_cast<uint32_t>(primitive.material);
  if (reads_uvs1_) {
    Result<std::vector<float>> uvs1 =
        readAttribute(primitive, "TEXCOORD_1", TINYGLTF_TYPE_VEC2, texCoordForms(doc_.quantized),
                      streams.vertex_count, what);
    if (!uvs1.ok()) return uvs1.status();
    streams.uvs1 = std::move(uvs1).value();
  }
  const int color_accessor = attributeAccessor(primitive, "COLOR_0");
  if (color_accessor < 0) return {};
  const auto accessor = static_cast<size_t>(color_accessor);
  const bool rgb = accessor < doc_.model.accessors.size() &&
                   doc_.model.accessors[accessor].type == TINYGLTF_TYPE_VEC3;
  Result<std::vector<float>> read =
      readAttribute(primitive, "COLOR_0", rgb ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4,
                    {kFloatForm, kNormUByteForm, kNormUShortForm}, streams.vertex_count, what);
  if (!read.ok()) return read.status();
  const size_t components = rgb ? 3 : 4;
  streams.colors.resize(streams.vertex_count * 4);
  bool clamped = false;
  for (size_t v = 0; v < streams.vertex_count; ++v) {
    for (size_t c = 0; c < 4; ++c) {
      const float value = c < components ? (*read)[components * v + c] : 1.0f;
      streams.colors[4 * v + c] = std::clamp(value, 0.0f, 1.0f);
      clamped = clamped || streams.colors[4 * v + c] != value;
    }
  }
  if (clamped) {
    warn(doc_, WarningKind::kColorsClamped,
         fmt::format("{}: COLOR_0 values outside [0, 1] clamped", what), what)
        .with("primitive", what);
  }
  return {};
}

Result<std::vector<uint32_t>> PrimitiveReader::readTriangles(const tinygltf::Primitive& primitive,
                                                             int mode, size_t vertex_count,
                                                             const std::string& what) {
  std::vector<uint32_t> indices;
  if (primitive.indices >= 0) {
    Result<std::vector<uint32_t>> read = readUints(doc_, {primitive.indices,
                                                          TINYGLTF_TYPE_SCALAR,
                                                          {kUByteForm, kUShortForm, kUIntForm},
                                                          what + " indices"});
    if (!read.ok()) return read.status();
    indices = std::move(read).value();
    for (size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] >= vertex_count) {
        return Status(ErrorCode::kInvalidData,
                      place(doc_, fmt::format("{}: index {} is {}, but there are {} vertices", what,
                                              i, indices[i], vertex_count)));
      }
    }
  } else {
    indices.resize(vertex_count);
    for (size_t i = 0; i < vertex_count; ++i) indices[i] = static_cast<uint32_t>(i);
  }
  if (mode == TINYGLTF_MODE_TRIANGLES) {
    if (indices.size() % 3 != 0) {
      return Status(ErrorCode::kInvalidData,
                    place(doc_, fmt::format("{}: {} indices is not a whole number of triangles",
                                            what, indices.size())));
    }
    return indices;
  }
  std::vector<uint32_t> list;
  for (size_t i = 0; i + 2 < indices.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_FAN) {
      list.insert(list.end(), {indices[0], indices[i + 1], indices[i + 2]});
    } else if (i % 2 == 0) {
      list.insert(list.end(), {indices[i], indices[i + 1], indices[i + 2]});
    } else {  // odd strip triangles swap their first two vertices to keep the winding
      list.insert(list.end(), {indices[i + 1], indices[i], indices[i + 2]});
    }
  }
  return list;
}

std::vector<glm::vec4> PrimitiveReader::modelTangents(const std::string& what,
                                                      const PrimitiveStreams& streams,
                                                      const Binding& binding,
                                                      const std::vector<glm::u16vec4>& joints,
                                                      const std::vector<glm::mat4>& corrections) {
  const std::vector<float>& in = streams.tangents;
  std::vector<glm::vec4> out(in.size() / 4);
  for (size_t v = 0; v < out.size(); ++v) {
    const glm::vec4 t(in[4 * v], in[4 * v + 1], in[4 * v + 2], in[4 * v + 3]);
    const glm::mat3 m = glm::mat3(
        corrections.empty() ? binding.to_model : corrections[joints[v][0]] * binding.to_model);
    const glm::vec3 xyz = m * glm::vec3(t);
    const float length = glm::length(xyz);
    if (!(length > 1e-12f) || !(std::abs(std::abs(t.w) - 1.0f) <= kHandednessTolerance)) {
      warn(doc_, WarningKind::kTangentsUnusable,
           fmt::format("{}: TANGENT of vertex {} is ({}, {}, {}, {}): not a direction with w "
                       "+1 or -1; the primitive's tangents are generated instead",
                       what, v, t.x, t.y, t.z, t.w),
           what)
          .with("vertex", v);
      return {};
    }
    // A mirroring transform turns cross(N, T) around: the handedness follows it.
    const float w = (t.w > 0.0f ? 1.0f : -1.0f) * (glm::determinant(m) < 0.0f ? -1.0f : 1.0f);
    out[v] = glm::vec4(xyz / length, w);
  }
  return out;
}

std::vector<glm::mat4> PrimitiveReader::skinCorrections(const Binding& binding,
                                                        const std::string& what) {
  if (binding.skin < 0) return {};
  const SkinBinding& skin = skeleton_.skins[static_cast<size_t>(binding.skin)];
  const auto skeleton_binds = skeleton_.skeleton.inverseBinds();
  std::vector<glm::mat4> corrections(static_cast<size_t>(skeleton_.skeleton.jointCount()),
                                     glm::mat4(1.0f));
  bool differs = false;
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    const glm::mat4& reference = skeleton_binds[static_cast<size_t>(skin.joints[j])];
    float largest = 1.0f;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(reference[c][r]));
    }
    if (maxAbsDifference(reference, skin.inverse_binds[j]) > 1e-6f * largest) {
      corrections[static_cast<size_t>(skin.joints[j])] =
          glm::inverse(reference) * skin.inverse_binds[j];
      differs = true;
    }
  }
  if (!differs) return {};
  warn(doc_, WarningKind::kSkinBindsDiffer,
       fmt::format("{}: skin {} has other inverse bind matrices than the skin that first lists "
                   "its joints; vertices re-expressed per dominant joint",
                   what, binding.skin),
       fmt::format("skin {}", binding.skin))
      .with("primitive", what)
      .with("skin", binding.skin);
  return corrections;
}

Status PrimitiveReader::appendVertices(const tinygltf::Primitive& primitive,
                                       const std::string& what, const Binding& binding,
                                       const PrimitiveStreams& streams,
                                       const std::vector<uint32_t>& indices) {
  const size_t vertex_count = streams.vertex_count;
  std::vector<glm::u16vec4> joints(vertex_count);
  std::vector<glm::vec4> weights(vertex_count);
  const glm::mat4 to_model = binding.to_model;
  if (binding.skin >= 0) {
    if (Status s = readInfluences(primitive, what, vertex_count, binding, joints, weights);
        !s.ok()) {
      return s;
    }
  } else {
    for (size_t v = 0; v < vertex_count; ++v) {
      joints[v] = glm::u16vec4(static_cast<uint16_t>(binding.rigid_joint), 0, 0, 0);
      weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
    }
  }
  // A skin whose inverse binds differ from the skeleton's: each vertex re-expressed for the
  // skeleton's matrix of its dominant joint.
  const std::vector<glm::mat4> corrections = skinCorrections(binding, what);

  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(to_model)));
  const size_t base = mesh_.positions.size();
  const std::vector<float>& positions = streams.positions;
  std::vector<glm::vec3> new_positions(vertex_count);
  for (size_t v = 0; v < vertex_count; ++v) {
    glm::vec3 position(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
    glm::mat4 transform = to_model;
    if (!corrections.empty()) transform = corrections[joints[v][0]] * to_model;
    new_positions[v] = glm::vec3(transform * glm::vec4(position, 1.0f));
  }
  const std::vector<float>& normals = streams.normals;
  std::vector<glm::vec3> new_normals;
  bool compute = normals.empty();
  if (!compute) {
    new_normals.resize(vertex_count);
    for (size_t v = 0; v < vertex_count; ++v) {
      glm::vec3 n(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]);
      glm::mat3 nm = normal_matrix;
      if (!corrections.empty()) {
        nm = glm::transpose(glm::inverse(glm::mat3(corrections[joints[v][0]] * to_model)));
      }
      n = nm * n;
      const float length = glm::length(n);
      if (!(length > 1e-12f)) {
        compute = true;
        break;
      }
      new_normals[v] = n / length;
    }
    if (compute) {
      warn(doc_, WarningKind::kNormalsRecomputed,
           fmt::format("{}: zero-length normals; normals recomputed", what), what)
          .with("primitive", what);
    }
  }
  if (compute) computeNormals(new_positions, indices, new_normals);

  mesh_.positions.insert(mesh_.positions.end(), new_positions.begin(), new_positions.end());
  mesh_.normals.insert(mesh_.normals.end(), new_normals.begin(), new_normals.end());
  mesh_.joints.insert(mesh_.joints.end(), joints.begin(), joints.end());
  mesh_.weights.insert(mesh_.weights.end(), weights.begin(), weights.end());
  // Streams some primitives lack: uvs read (0, 0), colours white (no change to the material).
  appendStream(mesh_.uvs, streams.uvs, base, vertex_count, glm::vec2(0.0f));
  appendStream(mesh_.uvs1, streams.uvs1, base, vertex_count, glm::vec2(0.0f));
  appendStream(mesh_.colors, streams.colors, base, vertex_count, glm::vec4(1.0f));
  // Vertices without a usable TANGENT get (0, 0, 0, 0): importGltf generates theirs.
  const std::vector<glm::vec4> tangents =
      modelTangents(what, streams, binding, joints, corrections);
  std::vector<float> flat;
  for (const glm::vec4& t : tangents) flat.insert(flat.end(), {t.x, t.y, t.z, t.w});
  appendStream(mesh_.tangents, flat, base, vertex_count, glm::vec4(0.0f));
  return appendMorphDeltas(primitive, what, binding, streams, joints, corrections, compute, base);
}

Status PrimitiveReader::appendMorphDeltas(const tinygltf::Primitive& primitive,
                                          const std::string& what, const Binding& binding,
                                          const PrimitiveStreams& streams,
                                          const std::vector<glm::u16vec4>& joints,
                                          const std::vector<glm::mat4>& corrections,
                                          bool normals_computed, size_t base) {
  const size_t total = mesh_.positions.size();
  for (MorphTarget& target : mesh_.morph_targets) {  // zero deltas on every other node's vertices
    target.positions.resize(total, glm::vec3(0.0f));
    if (!target.normals.empty()) target.normals.resize(total, glm::vec3(0.0f));
    if (!target.tangents.empty()) target.tangents.resize(total, glm::vec3(0.0f));
  }
  if (binding.morph.count == 0) return {};
  const size_t vertex_count = streams.vertex_count;
  Result<std::vector<TargetDeltas>> deltas = readTargetDeltas(doc_, primitive, vertex_count, what);
  if (!deltas.ok()) return deltas.status();
  for (size_t t = 0; t < deltas->size(); ++t) {
    const TargetDeltas& d = (*deltas)[t];
    MorphTarget& target = mesh_.morph_targets[static_cast<size_t>(binding.morph.first) + t];
    // Computed normals have no file deltas to follow; unusable file tangents are regenerated.
    const bool normals = !d.normals.empty() && !normals_computed && !streams.normals.empty();
    const bool tangents = !d.tangents.empty() && !streams.tangents.empty();
    if (normals && target.normals.empty()) target.normals.assign(total, glm::vec3(0.0f));
    if (tangents && target.tangents.empty()) target.tangents.assign(total, glm::vec3(0.0f));
    for (size_t v = 0; v < vertex_count; ++v) {
      glm::mat4 transform = binding.to_model;
      if (!corrections.empty()) transform = corrections[joints[v][0]] * transform;
      const glm::mat3 linear(transform);
      const auto xyz = [](const std::vector<float>& f, size_t i) {
        return glm::vec3(f[3 * i], f[3 * i + 1], f[3 * i + 2]);
      };
      if (!d.positions.empty()) target.positions[base + v] = linear * xyz(d.positions, v);
      if (normals) {
        // The base normal was normalised after its transform: its delta shares the scale.
        const glm::mat3 nm = glm::transpose(glm::inverse(linear));
        const float length = glm::length(nm * xyz(streams.normals, v));
        target.normals[base + v] =
            length > 0.0f ? nm * xyz(d.normals, v) / length : glm::vec3(0.0f);
      }
      if (tangents) {
        const glm::vec3 t0(streams.tangents[4 * v], streams.tangents[4 * v + 1],
                           streams.tangents[4 * v + 2]);
        const float length = glm::length(linear * t0);
        target.tangents[base + v] =
            length > 0.0f ? linear * xyz(d.tangents, v) / length : glm::vec3(0.0f);
      }
    }
  }
  return {};
}

void PrimitiveReader::appendSubMesh(const std::string& name, const PrimitiveLook& look,
                                    const std::vector<uint32_t>& indices, uint32_t first_vertex) {
  SubMesh submesh;
  submesh.name = name;
  submesh.first_index = static_cast<uint32_t>(mesh_.indices.size());
  submesh.index_count = static_cast<uint32_t>(indices.size());
  submesh.material = look.material;
  submesh.variant_materials = look.variant_materials;
  for (uint32_t index : indices) mesh_.indices.push_back(first_vertex + index);
  mesh_.submeshes.push_back(std::move(submesh));
}

// What readInfluences found across a primitive's vertices.
struct InfluenceCounts {
  size_t too_many = 0;      // vertices with more than kMaxInfluences non-zero weights
  size_t unnormalised = 0;  // vertices whose weights do not sum to 1
  size_t unweighted = 0;    // vertices without weight, bound to the skin's first joint `joint`
  float worst_deviation = 0.0f;
};

// One warning per kind of influence trouble in primitive `what`.
void warnInfluences(Document& doc, const std::string& what, const InfluenceCounts& counts,
                    const std::string& joint) {
  if (counts.too_many > 0) {
    warn(doc, WarningKind::kInfluencesTrimmed,
         fmt::format("{}: {} vertices have more than {} influences; kept the {} largest and "
                     "renormalised",
                     what, counts.too_many, kMaxInfluences, kMaxInfluences),
         fmt::format("{} ({})", what, counts.too_many))
        .with("primitive", what)
        .with("vertices", counts.too_many);
  }
  if (counts.unnormalised > 0) {
    warn(doc, WarningKind::kWeightsRenormalised,
         fmt::format("{}: weights of {} vertices do not sum to 1 (largest deviation {:.3g}); "
                     "renormalised",
                     what, counts.unnormalised, counts.worst_deviation),
         fmt::format("{} ({})", what, counts.unnormalised))
        .with("primitive", what)
        .with("vertices", counts.unnormalised)
        .with("largest_deviation", static_cast<double>(counts.worst_deviation));
  }
  if (counts.unweighted > 0) {
    warn(doc, WarningKind::kUnweightedVertices,
         fmt::format("{}: {} vertices have no weight; bound to joint '{}' (the skin's first)", what,
                     counts.unweighted, joint),
         fmt::format("{} ({})", what, counts.unweighted))
        .with("primitive", what)
        .with("vertices", counts.unweighted)
        .with("joint", joint);
  }
}

Status PrimitiveReader::readInfluences(const tinygltf::Primitive& primitive,
                                       const std::string& what, size_t vertex_count,
                                       const Binding& binding, std::vector<glm::u16vec4>& joints,
                                       std::vector<glm::vec4>& weights) {
  const SkinBinding& skin = skeleton_.skins[static_cast<size_t>(binding.skin)];
  std::vector<std::vector<uint32_t>> joint_sets;
  std::vector<std::vector<float>> weight_sets;
  for (int set = 0;; ++set) {
    auto joints_it = primitive.attributes.find(fmt::format("JOINTS_{}", set));
    auto weights_it = primitive.attributes.find(fmt::format("WEIGHTS_{}", set));
    const bool has_joints = joints_it != primitive.attributes.end();
    const bool has_weights = weights_it != primitive.attributes.end();
    if (!has_joints && !has_weights) break;
    if (has_joints != has_weights) {
      return Status(ErrorCode::kInvalidData,
                    place(doc_, fmt::format("{}: JOINTS_{} and WEIGHTS_{} must come together", what,
                                            set, set)));
    }
    if (set == kMaxInfluenceSets) {
      warn(doc_, WarningKind::kInfluenceSetsIgnored,
           fmt::format("{}: influence sets beyond JOINTS_{} ignored", what, set - 1), what)
          .with("primitive", what)
          .with("sets_read", set);
      break;
    }
    Result<std::vector<uint32_t>> j = readUints(doc_, {joints_it->second,
                                                       TINYGLTF_TYPE_VEC4,
                                                       {kUByteForm, kUShortForm},
                                                       fmt::format("{} JOINTS_{}", what, set)});
    if (!j.ok()) return j.status();
    Result<std::vector<float>> w = readFloats(doc_, {weights_it->second,
                                                     TINYGLTF_TYPE_VEC4,
                                                     {kFloatForm, kNormUByteForm, kNormUShortForm},
                                                     fmt::format("{} WEIGHTS_{}", what, set)});
    if (!w.ok()) return w.status();
    if (j->size() != vertex_count * 4 || w->size() != vertex_count * 4) {
      return Status(
          ErrorCode::kInvalidData,
          place(doc_, fmt::format("{}: JOINTS_{}/WEIGHTS_{} have {}/{} elements for {} "
                                  "vertices",
                                  what, set, set, j->size() / 4, w->size() / 4, vertex_count)));
    }
    joint_sets.push_back(std::move(j).value());
    weight_sets.push_back(std::move(w).value());
  }
  if (joint_sets.empty()) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: the node has skin {} but the primitive has no "
                                          "JOINTS_0/WEIGHTS_0",
                                          what, binding.skin)));
  }

  size_t too_many = 0;
  size_t unnormalised = 0;
  size_t unweighted = 0;
  float worst_deviation = 0.0f;
  Influence influences[kMaxInfluenceSets * 4];
  for (size_t v = 0; v < vertex_count; ++v) {
    int count = 0;
    int nonzero = 0;
    float sum = 0.0f;
    for (size_t set = 0; set < joint_sets.size(); ++set) {
      for (size_t c = 0; c < 4; ++c) {
        const float w = weight_sets[set][4 * v + c];
        const uint32_t j = joint_sets[set][4 * v + c];
        if (w < 0.0f) {
          return Status(
              ErrorCode::kInvalidData,
              place(doc_, fmt::format("{}: vertex {} has negative weight {}", what, v, w)));
        }
        if (w == 0.0f) continue;  // the joint of a zero weight may be anything
        if (j >= skin.joints.size()) {
          return Status(ErrorCode::kInvalidData,
                        place(doc_, fmt::format("{}: vertex {} uses joint {}, but skin {} has {} "
                                                "joints",
                                                what, v, j, binding.skin, skin.joints.size())));
        }
        influences[count++] = {skin.joints[j], w};
        sum += w;
        ++nonzero;
      }
    }
    if (nonzero > kMaxInfluences) ++too_many;
    if (!reduceInfluences(influences, count, joints[v], weights[v])) {
      ++unweighted;
      joints[v] = glm::u16vec4(static_cast<uint16_t>(skin.joints[0]), 0, 0, 0);
      weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
      continue;
    }
    const float deviation = std::fabs(sum - 1.0f);
    if (deviation > kWeightSumWarnTolerance) {
      ++unnormalised;
      worst_deviation = std::max(worst_deviation, deviation);
    }
  }
  const std::string& first_joint = skeleton_.skeleton.names()[static_cast<size_t>(skin.joints[0])];
  warnInfluences(doc_, what, {too_many, unnormalised, unweighted, worst_deviation}, first_joint);
  return {};
}

}  // namespace

Result<SkinnedMesh> readMesh(Document& doc, const SkeletonImport& skeleton,
                             const MorphLayout& morph) {
  const tinygltf::Model& model = doc.model;
  SkinnedMesh mesh;
  mesh.morph_targets = morph.targets;
  Result<std::vector<std::string>> variants = readVariantNames(doc);
  if (!variants.ok()) return variants.status();
  PrimitiveReader reader(doc, skeleton, mesh, variants->size());
  size_t primitives = 0;
  const auto inverse_binds = skeleton.skeleton.inverseBinds();
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const tinygltf::Node& node = model.nodes[n];
    if (node.mesh < 0) continue;
    const tinygltf::Mesh& gltf_mesh = model.meshes[static_cast<size_t>(node.mesh)];
    Binding binding;
    if (node.skin >= 0) {
      binding.skin = node.skin;
      binding.to_model = skeleton.skin_to_model;
    } else if (skeleton.node_to_joint[n] >= 0) {
      binding.rigid_joint = skeleton.node_to_joint[n];
      // palette = world * inverse_bind must carry the vertex to world * local.
      const glm::mat4& inverse_bind = inverse_binds[static_cast<size_t>(binding.rigid_joint)];
      if (!isInvertible(inverse_bind)) {
        warn(doc, WarningKind::kDegenerateMeshNode,
             fmt::format("node {} ('{}'): degenerate transform; mesh {} skipped", n, node.name,
                         node.mesh),
             fmt::format("mesh {} on node {} ('{}')", node.mesh, n, node.name))
            .with("node", n)
            .with("name", node.name)
            .with("mesh", node.mesh);
        continue;
      }
      binding.to_model = glm::inverse(inverse_bind);
    } else {
      warn(doc, WarningKind::kUnskinnedMeshSkipped,
           fmt::format("node {} ('{}'): mesh {} has no skin and is not under a skeleton node; "
                       "skipped",
                       n, node.name, node.mesh),
           fmt::format("mesh {} on node {} ('{}')", node.mesh, n, node.name))
          .with("node", n)
          .with("name", node.name)
          .with("mesh", node.mesh);
      continue;
    }
    binding.morph = morph.nodes[n];
    for (size_t p = 0; p < gltf_mesh.primitives.size(); ++p) {
      ++primitives;
      std::string name = !gltf_mesh.name.empty() ? gltf_mesh.name
                         : !node.name.empty()    ? node.name
                                                 : fmt::format("mesh{}", node.mesh);
      if (gltf_mesh.primitives.size() > 1) name += fmt::format(".{}", p);
      if (Status s = reader.read(node.mesh, static_cast<int>(p), binding, name); !s.ok()) {
        return s;
      }
    }
  }
  if (primitives > 0 && mesh.submeshes.empty() && reader.skipped_non_triangles) {
    return Status(ErrorCode::kUnsupported,
                  place(doc, "only point or line primitives; throng needs triangles"));
  }
  for (MorphTarget& target : mesh.morph_targets) {  // nodes after a target's own add zeros
    target.positions.resize(mesh.positions.size(), glm::vec3(0.0f));
    if (!target.normals.empty()) target.normals.resize(mesh.positions.size(), glm::vec3(0.0f));
    if (!target.tangents.empty()) target.tangents.resize(mesh.positions.size(), glm::vec3(0.0f));
  }
  groupByMaterial(mesh);
  return mesh;
}

}  // namespace throng::gltf
