// glTF import of the shared real-world assets, checked against an independent tinygltf oracle.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>
#include <glm/gtc/type_ptr.hpp>

#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

using test::maxDistance;
using test::skinPositions;

// Skin joints of the file; those plus every ancestor node and rigid mesh node (from tinygltf).
std::set<int> skinJoints(const tinygltf::Model& model) {
  std::set<int> joints;
  for (const tinygltf::Skin& skin : model.skins)
    joints.insert(skin.joints.begin(), skin.joints.end());
  return joints;
}
size_t jointsWithAncestors(const tinygltf::Model& model) {
  std::vector<int> parents(model.nodes.size(), -1);
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    for (int c : model.nodes[n].children) parents[static_cast<size_t>(c)] = static_cast<int>(n);
  }
  std::set<int> all;
  for (int j : skinJoints(model)) {
    for (int n = j; n >= 0; n = parents[static_cast<size_t>(n)]) all.insert(n);
  }
  // Plus unskinned mesh nodes hanging under those (they ride rigidly on their own node).
  std::set<int> rigid;
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    if (model.nodes[n].mesh < 0 || model.nodes[n].skin >= 0 || all.count(static_cast<int>(n)))
      continue;
    for (int a = parents[n]; a >= 0; a = parents[static_cast<size_t>(a)]) {
      if (all.count(a)) {
        for (int m = static_cast<int>(n); m != a; m = parents[static_cast<size_t>(m)])
          rigid.insert(m);
        break;
      }
    }
  }
  return all.size() + rigid.size();
}

struct SkinnedAsset {
  const char* path;
  int skin_joints;  // from the assets README (all skins together)
  size_t vertices;
  bool rest_is_bind;  // every skin joint's rest world * IBM is the same matrix
};

const SkinnedAsset kSkinnedAssets[] = {
    {"CesiumMan/CesiumMan.glb", 19, 3273, true},
    {"RiggedSimple/RiggedSimple.glb", 2, 160, true},
    {"RiggedFigure/RiggedFigure.glb", 19, 370, true},
    {"SimpleSkin/SimpleSkin.gltf", 2, 10, true},
    {"KayKitMannequin/manny_med_mod.gltf", 21, 6578, true},
    {"QuaterniusCharacter/Character.glb", 29, 1895, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_00.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_01.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_02.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_03.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_04.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_05.gltf", 2, 9, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_06.gltf", 2, 12, true},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_07.gltf", 5, 10, false},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_08.gltf", 4, 15, true},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_09.gltf", 4, 13, false},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_00.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_01.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_02.gltf", 2, 6, false},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_03.gltf", 2, 6, false},
};

class SkinnedAssetTest : public ::testing::TestWithParam<SkinnedAsset> {};

TEST_P(SkinnedAssetTest, ImportsWithRightCountsAndMatchesGltfSkinning) {
  const SkinnedAsset& asset = GetParam();
  THRONG_REQUIRE_ASSET(asset.path);
  const std::string path = test::assetPath(asset.path).string();
  Result<Character> imported = importGltf(path);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  const Character& character = *imported;
  EXPECT_TRUE(validateCharacter(character, path).ok());

  tinygltf::Model model;
  ASSERT_TRUE(test::loadTinyGltf(path, model));
  const std::set<int> skin_joints = skinJoints(model);
  EXPECT_EQ(static_cast<int>(skin_joints.size()), asset.skin_joints);
  EXPECT_EQ(static_cast<size_t>(character.skeleton.jointCount()), jointsWithAncestors(model));
  for (int node : skin_joints) {
    const std::string& name = model.nodes[static_cast<size_t>(node)].name;
    if (!name.empty()) {
      EXPECT_GE(character.skeleton.findJoint(name), 0) << name;
    }
  }
  EXPECT_EQ(character.mesh.vertexCount(), asset.vertices);

  // Rest pose: the importer's skinning equals what a glTF viewer shows.
  const float size = character.size();
  ASSERT_GT(size, 0.0f);
  EXPECT_LT(maxDistance(skinPositions(character, nullptr, 0.0f),
                        test::referencePositions(model, -1, 0.0f)),
            1e-4f * size);
  // Every clip at its start, middle and end.
  for (size_t a = 0; a < model.animations.size(); ++a) {
    ASSERT_EQ(character.clips.size(), model.animations.size());
    const Clip& clip = character.clips[a];
    for (float time : {clip.start_time, 0.5f * (clip.start_time + clip.end_time), clip.end_time}) {
      EXPECT_LT(maxDistance(skinPositions(character, &clip, time),
                            test::referencePositions(model, static_cast<int>(a), time)),
                1e-4f * size)
          << "clip " << clip.name << " at " << time;
    }
  }

  // Bind pose: when rest == bind for every skin joint, the rest palette reproduces the bind mesh.
  const float bind_error =
      maxDistance(skinPositions(character, nullptr, 0.0f), character.mesh.positions);
  if (asset.rest_is_bind) {
    EXPECT_LT(bind_error, 1e-5f * size);
  } else {
    EXPECT_GT(bind_error, 1e-3f * size);
  }
}

