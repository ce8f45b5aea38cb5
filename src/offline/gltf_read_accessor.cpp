// Bounds-checked reading of glTF accessors (strided, normalised, sparse) into flat arrays.
#include "offline/gltf_read_accessor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace throng::gltf {
namespace {

int componentBytes(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;  // INT and DOUBLE are not valid glTF 2.0 accessor components
  }
}

const char* componentName(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return "BYTE";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return "UNSIGNED_BYTE";
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return "SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return "UNSIGNED_SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return "UNSIGNED_INT";
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return "FLOAT";
    default:
      return "an invalid component type";
  }
}

const char* typeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "an invalid type";
  }
}

// Decodes one component; normalised forms follow the glTF 2.0 conversion table.
double decodeComponent(const unsigned char* p, int component_type, bool normalized) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(v / 127.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      uint8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? v / 255.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? v / 65535.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

// A validated byte range inside a buffer: `bytes` points at the first element.
struct ByteRange {
  const unsigned char* bytes = nullptr;
  size_t stride = 0;
};

// Checks that `count` elements of `element_bytes` at `offset` (stride `stride`, 0 = packed) fit in
// buffer view `view_index`, and that the view fits in its buffer.
Result<ByteRange> viewRange(const Document& doc, const std::string& where, int view_index,
                            uint64_t offset, uint64_t count, uint64_t element_bytes,
                            bool allow_stride) {
  const tinygltf::Model& model = doc.model;
  if (view_index < 0 || static_cast<size_t>(view_index) >= model.bufferViews.size()) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: buffer view {} does not exist ({} buffer views)", where,
                              view_index, model.bufferViews.size()));
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(view_index)];
  if (view.buffer < 0 || static_cast<size_t>(view.buffer) >= model.buffers.size()) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: buffer view {} uses buffer {}, which does not exist", where,
                              view_index, view.buffer));
  }
  const tinygltf::Buffer& buffer = model.buffers[static_cast<size_t>(view.buffer)];
  const uint64_t view_offset = view.byteOffset;
  const uint64_t view_length = view.byteLength;
  if (view_offset > buffer.data.size() || view_length > buffer.data.size() - view_offset) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: buffer view {} (bytes {}..{}) is outside buffer {} ({} bytes)",
                              where, view_index, view_offset, view_offset + view_length,
                              view.buffer, buffer.data.size()));
  }
  uint64_t stride = element_bytes;
  if (allow_stride && view.byteStride != 0) {
    stride = view.byteStride;
    if (stride < element_bytes) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: buffer view {} byteStride {} is smaller than the {}-byte "
                                "element",
                                where, view_index, stride, element_bytes));
    }
  }
  // count <= kMaxAccessorElements and stride <= 2^32, so this cannot overflow 64 bits.
  const uint64_t needed = offset + (count - 1) * stride + element_bytes;
  if (offset > view_length || needed > view_length) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: needs bytes {}..{} of buffer view {}, which has {} bytes", where,
                              offset, needed, view_index, view_length));
  }
  return ByteRange{buffer.data.data() + view_offset + offset, static_cast<size_t>(stride)};
}

// The accessor's type and component form are among those `request` accepts.
Status checkForm(const tinygltf::Accessor& accessor, const AccessorRequest& request,
                 const std::string& where) {
  if (accessor.type != request.type) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: type {}, expected {}", where, typeName(accessor.type),
                              typeName(request.type)));
  }
  const bool is_float = accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT;
  for (const ComponentForm& form : request.forms) {
    if (form.component_type == accessor.componentType &&
        (is_float || form.normalized == accessor.normalized)) {
      return {};
    }
  }
  std::string forms;
  for (const ComponentForm& form : request.forms) {
    if (!forms.empty()) forms += ", ";
    forms += fmt::format("{}{}", form.normalized ? "normalized " : "",
                         componentName(form.component_type));
  }
  return Status(ErrorCode::kInvalidData,
                fmt::format("{}: components are {}{}; expected one of: {}", where,
                            accessor.normalized ? "normalized " : "",
                            componentName(accessor.componentType), forms));
}

