// Props at joints: flag and sidecar parsing, and merging a prop's mesh and looks into a character.
#include "throng/offline/attachments.h"

#include <algorithm>
#include <filesystem>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "core/number_text.h"
#include "offline/clip_events.h"
#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"
#include "throng/offline/tangents.h"

namespace throng {
namespace {

// A sidecar is a few lines per prop; a larger file is not one.
constexpr uint64_t kMaxSidecarBytes = 1u << 20;
// Numbers after '@' in an --attach text: tx, ty, tz, rx, ry, rz, s.
constexpr int kOffsetNumbers = 7;

Status badArgument(const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, what);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

bool sameTexture(const TextureRef& a, std::span<const SourceImage> a_images, const TextureRef& b,
                 std::span<const SourceImage> b_images) {
  if (a.present() != b.present()) return false;
  if (!a.present()) return true;
  const ImageLevel& x = a_images[static_cast<size_t>(a.image)].pixels;
  const ImageLevel& y = b_images[static_cast<size_t>(b.image)].pixels;
  return a.uv_set == b.uv_set && a.sampler.mag_filter == b.sampler.mag_filter &&
         a.sampler.min_filter == b.sampler.min_filter && a.sampler.wrap_s == b.sampler.wrap_s &&
         a.sampler.wrap_t == b.sampler.wrap_t && a.transform.offset == b.transform.offset &&
         a.transform.rotation == b.transform.rotation && a.transform.scale == b.transform.scale &&
         x.width == y.width && x.height == y.height && x.rgba == y.rgba;
}

// Whether two materials draw alike: every factor and mode, and textures of equal pixels.
bool sameMaterial(const Material& a, std::span<const SourceImage> a_images, const Material& b,
                  std::span<const SourceImage> b_images) {
  if (a.base_color != b.base_color || a.metallic_factor != b.metallic_factor ||
      a.roughness_factor != b.roughness_factor || a.normal_scale != b.normal_scale ||
      a.occlusion_strength != b.occlusion_strength || a.emissive_factor != b.emissive_factor ||
      a.emissive_strength != b.emissive_strength || a.alpha_mode != b.alpha_mode ||
      a.alpha_cutoff != b.alpha_cutoff || a.double_sided != b.double_sided) {
    return false;
  }
  for (int slot = 0; slot < kTextureSlotCount; ++slot) {
    const auto s = static_cast<TextureSlot>(slot);
    if (!sameTexture(a.texture(s), a_images, b.texture(s), b_images)) return false;
  }
  return true;
}

// The character's material index for each of the prop's (the prop's default material when it
// has none), sharing equal ones and adding the rest with their images.
std::vector<uint32_t> mergeMaterials(Character& character, const Character& prop) {
  std::vector<Material> prop_materials = prop.materials;
  if (prop_materials.empty()) prop_materials.push_back(defaultMaterial());
  // A character drawn with the default material gets it as material 0 once it has others.
  if (character.materials.empty()) character.materials.push_back(defaultMaterial());
  std::vector<int> image_of(prop.images.size(), -1);
  std::vector<uint32_t> out;
  for (const Material& m : prop_materials) {
    uint32_t found = static_cast<uint32_t>(character.materials.size());
    for (uint32_t c = 0; c < character.materials.size(); ++c) {
      if (sameMaterial(character.materials[c], character.images, m, prop.images)) {
        found = c;
        break;
      }
    }
    if (found == character.materials.size()) {
      Material added = m;
      for (int slot = 0; slot < kTextureSlotCount; ++slot) {
        TextureRef& t = added.texture(static_cast<TextureSlot>(slot));
        if (!t.present()) continue;
        int& image = image_of[static_cast<size_t>(t.image)];
        if (image < 0) {
          image = static_cast<int>(character.images.size());
          character.images.push_back(prop.images[static_cast<size_t>(t.image)]);
        }
        t.image = image;
      }
      character.materials.push_back(std::move(added));
    }
    out.push_back(found);
  }
  return out;
}

// Fills a stream one side has and the other lacks: `from`..end of `stream` gets `value`, or the
// body's part (0..from) does when the stream was empty so far.
template <typename T>
void padStream(std::vector<T>& stream, bool prop_has, size_t body_count, size_t total,
               const T& value) {
  if (stream.empty() && !prop_has) return;
  if (stream.size() < body_count) stream.insert(stream.begin(), body_count - stream.size(), value);
  if (!prop_has) stream.resize(total, value);
}

}  // namespace

Result<AttachmentSpec> parseAttachmentSpec(std::string_view text) {
  AttachmentSpec spec;
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    return badArgument(
        fmt::format("'{}' is not JOINT=PROP.glb[@tx,ty,tz,rx,ry,rz,s]", excerpt(text)));
  }
  spec.joint = std::string(text.substr(0, equals));
  std::string_view rest = text.substr(equals + 1);
  const size_t at = rest.rfind('@');
  spec.file = std::string(rest.substr(0, at));
  if (spec.file.empty()) return badArgument(fmt::format("'{}' names no prop file", excerpt(text)));
  if (at == std::string_view::npos) return spec;
  const std::vector<std::string_view> numbers = split(rest.substr(at + 1), ',');
  float v[kOffsetNumbers] = {};
  if (numbers.size() != kOffsetNumbers) {
    return badArgument(
        fmt::format("'{}': the offset after '@' takes {} numbers tx,ty,tz,rx,ry,"
                    "rz,s, found {}",
                    excerpt(text), kOffsetNumbers, numbers.size()));
  }
  for (int i = 0; i < kOffsetNumbers; ++i) {
    if (parseFloat(numbers[static_cast<size_t>(i)], v[i]) != std::errc() || !std::isfinite(v[i])) {
      return badArgument(fmt::format("'{}': offset number {} ('{}') is not a finite number",
                                     excerpt(text), i + 1,
                                     excerpt(numbers[static_cast<size_t>(i)])));
    }
  }
  if (!(v[6] > 0.0f)) {
    return badArgument(fmt::format("'{}': scale {} is not positive", excerpt(text), v[6]));
  }
  spec.offset.translation = glm::vec3(v[0], v[1], v[2]);
  spec.offset.rotation_degrees = glm::vec3(v[3], v[4], v[5]);
  spec.offset.scale = v[6];
  return spec;
}

