// Test helper: writes small glTF files (JSON + one base64 data-URI buffer) for importer tests.
#include "offline/gltf_builder.h"

#include "support/test_support.h"

namespace throng::test {

std::string base64(const std::string& bytes) {
  static const char* kTable = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint32_t(uint8_t(bytes[i])) << 16) |
                       (uint32_t(uint8_t(bytes[i + 1])) << 8) | uint8_t(bytes[i + 2]);
    out += {kTable[v >> 18], kTable[(v >> 12) & 63], kTable[(v >> 6) & 63], kTable[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
    out += {kTable[v >> 18], kTable[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8);
    out += {kTable[v >> 18], kTable[(v >> 12) & 63], kTable[(v >> 6) & 63], '='};
  }
  return out;
}

GltfBuilder::GltfBuilder() {
  json = {{"asset", {{"version", "2.0"}}},
          {"scene", 0},
          {"scenes", nlohmann::json::array({nlohmann::json{{"nodes", nlohmann::json::array()}}})},
          {"nodes", nlohmann::json::array()},
          {"meshes", nlohmann::json::array()},
          {"accessors", nlohmann::json::array()},
          {"bufferViews", nlohmann::json::array()},
          {"buffers", nlohmann::json::array()}};
}

size_t GltfBuilder::components(const char* type) {
  const std::string t = type;
  if (t == "SCALAR") return 1;
  if (t == "VEC2") return 2;
  if (t == "VEC3") return 3;
  if (t == "VEC4") return 4;
  return 16;  // MAT4
}

int GltfBuilder::addNode(nlohmann::json node) {
  json["nodes"].push_back(std::move(node));
  return static_cast<int>(json["nodes"].size()) - 1;
}

int GltfBuilder::addMesh(nlohmann::json primitives) {
  json["meshes"].push_back({{"primitives", std::move(primitives)}});
  return static_cast<int>(json["meshes"].size()) - 1;
}

std::string GltfBuilder::write(const std::filesystem::path& dir, const std::string& name,
                               const std::string& external_bin) {
  nlohmann::json out = json;
  if (!bin_.empty() && out["buffers"].empty()) {
    if (external_bin.empty()) {
      out["buffers"].push_back({{"byteLength", bin_.size()},
                                {"uri", "data:application/octet-stream;base64," + base64(bin_)}});
    } else {
      writeFile(dir / external_bin, bin_);
      out["buffers"].push_back({{"byteLength", bin_.size()}, {"uri", external_bin}});
    }
  }
  if (out["meshes"].empty()) out.erase("meshes");
  const std::string path = (dir / name).string();
  writeFile(path, out.dump(1));
  return path;
}

TwoBoneFile::TwoBoneFile() {
  gltf.addNode({{"name", "armature"}, {"children", {1, 3}}});
  gltf.addNode({{"name", "root"}, {"children", {2}}});
  gltf.addNode({{"name", "child"}, {"translation", {0.0, 1.0, 0.0}}});
  gltf.addNode({{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  gltf.json["scenes"][0]["nodes"] = {0};
  positions = gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0}, "VEC3");
  joints =
      gltf.add(std::vector<uint16_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5123, "VEC4");
  weights = gltf.addFloats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  indices = gltf.add(std::vector<uint16_t>{0, 1, 2, 2, 1, 3}, 5123, "SCALAR");
  ibm = gltf.addFloats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,  //
                        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1},
                       "MAT4");
  gltf.addMesh(nlohmann::json::array(
      {{{"attributes", {{"POSITION", positions}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}},
        {"indices", indices}}}));
  gltf.json["skins"] = {{{"joints", {1, 2}}, {"inverseBindMatrices", ibm}}};
}

void blendUpperEdge(TwoBoneFile& file) {
  file.primitive()["attributes"]["JOINTS_0"] = file.gltf.add(
      std::vector<uint16_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5123, "VEC4");
  file.primitive()["attributes"]["WEIGHTS_0"] =
      file.gltf.addFloats({1, 0, 0, 0, 1, 0, 0, 0, 0.75f, 0.25f, 0, 0, 0.75f, 0.25f, 0, 0}, "VEC4");
}

void addBendAnimation(TwoBoneFile& file, const std::vector<float>& weights) {
  const int times = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int values = file.gltf.addFloats(weights, "SCALAR");
  const int turns = file.gltf.addFloats({0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f}, "VEC4");
  file.gltf.json["animations"] = nlohmann::json::array(
      {{{"name", "Bend"},
        {"samplers",
         {{{"input", times}, {"output", values}}, {{"input", times}, {"output", turns}}}},
        {"channels",
         {{{"sampler", 0}, {"target", {{"node", 3}, {"path", "weights"}}}},
          {{"sampler", 1}, {"target", {{"node", 2}, {"path", "rotation"}}}}}}}});
}

}  // namespace throng::test