// Decodes `count` elements of the accessor's form from `range`, element e to target_of(e).
template <typename TargetOf>
void decodeRun(const tinygltf::Accessor& accessor, const ByteRange& range, uint64_t count,
               TargetOf&& target_of) {
  const int components = componentCount(accessor.type);
  const int bytes = componentBytes(accessor.componentType);
  for (uint64_t e = 0; e < count; ++e) {
    const unsigned char* element = range.bytes + e * range.stride;
    double* out = target_of(e);
    for (int c = 0; c < components; ++c) {
      out[c] = decodeComponent(element + c * bytes, accessor.componentType, accessor.normalized);
    }
  }
}

// Substitutes the accessor's sparse elements into `values` (componentCount(type) per element),
// after checking their count, index type, ranges and strictly increasing indices.
Status applySparse(const Document& doc, const tinygltf::Accessor& accessor,
                   const std::string& where, std::vector<double>& values) {
  const auto& sparse = accessor.sparse;
  if (sparse.count <= 0 || static_cast<size_t>(sparse.count) > accessor.count) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: sparse count {} is not in 1..{}", where,
                                                       sparse.count, accessor.count));
  }
  const int index_bytes = componentBytes(sparse.indices.componentType);
  const bool index_type_ok =
      sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
      sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
      sparse.indices.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
  if (!index_type_ok) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: sparse indices are {}, expected an unsigned integer type", where,
                              componentName(sparse.indices.componentType)));
  }
  if (sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: negative sparse byteOffset", where));
  }
  const uint64_t components = static_cast<uint64_t>(componentCount(accessor.type));
  const uint64_t element_bytes =
      components * static_cast<uint64_t>(componentBytes(accessor.componentType));
  const std::string sparse_where = where + " sparse";
  Result<ByteRange> index_range =
      viewRange(doc, sparse_where + " indices", sparse.indices.bufferView,
                static_cast<uint64_t>(sparse.indices.byteOffset),
                static_cast<uint64_t>(sparse.count), static_cast<uint64_t>(index_bytes),
                /*allow_stride=*/false);
  if (!index_range.ok()) return index_range.status();
  Result<ByteRange> value_range =
      viewRange(doc, sparse_where + " values", sparse.values.bufferView,
                static_cast<uint64_t>(sparse.values.byteOffset),
                static_cast<uint64_t>(sparse.count), element_bytes, /*allow_stride=*/false);
  if (!value_range.ok()) return value_range.status();
  std::vector<uint64_t> targets(static_cast<size_t>(sparse.count));
  for (size_t i = 0; i < targets.size(); ++i) {
    const double index = decodeComponent(index_range->bytes + i * static_cast<size_t>(index_bytes),
                                         sparse.indices.componentType, false);
    if (index >= static_cast<double>(accessor.count)) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: sparse index {} is {}, outside 0..{}",
                                                         where, i, index, accessor.count - 1));
    }
    targets[i] = static_cast<uint64_t>(index);
    if (i > 0 && targets[i] <= targets[i - 1]) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: sparse indices are not strictly increasing at {}", where, i));
    }
  }
  decodeRun(accessor, *value_range, targets.size(),
            [&](uint64_t e) { return values.data() + targets[e] * components; });
  return {};
}

