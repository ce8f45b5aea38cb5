// Morph targets through the importer: every glTF 2.0 morph feature, checked against the test
// oracle's own morph formula (gltf_reference: tinygltf data, p + sum w * delta, then skinning).
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "offline/gltf_read_morph.h"
#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

using nlohmann::json;
using test::GltfBuilder;
using test::TwoBoneFile;

class GltfMorph : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-morph"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Result<Character> tryImport(GltfBuilder& builder, const std::string& name = "morph.gltf") {
    last_path_ = builder.write(dir_, name);
    return importGltf(last_path_);
  }
  Character import(GltfBuilder& builder) {
    Result<Character> c = tryImport(builder);
    EXPECT_TRUE(c.ok()) << c.status().toString();
    if (!c.ok()) return {};
    EXPECT_TRUE(validateCharacter(*c, last_path_).ok());
    return std::move(c).value();
  }
  // Largest distance between the importer's posed vertices and the oracle's, over `times`.
  float worstError(const Character& c, int animation, const std::vector<float>& times) {
    tinygltf::Model model;
    EXPECT_TRUE(test::loadTinyGltf(last_path_, model));
    float worst = 0.0f;
    for (float t : times) {
      const Clip* clip = animation < 0 ? nullptr : &c.clips.at(static_cast<size_t>(animation));
      worst = std::max(worst, test::maxDistance(test::referencePositions(model, animation, t),
                                                test::skinPositions(c, clip, t)));
    }
    return worst;
  }

  std::filesystem::path dir_;
  std::string last_path_;
};

// A quad on an unskinned node (the skeleton is the node): 4 vertices in z = 0.
struct MorphQuad {
  GltfBuilder gltf;
  int positions = -1, indices = -1;
  MorphQuad() {
    positions = gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, "VEC3");
    indices = gltf.add(std::vector<uint16_t>{0, 1, 2, 2, 1, 3}, 5123, "SCALAR");
    gltf.addNode({{"name", "quad"}, {"mesh", 0}});
    gltf.json["scenes"][0]["nodes"] = {0};
  }
  // A sparse VEC3 float accessor of `count` elements: zeros except `values` at `at`.
  int sparse(size_t count, const std::vector<uint16_t>& at, const std::vector<float>& values) {
    std::string index_bytes(reinterpret_cast<const char*>(at.data()), at.size() * 2);
    while (index_bytes.size() % 4 != 0) index_bytes.push_back('\0');
    const int index_view = gltf.addBytes(index_bytes);
    const int value_view =
        gltf.addBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
    gltf.json["accessors"].push_back(
        {{"componentType", 5126},
         {"count", count},
         {"type", "VEC3"},
         {"sparse",
          {{"count", at.size()},
           {"indices", {{"bufferView", index_view}, {"componentType", 5123}}},
           {"values", {{"bufferView", value_view}}}}}});
    return static_cast<int>(gltf.json["accessors"].size()) - 1;
  }
  void mesh(const json& targets, const json& weights = nullptr) {
    json primitive = {
        {"attributes", {{"POSITION", positions}}}, {"indices", indices}, {"targets", targets}};
    json m = {{"primitives", json::array({primitive})},
              {"extras", {{"targetNames", {"lift", "push"}}}}};
    if (!weights.is_null()) m["weights"] = weights;
    gltf.json["meshes"] = json::array({m});
  }
  void animate(const std::vector<float>& times, const std::vector<float>& values,
               const char* interpolation) {
    const int in = gltf.addFloats(times, "SCALAR");
    const int out = gltf.addFloats(values, "SCALAR");
    gltf.json["animations"] = json::array(
        {{{"name", "Morph"},
          {"samplers", {{{"input", in}, {"output", out}, {"interpolation", interpolation}}}},
          {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}});
  }
};

