// Before and after tinygltf parses a file: the extension policy, and the rewrites that let it
// parse compressed files (EXT_meshopt_compression, KHR_draco_mesh_compression).
#include "offline/gltf_read_prepare.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "offline/glb_layout.h"

namespace throng::gltf {
namespace {

using nlohmann::json;

// What a meshopt fallback buffer becomes: 4 zero bytes (tinygltf wants data; nothing reads it).
constexpr const char* kEmptyBufferUri = "data:application/octet-stream;base64,AAAAAA==";

void writeU32(std::string& out, size_t offset, uint32_t value) {
  std::memcpy(out.data() + offset, &value, sizeof(value));
}

bool listed(const json& root, const char* list, const char* name) {
  auto it = root.find(list);
  if (it == root.end() || !it->is_array()) return false;
  for (const json& e : *it) {
    if (e.is_string() && e.get<std::string>() == name) return true;
  }
  return false;
}

// Fallback buffers of EXT_meshopt_compression hold no data (or data nobody needs).
bool patchMeshoptFallbacks(json& root) {
  bool changed = false;
  auto buffers = root.find("buffers");
  if (buffers == root.end() || !buffers->is_array()) return false;
  for (json& buffer : *buffers) {
    if (!buffer.is_object()) continue;
    const json* ext = nullptr;
    if (auto e = buffer.find("extensions"); e != buffer.end() && e->is_object()) {
      if (auto m = e->find(kMeshoptExtension); m != e->end() && m->is_object()) ext = &*m;
    }
    if (ext == nullptr) continue;
    auto fallback = ext->find("fallback");
    if (fallback == ext->end() || !fallback->is_boolean() || !fallback->get<bool>()) continue;
    buffer["uri"] = kEmptyBufferUri;
    buffer["byteLength"] = 4;
    changed = true;
  }
  return changed;
}

// Accessors of Draco primitives have no buffer view; tinygltf insists on one for indices.
bool patchDracoAccessors(json& root) {
  bool changed = false;
  auto meshes = root.find("meshes");
  auto accessors = root.find("accessors");
  if (meshes == root.end() || !meshes->is_array() || accessors == root.end() ||
      !accessors->is_array()) {
    return false;
  }
  for (json& mesh : *meshes) {
    if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) {
      continue;
    }
    for (json& primitive : mesh["primitives"]) {
      if (!primitive.is_object()) continue;
      auto e = primitive.find("extensions");
      if (e == primitive.end() || !e->is_object()) continue;
      auto draco = e->find(kDracoExtension);
      if (draco == e->end() || !draco->is_object()) continue;
      auto view = draco->find("bufferView");
      if (view == draco->end() || !view->is_number_unsigned()) continue;
      std::vector<json> targets;
      if (auto i = primitive.find("indices"); i != primitive.end()) targets.push_back(*i);
      if (auto a = primitive.find("attributes"); a != primitive.end() && a->is_object()) {
        for (const auto& [name, index] : a->items()) targets.push_back(index);
      }
      for (const json& index : targets) {
        if (!index.is_number_unsigned() || index.get<uint64_t>() >= accessors->size()) continue;
        json& accessor = (*accessors)[index.get<size_t>()];
        if (accessor.is_object() && !accessor.contains("bufferView")) {
          accessor["bufferView"] = *view;
          changed = true;
        }
      }
    }
  }
  return changed;
}

}  // namespace

bool isSupportedExtension(std::string_view name) {
  return name == "KHR_mesh_quantization" || name == "KHR_texture_transform" ||
         name == "KHR_materials_variants" || name == "KHR_materials_pbrSpecularGlossiness" ||
         name == "KHR_materials_emissive_strength" || name == kMeshoptExtension ||
         name == kDracoExtension;
}

bool isIgnorableExtension(std::string_view name) {
  return name.starts_with("KHR_materials_") || name == "KHR_lights_punctual" ||
         name == "KHR_xmp_json_ld" || name == "KHR_xmp";
}

