// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "throng/core/status.h"

namespace throng::gltf {

// tinygltf takes the byte count as `unsigned int`; larger files cannot be handed to it.
inline constexpr uint64_t kMaxGltfFileBytes = std::numeric_limits<unsigned int>::max();

// A parsed glTF file and the name used in every message about it.
struct Document {
  std::string path;
  tinygltf::Model model;
  std::vector<std::string> warnings;  // already prefixed with the path
  bool quantized = false;             // KHR_mesh_quantization: integer vertex attributes allowed
};

// Reads `path` (.glb when it starts with the binary magic, else .gltf JSON), loading external
// buffers and images relative to its folder; images stay encoded (gltf_read_image.h). Checks the
// GLB container and the required extensions before tinygltf sees the file (required but
// unsupported -> kUnsupported; used -> warning, see gltf_read_prepare.h), then decodes
// EXT_meshopt_compression views and KHR_draco_mesh_compression primitives into plain buffers.
Result<Document> loadDocument(const std::string& path);

// "<path>: <what>" — the common prefix of every message.
std::string place(const Document& doc, const std::string& what);

}  // namespace throng::gltf