TEST_F(GltfMorph, SparseTargetsNamesAndDefaultWeightsFollowTheFormula) {
  MorphQuad q;
  const int lift = q.sparse(4, {2, 3}, {0, 0, 0.5f, 0, 0, 0.25f});  // vertices 2 and 3 rise in z
  const int push = q.gltf.addFloats({0.1f, 0, 0, 0.1f, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", push}}}), json::array({0.5, 0.0}));
  q.gltf.json["nodes"][0]["weights"] = json::array({0.25, 1.0});  // the node's win over the mesh's
  const Character c = import(q.gltf);
  ASSERT_EQ(c.mesh.morph_targets.size(), 2u);
  EXPECT_EQ(c.mesh.morph_targets[0].name, "lift");
  EXPECT_EQ(c.mesh.morph_targets[1].name, "push");
  EXPECT_EQ(c.mesh.morph_targets[0].group, "quad");
  EXPECT_FLOAT_EQ(c.mesh.morph_targets[0].default_weight, 0.25f);
  EXPECT_FLOAT_EQ(c.mesh.morph_targets[1].default_weight, 1.0f);
  EXPECT_EQ(c.mesh.morph_targets[0].positions[2], glm::vec3(0.0f, 0.0f, 0.5f));
  EXPECT_EQ(c.mesh.morph_targets[0].positions[0], glm::vec3(0.0f));  // not in the sparse list
  // The rest pose (no clip) shows the default weights: vertex 3 at z = 0.25 * 0.25.
  const std::vector<glm::vec3> rest = test::skinPositions(c, nullptr, 0.0f);
  EXPECT_NEAR(rest[3].z, 0.0625f, 1e-6f);
  EXPECT_NEAR(rest[0].x, 0.1f, 1e-6f);
  EXPECT_LT(worstError(c, -1, {0.0f}), 1e-6f);
}

TEST_F(GltfMorph, WeightsOnlyAnimationBecomesAClipWithStepWeights) {
  MorphQuad q;
  const int lift = q.sparse(4, {2, 3}, {0, 0, 1, 0, 0, 1});
  const int push = q.gltf.addFloats({1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", push}}}));
  q.animate({0.0f, 1.0f, 2.0f}, {0, 0, 1, 0.5f, 0.25f, 1}, "STEP");
  const Character c = import(q.gltf);
  ASSERT_EQ(c.clips.size(), 1u);  // it animates no joint, only weights: kept
  const Clip& clip = c.clips[0];
  ASSERT_EQ(clip.weights.size(), 2u);
  EXPECT_EQ(clip.weights[0].interpolation, Interpolation::kStep);
  EXPECT_FLOAT_EQ(clip.end_time, 2.0f);
  EXPECT_FLOAT_EQ(sampleTrack(clip.weights[0], 0.99f), 0.0f);
  EXPECT_FLOAT_EQ(sampleTrack(clip.weights[0], 1.0f), 1.0f);
  EXPECT_FLOAT_EQ(sampleTrack(clip.weights[1], 1.5f), 0.5f);
  EXPECT_LT(worstError(c, 0, {0.0f, 0.5f, 0.99f, 1.0f, 1.5f, 2.0f, 3.0f}), 1e-6f);
}

TEST_F(GltfMorph, CubicSplineWeightsFollowHermite) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  const int push = q.gltf.addFloats({1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", push}}}));
  // Per key: in-tangents (2), values (2), out-tangents (2).
  q.animate({0.0f, 1.0f}, {0, 0, 0, 1, 2, -1, /**/ 1, 0, 1, 0.5f, 0, 0}, "CUBICSPLINE");
  const Character c = import(q.gltf);
  ASSERT_EQ(c.clips.size(), 1u);
  EXPECT_EQ(c.clips[0].weights[1].interpolation, Interpolation::kCubicSpline);
  EXPECT_LT(worstError(c, 0, {0.0f, 0.1f, 0.25f, 0.5f, 0.8f, 1.0f}), 1e-5f);
  // Target 0's out-tangent 2 at key 0 lifts it faster than a line: 0.390625 at a quarter.
  EXPECT_NEAR(sampleTrack(c.clips[0].weights[0], 0.25f), 0.390625f, 1e-6f);
}

TEST_F(GltfMorph, RepeatedWeightKeyTimesAreKeptAsAStep) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  const int push = q.gltf.addFloats({1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", push}}}));
  q.animate({0.0f, 1.0f, 1.0f, 2.0f}, {0, 0, 1, 1, 0, 0, 1, 1}, "LINEAR");
  const Character c = import(q.gltf);
  ASSERT_EQ(c.clips.size(), 1u);
  const FloatTrack& lift_track = c.clips[0].weights[0];
  EXPECT_NEAR(sampleTrack(lift_track, 0.5f), 0.5f, 1e-6f);  // toward the earlier key
  EXPECT_NEAR(sampleTrack(lift_track, 1.0f), 0.0f, 1e-6f);  // from T on the later key
  bool warned = false;
  for (const Warning& w : c.warnings) warned |= w.kind == WarningKind::kKeyTimesRepeated;
  EXPECT_TRUE(warned);
}

TEST_F(GltfMorph, SkinnedMeshIsMorphedBeforeSkinning) {
  TwoBoneFile file;
  const int up = file.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0.5f, 0.5f, 0}, "VEC3");
  const int normal = file.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC3");
  file.primitive()["targets"] = json::array({{{"POSITION", up}, {"NORMAL", normal}}});
  test::addBendAnimation(file, {0.0f, 1.0f});
  const Character c = import(file.gltf);
  ASSERT_EQ(c.mesh.morph_targets.size(), 1u);
  EXPECT_EQ(c.mesh.morph_targets[0].name, "target0");
  EXPECT_EQ(c.mesh.morph_targets[0].group, "body");
  ASSERT_EQ(c.clips.size(), 1u);
  // The child joint turns the morphed (raised) vertices: wrong order would misplace them.
  EXPECT_LT(worstError(c, 0, {0.0f, 0.3f, 0.7f, 1.0f}), 1e-5f);
}

TEST_F(GltfMorph, PrimitivesWithDifferentTargetCountsAreRefused) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", lift}}}));
  json second = q.gltf.json["meshes"][0]["primitives"][0];
  second["targets"] = json::array({{{"POSITION", lift}}});
  q.gltf.json["meshes"][0]["primitives"].push_back(second);
  Result<Character> c = tryImport(q.gltf);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(c.status().message(),
            last_path_ + ": mesh 0: primitive 1 has 1 morph targets, primitive 0 has 2");
}

TEST_F(GltfMorph, DefaultWeightsOfAnotherLengthAreRefused) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", lift}}}), json::array({1.0}));
  Result<Character> c = tryImport(q.gltf);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            last_path_ + ": node 0 ('quad'): 1 default weights for 2 morph targets of mesh 0");
}

TEST_F(GltfMorph, TargetsThatDoNotMatchTheMeshAreRefused) {
  // A target of 3 deltas for the quad's 4 vertices.
  MorphQuad q;
  const int short_lift = q.gltf.addFloats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
  q.mesh(json::array({{{"POSITION", short_lift}}}));
  Result<Character> c = tryImport(q.gltf);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(c.status().message(),
            last_path_ + ": mesh 0 primitive 0 target 0 POSITION: 3 elements, POSITION 4");
  // A default weight beyond the float range (JSON holds no infinity; 1e300 is a finite double).
  MorphQuad far;
  const int lift = far.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  far.mesh(json::array({{{"POSITION", lift}}}), json::array({1e300}));
  Result<Character> infinite = tryImport(far.gltf);
  ASSERT_FALSE(infinite.ok());
  EXPECT_EQ(infinite.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(infinite.status().message(),
            last_path_ + ": node 0 ('quad'): default weight 1e+300 is not finite");
}

TEST_F(GltfMorph, MoreTargetsThanTheLimitAreRefused) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  json targets = json::array();
  for (size_t t = 0; t <= gltf::kMaxTargetsPerMesh; ++t) targets.push_back({{"POSITION", lift}});
  q.mesh(targets);
  Result<Character> c = tryImport(q.gltf);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(c.status().message(), last_path_ +
                                      ": mesh 0: " + std::to_string(gltf::kMaxTargetsPerMesh + 1) +
                                      " morph targets, more than the limit of " +
                                      std::to_string(gltf::kMaxTargetsPerMesh));
}

TEST_F(GltfMorph, WeightsOutputOfTheWrongSizeIsRefused) {
  MorphQuad q;
  const int lift = q.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}, "VEC3");
  q.mesh(json::array({{{"POSITION", lift}}, {{"POSITION", lift}}}));
  q.animate({0.0f, 1.0f}, {0, 1, 0}, "LINEAR");
  Result<Character> c = tryImport(q.gltf);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            last_path_ +
                ": animation 0 channel 0: 3 output values for 2 keys of 2 morph targets "
                "(expected 4)");
}

