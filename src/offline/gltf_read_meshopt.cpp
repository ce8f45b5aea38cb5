// EXT_meshopt_compression: decodes compressed buffer views into plain buffers after loading.
#include "offline/gltf_read_meshopt.h"

#include <string>

#include <fmt/format.h>
#ifndef THRONG_NO_MESHOPTIMIZER
#include <meshoptimizer.h>
#endif

#include "offline/gltf_read_prepare.h"

namespace throng::gltf {

#ifdef THRONG_NO_MESHOPTIMIZER
// A build without meshoptimizer (the web build) reads uncompressed files only.
Status decodeMeshoptViews(Document& doc) {
  for (size_t v = 0; v < doc.model.bufferViews.size(); ++v) {
    if (doc.model.bufferViews[v].extensions.count(kMeshoptExtension) == 0) continue;
    return Status(
        ErrorCode::kUnsupported,
        fmt::format("{}: this build of throng has no meshoptimizer to decode it "
                    "(bake the file with a native build)",
                    place(doc, fmt::format("buffer view {} ({})", v, kMeshoptExtension))));
  }
  return {};
}
#else
namespace {

// meshopt_decodeVertexBuffer handles elements of 4..256 bytes in steps of 4 (meshoptimizer.h).
constexpr uint64_t kMaxVertexStride = 256;

// A non-negative integer field of the extension object, or -1 when absent or not one.
int64_t field(const tinygltf::Value& ext, const char* name) {
  if (!ext.Has(name)) return -1;
  const tinygltf::Value& v = ext.Get(name);
  if (!v.IsNumber()) return -1;
  const double d = v.GetNumberAsDouble();
  if (!(d >= 0.0 && d <= 9007199254740992.0) || d != static_cast<double>(static_cast<int64_t>(d))) {
    return -1;
  }
  return static_cast<int64_t>(d);
}

std::string text(const tinygltf::Value& ext, const char* name, const char* fallback) {
  if (!ext.Has(name) || !ext.Get(name).IsString()) return fallback;
  return ext.Get(name).Get<std::string>();
}

}  // namespace

Status decodeMeshoptViews(Document& doc) {
  tinygltf::Model& model = doc.model;
  uint64_t budget = kMaxMeshoptDecodedBytes;
  for (size_t v = 0; v < model.bufferViews.size(); ++v) {
    auto it = model.bufferViews[v].extensions.find(kMeshoptExtension);
    if (it == model.bufferViews[v].extensions.end()) continue;
    const tinygltf::Value ext = it->second;
    const std::string where = place(doc, fmt::format("buffer view {} ({})", v, kMeshoptExtension));
    auto invalid = [&](const std::string& what) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: {}", where, what));
    };
    if (!ext.IsObject()) return invalid("not an object");
    const int64_t buffer = field(ext, "buffer");
    const int64_t offset = ext.Has("byteOffset") ? field(ext, "byteOffset") : 0;
    const int64_t length = field(ext, "byteLength");
    const int64_t stride = field(ext, "byteStride");
    const int64_t count = field(ext, "count");
    const std::string mode = text(ext, "mode", "");
    const std::string filter = text(ext, "filter", "NONE");
    if (buffer < 0 || offset < 0 || length < 0 || stride <= 0 || count < 0) {
      return invalid(
          "buffer, byteLength, byteStride and count must be non-negative integers "
          "(byteStride positive)");
    }
    if (static_cast<uint64_t>(buffer) >= model.buffers.size()) {
      return invalid(
          fmt::format("buffer {} does not exist ({} buffers)", buffer, model.buffers.size()));
    }
    const std::vector<unsigned char>& source = model.buffers[static_cast<size_t>(buffer)].data;
    if (static_cast<uint64_t>(offset) > source.size() ||
        static_cast<uint64_t>(length) > source.size() - static_cast<uint64_t>(offset)) {
      return invalid(fmt::format("bytes {}..{} are outside buffer {} ({} bytes)", offset,
                                 offset + length, buffer, source.size()));
    }
    if (static_cast<uint64_t>(stride) > kMaxVertexStride ||
        static_cast<uint64_t>(count) > budget / static_cast<uint64_t>(stride)) {
      if (static_cast<uint64_t>(stride) <= kMaxVertexStride) {
        return Status(ErrorCode::kLimitExceeded,
                      fmt::format("{}: {} elements of {} bytes exceed the {}-byte limit on "
                                  "decoded meshopt data",
                                  where, count, stride, kMaxMeshoptDecodedBytes));
      }
      return invalid(fmt::format("byteStride {} is above {}", stride, kMaxVertexStride));
    }
    const size_t size = static_cast<size_t>(count * stride);
    if (model.bufferViews[v].byteLength != size) {
      return invalid(fmt::format("the view's byteLength {} is not count {} x byteStride {}",
                                 model.bufferViews[v].byteLength, count, stride));
    }
    std::vector<unsigned char> decoded(size);
    const unsigned char* data = source.data() + offset;
    const size_t n = static_cast<size_t>(count);
    const size_t s = static_cast<size_t>(stride);
    int result = 0;
    if (mode == "ATTRIBUTES") {
      if (s % 4 != 0)
        return invalid(fmt::format("ATTRIBUTES byteStride {} is not a multiple of 4", s));
      result = meshopt_decodeVertexBuffer(decoded.data(), n, s, data, static_cast<size_t>(length));
    } else if (mode == "TRIANGLES" || mode == "INDICES") {
      if (s != 2 && s != 4) return invalid(fmt::format("{} byteStride {} is not 2 or 4", mode, s));
      if (mode == "TRIANGLES" && n % 3 != 0) {
        return invalid(fmt::format("TRIANGLES count {} is not a multiple of 3", n));
      }
      result = mode == "TRIANGLES" ? meshopt_decodeIndexBuffer(decoded.data(), n, s, data,
                                                               static_cast<size_t>(length))
                                   : meshopt_decodeIndexSequence(decoded.data(), n, s, data,
                                                                 static_cast<size_t>(length));
    } else {
      return invalid(fmt::format("mode '{}' is not ATTRIBUTES, TRIANGLES or INDICES", mode));
    }
    if (result != 0) {
      return invalid(fmt::format(
          "{} bytes of {} data do not decode (error {}: corrupt, or a "
          "newer codec version than meshoptimizer {}.{} reads)",
          length, mode, result, MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10));
    }
    if (filter != "NONE") {
      if (mode != "ATTRIBUTES") return invalid(fmt::format("filter {} on mode {}", filter, mode));
      if (filter == "OCTAHEDRAL" && (s == 4 || s == 8)) {
        meshopt_decodeFilterOct(decoded.data(), n, s);
      } else if (filter == "QUATERNION" && s == 8) {
        meshopt_decodeFilterQuat(decoded.data(), n, s);
      } else if (filter == "EXPONENTIAL") {
        meshopt_decodeFilterExp(decoded.data(), n, s);
      } else {
        return invalid(
            fmt::format("filter '{}' with byteStride {} is not a meshopt filter", filter, s));
      }
    }
    budget -= size;
    tinygltf::Buffer plain;
    plain.name = fmt::format("meshopt view {}", v);
    plain.data = std::move(decoded);
    model.buffers.push_back(std::move(plain));
    tinygltf::BufferView& view = model.bufferViews[v];
    view.buffer = static_cast<int>(model.buffers.size() - 1);
    view.byteOffset = 0;
    view.extensions.erase(kMeshoptExtension);
  }
  return {};
}

#endif  // THRONG_NO_MESHOPTIMIZER

}  // namespace throng::gltf
