// A box prop written as a glTF file, for the props tests of the offline and crowd layers.
#include "offline/prop_fixture.h"

#include "offline/gltf_builder.h"

namespace throng::test {

std::vector<glm::vec3> propBoxCorners() {
  std::vector<glm::vec3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back(
        glm::vec3(i & 1 ? 0.05f : -0.05f, i & 2 ? 0.08f : -0.08f, i & 4 ? 0.03f : -0.03f));
  }
  return corners;
}

std::string writePropBox(const std::filesystem::path& dir, const std::string& name,
                         const float* color) {
  GltfBuilder g;
  std::vector<float> positions;
  for (const glm::vec3& c : propBoxCorners()) positions.insert(positions.end(), {c.x, c.y, c.z});
  const std::vector<uint16_t> indices = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                                         2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
  nlohmann::json primitive = {{"attributes", {{"POSITION", g.addFloats(positions, "VEC3")}}},
                              {"indices", g.add(indices, 5123, "SCALAR")}};
  g.json["accessors"][0]["min"] = {-0.05, -0.08, -0.03};
  g.json["accessors"][0]["max"] = {0.05, 0.08, 0.03};
  if (color) {
    g.json["materials"] = nlohmann::json::array(
        {{{"pbrMetallicRoughness",
           {{"baseColorFactor", {color[0], color[1], color[2], color[3]}}}}}});
    primitive["material"] = 0;
  }
  const int mesh = g.addMesh(nlohmann::json::array({primitive}));
  const glm::vec3& t = kPropNodeTranslation;
  const int node = g.addNode({{"mesh", mesh},
                              {"translation", {t.x, t.y, t.z}},
                              {"scale", {kPropNodeScale, kPropNodeScale, kPropNodeScale}}});
  g.json["scenes"][0]["nodes"].push_back(node);
  return g.write(dir, name);
}

}  // namespace throng::test
