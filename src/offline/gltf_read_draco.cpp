// KHR_draco_mesh_compression: decodes Draco primitives into plain accessors after loading.
#include "offline/gltf_read_draco.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>

#ifndef THRONG_NO_DRACO
#include <draco/compression/decode.h>
#endif
#include <fmt/format.h>

#include "offline/gltf_read_accessor.h"
#include "offline/gltf_read_prepare.h"

namespace throng::gltf {

#ifdef THRONG_NO_DRACO
// A build without Draco (the web build) reads uncompressed files only.
Status decodeDracoPrimitives(Document& doc) {
  for (size_t m = 0; m < doc.model.meshes.size(); ++m) {
    for (size_t p = 0; p < doc.model.meshes[m].primitives.size(); ++p) {
      if (doc.model.meshes[m].primitives[p].extensions.count(kDracoExtension) == 0) continue;
      return Status(
          ErrorCode::kUnsupported,
          fmt::format("{}: this build of throng has no Draco decoder "
                      "(bake the file with a native build)",
                      place(doc, fmt::format("mesh {} primitive {} ({})", m, p, kDracoExtension))));
    }
  }
  return {};
}
#else
namespace {

// Appends `bytes` as a new buffer with one view over it; returns the view.
int addView(tinygltf::Model& model, std::vector<unsigned char> bytes, const std::string& name) {
  tinygltf::Buffer buffer;
  buffer.name = name;
  tinygltf::BufferView view;
  view.byteLength = bytes.size();
  buffer.data = std::move(bytes);
  model.buffers.push_back(std::move(buffer));
  view.buffer = static_cast<int>(model.buffers.size() - 1);
  view.name = name;
  model.bufferViews.push_back(std::move(view));
  return static_cast<int>(model.bufferViews.size() - 1);
}

// Points `accessor` at `bytes` (tightly packed elements of `component_type`).
void rebind(tinygltf::Model& model, tinygltf::Accessor& accessor, std::vector<unsigned char> bytes,
            int component_type, const std::string& name) {
  accessor.bufferView = addView(model, std::move(bytes), name);
  accessor.byteOffset = 0;
  accessor.componentType = component_type;
  accessor.normalized = false;
  accessor.sparse.isSparse = false;  // Draco data is whole: no sparse substitution
  accessor.minValues.clear();
  accessor.maxValues.clear();
}

// The largest value of a normalised integer accessor's components (glTF's conversion divides by
// it); 0 for anything else.
double normalizedMax(const tinygltf::Accessor& accessor) {
  if (!accessor.normalized) return 0.0;
  switch (accessor.componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return 127.0;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 255.0;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return 32767.0;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 65535.0;
    default:
      return 0.0;
  }
}

// The error of a malformed Draco primitive at `where`.
Status invalidDraco(const std::string& where, const std::string& what) {
  return Status(ErrorCode::kInvalidData, fmt::format("{}: {}", where, what));
}

// A decoded Draco stream: its points, with faces when it is a mesh.
struct DracoGeometry {
  std::unique_ptr<draco::PointCloud> cloud;
  const draco::Mesh* mesh = nullptr;  // `cloud` as a mesh; null for a point cloud
};

class PrimitiveDecoder {
 public:
  PrimitiveDecoder(Document& doc, uint64_t& budget) : doc_(doc), budget_(budget) {}
  Status decode(size_t m, size_t p);

 private:
  Status charge(uint64_t bytes, const std::string& where) {
    if (bytes > budget_) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("{}: decoded data exceed the {}-byte limit for Draco", where,
                                kMaxDracoDecodedBytes));
    }
    budget_ -= bytes;
    return {};
  }
  // The extension's buffer view, checked to lie inside its buffer.
  Result<int> dracoView(const tinygltf::Value& ext, const std::string& where) const;
  // Decodes the Draco data of buffer view `view_index`.
  Result<DracoGeometry> decodeGeometry(int view_index, const std::string& where) const;
  // Rebinds the primitive's indices accessor (unless done for an earlier primitive) to the
  // decoded faces, as UNSIGNED_INT.
  Status rebindIndices(const tinygltf::Primitive& primitive, const DracoGeometry& geometry,
                       size_t m, const std::string& where);
  // Rebinds attribute `name` (Draco id `id`) of the primitive (unless done for an earlier one)
  // to its decoded values: UNSIGNED_SHORT joints, FLOAT anything else.
  Status rebindAttribute(const tinygltf::Primitive& primitive, const std::string& name,
                         const tinygltf::Value& id, const DracoGeometry& geometry, size_t m,
                         const std::string& where);

  Document& doc_;
  uint64_t& budget_;
  std::set<int> decoded_;  // accessors already rebound (shared by several primitives)
};

