// glTF materials, textures, samplers and KHR_materials_variants -> throng Materials and Images.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng::gltf {

// In readMesh's output, the SubMesh::material of primitives without a material (and, inside
// variant_materials, "this variant keeps the primitive's own material").
inline constexpr uint32_t kNoGltfMaterial = std::numeric_limits<uint32_t>::max();

// Whether some texture of glTF material `material` reads uv set 1 (textureInfo.texCoord, or
// KHR_texture_transform's texCoord override); false for an index out of range (readLooks reports
// those).
bool samplesUvSet1(const Document& doc, int material);

// The variant names of the file's KHR_materials_variants (empty without the extension).
// Errors: kInvalidData for a malformed extension.
Result<std::vector<std::string>> readVariantNames(const Document& doc);

// The glTF material of each variant for `primitive` (KHR_materials_variants mappings): one entry
// per variant, kNoGltfMaterial where the primitive keeps its own material; empty when the
// primitive has no mappings. Errors (kInvalidData) name `what`: bad material or variant indices,
// a variant mapped twice.
Result<std::vector<uint32_t>> readVariantMapping(const Document& doc,
                                                 const tinygltf::Primitive& primitive,
                                                 size_t variant_count, const std::string& what);

struct Looks {
  std::vector<Material> materials;
  std::vector<SourceImage> images;
  std::vector<std::string> variants;
};

// Turns the glTF material indices readMesh left in mesh.submeshes into the character's
// materials: only materials some sub-mesh (or variant) uses, in first-use order, then
// defaultMaterial() when some primitive had none (no materials at all when none had one); only
// the images they use, decoded once each (twice when read both as sRGB colour and as linear data:
// once per colour space, with a warning). Renames each sub-mesh after its material. Every texture
// of glTF's metallic-roughness material is read (base colour, metallic-roughness, normal with its
// scale, occlusion with its strength, emissive) with KHR_materials_emissive_strength;
// KHR_materials_pbrSpecularGlossiness' diffuse stands in for the base colour, its glossiness for
// 1 - roughness (metallic 0). Textures that cannot be used (undecodable or missing image, uv set
// above 1 or missing from the mesh, an image only in KHR_texture_basisu / EXT_texture_webp) are
// dropped with a warning; factors outside [0, 1] are clamped with a warning. Errors name the file
// and the material: kInvalidData (bad indices, alpha mode, cutoff, factor counts, sampler values,
// malformed extensions), kLimitExceeded (image size or total image bytes, see kMaxImageSize and
// kMaxImageBytes).
Result<Looks> readLooks(Document& doc, SkinnedMesh& mesh, std::vector<std::string> variants);

}  // namespace throng::gltf