Result<MaskSpec> parseMaskSpec(std::string_view text) {
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    return badArgument(fmt::format("'{}' is not NAME=JOINT", excerpt(text)));
  }
  return MaskSpec{std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

std::string attachmentsSidecarPath(std::string_view gltf_path) {
  return sidecarPath(gltf_path, ".attachments.json");
}

Result<AttachmentSidecar> parseAttachmentsSidecar(std::string_view json, std::string_view source,
                                                  const std::string& folder) {
  auto error = [&](const std::string& what) {
    return Status(ErrorCode::kParseError, fmt::format("{}: {}", source, what));
  };
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return error("not valid JSON");
  if (!doc.is_object()) return error("the top level must be an object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "attachments" && key != "masks") {
      return error(fmt::format("unknown key '{}' (attachments, masks)", excerpt(key)));
    }
    if (!value.is_array()) return error(fmt::format("'{}' must be an array", key));
  }
  AttachmentSidecar out;
  auto text = [&](const nlohmann::json& entry, const char* key, const std::string& where,
                  std::string& value) -> Status {
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string() || it->get<std::string>().empty()) {
      return error(fmt::format("{}: '{}' must be a non-empty string", where, key));
    }
    value = it->get<std::string>();
    return {};
  };
  auto numbers = [&](const nlohmann::json& entry, const char* key, const std::string& where,
                     glm::vec3& value) -> Status {
    const auto it = entry.find(key);
    if (it == entry.end()) return {};
    if (!it->is_array() || it->size() != 3) {
      return error(fmt::format("{}: '{}' must be an array of 3 numbers", where, key));
    }
    for (int i = 0; i < 3; ++i) {
      const nlohmann::json& n = (*it)[static_cast<size_t>(i)];
      if (!n.is_number() || !std::isfinite(n.get<double>())) {
        return error(fmt::format("{}: '{}' must be an array of 3 finite numbers", where, key));
      }
      value[i] = n.get<float>();
    }
    return {};
  };
  if (const auto list = doc.find("attachments"); list != doc.end()) {
    for (size_t i = 0; i < list->size(); ++i) {
      const nlohmann::json& entry = (*list)[i];
      const std::string where = fmt::format("attachments[{}]", i);
      if (!entry.is_object()) return error(where + ": must be an object");
      for (const auto& [key, value] : entry.items()) {
        if (key != "joint" && key != "prop" && key != "translation" && key != "rotation" &&
            key != "scale") {
          return error(
              fmt::format("{}: unknown key '{}' (joint, prop, translation, rotation, "
                          "scale)",
                          where, excerpt(key)));
        }
      }
      AttachmentSpec spec;
      if (Status s = text(entry, "joint", where, spec.joint); !s.ok()) return s;
      if (Status s = text(entry, "prop", where, spec.file); !s.ok()) return s;
      if (std::filesystem::path(spec.file).is_relative() && !folder.empty()) {
        spec.file = (std::filesystem::path(folder) / spec.file).string();
      }
      if (Status s = numbers(entry, "translation", where, spec.offset.translation); !s.ok()) {
        return s;
      }
      if (Status s = numbers(entry, "rotation", where, spec.offset.rotation_degrees); !s.ok()) {
        return s;
      }
      if (const auto scale = entry.find("scale"); scale != entry.end()) {
        if (!scale->is_number() || !(scale->get<double>() > 0.0) ||
            !std::isfinite(scale->get<double>())) {
          return error(where + ": 'scale' must be a positive number");
        }
        spec.offset.scale = scale->get<float>();
      }
      out.attachments.push_back(std::move(spec));
    }
  }
  if (const auto list = doc.find("masks"); list != doc.end()) {
    for (size_t i = 0; i < list->size(); ++i) {
      const nlohmann::json& entry = (*list)[i];
      const std::string where = fmt::format("masks[{}]", i);
      if (!entry.is_object()) return error(where + ": must be an object");
      MaskSpec spec;
      if (Status s = text(entry, "name", where, spec.name); !s.ok()) return s;
      if (Status s = text(entry, "joint", where, spec.joint); !s.ok()) return s;
      out.masks.push_back(std::move(spec));
    }
  }
  return out;
}