TEST_F(GltfMorph, WeightsChannelsOnANodeWithoutTargetsAreSkipped) {
  TwoBoneFile file;  // the body has no targets
  const int times = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int weights = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  file.gltf.json["animations"] = json::array(
      {{{"name", "Face"},
        {"samplers", {{{"input", times}, {"output", weights}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", 3}, {"path", "weights"}}}}}}}});
  const Character c = import(file.gltf);
  EXPECT_TRUE(c.clips.empty());
  bool skipped = false;
  for (const Warning& w : c.warnings) skipped |= w.kind == WarningKind::kWeightsChannelsSkipped;
  EXPECT_TRUE(skipped);
}

// The shared morph assets against the oracle, every clip at many times.
void expectAssetMatchesOracle(const char* relative, size_t targets, size_t clips) {
  const std::string path = test::assetPath(relative).string();
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->mesh.morph_targets.size(), targets);
  ASSERT_EQ(c->clips.size(), clips);
  tinygltf::Model model;
  ASSERT_TRUE(test::loadTinyGltf(path, model));
  float worst = 0.0f;
  float moved = 0.0f;  // how far the morph takes the mesh from its base shape
  const std::vector<glm::vec3> base = test::skinPositions(*c, nullptr, 0.0f);
  for (size_t a = 0; a < clips; ++a) {
    const Clip& clip = c->clips[a];
    for (int i = 0; i <= 40; ++i) {
      const float t = clip.start_time + clip.duration() * static_cast<float>(i) / 40.0f;
      const std::vector<glm::vec3> posed = test::skinPositions(*c, &clip, t);
      worst = std::max(
          worst, test::maxDistance(test::referencePositions(model, static_cast<int>(a), t), posed));
      moved = std::max(moved, test::maxDistance(base, posed));
    }
  }
  const float size = c->size();
  EXPECT_LT(worst, 1e-5f * size) << relative;
  EXPECT_GT(moved, 0.05f * size) << relative << ": the clips should visibly morph the mesh";
  std::printf("%s: largest pose error against the oracle %.3g model units (size %.3g)\n", relative,
              static_cast<double>(worst), static_cast<double>(size));
}

TEST(GltfMorphAssets, AnimatedMorphCubeMatchesTheOracle) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  expectAssetMatchesOracle("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb", 2, 1);
}

TEST(GltfMorphAssets, MorphStressTestMatchesTheOracle) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  expectAssetMatchesOracle("feature-tests/MorphStressTest/MorphStressTest.glb", 8, 3);
}

}  // namespace
}  // namespace throng
