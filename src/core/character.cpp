// Character-level lookups and the skeleton/mesh/clip consistency check.
#include "throng/core/character.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/core.h>

#include "throng/core/excerpt.h"

namespace throng {

int Character::findClip(std::string_view name) const {
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name == name) return static_cast<int>(i);
  }
  int index = -1;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (ec == std::errc() && end == name.data() + name.size() && index >= 0 &&
      static_cast<size_t>(index) < clips.size()) {
    return index;
  }
  return -1;
}

float Character::size() const {
  return computeBounds(mesh.positions).largestExtent();
}

Status validateCharacter(const Character& character, std::string_view source) {
  const int joints = character.skeleton.jointCount();
  if (Status s = validateMesh(character.mesh, joints, source); !s.ok()) return s;
  // Finite positions can still span more than a float holds; every size, error and distance
  // measured on the character would then overflow.
  if (const Bounds b = computeBounds(character.mesh.positions);
      !character.mesh.positions.empty() && !std::isfinite(b.largestExtent())) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: the mesh spans ({}, {}, {}) .. ({}, {}, {}), more than the "
                              "float range can measure",
                              source, b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z));
  }
  const size_t targets = character.mesh.morph_targets.size();
  for (const Clip& clip : character.clips) {
    if (Status s = validateClip(clip, joints, source); !s.ok()) return s;
    if (!clip.weights.empty() && clip.weights.size() != targets) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: clip '{}' has weights tracks for {} morph targets, the mesh "
                                "has {}",
                                source, excerpt(clip.name), clip.weights.size(), targets));
    }
  }
  for (size_t m = 0; m < character.materials.size(); ++m) {
    if (Status s = validateMaterial(character.materials[m], m, character.images.size(), source);
        !s.ok()) {
      return s;
    }
  }
  uint64_t image_bytes = 0;
  for (size_t i = 0; i < character.images.size(); ++i) {
    const SourceImage& image = character.images[i];
    const std::string what = fmt::format("image {} ('{}')", i, image.name);
    if (Status s = validateImageLevel(image.pixels, source, what); !s.ok()) return s;
    image_bytes += image.pixels.rgba.size();
  }
  if (image_bytes > kMaxImageBytes) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: images hold {} bytes, more than the limit of {}", source,
                              image_bytes, kMaxImageBytes));
  }
  if (Status s = validateImageColorSpaces(character.materials, source); !s.ok()) return s;
  if (Status s =
          validateAttachments(character.attachments, character.masks, character.skeleton, source);
      !s.ok()) {
    return s;
  }
  if (Status s = validateAttachmentGroups(character.mesh.attachments, character.attachments.size(),
                                          source);
      !s.ok()) {
    return s;
  }
  return validateSubMeshLooks(character.mesh, character.materials, character.variants.size(),
                              source);
}

Status validateSubMeshLooks(const SkinnedMesh& mesh, std::span<const Material> materials,
                            size_t variant_count, std::string_view source) {
  const size_t count = std::max<size_t>(materials.size(), 1);
  for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
    const SubMesh& sm = mesh.submeshes[s];
    auto invalid = [&](const std::string& what) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: sub-mesh {} ('{}'): {}", source, s, sm.name, what));
    };
    if (!sm.variant_materials.empty() && sm.variant_materials.size() != variant_count) {
      return invalid(fmt::format("{} variant materials for {} variants",
                                 sm.variant_materials.size(), variant_count));
    }
    std::vector<uint32_t> used = sm.variant_materials;
    used.push_back(sm.material);
    for (uint32_t m : used) {
      if (m >= count) {
        return invalid(
            fmt::format("material {} does not exist ({} materials)", m, materials.size()));
      }
      if (materials.empty()) continue;
      const Material& material = materials[m];
      for (int slot = 0; slot < kTextureSlotCount; ++slot) {
        const TextureRef& t = material.texture(static_cast<TextureSlot>(slot));
        if (!t.present()) continue;
        const bool has_set = t.uv_set == 0 ? !mesh.uvs.empty() : !mesh.uvs1.empty();
        if (!has_set) {
          return invalid(fmt::format(
              "material {} ('{}') samples uv set {} ({} texture), which "
              "the mesh lacks",
              m, material.name, t.uv_set, textureSlotName(static_cast<TextureSlot>(slot))));
        }
      }
      if (material.normal_texture.present() && mesh.tangents.empty()) {
        return invalid(
            fmt::format("material {} ('{}') has a normal texture, which needs "
                        "tangents; the mesh has none (generateTangents makes them)",
                        m, material.name));
      }
    }
  }
  return {};
}

}  // namespace throng
