// glTF import rules on small files written by the tests (one test per rule).
#include <cmath>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

using nlohmann::json;
using test::GltfBuilder;
using test::TwoBoneFile;

// One animation with one channel: `path` of `node` driven by sampler (input, output).
json animationJson(int node, const char* path, int input, int output,
                   const char* interpolation = "LINEAR", const std::string& name = "") {
  json channel = json::object();
  channel["sampler"] = 0;
  channel["target"] = json{{"node", node}, {"path", path}};
  json sampler = json::object();
  sampler["input"] = input;
  sampler["output"] = output;
  sampler["interpolation"] = interpolation;
  json animation = json::object();
  animation["channels"] = json::array({channel});
  animation["samplers"] = json::array({sampler});
  if (!name.empty()) animation["name"] = name;
  return animation;
}

class GltfRules : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-rules"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Imports `builder` written as `name`; fails the test on error.
  Character import(GltfBuilder& builder, const std::string& name = "test.gltf") {
    last_path_ = builder.write(dir_, name);
    Result<Character> c = importGltf(last_path_);
    EXPECT_TRUE(c.ok()) << c.status().toString();
    if (!c.ok()) return {};
    EXPECT_TRUE(validateCharacter(*c, last_path_).ok());
    return std::move(c).value();
  }
  // The oracle's positions for the file last imported.
  std::vector<glm::vec3> reference(int animation, float time) {
    tinygltf::Model model;
    EXPECT_TRUE(test::loadTinyGltf(last_path_, model));
    return test::referencePositions(model, animation, time);
  }

  std::filesystem::path dir_;
  std::string last_path_;
};

TEST_F(GltfRules, AncestorsBecomeJointsAndSkinnedNodeTransformIsIgnored) {
  TwoBoneFile file;
  file.gltf.json["nodes"][0]["rotation"] = {0.0, 0.0, 0.7071068, 0.7071068};  // armature
  file.gltf.json["nodes"][3]["scale"] = {100.0, 100.0, 100.0};                // skinned node
  file.gltf.json["nodes"][3]["translation"] = {5.0, 0.0, 0.0};
  // Bind == rest under the rotated armature: IBM = inverse(world) of each joint.
  const glm::mat4 r = glm::mat4_cast(glm::quat(0.7071068f, 0.0f, 0.0f, 0.7071068f));
  const glm::mat4 child_world = r * glm::translate(glm::mat4(1.0f), glm::vec3(0, 1, 0));
  const glm::mat4 ibm0 = glm::inverse(r), ibm1 = glm::inverse(child_world);
  std::vector<float> ibms(32);
  std::memcpy(ibms.data(), &ibm0[0][0], 64);
  std::memcpy(ibms.data() + 16, &ibm1[0][0], 64);
  file.gltf.json["skins"][0]["inverseBindMatrices"] = file.gltf.addFloats(ibms, "MAT4");
  // The mesh is authored in bind (world) space: rotate the quad's positions by r.
  std::vector<float> positions;
  for (glm::vec3 p :
       {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0), glm::vec3(0, 2, 0), glm::vec3(1, 2, 0)}) {
    const glm::vec3 q = glm::vec3(r * glm::vec4(p, 1.0f));
    positions.insert(positions.end(), {q.x, q.y, q.z});
  }
  file.primitive()["attributes"]["POSITION"] = file.gltf.addFloats(positions, "VEC3");
  Character c = import(file.gltf);
  EXPECT_EQ(c.skeleton.jointCount(), 3);  // armature, root, child; "body" is not a joint
  EXPECT_GE(c.skeleton.findJoint("armature"), 0);
  EXPECT_LT(c.skeleton.findJoint("body"), 0);
  // The body's scale 100 and translation are not applied: positions are the bind positions.
  for (size_t v = 0; v < 4; ++v) {
    EXPECT_LT(glm::length(c.mesh.positions[v] -
                          glm::vec3(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2])),
              1e-5f);
  }
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), reference(-1, 0.0f)), 1e-5f);
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), c.mesh.positions), 1e-5f);
}

TEST_F(GltfRules, SkinWithoutInverseBindMatricesUsesIdentity) {
  TwoBoneFile file;
  file.gltf.json["skins"][0].erase("inverseBindMatrices");
  Character c = import(file.gltf);
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), reference(-1, 0.0f)), 1e-5f);
}