const char* undecodableImageExtension(std::string_view name) {
  if (name == "KHR_texture_basisu") return "KTX2 / Basis Universal textures";
  if (name == "EXT_texture_webp") return "WebP textures";
  if (name == "EXT_texture_avif") return "AVIF textures";
  if (name == "MSFT_texture_dds") return "DDS textures";
  return nullptr;
}

Status checkRequiredExtensions(const std::string& path, const std::vector<std::string>& required) {
  for (const std::string& name : required) {
    if (const char* what = undecodableImageExtension(name)) {
      return Status(ErrorCode::kUnsupported,
                    fmt::format("{}: requires extension {} ({}), which throng cannot decode", path,
                                name, what));
    }
    if (!isSupportedExtension(name) && !isIgnorableExtension(name)) {
      return Status(
          ErrorCode::kUnsupported,
          fmt::format("{}: requires extension {}, which throng does not support", path, name));
    }
  }
  return {};
}

void noteUsedExtensions(Document& doc) {
  for (const std::string& name : doc.model.extensionsUsed) {
    if (isSupportedExtension(name)) {
      if (name == "KHR_mesh_quantization") doc.quantized = true;
      continue;
    }
    if (const char* what = undecodableImageExtension(name)) {
      warn(doc, WarningKind::kImageExtensionUnsupported,
           fmt::format("extension {} ({}) is not supported; textures use their fallback images, "
                       "or none",
                       name, what),
           name)
          .with("extension", name);
      continue;
    }
    warn(doc, WarningKind::kExtensionIgnored, fmt::format("extension {} is ignored", name), name)
        .with("extension", name);
  }
}

Status prepareForTinygltf(const std::string& path, std::string& bytes, bool binary) {
  size_t json_begin = 0;
  size_t json_end = bytes.size();
  if (binary) {  // the container was checked: the JSON chunk lies inside the file
    json_begin = kGlbHeaderBytes + kChunkHeaderBytes;
    json_end = json_begin + readGlbU32(bytes, kGlbHeaderBytes);
  }
  json root = json::parse(bytes.begin() + static_cast<std::ptrdiff_t>(json_begin),
                          bytes.begin() + static_cast<std::ptrdiff_t>(json_end), nullptr,
                          /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return {};  // tinygltf reports it

  std::vector<std::string> required;
  if (auto it = root.find("extensionsRequired"); it != root.end() && it->is_array()) {
    for (const json& e : *it) {
      if (e.is_string()) required.push_back(e.get<std::string>());
    }
  }
  if (Status s = checkRequiredExtensions(path, required); !s.ok()) return s;

  bool changed = false;
  if (listed(root, "extensionsUsed", kMeshoptExtension)) changed |= patchMeshoptFallbacks(root);
  if (listed(root, "extensionsUsed", kDracoExtension)) changed |= patchDracoAccessors(root);
  if (!changed) return {};

  std::string text = root.dump();
  if (!binary) {
    bytes = std::move(text);
    return {};
  }
  while (text.size() % 4 != 0) text.push_back(' ');  // GLB chunks are 4-byte aligned
  std::string out;
  const size_t rest = bytes.size() - json_end;  // the BIN chunk, header included, if any
  const uint64_t total = kGlbHeaderBytes + kChunkHeaderBytes + text.size() + rest;
  if (total > kMaxGltfFileBytes) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} bytes once rewritten; files over {} bytes are not "
                              "supported",
                              path, total, kMaxGltfFileBytes));
  }
  out.resize(total);
  std::memcpy(out.data(), bytes.data(), 8);  // magic, version
  writeU32(out, 8, static_cast<uint32_t>(total));
  writeU32(out, kGlbHeaderBytes, static_cast<uint32_t>(text.size()));
  writeU32(out, kGlbHeaderBytes + 4, kChunkJson);
  std::memcpy(out.data() + kGlbHeaderBytes + kChunkHeaderBytes, text.data(), text.size());
  if (rest > 0) {
    std::memcpy(out.data() + kGlbHeaderBytes + kChunkHeaderBytes + text.size(),
                bytes.data() + json_end, rest);
  }
  bytes = std::move(out);
  return {};
}

}  // namespace throng::gltf
