// Little-endian byte writer and bounds-checked reader for the package format (internal).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng::detail {

// The format is little-endian; on such hosts numbers are copied as they are.
static_assert(std::endian::native == std::endian::little,
              "the package reader/writer assume a little-endian host");

class ByteWriter {
 public:
  std::vector<std::byte>& bytes() { return bytes_; }

  void raw(const void* data, size_t size) {
    const auto* p = static_cast<const std::byte*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  template <typename T>
  void pod(const T& value) {
    raw(&value, sizeof(T));
  }
  void u8(uint8_t v) { pod(v); }
  void u16(uint16_t v) { pod(v); }
  void u32(uint32_t v) { pod(v); }
  void i32(int32_t v) { pod(v); }
  void u64(uint64_t v) { pod(v); }
  void f32(float v) { pod(v); }
  void vec3(const glm::vec3& v) { raw(&v[0], sizeof(float) * 3); }
  void vec4(const glm::vec4& v) { raw(&v[0], sizeof(float) * 4); }
  void mat4(const glm::mat4& m) { raw(&m[0][0], sizeof(float) * 16); }
  void string(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  // A u32 element count followed by the elements' bytes.
  template <typename T>
  void array(const std::vector<T>& v) {
    u32(static_cast<uint32_t>(v.size()));
    raw(v.data(), v.size() * sizeof(T));
  }
  void padTo(size_t alignment) {
    while (bytes_.size() % alignment != 0) bytes_.push_back(std::byte{0});
  }

 private:
  std::vector<std::byte> bytes_;
};

// Reads fields from one section; the first failure sticks (later reads return zeros) and names
// the source, the section and the byte offset inside it.
class ByteReader {
 public:
  ByteReader(std::span<const std::byte> bytes, std::string_view source, std::string_view section)
      : bytes_(bytes), source_(source), section_(section) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  size_t remaining() const { return bytes_.size() - pos_; }

  void fail(const std::string& what) {
    if (!status_.ok()) return;
    status_ = Status(ErrorCode::kParseError,
                     fmt::format("{}: section {} at byte {}: {}", source_, section_, pos_, what));
    pos_ = bytes_.size();
  }
  bool raw(void* out, size_t size, const char* what) {
    if (!ok()) return false;
    if (size > remaining()) {
      fail(fmt::format("{} needs {} bytes, only {} left", what, size, remaining()));
      return false;
    }
    if (size != 0) std::memcpy(out, bytes_.data() + pos_, size);
    pos_ += size;
    return true;
  }
  template <typename T>
  T pod(const char* what) {
    T value{};
    if (!raw(&value, sizeof(T), what)) return T{};
    return value;
  }
  uint8_t u8(const char* what) { return pod<uint8_t>(what); }
  uint16_t u16(const char* what) { return pod<uint16_t>(what); }
  uint32_t u32(const char* what) { return pod<uint32_t>(what); }
  int32_t i32(const char* what) { return pod<int32_t>(what); }
  uint64_t u64(const char* what) { return pod<uint64_t>(what); }
  float f32(const char* what) { return pod<float>(what); }
  glm::vec3 vec3(const char* what) {
    glm::vec3 v(0.0f);
    raw(&v[0], sizeof(float) * 3, what);
    return v;
  }
  glm::vec4 vec4(const char* what) {
    glm::vec4 v(0.0f);
    raw(&v[0], sizeof(float) * 4, what);
    return v;
  }
  glm::mat4 mat4(const char* what) {
    glm::mat4 m(1.0f);
    raw(&m[0][0], sizeof(float) * 16, what);
    return m;
  }
  // True when `count` elements of `element_size` bytes fit in what is left (no overflow).
  bool fits(uint64_t count, size_t element_size, const char* what) {
    if (!ok()) return false;
    if (element_size != 0 && count > remaining() / element_size) {
      fail(fmt::format("{} claims {} entries of {} bytes, only {} bytes left", what, count,
                       element_size, remaining()));
      return false;
    }
    return true;
  }
  std::string string(const char* what) {
    const uint32_t size = u32(what);
    if (!fits(size, 1, what)) return {};
    std::string s(size, '\0');
    raw(s.data(), size, what);
    return s;
  }
  // A u32 count then that many elements; the allocation never exceeds the bytes left.
  template <typename T>
  std::vector<T> array(const char* what) {
    const uint32_t count = u32(what);
    if (!fits(count, sizeof(T), what)) return {};
    std::vector<T> v(count);
    raw(v.data(), count * sizeof(T), what);
    return v;
  }
  // Fails unless every byte of the section was consumed.
  void expectEnd() {
    if (ok() && remaining() != 0) fail(fmt::format("{} unexpected trailing bytes", remaining()));
  }

 private:
  std::span<const std::byte> bytes_;
  size_t pos_ = 0;
  std::string_view source_;
  std::string_view section_;
  Status status_;
};

}  // namespace throng::detail