// Repeated key times (an exporter habit three.js and Blender accept) are a step: before the
// time the track moves toward the earlier key, from it on it holds the later one; one warning
// per channel. Checked against the glTF oracle's sampling of the same keys written as a step.
TEST_F(GltfRules, RepeatedKeyTimesAreKeptAsAStepWithOneWarningPerChannel) {
  TwoBoneFile file;
  const int times = file.gltf.addFloats({0.0f, 1.0f, 1.0f, 2.0f, 2.0f, 2.0f, 3.0f}, "SCALAR");
  const int moves = file.gltf.addFloats(
      {0, 0, 0, 0, 2, 0, 0, 10, 0, 0, 12, 0, 0, 50, 0, 0, 20, 0, 0, 22, 0}, "VEC3");
  file.gltf.json["animations"] = json::array({animationJson(2, "translation", times, moves)});
  Character c = import(file.gltf);
  ASSERT_EQ(c.clips.size(), 1u);
  int warnings = 0;
  for (const Warning& w : c.warnings) {
    if (w.message.find("repeated key time") != std::string::npos) {
      ++warnings;
      EXPECT_EQ(w.kind, WarningKind::kKeyTimesRepeated);
      EXPECT_NE(w.message.find("animation 0 channel 0: 2 repeated key times (first at key 2, 1 s) "
                               "kept as a step"),
                std::string::npos)
          << w.message;
      ASSERT_NE(w.find("steps"), nullptr);
      EXPECT_EQ(std::get<int64_t>(*w.find("steps")), 2);
    }
  }
  EXPECT_EQ(warnings, 1);
  const Vec3Track& track = c.clips[0].joints[c.skeleton.findJoint("child")].translation;
  const auto y = [&](float t) { return sampleTrack(track, t).y; };
  EXPECT_FLOAT_EQ(y(0.5f), 1.0f);  // halfway toward the earlier key at 1 s (2)
  EXPECT_NEAR(y(std::nextafter(1.0f, 0.0f)), 2.0f, 1e-5f);
  EXPECT_FLOAT_EQ(y(1.0f), 10.0f);  // from 1 s on: the later key
  EXPECT_FLOAT_EQ(y(1.5f), 11.0f);  // toward the key before the run at 2 s
  EXPECT_FLOAT_EQ(y(2.0f), 20.0f);  // the run's last key (the middle one, 50, never shows)
  EXPECT_FLOAT_EQ(y(2.5f), 21.0f);
  EXPECT_FLOAT_EQ(y(3.0f), 22.0f);
  EXPECT_FLOAT_EQ(c.clips[0].start_time, 0.0f);
  EXPECT_FLOAT_EQ(c.clips[0].end_time, 3.0f);
}

TEST_F(GltfRules, ARepeatAtATracksStartStartsOnTheLaterKey) {
  TwoBoneFile file;
  const int times = file.gltf.addFloats({0.0f, 0.0f, 1.0f}, "SCALAR");
  const int moves = file.gltf.addFloats({0, 5, 0, 0, 1, 0, 0, 3, 0}, "VEC3");
  file.gltf.json["animations"] = json::array({animationJson(2, "translation", times, moves)});
  Character c = import(file.gltf);
  ASSERT_EQ(c.clips.size(), 1u);
  const Vec3Track& track = c.clips[0].joints[c.skeleton.findJoint("child")].translation;
  ASSERT_EQ(track.times.size(), 2u);
  EXPECT_FLOAT_EQ(c.clips[0].start_time, 0.0f);
  EXPECT_FLOAT_EQ(sampleTrack(track, 0.0f).y, 1.0f);
  EXPECT_FLOAT_EQ(sampleTrack(track, 0.5f).y, 2.0f);
}

TEST_F(GltfRules, RigidMeshUnderANonJointNodeRidesOnIt) {
  TwoBoneFile file;
  // "holder" under joint "child" (not a joint), "prop" under it with an unskinned triangle.
  file.gltf.json["nodes"][2]["children"] = {4};
  file.gltf.addNode({{"name", "holder"},
                     {"translation", {1.0, 0.5, 0.0}},
                     {"rotation", {0.0, 0.3826834, 0.0, 0.9238795}},
                     {"children", {5}}});
  const int tri = file.gltf.addFloats({0, 0, 0, 0.5f, 0, 0, 0, 0.5f, 0}, "VEC3");
  const int mesh = file.gltf.addMesh(json::array({{{"attributes", {{"POSITION", tri}}}}}));
  file.gltf.addNode({{"name", "prop"}, {"mesh", mesh}, {"scale", {2.0, 2.0, 2.0}}});
  // A clip rotating "child", so the prop must follow it.
  const int times = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int rotations = file.gltf.addFloats({0, 0, 0, 1, 0, 0, 0.7071068f, 0.7071068f}, "VEC4");
  file.gltf.json["animations"] = json::array({animationJson(2, "rotation", times, rotations)});
  Character c = import(file.gltf);
  EXPECT_EQ(c.skeleton.jointCount(), 5);  // + holder + prop
  const int prop = c.skeleton.findJoint("prop");
  ASSERT_GE(prop, 0);
  EXPECT_EQ(c.mesh.vertexCount(), 7u);
  EXPECT_EQ(c.mesh.joints[4][0], prop);
  EXPECT_EQ(c.mesh.weights[4][0], 1.0f);
  // At rest the skinned vertices are the world-rest positions; animated, they follow the joint.
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), reference(-1, 0.0f)), 1e-5f);
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), c.mesh.positions), 1e-5f);
  for (float time : {0.25f, 0.5f, 1.0f}) {
    EXPECT_LT(test::maxDistance(test::skinPositions(c, &c.clips[0], time), reference(0, time)),
              1e-5f);
  }
}

