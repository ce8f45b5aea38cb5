// glTF images: kept encoded while the file loads, decoded to RGBA8 with stb when a material uses
// them.
#include "offline/gltf_read_image.h"

#include <climits>
#include <cstring>

#include <fmt/format.h>
#include <stb_image.h>

namespace throng::gltf {

bool keepEncodedImage(tinygltf::Image* image, int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*) {
  image->width = 0;
  image->height = 0;
  image->component = 0;
  image->image.clear();
  if (image->bufferView < 0 && bytes != nullptr && size > 0) {
    image->image.assign(bytes, bytes + size);
    image->as_is = true;  // holds the file's bytes, not pixels
  }
  return true;
}

namespace {

std::string imageName(const Document& doc, int index) {
  const tinygltf::Image& image = doc.model.images[static_cast<size_t>(index)];
  if (!image.name.empty()) return image.name;
  if (!image.uri.empty() && image.uri.rfind("data:", 0) != 0) return image.uri;
  return fmt::format("image{}", index);
}

// The MIME type stb would need, from the file's first bytes (for the error message).
std::string sniffType(const unsigned char* bytes, size_t size, const std::string& declared) {
  auto starts = [&](const char* magic, size_t offset = 0) {
    const size_t n = std::strlen(magic);
    return size >= offset + n && std::memcmp(bytes + offset, magic, n) == 0;
  };
  if (starts("\xABKTX 20")) return "image/ktx2";
  if (starts("RIFF") && starts("WEBP", 8)) return "image/webp";
  if (starts("DDS ")) return "image/vnd-ms.dds";
  if (starts("ftypavif", 4)) return "image/avif";
  return declared.empty() ? "unknown" : declared;
}

}  // namespace

Result<SourceImage> decodeImage(const Document& doc, int index, uint64_t& budget) {
  const tinygltf::Model& model = doc.model;
  const tinygltf::Image& source = model.images.at(static_cast<size_t>(index));
  const std::string what = fmt::format("image {} ('{}')", index, imageName(doc, index));
  auto error = [&](ErrorCode code, const std::string& message) {
    return Status(code, place(doc, fmt::format("{}: {}", what, message)));
  };

  const unsigned char* bytes = nullptr;
  size_t size = 0;
  if (source.bufferView >= 0) {
    if (static_cast<size_t>(source.bufferView) >= model.bufferViews.size()) {
      return error(ErrorCode::kInvalidData,
                   fmt::format("buffer view {} does not exist", source.bufferView));
    }
    const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(source.bufferView)];
    if (view.buffer < 0 || static_cast<size_t>(view.buffer) >= model.buffers.size()) {
      return error(ErrorCode::kInvalidData,
                   fmt::format("buffer view {} uses buffer {}, which does not exist",
                               source.bufferView, view.buffer));
    }
    const std::vector<unsigned char>& data = model.buffers[static_cast<size_t>(view.buffer)].data;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset) {
      return error(ErrorCode::kInvalidData,
                   fmt::format("buffer view {} (bytes {}..{}) is outside buffer {} ({} bytes)",
                               source.bufferView, view.byteOffset,
                               view.byteOffset + view.byteLength, view.buffer, data.size()));
    }
    bytes = data.data() + view.byteOffset;
    size = view.byteLength;
  } else if (source.as_is) {
    bytes = source.image.data();
    size = source.image.size();
  }
  if (size == 0) {
    if (!source.uri.empty() && source.uri.rfind("data:", 0) != 0) {
      return error(ErrorCode::kIoError, fmt::format("file '{}' could not be loaded", source.uri));
    }
    return error(ErrorCode::kInvalidData, "no image data");
  }
  if (size > static_cast<size_t>(INT_MAX)) {
    return error(ErrorCode::kLimitExceeded, fmt::format("{} bytes of encoded data", size));
  }

  const int length = static_cast<int>(size);
  int width = 0;
  int height = 0;
  int channels = 0;
  if (!stbi_info_from_memory(bytes, length, &width, &height, &channels)) {
    const std::string type = sniffType(bytes, size, source.mimeType);
    if (type == "image/png" || type == "image/jpeg") {
      return error(ErrorCode::kInvalidData, fmt::format("corrupt {} data", type));
    }
    return error(ErrorCode::kUnsupported,
                 fmt::format("format {} cannot be decoded (throng reads PNG and JPEG)", type));
  }
  if (width <= 0 || height <= 0 || static_cast<uint32_t>(width) > kMaxImageSize ||
      static_cast<uint32_t>(height) > kMaxImageSize) {
    return error(ErrorCode::kLimitExceeded, fmt::format("{}x{} pixels; the limit is {} per side",
                                                        width, height, kMaxImageSize));
  }
  const uint64_t decoded = uint64_t{4} * static_cast<uint64_t>(width) * height;
  if (decoded > budget) {
    return error(ErrorCode::kLimitExceeded,
                 fmt::format("{}x{} pixels exceed what is left of the {}-byte budget for all "
                             "images of a character",
                             width, height, kMaxImageBytes));
  }
  stbi_uc* pixels = stbi_load_from_memory(bytes, length, &width, &height, &channels, 4);
  if (pixels == nullptr) {
    const char* reason = stbi_failure_reason();
    return error(ErrorCode::kInvalidData,
                 fmt::format("corrupt {} data ({})", sniffType(bytes, size, source.mimeType),
                             reason != nullptr ? reason : "unknown error"));
  }
  SourceImage image;
  image.name = imageName(doc, index);
  image.pixels.width = static_cast<uint32_t>(width);
  image.pixels.height = static_cast<uint32_t>(height);
  image.pixels.rgba.assign(pixels, pixels + decoded);
  stbi_image_free(pixels);
  budget -= decoded;
  return image;
}

}  // namespace throng::gltf