INSTANTIATE_TEST_SUITE_P(Assets, SkinnedAssetTest, ::testing::ValuesIn(kSkinnedAssets),
                         [](const ::testing::TestParamInfo<SkinnedAsset>& param_info) {
                           std::string name = param_info.param.path;
                           name = name.substr(name.find_last_of('/') + 1);
                           name = name.substr(0, name.find('.'));
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
                               '_');
                           return name;
                         });

// Hand-walked: CesiumMan vertex 0 at 0.5 s from tinygltf node matrices, by explicit products.
TEST(GltfImportAssets, CesiumManVertexZeroAtHalfSecond) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  const std::string path = test::assetPath("CesiumMan/CesiumMan.glb").string();
  Result<Character> character = importGltf(path);
  ASSERT_TRUE(character.ok()) << character.status().toString();
  tinygltf::Model model;
  ASSERT_TRUE(test::loadTinyGltf(path, model));
  const std::vector<glm::mat4> worlds = test::worldMatrices(model, 0, 0.5f);
  const tinygltf::Skin& skin = model.skins[0];
  const tinygltf::Primitive& prim = model.meshes[0].primitives[0];
  const std::vector<float> p = test::accessorElement(model, prim.attributes.at("POSITION"), 0);
  const std::vector<float> j = test::accessorElement(model, prim.attributes.at("JOINTS_0"), 0);
  const std::vector<float> w = test::accessorElement(model, prim.attributes.at("WEIGHTS_0"), 0);
  glm::vec3 expected(0.0f);
  for (int k = 0; k < 4; ++k) {
    const size_t sj = static_cast<size_t>(j[static_cast<size_t>(k)]);
    const std::vector<float> ibm = test::accessorElement(model, skin.inverseBindMatrices, sj);
    expected += w[static_cast<size_t>(k)] *
                glm::vec3(worlds[static_cast<size_t>(skin.joints[sj])] *
                          glm::make_mat4(ibm.data()) * glm::vec4(p[0], p[1], p[2], 1.0f));
  }
  const std::vector<glm::vec3> ours = skinPositions(*character, &character->clips[0], 0.5f);
  EXPECT_LT(glm::length(ours[0] - expected), 1e-5f) << ours[0].x << " vs " << expected.x;
  // The clip is unnamed and starts at its first key (0.04 s), not at 0.
  EXPECT_EQ(character->clips[0].name, "clip0");
  EXPECT_NEAR(character->clips[0].start_time, 0.04f, 0.005f);
  // The skinned node and the Z_UP/Armature nodes become joints (ancestors of the skin root).
  EXPECT_GE(character->skeleton.findJoint("Z_UP"), 0);
  EXPECT_GE(character->skeleton.findJoint("Armature"), 0);
  EXPECT_LT(character->skeleton.findJoint("Cesium_Man"), 0);
}

TEST(GltfImportAssets, KayKitClipsBindByJointName) {
  THRONG_REQUIRE_ASSET("KayKitMannequin/manny_med_mod.gltf");
  ImportOptions options;
  options.clip_files = {test::assetPath("KayKitMannequin/Med_General.glb").string(),
                        test::assetPath("KayKitMannequin/Med_MovementBasic.glb").string()};
  const std::string path = test::assetPath("KayKitMannequin/manny_med_mod.gltf").string();
  Result<Character> imported = importGltf(path, options);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  const Character& c = *imported;
  EXPECT_EQ(c.skeleton.jointCount(), 22);  // 21 skin joints + the Rig_Medium root node
  EXPECT_EQ(c.mesh.submeshes.size(), 1u);  // 8 skinned meshes, one material: one sub-mesh
  EXPECT_EQ(c.clips.size(), 15u + 11u);
  EXPECT_GE(c.findClip("Idle_A"), 0);  // "Rig_Medium|Idle_A" loses its armature prefix
  EXPECT_GE(c.findClip("Walking_A"), 0);
  EXPECT_GE(c.findClip("Running_B"), 0);
  // The clip rigs have handslot.l/.r, which the mesh's skeleton lacks: skipped with a warning.
  bool warned = false;
  for (const Warning& w : c.warnings) warned |= w.message.find("handslot.l") != std::string::npos;
  EXPECT_TRUE(warned);

  bool step = false, animated_scale = false, late_start = false;
  for (const Clip& clip : c.clips) {
    late_start |= clip.start_time > 0.0f;
    for (const JointTracks& t : clip.joints) {
      step |= !t.rotation.empty() && t.rotation.interpolation == Interpolation::kStep;
      step |= !t.translation.empty() && t.translation.interpolation == Interpolation::kStep;
      for (const glm::vec3& s : t.scale.values)
        animated_scale |= glm::length(s - glm::vec3(1.0f)) > 1e-3f;
    }
  }
  EXPECT_TRUE(step);
  EXPECT_TRUE(animated_scale);
  EXPECT_TRUE(late_start);

  // The rig's rest values are not used: joint rests are the mesh file's.
  tinygltf::Model mesh_model;
  ASSERT_TRUE(test::loadTinyGltf(path, mesh_model));
  for (const tinygltf::Node& node : mesh_model.nodes) {
    const int joint = c.skeleton.findJoint(node.name);
    if (joint < 0 || node.translation.size() != 3) continue;
    const glm::vec3 t = c.skeleton.restPoses()[static_cast<size_t>(joint)].translation;
    EXPECT_NEAR(t.y, node.translation[1], 1e-6) << node.name;
  }
  // Walking moves the feet: skinned positions differ from rest, and stay finite.
  const Clip& walk = c.clips[static_cast<size_t>(c.findClip("Walking_A"))];
  const std::vector<glm::vec3> moved =
      skinPositions(c, &walk, 0.5f * (walk.start_time + walk.end_time));
  EXPECT_GT(maxDistance(moved, skinPositions(c, nullptr, 0.0f)), 0.01f * c.size());
}