TEST_F(GltfRules, TwoSkinsSharingJointsBecomeOneSkeleton) {
  TwoBoneFile file;
  // A second skin on the same joints, whose IBMs carry an extra translation T (and whose mesh
  // is authored accordingly, 3 units to the left): one skeleton, vertices re-expressed.
  const glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(3.0f, 0.0f, 0.0f));
  std::vector<float> ibms(32);
  const glm::mat4 a = glm::mat4(1.0f) * t;
  const glm::mat4 b = glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0)) * t;
  std::memcpy(ibms.data(), &a[0][0], 64);
  std::memcpy(ibms.data() + 16, &b[0][0], 64);
  const int ibm2 = file.gltf.addFloats(ibms, "MAT4");
  const int pos2 = file.gltf.addFloats({-3, 0, 0, -2, 0, 0, -3, 2, 0, -2, 2, 0}, "VEC3");
  const int mesh2 = file.gltf.addMesh(
      json::array({{{"attributes",
                     {{"POSITION", pos2}, {"JOINTS_0", file.joints}, {"WEIGHTS_0", file.weights}}},
                    {"indices", file.indices}}}));
  file.gltf.json["skins"].push_back({{"joints", {1, 2}}, {"inverseBindMatrices", ibm2}});
  file.gltf.json["nodes"][0]["children"].push_back(
      file.gltf.addNode({{"name", "body2"}, {"mesh", mesh2}, {"skin", 1}}));
  Character c = import(file.gltf);
  EXPECT_EQ(c.skeleton.jointCount(), 3);
  EXPECT_EQ(c.mesh.submeshes.size(), 1u);  // both skins draw with the default material
  EXPECT_TRUE(test::hasWarning(c, "skin 1 has other inverse bind matrices"));
  EXPECT_LT(test::maxDistance(test::skinPositions(c, nullptr, 0.0f), reference(-1, 0.0f)), 1e-5f);
}

TEST_F(GltfRules, MoreThanFourInfluencesKeepTheLargest) {
  TwoBoneFile file;
  // Six joints: root with five children at the origin (bind == rest, no IBMs needed).
  file.gltf.json["nodes"][1]["children"] = json::array();
  for (int k = 0; k < 5; ++k) {
    file.gltf.json["nodes"][1]["children"].push_back(
        file.gltf.addNode({{"name", "j" + std::to_string(k)}}));
  }
  file.gltf.json["nodes"][2]["name"] = "unused";
  file.gltf.json["skins"] = {{{"joints", {1, 4, 5, 6, 7, 8}}}};
  const std::vector<uint8_t> j0 = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<uint8_t> j1 = {4, 5, 0, 0, 4, 5, 0, 0, 4, 5, 0, 0, 4, 5, 0, 0};
  const std::vector<float> w0 = {0.05f, 0.3f, 0.1f, 0.25f, 0.05f, 0.3f, 0.1f, 0.25f,
                                 0.05f, 0.3f, 0.1f, 0.25f, 0.05f, 0.3f, 0.1f, 0.25f};
  const std::vector<float> w1 = {0.2f, 0.1f, 0, 0, 0.2f, 0.1f, 0, 0,
                                 0.2f, 0.1f, 0, 0, 0.2f, 0.1f, 0, 0};
  auto& attributes = file.primitive()["attributes"];
  attributes["JOINTS_0"] = file.gltf.add(j0, 5121, "VEC4");
  attributes["JOINTS_1"] = file.gltf.add(j1, 5121, "VEC4");
  attributes["WEIGHTS_0"] = file.gltf.addFloats(w0, "VEC4");
  attributes["WEIGHTS_1"] = file.gltf.addFloats(w1, "VEC4");
  Character c = import(file.gltf);
  EXPECT_TRUE(test::hasWarning(c, "more than 4 influences"));
  // Kept: 0.3 (skin joint 1 = j0), 0.25 (j2), 0.2 (j3), 0.1 (j4 or j1: equal), sum 0.85.
  const glm::vec4 w = c.mesh.weights[0];
  EXPECT_NEAR(w[0], 0.3f / 0.85f, 1e-5f);
  EXPECT_NEAR(w[1], 0.25f / 0.85f, 1e-5f);
  EXPECT_NEAR(w[2], 0.2f / 0.85f, 1e-5f);
  EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0f, 1e-6f);
  EXPECT_EQ(c.mesh.joints[0][0], c.skeleton.findJoint("j0"));
  EXPECT_EQ(c.mesh.joints[0][1], c.skeleton.findJoint("j2"));
}

