// Accessors claiming more than the file holds are refused before anything that large is allocated.
#include <string>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class GltfAccessorLimits : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-accessor"); }
  void TearDown() override { fs::remove_all(dir_); }
  Status importError(test::TwoBoneFile& file, const std::string& name) {
    const std::string path = file.gltf.write(dir_, name);
    path_ = path;
    Result<Character> c = importGltf(path);
    EXPECT_FALSE(c.ok()) << name;
    return c.ok() ? Status() : c.status();
  }
  fs::path dir_;
  std::string path_;
};

TEST_F(GltfAccessorLimits, ABillionVerticesOnASmallBufferViewAreRefusedNamingTheCount) {
  test::TwoBoneFile file;
  file.gltf.json["accessors"][file.positions]["count"] = 1'000'000'000;
  const Status s = importError(file, "vertices.gltf");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(s.message(), path_ +
                             ": accessor 0 (mesh 0 primitive 0 POSITION): count 1000000000 "
                             "exceeds the limit of 16777216 elements");
  // Below that limit the buffer view decides, before the values are allocated.
  file.gltf.json["accessors"][file.positions]["count"] = 16'000'000;
  const Status t = importError(file, "vertices2.gltf");
  EXPECT_EQ(t.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(t.message(), path_ +
                             ": accessor 0 (mesh 0 primitive 0 POSITION): needs bytes "
                             "0..192000000 of buffer view 0, which has 48 bytes");
}

TEST_F(GltfAccessorLimits, ABillionKeysAreRefusedNamingTheSampler) {
  test::TwoBoneFile file;
  const int times = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int values = file.gltf.addFloats({0, 0, 0, 0, 1, 0}, "VEC3");
  file.gltf.json["animations"] = json::array(
      {{{"channels",
         json::array({{{"sampler", 0}, {"target", {{"node", 2}, {"path", "translation"}}}}})},
        {"samplers", json::array({{{"input", times}, {"output", values}}})}}});
  file.gltf.json["accessors"][times]["count"] = 1'000'000'000;
  Status s = importError(file, "keys.gltf");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(s.message(), path_ +
                             ": accessor 5 (animation 0 channel 0 input): count 1000000000 "
                             "exceeds the limit of 16777216 elements");
  file.gltf.json["accessors"][times]["count"] = 2;
  file.gltf.json["accessors"][values]["count"] = 10'000'000;
  s = importError(file, "values.gltf");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(s.message(), path_ +
                             ": accessor 6 (animation 0 channel 0 output): needs bytes "
                             "0..120000000 of buffer view 6, which has 24 bytes");
}

TEST_F(GltfAccessorLimits, AnAccessorWithoutDataMayNotStandForMillionsOfValues) {
  // glTF reads an accessor without a buffer view as zeros: 16 million MAT4 zeros would be 2 GiB
  // of doubles from a few hundred bytes of JSON.
  test::TwoBoneFile file;
  json& ibm = file.gltf.json["accessors"][file.ibm];
  ibm.erase("bufferView");
  ibm["count"] = 16'000'000;
  const Status s = importError(file, "zeros.gltf");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_TRUE(s.message().starts_with(path_ + ": accessor 4 (skin 0 inverseBindMatrices): count "
                                              "16000000 (256000000 values) is more than the "
                                              "file's data can stand for"))
      << s.message();
}

TEST_F(GltfAccessorLimits, OneMeshUsedByThousandsOfNodesRunsOutOfBudget) {
  // 2.3 MB of skinned vertices drawn by 2,000 nodes: 2,000 times the data from one copy of it.
  test::TwoBoneFile file;
  constexpr size_t kVertices = 65'536;
  const std::vector<float> positions(3 * kVertices, 0.5f);
  const std::vector<uint16_t> joints(4 * kVertices, 0);
  std::vector<float> weights(4 * kVertices, 0.0f);
  for (size_t v = 0; v < kVertices; ++v) weights[4 * v] = 1.0f;
  std::vector<uint32_t> indices(kVertices - 1);
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>(i);
  json attributes = {{"POSITION", file.gltf.addFloats(positions, "VEC3")},
                     {"JOINTS_0", file.gltf.add(joints, 5123, "VEC4")},
                     {"WEIGHTS_0", file.gltf.addFloats(weights, "VEC4")}};
  const int index = file.gltf.add(indices, 5125, "SCALAR");
  file.gltf.addMesh(json::array({{{"attributes", attributes}, {"indices", index}}}));
  for (int n = 0; n < 2'000; ++n) {
    const int node = file.gltf.addNode({{"mesh", 1}, {"skin", 0}});
    file.gltf.json["scenes"][0]["nodes"].push_back(node);
  }
  const Status s = importError(file, "reused.gltf");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(s.message().find("is more than the file's data can stand for"), std::string::npos)
      << s.message();
  // The same mesh on a few nodes is fine.
  file.gltf.json["nodes"].erase(file.gltf.json["nodes"].begin() + 14,
                                file.gltf.json["nodes"].end());
  file.gltf.json["scenes"][0]["nodes"] = {0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
  const std::string few = file.gltf.write(dir_, "few.gltf");
  Result<Character> c = importGltf(few);
  EXPECT_TRUE(c.ok()) << c.status().message();
}

}  // namespace
}  // namespace throng