TEST(GltfImportAssets, QuaterniusFourSkinsOneSkeleton) {
  THRONG_REQUIRE_ASSET("QuaterniusCharacter/Character.glb");
  Result<Character> c = importGltf(test::assetPath("QuaterniusCharacter/Character.glb").string());
  ASSERT_TRUE(c.ok()) << c.status().toString();
  // 29 shared skin joints + CharacterArmature + RootNode, one skeleton for all four skins.
  EXPECT_EQ(c->skeleton.jointCount(), 31);
  EXPECT_GE(c->mesh.submeshes.size(), 4u);
  EXPECT_EQ(c->clips.size(), 18u);
  EXPECT_GE(c->findClip("Walk"), 0);
  // The skinned nodes' scale 100 is ignored, the armature's 100 is applied: about 3.75 units tall.
  EXPECT_GT(c->size(), 3.0f);
  EXPECT_LT(c->size(), 5.0f);
  // Rest != bind here; the bind space is normalised on the root skin joint "Root", whose rest
  // palette is therefore the identity (see docs/import.md).
  std::vector<JointRows> palette(static_cast<size_t>(c->skeleton.jointCount()));
  PoseScratch scratch;
  scratch.resize(c->skeleton.jointCount());
  evaluatePalette(c->skeleton, nullptr, 0.0f, scratch, palette);
  const int root = c->skeleton.findJoint("Root");
  ASSERT_GE(root, 0);
  EXPECT_LT(maxAbsDifference(unpackRows(palette[static_cast<size_t>(root)]), glm::mat4(1.0f)),
            1e-4f);
}

TEST(GltfImportAssets, SparseAccessorIsApplied) {
  THRONG_REQUIRE_ASSET("feature-tests/SimpleSparseAccessor/SimpleSparseAccessor.gltf");
  Result<Character> c = importGltf(
      test::assetPath("feature-tests/SimpleSparseAccessor/SimpleSparseAccessor.gltf").string());
  ASSERT_TRUE(c.ok()) << c.status().toString();
  ASSERT_EQ(c->mesh.vertexCount(), 14u);
  // Base: two rows of 7 points at y = 0 and y = 1; the sparse values lift 8, 10, 12 to y = 2..
  // (SimpleSparseAccessor README: indices 8, 10, 12 -> (1,2,0), (3,3,0), (5,4,0)).
  EXPECT_EQ(c->mesh.positions[8], glm::vec3(1.0f, 2.0f, 0.0f));
  EXPECT_EQ(c->mesh.positions[10], glm::vec3(3.0f, 3.0f, 0.0f));
  EXPECT_EQ(c->mesh.positions[12], glm::vec3(5.0f, 4.0f, 0.0f));
  EXPECT_EQ(c->mesh.positions[9], glm::vec3(2.0f, 1.0f, 0.0f));  // untouched
  // No normals in the file: computed, unit length, facing +Z or -Z (the mesh lies in z = 0).
  for (const glm::vec3& n : c->mesh.normals) EXPECT_NEAR(std::abs(n.z), 1.0f, 1e-5f);
}

TEST(GltfImportAssets, TruncatedGlbIsRejectedAtEveryCut) {
  THRONG_REQUIRE_ASSET("RiggedSimple/RiggedSimple.glb");
  const std::string bytes = test::readFile(test::assetPath("RiggedSimple/RiggedSimple.glb"));
  const auto dir = test::makeTempDir("gltf-truncated");
  for (size_t cut : {size_t{0}, size_t{3}, size_t{11}, size_t{19}, size_t{20}, size_t{100},
                     bytes.size() / 2, bytes.size() - 8, bytes.size() - 1}) {
    const std::string file = (dir / ("cut" + std::to_string(cut) + ".glb")).string();
    test::writeFile(file, bytes.substr(0, cut));
    Result<Character> c = importGltf(file);
    ASSERT_FALSE(c.ok()) << "cut at " << cut;
    EXPECT_EQ(c.status().code(), ErrorCode::kParseError) << c.status().toString();
    EXPECT_NE(c.status().message().find(file), std::string::npos) << c.status().message();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
