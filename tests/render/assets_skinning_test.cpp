// Transform-feedback skinning of the sample character and the shared assets vs the CPU oracle.
#include <gtest/gtest.h>

#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/render/instanced_renderer.h"

namespace throng::render {
namespace {

// RGBA32F palettes on both sides: only float rounding differs (fraction of the character size).
constexpr float kFloatTolerance = 1e-4f;

struct SkinnedAsset {
  const char* path;
  std::vector<const char*> clip_files;  // mesh-less rigs whose clips bind by joint name
};

const SkinnedAsset kAssets[] = {
    {"CesiumMan/CesiumMan.glb", {}},
    {"RiggedSimple/RiggedSimple.glb", {}},
    {"RiggedFigure/RiggedFigure.glb", {}},
    {"SimpleSkin/SimpleSkin.gltf", {}},
    {"KayKitMannequin/manny_med_mod.gltf",
     {"KayKitMannequin/Med_General.glb", "KayKitMannequin/Med_MovementBasic.glb"}},
    {"QuaterniusCharacter/Character.glb", {}},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_01.gltf", {}},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_05.gltf", {}},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_07.gltf", {}},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_08.gltf", {}},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_09.gltf", {}},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_00.gltf", {}},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_01.gltf", {}},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_02.gltf", {}},
    {"skin-tests-2018/Animation_SkinType/Animation_SkinType_03.gltf", {}},
};

class AssetSkinningTest : public ::testing::TestWithParam<SkinnedAsset> {};

TEST_P(AssetSkinningTest, TransformFeedbackMatchesCpuSkinner) {
  const SkinnedAsset& asset = GetParam();
  THRONG_REQUIRE_ASSET(asset.path);
  ImportOptions options;
  for (const char* file : asset.clip_files) {
    THRONG_REQUIRE_ASSET(file);
    options.clip_files.push_back(test::assetPath(file).string());
  }
  Result<Character> character = importGltf(test::assetPath(asset.path).string(), options);
  ASSERT_TRUE(character.ok()) << character.status().toString();
  if (character->clips.empty()) {
    // A static skin still goes through the texture: its rest pose as a one-frame clip.
    Clip rest;
    rest.name = "rest";
    rest.joints.resize(character->skeleton.jointCount());
    character->clips.push_back(rest);
  }
  const Package package = test::bakeForTest(*character);
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, package);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const auto instances = test::randomInstances(package, 24, 17);
  const test::SkinningError error = test::compareWithCpu(**renderer, package, instances);
  EXPECT_LT(error.position, kFloatTolerance) << asset.path;
  EXPECT_LT(error.normal, 1e-3f) << asset.path;
}

TEST(SampleCharacterSkinning, TransformFeedbackMatchesCpuSkinner) {
  const Package package = test::bakeForTest(makeSampleCharacter());
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, package);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  for (uint32_t seed : {21u, 22u}) {
    const auto instances = test::randomInstances(package, 24, seed);
    const test::SkinningError error = test::compareWithCpu(**renderer, package, instances);
    EXPECT_LT(error.position, kFloatTolerance);
    EXPECT_LT(error.normal, 1e-3f);
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AssetSkinningTest, ::testing::ValuesIn(kAssets),
                         [](const ::testing::TestParamInfo<SkinnedAsset>& param_info) {
                           std::string name = param_info.param.path;
                           name = name.substr(name.rfind('/') + 1);
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

}  // namespace
}  // namespace throng::render
