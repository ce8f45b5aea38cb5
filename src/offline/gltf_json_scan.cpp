// A streaming pre-check of a glTF document's JSON before tinygltf parses it.
#include "offline/gltf_json_scan.h"

#include <exception>

#include <tiny_gltf.h>
#include <nlohmann/json.hpp>

namespace throng::gltf {
namespace {

// SAX handler: tracks the nesting and records `uri` / `byteLength` of buffers[i] and images[i].
class Scanner : public nlohmann::json::json_sax_t {
 public:
  explicit Scanner(JsonScan& out) : out_(out) {}

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t v) override {
    if (v >= 0) recordLength(static_cast<uint64_t>(v));
    return value();
  }
  bool number_unsigned(number_unsigned_t v) override {
    recordLength(v);
    return value();
  }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t& v) override {
    if (Entry* e = field("uri")) {
      e->has_uri = true;
      e->data_uri = tinygltf::IsDataURI(v);
      if (!e->data_uri) e->uri = v;
    }
    return value();
  }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    if (!enter(false)) return false;
    // An element of the top-level "buffers" or "images" array.
    if (depth_ == 3 && list_ != nullptr) list_->emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) top_key_ = k;
    if (depth_ == 3) element_key_ = k;
    return true;
  }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override {
    if (!enter(true)) return false;
    if (depth_ == 2) {
      list_ = top_key_ == "buffers" ? &out_.buffers : top_key_ == "images" ? &out_.images : nullptr;
    }
    return true;
  }
  bool end_array() override { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override {
    return false;
  }

 private:
  using Entry = JsonScan::Entry;

  bool enter(bool is_array) {
    ++depth_;
    if (depth_ > kMaxJsonDepth) {
      out_.too_deep = true;
      return false;
    }
    if (depth_ == 2 && !is_array) list_ = nullptr;
    return true;
  }
  bool leave() {
    if (depth_ == 2) list_ = nullptr;
    --depth_;
    return true;
  }
  bool value() { return true; }
  // The entry whose `name` member is being read, or null.
  Entry* field(const char* name) {
    if (depth_ != 3 || list_ == nullptr || list_->empty() || element_key_ != name) return nullptr;
    return &list_->back();
  }
  void recordLength(uint64_t v) {
    if (Entry* e = field("byteLength")) {
      e->has_byte_length = true;
      e->byte_length = v;
    }
  }

  JsonScan& out_;
  int depth_ = 0;
  std::string top_key_;
  std::string element_key_;
  std::vector<Entry>* list_ = nullptr;
};

}  // namespace

JsonScan scanJson(std::string_view json) {
  JsonScan out;
  Scanner scanner(out);
  try {
    out.valid_json = nlohmann::json::sax_parse(json.begin(), json.end(), &scanner);
  } catch (const std::exception&) {
    out.valid_json = false;  // tinygltf reports the syntax error itself
  }
  if (out.too_deep) out.valid_json = false;
  return out;
}

}  // namespace throng::gltf
