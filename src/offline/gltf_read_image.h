// glTF images: kept encoded while the file loads, decoded to RGBA8 with stb when a material uses
// them.
#pragma once

#include <string>

#include "offline/gltf_read_document.h"
#include "throng/core/image.h"
#include "throng/core/status.h"

namespace throng::gltf {

// tinygltf's image callback: keeps the encoded bytes of a URI image (data URI or external file,
// loaded through tinygltf's file callbacks) in image->image, decoding nothing. Buffer-view images
// are left alone here (tinygltf hands them over without checking the view's range) and read by
// decodeImage from their view, bounds-checked. Never fails.
bool keepEncodedImage(tinygltf::Image* image, int index, std::string* err, std::string* warn,
                      int width, int height, const unsigned char* bytes, int size, void* user);

// Decodes image `index` to RGBA8 (any format stb_image reads: PNG, JPEG, BMP, TGA, GIF's first
// frame, ...; grey and grey-alpha are expanded, 16-bit channels rounded to 8). `budget` is the
// decoded bytes still allowed (kMaxImageBytes over a character) and is reduced by this image.
// Errors name the file and the image: kIoError (an external file that could not be loaded),
// kUnsupported (a format stb cannot decode, e.g. KTX2 or WebP: the message names the MIME type),
// kInvalidData (corrupt data, a bad buffer view), kLimitExceeded (a side above kMaxImageSize or
// the budget exceeded; checked from the header, before decoding).
Result<SourceImage> decodeImage(const Document& doc, int index, uint64_t& budget);

}  // namespace throng::gltf