Result<AttachmentSidecar> readAttachmentsSidecar(const std::string& path) {
  Result<std::string> bytes = readFileBytes(path, kMaxSidecarBytes);
  if (!bytes.ok()) return bytes.status();
  return parseAttachmentsSidecar(*bytes, path, std::filesystem::path(path).parent_path().string());
}

namespace {

// The prop's triangles (vertices from `body` on) join `mesh`: a prop sub-mesh whose material
// (material_of: prop material -> character material) the character has joins that sub-mesh's
// range (no draw call more); the others become sub-meshes of their own, after the character's.
void mergePropTriangles(SkinnedMesh& mesh, const SkinnedMesh& p, size_t body,
                        const std::vector<uint32_t>& material_of, const std::string& name,
                        size_t variant_count) {
  std::vector<SubMesh> prop_submeshes = p.submeshes;
  if (prop_submeshes.empty()) {
    prop_submeshes.push_back({name, 0, static_cast<uint32_t>(p.indices.size()), 0, {}});
  }
  std::vector<SubMesh> body_submeshes = mesh.submeshes;
  if (body_submeshes.empty()) {
    body_submeshes.push_back({"mesh", 0, static_cast<uint32_t>(mesh.indices.size()), 0, {}});
  }
  std::vector<std::vector<uint32_t>> joined(body_submeshes.size());
  std::vector<SubMesh> added;
  std::vector<std::vector<uint32_t>> added_indices;
  for (const SubMesh& sm : prop_submeshes) {
    const uint32_t material = material_of[std::min<size_t>(sm.material, material_of.size() - 1)];
    std::vector<uint32_t> indices;
    for (uint32_t i = 0; i < sm.index_count; ++i) {
      indices.push_back(static_cast<uint32_t>(body) + p.indices[sm.first_index + i]);
    }
    size_t target = body_submeshes.size();
    for (size_t b = 0; b < body_submeshes.size(); ++b) {
      const SubMesh& bs = body_submeshes[b];
      const bool one_look = std::all_of(bs.variant_materials.begin(), bs.variant_materials.end(),
                                        [&](uint32_t m) { return m == material; });
      if (bs.material == material && one_look) target = b;
    }
    if (target < body_submeshes.size()) {
      joined[target].insert(joined[target].end(), indices.begin(), indices.end());
      continue;
    }
    SubMesh own{fmt::format("{}/{}", name, sm.name), 0, 0, material, {}};
    if (variant_count > 0) own.variant_materials.assign(variant_count, material);
    size_t a = 0;
    while (a < added.size() && added[a].material != material) ++a;
    if (a == added.size()) {
      added.push_back(own);
      added_indices.emplace_back();
    }
    added_indices[a].insert(added_indices[a].end(), indices.begin(), indices.end());
  }
  std::vector<uint32_t> indices;
  std::vector<SubMesh> submeshes;
  for (size_t b = 0; b < body_submeshes.size(); ++b) {
    SubMesh sm = body_submeshes[b];
    const auto first = mesh.indices.begin() + sm.first_index;
    const uint32_t start = static_cast<uint32_t>(indices.size());
    indices.insert(indices.end(), first, first + sm.index_count);
    indices.insert(indices.end(), joined[b].begin(), joined[b].end());
    sm.first_index = start;
    sm.index_count = static_cast<uint32_t>(indices.size()) - start;
    submeshes.push_back(std::move(sm));
  }
  for (size_t a = 0; a < added.size(); ++a) {
    SubMesh sm = added[a];
    sm.first_index = static_cast<uint32_t>(indices.size());
    sm.index_count = static_cast<uint32_t>(added_indices[a].size());
    indices.insert(indices.end(), added_indices[a].begin(), added_indices[a].end());
    submeshes.push_back(std::move(sm));
  }
  mesh.indices = std::move(indices);
  mesh.submeshes = std::move(submeshes);
}

}  // namespace

