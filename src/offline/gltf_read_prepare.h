// Before and after tinygltf parses a file: the extension policy, and the rewrites that let it
// parse compressed files (EXT_meshopt_compression, KHR_draco_mesh_compression).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/status.h"

namespace throng::gltf {

inline constexpr const char* kMeshoptExtension = "EXT_meshopt_compression";
inline constexpr const char* kDracoExtension = "KHR_draco_mesh_compression";

// Extensions the importer reads: KHR_mesh_quantization, KHR_texture_transform,
// KHR_materials_variants, KHR_materials_pbrSpecularGlossiness (its diffuse is the base colour),
// EXT_meshopt_compression, KHR_draco_mesh_compression.
bool isSupportedExtension(std::string_view name);
// Extensions that refine shading throng does not do (other KHR_materials_*, lights, metadata):
// ignoring them keeps the skeleton, mesh, clips and base colour as authored, so they are fine
// even when required.
bool isIgnorableExtension(std::string_view name);
// For extensions that hold images throng cannot decode (KHR_texture_basisu, EXT_texture_webp,
// EXT_texture_avif, MSFT_texture_dds): what they hold ("KTX2 / Basis Universal textures");
// nullptr for any other name.
const char* undecodableImageExtension(std::string_view name);

// kUnsupported, naming the first extension of `required` throng can neither read nor ignore, in
// one line: "<path>: requires extension KHR_texture_basisu (KTX2 / Basis Universal textures),
// which throng cannot decode".
Status checkRequiredExtensions(const std::string& path, const std::vector<std::string>& required);

// Sets doc.quantized and adds one warning per used extension throng ignores or cannot decode.
void noteUsedExtensions(Document& doc);

// Reads the JSON of `bytes` (a .gltf, or a .glb whose container is already checked), checks its
// extensionsRequired (checkRequiredExtensions) and rewrites what tinygltf would reject in a
// compressed file: meshopt fallback buffers (which hold no data, EXT_meshopt_compression.fallback)
// become 4-byte data URIs, and Draco primitives' accessors without a buffer view get the Draco
// view (tinygltf demands one; decodeDracoPrimitives replaces it). Leaves `bytes` as they are when
// nothing needs rewriting, and also when the JSON does not parse (tinygltf then reports it).
Status prepareForTinygltf(const std::string& path, std::string& bytes, bool binary);

}  // namespace throng::gltf
