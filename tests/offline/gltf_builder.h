// Test helper: writes small glTF files (JSON + one base64 data-URI buffer) for importer tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace throng::test {

std::string base64(const std::string& bytes);

class GltfBuilder {
 public:
  GltfBuilder();

  // Appends `values` (4-byte aligned) as a buffer view + accessor; returns the accessor index.
  template <typename T>
  int add(const std::vector<T>& values, int component_type, const char* type,
          bool normalized = false) {
    while (bin_.size() % 4 != 0) bin_.push_back('\0');
    const size_t offset = bin_.size();
    bin_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    nlohmann::json view = {
        {"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(T)}};
    json["bufferViews"].push_back(view);
    nlohmann::json accessor = {{"bufferView", json["bufferViews"].size() - 1},
                               {"componentType", component_type},
                               {"count", values.size() / components(type)},
                               {"type", type}};
    if (normalized) accessor["normalized"] = true;
    json["accessors"].push_back(accessor);
    return static_cast<int>(json["accessors"].size()) - 1;
  }
  int addFloats(const std::vector<float>& values, const char* type) {
    return add(values, 5126, type);
  }
  // Appends raw bytes (an encoded image, compressed data) as a buffer view; returns the view.
  int addBytes(const std::string& bytes) {
    while (bin_.size() % 4 != 0) bin_.push_back('\0');
    json["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", bin_.size()}, {"byteLength", bytes.size()}});
    bin_ += bytes;
    return static_cast<int>(json["bufferViews"].size()) - 1;
  }
  int addNode(nlohmann::json node);  // returns the node index
  int addMesh(nlohmann::json primitives);

  // Finalises the buffer (data URI unless `external_bin` names a file beside the .gltf) and
  // writes `dir/name`; returns the path.
  std::string write(const std::filesystem::path& dir, const std::string& name,
                    const std::string& external_bin = "");

  nlohmann::json json;

 private:
  static size_t components(const char* type);
  std::string bin_;
};

// A ready-made skinned file: joints "root" (origin) -> "child" (at y = 1) under node "armature",
// skin 0 with bind == rest, and a skinned quad mesh (4 vertices, 2 triangles) on node "body":
// vertices 0,1 at y = 0 bound to root, 2,3 at y = 2 bound to child. Node indices: armature 0,
// root 1, child 2, body 3. Accessors: see the fields.
struct TwoBoneFile {
  GltfBuilder gltf;
  int positions = -1, joints = -1, weights = -1, indices = -1, ibm = -1;
  TwoBoneFile();
  nlohmann::json& primitive() { return gltf.json["meshes"][0]["primitives"][0]; }
};

// Skins the quad's upper edge to both joints (0.75 / 0.25), the lower to joint 0: a true skin
// (a mesh of rigid parts bakes its morph targets as VAT, one of true skin as target deltas).
void blendUpperEdge(TwoBoneFile& file);

// Adds animation "Bend" to `file` (whose primitive has its morph targets): over 0..1 s, LINEAR,
// the body's weights channel goes through `weights` (2 keys x the targets) while the child joint
// turns 45 degrees about Z.
void addBendAnimation(TwoBoneFile& file, const std::vector<float>& weights);

}  // namespace throng::test