Result<int> PrimitiveDecoder::dracoView(const tinygltf::Value& ext,
                                        const std::string& where) const {
  const tinygltf::Model& model = doc_.model;
  if (!ext.IsObject() || !ext.Has("bufferView") || !ext.Get("bufferView").IsInt() ||
      !ext.Has("attributes") || !ext.Get("attributes").IsObject()) {
    return invalidDraco(where, "needs an integer bufferView and an attributes object");
  }
  const int view_index = ext.Get("bufferView").GetNumberAsInt();
  if (view_index < 0 || static_cast<size_t>(view_index) >= model.bufferViews.size()) {
    return invalidDraco(where, fmt::format("buffer view {} does not exist", view_index));
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(view_index)];
  if (view.buffer < 0 || static_cast<size_t>(view.buffer) >= model.buffers.size()) {
    return invalidDraco(where, fmt::format("buffer view {} uses buffer {}, which does not exist",
                                           view_index, view.buffer));
  }
  const std::vector<unsigned char>& data = model.buffers[static_cast<size_t>(view.buffer)].data;
  if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset) {
    return invalidDraco(where, fmt::format("buffer view {} is outside its buffer", view_index));
  }
  return view_index;
}

Result<DracoGeometry> PrimitiveDecoder::decodeGeometry(int view_index,
                                                       const std::string& where) const {
  const tinygltf::BufferView& view = doc_.model.bufferViews[static_cast<size_t>(view_index)];
  const std::vector<unsigned char>& data =
      doc_.model.buffers[static_cast<size_t>(view.buffer)].data;
  draco::DecoderBuffer buffer;
  buffer.Init(reinterpret_cast<const char*>(data.data() + view.byteOffset), view.byteLength);
  auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
  if (!type.ok()) return invalidDraco(where, "not Draco data: " + type.status().error_msg_string());
  draco::Decoder decoder;
  DracoGeometry geometry;
  if (type.value() == draco::TRIANGULAR_MESH) {
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) {
      return invalidDraco(where, "cannot decode: " + decoded.status().error_msg_string());
    }
    geometry.mesh = decoded.value().get();
    geometry.cloud = std::move(decoded).value();
  } else if (type.value() == draco::POINT_CLOUD) {
    auto decoded = decoder.DecodePointCloudFromBuffer(&buffer);
    if (!decoded.ok()) {
      return invalidDraco(where, "cannot decode: " + decoded.status().error_msg_string());
    }
    geometry.cloud = std::move(decoded).value();
  } else {
    return invalidDraco(where, "unknown Draco geometry type");
  }
  return geometry;
}

Status PrimitiveDecoder::rebindIndices(const tinygltf::Primitive& primitive,
                                       const DracoGeometry& geometry, size_t m,
                                       const std::string& where) {
  tinygltf::Model& model = doc_.model;
  if (primitive.indices < 0 || !decoded_.insert(primitive.indices).second) return {};
  if (static_cast<size_t>(primitive.indices) >= model.accessors.size()) {
    return invalidDraco(where,
                        fmt::format("indices accessor {} does not exist", primitive.indices));
  }
  const draco::Mesh* mesh = geometry.mesh;
  if (mesh == nullptr) return invalidDraco(where, "a point cloud cannot feed the indices accessor");
  const uint64_t count = uint64_t{3} * mesh->num_faces();
  tinygltf::Accessor& accessor = model.accessors[static_cast<size_t>(primitive.indices)];
  if (accessor.count != count) {
    return invalidDraco(where, fmt::format("indices accessor {} has {} elements, Draco decoded {}",
                                           primitive.indices, accessor.count, count));
  }
  if (Status s = charge(count * 4, where); !s.ok()) return s;
  std::vector<unsigned char> bytes(count * 4);
  for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f) {
    const draco::Mesh::Face& face = mesh->face(f);
    for (int k = 0; k < 3; ++k) {
      const uint32_t index = face[k].value();
      std::memcpy(bytes.data() + (3 * static_cast<size_t>(f.value()) + k) * 4, &index, 4);
    }
  }
  rebind(model, model.accessors[static_cast<size_t>(primitive.indices)], std::move(bytes),
         TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, fmt::format("draco mesh {} indices", m));
  return {};
}