Status attachProp(Character& character, const std::string& joint, const Character& prop,
                  const AttachmentOffset& offset, const std::string& name,
                  const std::string& prop_source, std::string_view source) {
  const int j = character.skeleton.findJoint(joint);
  if (j < 0) {
    return badArgument(fmt::format("{}: prop '{}': no joint '{}' in the skeleton ({})", source,
                                   excerpt(name), excerpt(joint),
                                   jointNameHint(character.skeleton, joint)));
  }
  if (character.attachments.size() >= static_cast<size_t>(kMaxAttachments)) {
    return badArgument(
        fmt::format("{}: prop '{}': the character already carries {} props, the "
                    "limit",
                    source, excerpt(name), kMaxAttachments));
  }
  if (name.empty() || findAttachment(character.attachments, name) >= 0) {
    return badArgument(
        fmt::format("{}: prop name '{}' is empty or already taken", source, excerpt(name)));
  }
  const uint8_t group = static_cast<uint8_t>(character.attachments.size() + 1);
  const std::vector<uint32_t> material_of = mergeMaterials(character, prop);

  SkinnedMesh& mesh = character.mesh;
  const SkinnedMesh& p = prop.mesh;
  const size_t body = mesh.vertexCount();
  const size_t total = body + p.vertexCount();
  // The joint's bind matrix: where the joint's space lies in the character's bind space.
  const glm::mat4 place =
      glm::inverse(character.skeleton.inverseBinds()[static_cast<size_t>(j)]) * offset.matrix();
  const glm::mat3 linear(place);
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(linear));
  const float handedness = glm::determinant(linear) < 0.0f ? -1.0f : 1.0f;
  const bool had_tangents = !mesh.tangents.empty();
  for (size_t v = 0; v < p.vertexCount(); ++v) {
    mesh.positions.push_back(glm::vec3(place * glm::vec4(p.positions[v], 1.0f)));
    const glm::vec3 n = normal_matrix * p.normals[v];
    mesh.normals.push_back(glm::length(n) > 0.0f ? glm::normalize(n) : n);
    mesh.joints.push_back(glm::u16vec4(static_cast<uint16_t>(j), 0, 0, 0));
    mesh.weights.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
  }
  padStream(mesh.uvs, !p.uvs.empty(), body, total, glm::vec2(0.0f));
  if (!p.uvs.empty()) mesh.uvs.insert(mesh.uvs.end(), p.uvs.begin(), p.uvs.end());
  padStream(mesh.uvs1, !p.uvs1.empty(), body, total, glm::vec2(0.0f));
  if (!p.uvs1.empty()) mesh.uvs1.insert(mesh.uvs1.end(), p.uvs1.begin(), p.uvs1.end());
  padStream(mesh.colors, !p.colors.empty(), body, total, glm::vec4(1.0f));
  if (!p.colors.empty()) mesh.colors.insert(mesh.colors.end(), p.colors.begin(), p.colors.end());
  mesh.attachments.resize(body, 0);
  mesh.attachments.resize(total, group);
  // Tangents: kept where a side has them, generated (MikkTSpace) for the side that lacks them.
  std::vector<uint8_t> keep;
  if (had_tangents || !p.tangents.empty()) {
    keep.assign(total, 0);
    std::fill(keep.begin(), keep.begin() + static_cast<std::ptrdiff_t>(body), had_tangents ? 1 : 0);
    mesh.tangents.resize(body, glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
    for (size_t v = 0; v < p.vertexCount(); ++v) {
      if (p.tangents.empty()) {
        mesh.tangents.push_back(glm::vec4(1.0f, 0.0f, 0.0f, 1.0f));
      } else {
        const glm::vec3 t = linear * glm::vec3(p.tangents[v]);
        mesh.tangents.push_back(
            glm::vec4(glm::length(t) > 0.0f ? glm::normalize(t) : t, p.tangents[v].w * handedness));
        keep[body + v] = 1;
      }
    }
  }

  mergePropTriangles(mesh, p, body, material_of, name, character.variants.size());
  if (!keep.empty()) {
    Result<TangentReport> report = generateTangents(mesh, character.materials, {.keep = keep});
    if (!report.ok()) return report.status();
  }
  character.attachments.push_back({name, static_cast<uint16_t>(j), offset, prop_source});
  return validateCharacter(character, source);
}

