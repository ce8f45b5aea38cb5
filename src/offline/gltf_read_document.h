// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/offline/gltf_import.h"

namespace throng::gltf {

// tinygltf takes the byte count as `unsigned int`; larger files cannot be handed to it.
inline constexpr uint64_t kMaxGltfFileBytes = std::numeric_limits<unsigned int>::max();
// The reader's work stays linear in the size of its input: all accessor reads of one document
// together decode at most this many values per byte of input (the file plus its buffers), plus a
// fixed allowance. Real files decode each value about once (shared key times a few times); a file
// that makes one accessor stand for millions of values (a count without data, one large accessor
// used by thousands of primitives) runs out of budget instead of memory.
inline constexpr uint64_t kDecodeBudgetPerByte = 16;
inline constexpr uint64_t kDecodeBudgetAllowance = uint64_t{1} << 24;

// A parsed glTF file and the name used in every message about it.
struct Document {
  std::string path;
  tinygltf::Model model;
  std::vector<Warning> warnings;  // messages prefixed with the path, "file" their first detail
  bool quantized = false;         // KHR_mesh_quantization: integer vertex attributes allowed
  // Accessor values left to decode (see kDecodeBudgetPerByte); readers charge before allocating.
  mutable uint64_t decode_budget = 0;
};

// Reads `path` (.glb when it starts with the binary magic, else .gltf JSON), loading external
// buffers and images through UriLoader (gltf_uri.h: regular files inside the file's folder or
// options.allowed_roots); images stay encoded (gltf_read_image.h). Checks the GLB container and
// the JSON's nesting and required extensions before tinygltf sees the file (required but
// unsupported -> kUnsupported; used -> warning, see gltf_read_prepare.h), then decodes
// EXT_meshopt_compression views and KHR_draco_mesh_compression primitives into plain buffers.
// Every message is one line naming `path`.
Result<Document> loadDocument(const std::string& path, const ImportOptions& options = {});

// "<path>: <what>" — the common prefix of every message.
std::string place(const Document& doc, const std::string& what);

// Appends a warning of `kind` whose message is place(doc, what), about `subject`, with the file
// as its first detail; returns it for more details (Warning::with).
Warning& warn(Document& doc, WarningKind kind, const std::string& what, std::string subject);

}  // namespace throng::gltf
