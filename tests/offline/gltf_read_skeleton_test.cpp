// The import skeleton on hostile node trees: limits are checked before long chains are walked.
#include <string>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "support/test_support.h"
#include "throng/core/skeleton.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A chain of `count` nodes (node i is the parent of node i + 1) as a .gltf with no buffers.
json chainDocument(int count) {
  json nodes = json::array();
  for (int i = 0; i < count; ++i) {
    nodes.push_back(i + 1 < count ? json{{"children", {i + 1}}} : json::object());
  }
  return json{{"asset", {{"version", "2.0"}}},
              {"nodes", nodes},
              {"scenes", json::array({json{{"nodes", {0}}}})}};
}

class GltfSkeletonLimits : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-skeleton"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const json& document) {
    test::writeFile(dir_ / name, document.dump());
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(GltfSkeletonLimits, ASkinChainOfTwoHundredThousandNodesIsRefusedAtTheLimit) {
  // The issue: 200,000 chained joints took over 20 s (every joint's ancestors were walked for
  // its depth) before the 1,024-joint limit refused them. Listed deepest first, the first joint
  // alone brings in the whole chain; listed root first, the 1,025th does.
  constexpr int kNodes = 200'000;
  json deepest_first = chainDocument(kNodes);
  json root_first = deepest_first;
  json joints = json::array();
  for (int i = kNodes - 1; i >= 0; --i) joints.push_back(i);
  deepest_first["skins"] = json::array({json{{"joints", joints}}});
  const std::string a = write("deepest-first.gltf", deepest_first);
  Result<Character> c = importGltf(a);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(c.status().message(),
            a + ": skin 0 (200000 joints listed): the skeleton would have more than the limit of "
                "1024 joints (200000 so far)");

  std::reverse(joints.begin(), joints.end());
  root_first["skins"] = json::array({json{{"joints", joints}}});
  const std::string b = write("root-first.gltf", root_first);
  c = importGltf(b);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            b + ": skin 0 (200000 joints listed): the skeleton would have more than the limit of "
                "1024 joints (1025 so far)");
}

TEST_F(GltfSkeletonLimits, TooManyAnimatedOrMeshNodesAreRefusedNamingTheirKind) {
  json document = chainDocument(kMaxJoints + 1);
  document["meshes"] = json::array({json{{"primitives", json::array()}}});
  for (json& node : document["nodes"]) node["mesh"] = 0;
  const std::string path = write("mesh-nodes.gltf", document);
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(c.status().message(), path +
                                      ": mesh nodes: the skeleton would have more than the limit "
                                      "of 1024 joints (1025 so far)");
}

TEST_F(GltfSkeletonLimits, ALongChainOfMeshNodesBesideTheSkeletonImportsInLinearTime) {
  // 50,000 unskinned mesh nodes chained beside a two-bone skeleton: each used to walk all its
  // ancestors looking for a skeleton node (quadratic); they are skipped with a warning each.
  test::TwoBoneFile file;
  json& nodes = file.gltf.json["nodes"];
  const int first = static_cast<int>(nodes.size());
  constexpr int kChain = 50'000;
  file.gltf.json["meshes"].push_back(file.gltf.json["meshes"][0]);
  file.gltf.json["meshes"][1]["primitives"][0]["attributes"].erase("JOINTS_0");
  file.gltf.json["meshes"][1]["primitives"][0]["attributes"].erase("WEIGHTS_0");
  for (int i = 0; i < kChain; ++i) {
    json node = {{"mesh", 1}};
    if (i + 1 < kChain) node["children"] = {first + i + 1};
    nodes.push_back(node);
  }
  file.gltf.json["scenes"][0]["nodes"].push_back(first);
  const std::string path = file.gltf.write(dir_, "beside.gltf");
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->skeleton.jointCount(), 3);
  EXPECT_EQ(c->warnings.size(), static_cast<size_t>(kChain));
}

}  // namespace
}  // namespace throng