Status attachProps(Character& character, std::span<const AttachmentSpec> specs,
                   const ImportOptions& import, std::string_view source) {
  ImportOptions options = import;
  options.event_sidecar = false;
  options.clip_files.clear();
  for (const AttachmentSpec& spec : specs) {
    Result<Character> prop = importGltf(spec.file, options);
    if (!prop.ok()) return prop.status();
    const std::string stem = std::filesystem::path(spec.file).stem().string();
    std::string name = stem.empty() ? std::string("prop") : stem;
    for (int n = 2; findAttachment(character.attachments, name) >= 0; ++n) {
      name = fmt::format("{}#{}", stem, n);
    }
    if (Status s = attachProp(character, spec.joint, *prop, spec.offset, name, spec.file, source);
        !s.ok()) {
      return s;
    }
  }
  return {};
}

Status addJointMask(Character& character, const MaskSpec& spec, std::string_view source) {
  const int joint = character.skeleton.findJoint(spec.joint);
  if (joint < 0) {
    return badArgument(fmt::format("{}: mask '{}': no joint '{}' in the skeleton ({})", source,
                                   excerpt(spec.name), excerpt(spec.joint),
                                   jointNameHint(character.skeleton, spec.joint)));
  }
  if (spec.name.empty() || findJointMask(character.masks, spec.name) >= 0) {
    return badArgument(
        fmt::format("{}: mask name '{}' is empty or already taken", source, excerpt(spec.name)));
  }
  if (character.masks.size() >= static_cast<size_t>(kMaxJointMasks)) {
    return badArgument(fmt::format("{}: more than {} masks", source, kMaxJointMasks));
  }
  character.masks.push_back({spec.name, static_cast<uint16_t>(joint)});
  return {};
}

}  // namespace throng