Status PrimitiveDecoder::rebindAttribute(const tinygltf::Primitive& primitive,
                                         const std::string& name, const tinygltf::Value& id,
                                         const DracoGeometry& geometry, size_t m,
                                         const std::string& where) {
  tinygltf::Model& model = doc_.model;
  const draco::PointCloud& cloud = *geometry.cloud;
  const uint64_t points = cloud.num_points();
  auto it = primitive.attributes.find(name);
  if (it == primitive.attributes.end()) {
    return invalidDraco(where,
                        fmt::format("attribute {} is not an attribute of the primitive", name));
  }
  const int accessor_index = it->second;
  if (accessor_index < 0 || static_cast<size_t>(accessor_index) >= model.accessors.size()) {
    return invalidDraco(
        where, fmt::format("attribute {} accessor {} does not exist", name, accessor_index));
  }
  if (!decoded_.insert(accessor_index).second) return {};
  if (!id.IsInt())
    return invalidDraco(where, fmt::format("attribute {} id is not an integer", name));
  const draco::PointAttribute* attribute =
      cloud.GetAttributeByUniqueId(static_cast<uint32_t>(id.GetNumberAsInt()));
  if (attribute == nullptr) {
    return invalidDraco(where, fmt::format("attribute {} (Draco id {}) is not in the Draco data",
                                           name, id.GetNumberAsInt()));
  }
  tinygltf::Accessor& accessor = model.accessors[static_cast<size_t>(accessor_index)];
  const int components = componentCount(accessor.type);
  if (components == 0 || components > 4) {
    return invalidDraco(where,
                        fmt::format("attribute {} accessor type is not SCALAR or VEC2..4", name));
  }
  if (accessor.count != points) {
    return invalidDraco(
        where, fmt::format("attribute {} accessor {} has {} elements, Draco decoded {}", name,
                           accessor_index, accessor.count, points));
  }
  const bool joints = name.starts_with("JOINTS_");
  // The accessor's componentType and `normalized` say what the decoded integers mean; Draco
  // streams do not always carry the flag themselves.
  const double scale = normalizedMax(accessor);
  const bool normalize = scale > 0.0 && !attribute->normalized() &&
                         attribute->data_type() != draco::DT_FLOAT32 &&
                         attribute->data_type() != draco::DT_FLOAT64;
  const size_t element = static_cast<size_t>(components) * (joints ? 2 : 4);
  if (Status s = charge(points * element, where); !s.ok()) return s;
  std::vector<unsigned char> bytes(points * element);
  const auto n = static_cast<int8_t>(components);
  for (draco::PointIndex i(0); i < cloud.num_points(); ++i) {
    unsigned char* out = bytes.data() + static_cast<size_t>(i.value()) * element;
    bool converted = false;
    if (joints) {
      uint16_t values[4] = {0, 0, 0, 0};
      converted = attribute->ConvertValue<uint16_t>(attribute->mapped_index(i), n, values);
      std::memcpy(out, values, element);
    } else {
      float values[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      converted = attribute->ConvertValue<float>(attribute->mapped_index(i), n, values);
      if (normalize) {
        for (float& v : values) v = static_cast<float>(std::max(v / scale, -1.0));
      }
      std::memcpy(out, values, element);
    }
    if (!converted) {
      return invalidDraco(where, fmt::format("attribute {} value {} does not convert to {}", name,
                                             i.value(), joints ? "UNSIGNED_SHORT" : "FLOAT"));
    }
  }
  rebind(model, accessor, std::move(bytes),
         joints ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT : TINYGLTF_COMPONENT_TYPE_FLOAT,
         fmt::format("draco mesh {} {}", m, name));
  return {};
}

Status PrimitiveDecoder::decode(size_t m, size_t p) {
  const tinygltf::Model& model = doc_.model;
  const std::string where =
      place(doc_, fmt::format("mesh {} primitive {} ({})", m, p, kDracoExtension));
  // Copies: rebinding appends to the model's vectors.
  const tinygltf::Primitive primitive = model.meshes[m].primitives[p];
  const tinygltf::Value& ext = primitive.extensions.at(kDracoExtension);
  Result<int> view_index = dracoView(ext, where);
  if (!view_index.ok()) return view_index.status();
  Result<DracoGeometry> geometry = decodeGeometry(*view_index, where);
  if (!geometry.ok()) return geometry.status();
  if (Status s = rebindIndices(primitive, *geometry, m, where); !s.ok()) return s;
  const tinygltf::Value& attributes = ext.Get("attributes");
  for (const std::string& name : attributes.Keys()) {
    if (Status s = rebindAttribute(primitive, name, attributes.Get(name), *geometry, m, where);
        !s.ok()) {
      return s;
    }
  }
  // An attribute left on the Draco view (prepareForTinygltf gave it the view because it had
  // none) is not in the extension's map: it has no data at all.
  for (const auto& [name, index] : primitive.attributes) {
    if (index >= 0 && static_cast<size_t>(index) < model.accessors.size() &&
        model.accessors[static_cast<size_t>(index)].bufferView == *view_index &&
        decoded_.count(index) == 0) {
      return invalidDraco(
          where, fmt::format("attribute {} has no buffer view and is not in the Draco data", name));
    }
  }
  return {};
}

}  // namespace

Status decodeDracoPrimitives(Document& doc) {
  uint64_t budget = kMaxDracoDecodedBytes;
  PrimitiveDecoder decoder(doc, budget);
  for (size_t m = 0; m < doc.model.meshes.size(); ++m) {
    for (size_t p = 0; p < doc.model.meshes[m].primitives.size(); ++p) {
      const auto& extensions = doc.model.meshes[m].primitives[p].extensions;
      if (extensions.find(kDracoExtension) == extensions.end()) continue;
      if (Status s = decoder.decode(m, p); !s.ok()) return s;
      doc.model.meshes[m].primitives[p].extensions.erase(kDracoExtension);
    }
  }
  return {};
}

#endif  // THRONG_NO_DRACO

}  // namespace throng::gltf