TEST_F(GltfRules, WeightsAreRenormalisedAndZeroWeightsBoundToFirstJoint) {
  TwoBoneFile file;
  file.primitive()["attributes"]["WEIGHTS_0"] =
      file.gltf.addFloats({0.5f, 0.3f, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  file.primitive()["attributes"]["JOINTS_0"] = file.gltf.add(
      std::vector<uint16_t>{0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5123, "VEC4");
  Character c = import(file.gltf);
  EXPECT_NEAR(c.mesh.weights[0][0], 0.625f, 1e-6f);
  EXPECT_NEAR(c.mesh.weights[0][1], 0.375f, 1e-6f);
  EXPECT_TRUE(test::hasWarning(c, "do not sum to 1"));
  EXPECT_TRUE(test::hasWarning(c, "1 vertices have no weight; bound to joint 'root'"));
  EXPECT_EQ(c.mesh.joints[2][0], c.skeleton.findJoint("root"));
  EXPECT_EQ(c.mesh.weights[2], glm::vec4(1, 0, 0, 0));
}

TEST_F(GltfRules, NormalisedByteAndShortWeightsAndByteJoints) {
  for (int form : {5121, 5123}) {
    TwoBoneFile file;
    // 128/255 + 127/255 = 1 exactly: no warning; UNSIGNED_SHORT: 32768 + 32767 = 65535.
    const int weights =
        form == 5121 ? file.gltf.add(std::vector<uint8_t>{128, 127, 0, 0, 255, 0, 0, 0, 255, 0, 0,
                                                          0, 255, 0, 0, 0},
                                     form, "VEC4", true)
                     : file.gltf.add(std::vector<uint16_t>{32768, 32767, 0, 0, 65535, 0, 0, 0,
                                                           65535, 0, 0, 0, 65535, 0, 0, 0},
                                     form, "VEC4", true);
    file.primitive()["attributes"]["WEIGHTS_0"] = weights;
    file.primitive()["attributes"]["JOINTS_0"] = file.gltf.add(
        std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5121, "VEC4");
    Character c = import(file.gltf, "w" + std::to_string(form) + ".gltf");
    EXPECT_NEAR(c.mesh.weights[0][0], form == 5121 ? 128.0f / 255.0f : 32768.0f / 65535.0f, 1e-6f);
    EXPECT_EQ(c.mesh.joints[0][0], c.skeleton.findJoint("child"));
    EXPECT_FALSE(test::hasWarning(c, "do not sum to 1"));
  }
}

TEST_F(GltfRules, MissingNormalsAreAreaWeightedAndIndicesGenerated) {
  GltfBuilder gltf;
  // Two triangles sharing vertex 0: a big one in z = 0 (face normal length 4, +Z) and a small
  // one in y = 0 (length 1, +Y). No indices: 0..5. Shared, area weighting gives normalize(0, 1, 4).
  const int pos = gltf.addFloats({0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0}, "VEC3");
  gltf.addMesh(json::array({{{"attributes", {{"POSITION", pos}}}}}));
  gltf.json["scenes"][0]["nodes"] = {gltf.addNode({{"name", "n"}, {"mesh", 0}})};
  Character c = import(gltf);
  ASSERT_EQ(c.mesh.indices.size(), 6u);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(c.mesh.indices[i], i);
  EXPECT_LT(glm::length(c.mesh.normals[1] - glm::vec3(0, 0, 1)), 1e-6f);
  // Vertices 0 and 3 are distinct vertices (no shared index), so each keeps its own face normal.
  EXPECT_LT(glm::length(c.mesh.normals[3] - glm::vec3(0, 1, 0)), 1e-6f);

  GltfBuilder shared;
  const int p2 = shared.addFloats({0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0}, "VEC3");
  const int idx = shared.add(std::vector<uint16_t>{0, 1, 2, 0, 3, 4}, 5123, "SCALAR");
  shared.addMesh(json::array({{{"attributes", {{"POSITION", p2}}}, {"indices", idx}}}));
  shared.json["scenes"][0]["nodes"] = {shared.addNode({{"name", "n"}, {"mesh", 0}})};
  Character d = import(shared, "shared.gltf");
  EXPECT_LT(glm::length(d.mesh.normals[0] - glm::normalize(glm::vec3(0, 1, 4))), 1e-6f);
}

TEST_F(GltfRules, StripsAndFansBecomeTriangleLists) {
  for (int mode : {5, 6}) {
    GltfBuilder gltf;
    const int pos = gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, "VEC3");
    gltf.addMesh(json::array({{{"attributes", {{"POSITION", pos}}}, {"mode", mode}}}));
    gltf.json["scenes"][0]["nodes"] = {gltf.addNode({{"name", "n"}, {"mesh", 0}})};
    Character c = import(gltf, "m" + std::to_string(mode) + ".gltf");
    const std::vector<uint32_t> expected = mode == 5 ? std::vector<uint32_t>{0, 1, 2, 2, 1, 3}
                                                     : std::vector<uint32_t>{0, 1, 2, 0, 2, 3};
    EXPECT_EQ(c.mesh.indices, expected) << "mode " << mode;
  }
}

TEST_F(GltfRules, PointsAndLinesAreSkippedOrRejected) {
  GltfBuilder gltf;
  const int pos = gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
  gltf.addMesh(json::array(
      {{{"attributes", {{"POSITION", pos}}}, {"mode", 1}}, {{"attributes", {{"POSITION", pos}}}}}));
  gltf.json["scenes"][0]["nodes"] = {gltf.addNode({{"name", "n"}, {"mesh", 0}})};
  Character c = import(gltf);
  EXPECT_EQ(c.mesh.submeshes.size(), 1u);
  EXPECT_TRUE(test::hasWarning(c, "mesh 0 primitive 0: mode 1 (points or lines) is not supported"));

  gltf.json["meshes"][0]["primitives"].erase(1);
  const std::string path = gltf.write(dir_, "lines.gltf");
  Result<Character> lines = importGltf(path);
  ASSERT_FALSE(lines.ok());
  EXPECT_EQ(lines.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(lines.status().message().find(path), std::string::npos);
  EXPECT_NE(lines.status().message().find("only point or line primitives"), std::string::npos);
}

TEST_F(GltfRules, ExtensionsRequiredFailUsedWarn) {
  TwoBoneFile file;
  file.gltf.json["extensionsUsed"] = {"EXT_fancy", "KHR_materials_unlit"};
  file.gltf.json["extensionsRequired"] = {"KHR_materials_unlit"};  // material-only: harmless
  Character c = import(file.gltf);
  EXPECT_TRUE(test::hasWarning(c, "extension EXT_fancy is ignored"));
  file.gltf.json["extensionsRequired"] = {"EXT_mesh_gpu_instancing"};
  const std::string path = file.gltf.write(dir_, "instancing.gltf");
  Result<Character> instancing = importGltf(path);
  ASSERT_FALSE(instancing.ok());
  EXPECT_EQ(instancing.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(instancing.status().message().find(path), std::string::npos);
  EXPECT_NE(instancing.status().message().find("EXT_mesh_gpu_instancing"), std::string::npos);
}

TEST_F(GltfRules, ClipNamesTimesAndChannelsOutsideTheSkeleton) {
  TwoBoneFile file;
  file.gltf.json["scenes"][0]["nodes"].push_back(file.gltf.addNode({{"name", "lamp"}}));  // node 4
  const int times = file.gltf.addFloats({0.5f, 1.5f}, "SCALAR");
  const int moves = file.gltf.addFloats({0, 0, 0, 0, 1, 0}, "VEC3");
  auto animation = [&](const std::string& name, int node) {
    return animationJson(node, "translation", times, moves, "STEP", name);
  };
  file.gltf.json["animations"] = json::array({animation("", 2), animation("armature|Walk", 2),
                                              animation("Other|Run", 2), animation("LampOnly", 4)});
  Character c = import(file.gltf);
  ASSERT_EQ(c.clips.size(), 3u);  // "LampOnly" drives no joint
  EXPECT_EQ(c.clips[0].name, "clip0");
  EXPECT_EQ(c.clips[1].name, "Walk");       // "armature" is a node: Blender-style prefix dropped
  EXPECT_EQ(c.clips[2].name, "Other|Run");  // no node "Other": kept
  EXPECT_FLOAT_EQ(c.clips[0].start_time, 0.5f);
  EXPECT_FLOAT_EQ(c.clips[0].end_time, 1.5f);
  EXPECT_EQ(c.clips[0]
                .joints[static_cast<size_t>(c.skeleton.findJoint("child"))]
                .translation.interpolation,
            Interpolation::kStep);
  EXPECT_TRUE(test::hasWarning(c, "outside the skeleton are ignored: lamp"));
  EXPECT_TRUE(test::hasWarning(c, "('LampOnly') animates no joint"));
}

// The same findings as data: each warning's kind, subject and details (docs/import.md).
TEST_F(GltfRules, WarningsCarryTheirKindSubjectAndDetails) {
  TwoBoneFile file;
  file.gltf.json["nodes"][2]["name"] = "root";  // the child repeats its parent's name
  const int times = file.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int turns = file.gltf.addFloats({0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f}, "VEC4");
  json animation = animationJson(1, "rotation", times, turns, "LINEAR", "Wave");
  for (int i = 0; i < 2; ++i) {  // two morph-target weights channels on the body
    animation["channels"].push_back(
        json{{"sampler", 0}, {"target", {{"node", 3}, {"path", "weights"}}}});
  }
  file.gltf.json["animations"] = json::array({animation});
  const Character c = import(file.gltf);
  const Warning* renamed = nullptr;
  const Warning* weights = nullptr;
  for (const Warning& w : c.warnings) {
    if (w.kind == WarningKind::kJointRenamed) renamed = &w;
    if (w.kind == WarningKind::kWeightsChannelsSkipped) weights = &w;
  }
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(renamed->message,
            last_path_ +
                ": node 2: name 'root' is used by another joint; the joint is called "
                "'root#2'");
  EXPECT_EQ(renamed->subject, "root -> root#2");
  EXPECT_EQ(std::get<std::string>(*renamed->find("file")), last_path_);
  EXPECT_EQ(std::get<int64_t>(*renamed->find("node")), 2);
  EXPECT_EQ(std::get<std::string>(*renamed->find("joint")), "root");
  EXPECT_EQ(std::get<std::string>(*renamed->find("renamed")), "root#2");
  ASSERT_NE(weights, nullptr);
  EXPECT_EQ(weights->message,
            last_path_ + ": animation 0 ('Wave'): 2 morph-target weights channels skipped");
  EXPECT_EQ(weights->subject, "'Wave' (2)");
  EXPECT_EQ(std::get<int64_t>(*weights->find("animation")), 0);
  EXPECT_EQ(std::get<std::string>(*weights->find("animation_name")), "Wave");
  EXPECT_EQ(std::get<int64_t>(*weights->find("channels")), 2);
  // Every import warning names its file first, as its message does.
  for (const Warning& w : c.warnings) {
    ASSERT_FALSE(w.details.empty()) << w.message;
    EXPECT_EQ(w.details[0].key, "file") << w.message;
  }
}

TEST_F(GltfRules, NormalisedIntegerRotationOutputs) {
  // q = (0, 0, sin 45, cos 45): all components non-negative, so every normalised form holds it.
  const float s = std::sqrt(0.5f);
  for (int form : {5120, 5121, 5122, 5123}) {
    TwoBoneFile file;
    const int times = file.gltf.addFloats({0.0f}, "SCALAR");
    int output = -1;
    if (form == 5120) output = file.gltf.add(std::vector<int8_t>{0, 0, 90, 90}, form, "VEC4", true);
    if (form == 5121)
      output = file.gltf.add(std::vector<uint8_t>{0, 0, 180, 180}, form, "VEC4", true);
    if (form == 5122)
      output = file.gltf.add(std::vector<int16_t>{0, 0, 23170, 23170}, form, "VEC4", true);
    if (form == 5123)
      output = file.gltf.add(std::vector<uint16_t>{0, 0, 46341, 46341}, form, "VEC4", true);
    file.gltf.json["animations"] = json::array({animationJson(2, "rotation", times, output)});
    Character c = import(file.gltf, "r" + std::to_string(form) + ".gltf");
    ASSERT_EQ(c.clips.size(), 1u);
    const glm::quat q = sampleTrack(
        c.clips[0].joints[static_cast<size_t>(c.skeleton.findJoint("child"))].rotation, 0.0f);
    EXPECT_NEAR(q.z, s, 1e-4f) << form;
    EXPECT_NEAR(q.w, s, 1e-4f) << form;
  }
}

TEST_F(GltfRules, ClipsByNameKeepTheCharactersRest) {
  TwoBoneFile file;
  const std::string character_path = file.gltf.write(dir_, "character.gltf");
  // A rig file: same joint names, a different rest for "child", an extra joint "tail", and a
  // clip rotating only "root" and "tail".
  GltfBuilder rig;
  rig.addNode({{"name", "root"}, {"children", {1, 2}}});
  rig.addNode({{"name", "child"}, {"translation", {0.0, 5.0, 0.0}}});
  rig.addNode({{"name", "tail"}});
  rig.json["scenes"][0]["nodes"] = {0};
  const int times = rig.addFloats({0.0f, 1.0f}, "SCALAR");
  const int rotations = rig.addFloats({0, 0, 0, 1, 0, 0, 0.7071068f, 0.7071068f}, "VEC4");
  json spin = animationJson(0, "rotation", times, rotations, "LINEAR", "Spin");
  json tail_channel = spin["channels"][0];
  tail_channel["target"]["node"] = 2;
  spin["channels"].push_back(tail_channel);
  rig.json["animations"] = json::array({spin});
  const std::string rig_path = rig.write(dir_, "rig.gltf");
  ImportOptions options;
  options.clip_files = {rig_path};
  Result<Character> c = importGltf(character_path, options);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  ASSERT_EQ(c->clips.size(), 1u);
  EXPECT_EQ(c->clips[0].name, "Spin");
  EXPECT_TRUE(test::hasWarning(*c, "outside the skeleton are ignored: tail"));
  const int child = c->skeleton.findJoint("child");
  EXPECT_TRUE(c->clips[0].joints[static_cast<size_t>(child)].translation.empty());
  std::vector<Transform> pose(static_cast<size_t>(c->skeleton.jointCount()));
  SampleClipJob job;
  job.clip = &c->clips[0];
  job.time = 0.5f;
  job.rest = c->skeleton.restPoses();
  job.output = pose;
  ASSERT_TRUE(job.run());
  EXPECT_EQ(pose[static_cast<size_t>(child)].translation, glm::vec3(0, 1, 0));  // not the rig's 5
}

TEST_F(GltfRules, ExternalBuffersAndClipsOnlyFiles) {
  TwoBoneFile file;
  const std::string path = file.gltf.write(dir_, "external.gltf", "external.bin");
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->mesh.vertexCount(), 4u);
  std::filesystem::remove(dir_ / "external.bin");
  Result<Character> missing = importGltf(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIoError);
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
  EXPECT_NE(missing.status().message().find("external.bin"), std::string::npos);

  // No skin, no mesh: the animated node is the skeleton, the mesh is empty.
  GltfBuilder rig;
  rig.json["scenes"][0]["nodes"] = {rig.addNode({{"name", "mover"}})};
  const int times = rig.addFloats({0.0f, 1.0f}, "SCALAR");
  const int moves = rig.addFloats({0, 0, 0, 1, 0, 0}, "VEC3");
  rig.json["animations"] = {
      {{"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}},
       {"samplers", {{{"input", times}, {"output", moves}}}}}};
  Character only = import(rig, "clips_only.gltf");
  EXPECT_EQ(only.skeleton.jointCount(), 1);
  EXPECT_EQ(only.mesh.vertexCount(), 0u);
  EXPECT_EQ(only.clips.size(), 1u);
}

// ---- Malformed files: each is rejected with the file name and the place. ----

struct BadCase {
  const char* name;
  void (*mutate)(TwoBoneFile&);
  ErrorCode code;
  const char* message;  // a substring naming the place and the problem
};

const BadCase kBadCases[] = {
    {"AccessorPastItsView", [](TwoBoneFile& f) { f.gltf.json["accessors"][0]["count"] = 5; },
     ErrorCode::kInvalidData, "accessor 0 (mesh 0 primitive 0 POSITION): needs bytes"},
    {"ViewPastItsBuffer",
     [](TwoBoneFile& f) { f.gltf.json["bufferViews"][0]["byteLength"] = 4000; },
     ErrorCode::kInvalidData, "buffer view 0 (bytes 0..4000) is outside buffer 0"},
    {"MissingAccessor", [](TwoBoneFile& f) { f.primitive()["attributes"]["POSITION"] = 99; },
     ErrorCode::kInvalidData, "accessor 99 does not exist"},
    {"WrongComponentType",
     [](TwoBoneFile& f) { f.gltf.json["accessors"][0]["componentType"] = 5123; },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): components are UNSIGNED_SHORT"},
    {"WrongType", [](TwoBoneFile& f) { f.gltf.json["accessors"][0]["type"] = "VEC2"; },
     ErrorCode::kInvalidData, "type VEC2, expected VEC3"},
    {"StrideTooSmall", [](TwoBoneFile& f) { f.gltf.json["bufferViews"][0]["byteStride"] = 8; },
     ErrorCode::kInvalidData, "byteStride 8 is smaller than the 12-byte element"},
    {"IndexOutOfRange",
     [](TwoBoneFile& f) {
       f.primitive()["indices"] = f.gltf.add(std::vector<uint16_t>{0, 1, 9}, 5123, "SCALAR");
     },
     ErrorCode::kInvalidData, "mesh 0 primitive 0: index 2 is 9, but there are 4 vertices"},
    {"NotWholeTriangles",
     [](TwoBoneFile& f) {
       f.primitive()["indices"] = f.gltf.add(std::vector<uint16_t>{0, 1, 2, 3}, 5123, "SCALAR");
     },
     ErrorCode::kInvalidData, "4 indices is not a whole number of triangles"},
    {"JointOutsideSkin",
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["JOINTS_0"] = f.gltf.add(
           std::vector<uint16_t>{7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5123, "VEC4");
     },
     ErrorCode::kInvalidData, "vertex 0 uses joint 7, but skin 0 has 2 joints"},
    {"NanPosition",
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["POSITION"] =
           f.gltf.addFloats({0, 0, 0, 1, std::nanf(""), 0, 0, 2, 0, 1, 2, 0}, "VEC3");
     },
     ErrorCode::kInvalidData, "element 1 component 1 is not finite"},
    {"NodeCycle", [](TwoBoneFile& f) { f.gltf.json["nodes"][2]["children"] = {0}; },
     ErrorCode::kInvalidData, "node cycle"},
    {"SelfChild", [](TwoBoneFile& f) { f.gltf.json["nodes"][2]["children"] = {2}; },
     ErrorCode::kInvalidData, "node 2 ('child'): node cycle"},
    {"TwoParents",
     [](TwoBoneFile& f) {
       f.gltf.json["nodes"][0]["children"] = {1, 2, 3};
     },
     ErrorCode::kInvalidData, "node 2 ('child'): is a child of both node 0 and node 1"},
    {"ChildMissing", [](TwoBoneFile& f) { f.gltf.json["nodes"][2]["children"] = {17}; },
     ErrorCode::kInvalidData, "node 2 ('child'): child 17 does not exist"},
    {"SkinJointMissing",
     [](TwoBoneFile& f) {
       f.gltf.json["skins"][0]["joints"] = {1, 12};
     },
     ErrorCode::kInvalidData, "skin 0: joint node 12 does not exist"},
    {"SingularInverseBind",
     [](TwoBoneFile& f) {
       f.gltf.json["skins"][0]["inverseBindMatrices"] =
           f.gltf.addFloats(std::vector<float>(32, 0.0f), "MAT4");
     },
     ErrorCode::kInvalidData, "skin 0 joint 0 (node 1): inverse bind matrix is not invertible"},
    {"BadMode", [](TwoBoneFile& f) { f.primitive()["mode"] = 9; }, ErrorCode::kInvalidData,
     "mesh 0 primitive 0: mode 9 is not a glTF primitive mode"},
    {"NoPosition", [](TwoBoneFile& f) { f.primitive()["attributes"].erase("POSITION"); },
     ErrorCode::kInvalidData, "mesh 0 primitive 0: no POSITION"},
    {"JointsWithoutWeights", [](TwoBoneFile& f) { f.primitive()["attributes"].erase("WEIGHTS_0"); },
     ErrorCode::kInvalidData, "JOINTS_0 and WEIGHTS_0 must come together"},
    {"SkinnedWithoutJoints",
     [](TwoBoneFile& f) {
       f.primitive()["attributes"].erase("WEIGHTS_0");
       f.primitive()["attributes"].erase("JOINTS_0");
     },
     ErrorCode::kInvalidData, "has skin 0 but the primitive has no JOINTS_0"},
    {"UnnormalisedByteWeights",
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["WEIGHTS_0"] =
           f.gltf.add(std::vector<uint8_t>(16, 1), 5121, "VEC4");
     },
     ErrorCode::kInvalidData, "WEIGHTS_0): components are UNSIGNED_BYTE; expected one of"},
    {"TimesGoBackwards",
     [](TwoBoneFile& f) {
       const int t = f.gltf.addFloats({0.0f, 1.0f, 0.5f}, "SCALAR");
       const int v = f.gltf.addFloats({0, 0, 0, 0, 1, 0, 0, 2, 0}, "VEC3");
       f.gltf.json["animations"] = json::array({animationJson(2, "translation", t, v)});
     },
     ErrorCode::kInvalidData,
     "animation 0 channel 0: key times go backwards at key 2 (0.5 after 1)"},
    {"OutputCountMismatch",
     [](TwoBoneFile& f) {
       const int t = f.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
       const int v = f.gltf.addFloats({0, 0, 0, 0, 1, 0}, "VEC3");
       f.gltf.json["animations"] =
           json::array({animationJson(2, "translation", t, v, "CUBICSPLINE")});
     },
     ErrorCode::kInvalidData, "animation 0 channel 0: 2 output values for 2 keys (expected 6)"},
    {"MissingSampler",
     [](TwoBoneFile& f) {
       json animation = animationJson(2, "translation", 0, 0);
       animation["channels"][0]["sampler"] = 3;
       animation["samplers"] = json::array();
       f.gltf.json["animations"] = json::array({animation});
     },
     ErrorCode::kInvalidData, "animation 0 channel 0: sampler 3 does not exist"},
    {"SparseIndexOutOfRange",
     [](TwoBoneFile& f) {
       const int idx = f.gltf.add(std::vector<uint16_t>{2, 6}, 5123, "SCALAR");
       const int val = f.gltf.addFloats({0, 0, 0, 1, 1, 1}, "VEC3");
       const int idx_view = f.gltf.json["accessors"][idx]["bufferView"];
       const int val_view = f.gltf.json["accessors"][val]["bufferView"];
       f.gltf.json["accessors"][0]["sparse"] = {
           {"count", 2},
           {"indices", {{"bufferView", idx_view}, {"componentType", 5123}}},
           {"values", {{"bufferView", val_view}}}};
     },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): sparse index 1 is 6, outside 0..3"},
    {"NoAsset", [](TwoBoneFile& f) { f.gltf.json.erase("asset"); }, ErrorCode::kParseError,
     "not valid glTF"},
};

class GltfBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(GltfBadInput, IsRejectedNamingFileAndPlace) {
  const BadCase& bad = GetParam();
  const auto dir = test::makeTempDir("gltf-bad");
  TwoBoneFile file;
  bad.mutate(file);
  const std::string path = file.gltf.write(dir, std::string(bad.name) + ".gltf");
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok()) << bad.name;
  EXPECT_EQ(c.status().code(), bad.code) << c.status().toString();
  EXPECT_EQ(c.status().message().rfind(path + ": ", 0), 0u) << c.status().message();
  EXPECT_NE(c.status().message().find(bad.message), std::string::npos) << c.status().message();
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Malformed, GltfBadInput, ::testing::ValuesIn(kBadCases),
                         [](const ::testing::TestParamInfo<BadCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(GltfBadFiles, MissingEmptyAndGarbageFiles) {
  const auto dir = test::makeTempDir("gltf-garbage");
  const std::string missing = (dir / "nope.glb").string();
  Result<Character> a = importGltf(missing);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kIoError);
  EXPECT_NE(a.status().message().find(missing), std::string::npos);
  for (const std::string& bytes : {std::string(), std::string("{\"asset\": {\"vers"),
                                   std::string("glTF\x02\0\0\0\xff\0\0\0", 12)}) {
    const std::string path = (dir / "garbage.gltf").string();
    test::writeFile(path, bytes);
    Result<Character> c = importGltf(path);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), ErrorCode::kParseError) << c.status().toString();
    EXPECT_EQ(c.status().message().rfind(path + ": ", 0), 0u) << c.status().message();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