// Reads the accessor into doubles (one per component), validated and sparse-applied.
Result<std::vector<double>> readComponents(const Document& doc, const AccessorRequest& request) {
  const tinygltf::Model& model = doc.model;
  if (request.index < 0 || static_cast<size_t>(request.index) >= model.accessors.size()) {
    return Status(ErrorCode::kInvalidData,
                  place(doc, fmt::format("{}: accessor {} does not exist ({} accessors)",
                                         request.what, request.index, model.accessors.size())));
  }
  const tinygltf::Accessor& accessor = model.accessors[static_cast<size_t>(request.index)];
  const std::string where =
      place(doc, fmt::format("accessor {} ({})", request.index, request.what));
  if (Status s = checkForm(accessor, request, where); !s.ok()) return s;
  if (accessor.count == 0) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: count is 0", where));
  }
  if (accessor.count > kMaxAccessorElements) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: count {} exceeds the limit of {} elements", where,
                              accessor.count, kMaxAccessorElements));
  }
  const int components = componentCount(accessor.type);
  const int bytes = componentBytes(accessor.componentType);
  const uint64_t element_bytes = static_cast<uint64_t>(components) * static_cast<uint64_t>(bytes);
  // The data must be there before anything of `count`'s size is allocated.
  ByteRange dense;
  if (accessor.bufferView >= 0) {
    Result<ByteRange> range = viewRange(doc, where, accessor.bufferView, accessor.byteOffset,
                                        accessor.count, element_bytes, /*allow_stride=*/true);
    if (!range.ok()) return range.status();
    dense = *range;
  }
  const uint64_t value_count = accessor.count * static_cast<uint64_t>(components);
  if (value_count > doc.decode_budget) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: count {} ({} values) is more than the file's data can stand "
                              "for: with the accessors before it, the file would decode over {} "
                              "values per byte it holds",
                              where, accessor.count, value_count, kDecodeBudgetPerByte));
  }
  doc.decode_budget -= value_count;
  // glTF: an accessor without a buffer view reads as zeros (then the sparse elements).
  std::vector<double> values(static_cast<size_t>(value_count), 0.0);
  if (accessor.bufferView >= 0) {
    decodeRun(accessor, dense, accessor.count,
              [&](uint64_t e) { return values.data() + e * static_cast<uint64_t>(components); });
  }
  if (accessor.sparse.isSparse) {
    if (Status s = applySparse(doc, accessor, where, values); !s.ok()) return s;
  }
  if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (!std::isfinite(values[i])) {
        return Status(
            ErrorCode::kInvalidData,
            fmt::format("{}: element {} component {} is not finite", where,
                        i / static_cast<size_t>(components), i % static_cast<size_t>(components)));
      }
    }
  }
  return values;
}

}  // namespace

int componentCount(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
    case TINYGLTF_TYPE_MAT2:
      return 4;
    case TINYGLTF_TYPE_MAT3:
      return 9;
    case TINYGLTF_TYPE_MAT4:
      return 16;
    default:
      return 0;
  }
}

size_t accessorCount(const Document& doc, int index) {
  return doc.model.accessors.at(static_cast<size_t>(index)).count;
}

Result<std::vector<float>> readFloats(const Document& doc, const AccessorRequest& request) {
  Result<std::vector<double>> values = readComponents(doc, request);
  if (!values.ok()) return values.status();
  std::vector<float> out(values->size());
  for (size_t i = 0; i < out.size(); ++i) {
    const double v = (*values)[i];
    if (std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("accessor {} ({}): value {} overflows a float",
                                           request.index, request.what, v)));
    }
    out[i] = static_cast<float>(v);
  }
  return out;
}

Result<std::vector<uint32_t>> readUints(const Document& doc, const AccessorRequest& request) {
  Result<std::vector<double>> values = readComponents(doc, request);
  if (!values.ok()) return values.status();
  std::vector<uint32_t> out(values->size());
  for (size_t i = 0; i < out.size(); ++i) {
    const double v = (*values)[i];
    if (v < 0.0 || v != std::floor(v) || v > 4294967295.0) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("accessor {} ({}): element {} is {}, not an unsigned "
                                           "integer",
                                           request.index, request.what, i, v)));
    }
    out[i] = static_cast<uint32_t>(v);
  }
  return out;
}

}  // namespace throng::gltf
