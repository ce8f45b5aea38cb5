// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#pragma once

#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "throng/core/status.h"

namespace throng::gltf {

// A parsed glTF file and the name used in every message about it.
struct Document {
  std::string path;
  tinygltf::Model model;
  std::vector<std::string> warnings;  // already prefixed with the path
  bool quantized = false;             // KHR_mesh_quantization: integer vertex attributes allowed
};

// Reads `path` (.glb when it starts with the binary magic, else .gltf JSON), loading external
// buffers relative to its folder; images are never decoded. Checks the GLB container before
// tinygltf sees it, and the extensions (required but unsupported -> kUnsupported; used -> warning).
Result<Document> loadDocument(const std::string& path);

// "<path>: <what>" — the common prefix of every message.
std::string place(const Document& doc, const std::string& what);

}  // namespace throng::gltf
