// Transform-feedback skinning of the sample character and the shared assets vs the CPU oracle.
#include <iostream>

#include <gtest/gtest.h>

#include "render/instanced_renderer.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

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

// Bakes `character` with the real baker, RGBA32F then RGBA16F, and checks the GPU's skinned
// vertices: RGBA32F against the CPU oracle over the same texture within kFloatTolerance of the
// size; RGBA16F against the oracle over the RGBA32F texture within the baker's reported half
// error (a blend of frames never strays further than its worst frame) plus kFloatTolerance.
void checkCharacter(const Character& character, const std::string& name, uint32_t seed) {
  BakeOptions options;
  options.source = name;
  Result<Package> exact = bakeCharacter(character, options);
  ASSERT_TRUE(exact.ok()) << exact.status().toString();
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, *exact);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const auto instances = test::randomInstances(*exact, 24, seed);
  const test::SkinningError error = test::compareWithCpu(**renderer, *exact, instances);
  EXPECT_LT(error.position, kFloatTolerance) << name << " RGBA32F";
  EXPECT_LT(error.normal, 1e-3f) << name << " RGBA32F";
  renderer->reset();

  options.format = TexelFormat::kRgba16F;
  BakeReport report;
  Result<Package> half = bakeCharacter(character, options, &report);
  if (!half.ok() && half.status().code() == ErrorCode::kLimitExceeded) {
    std::cout << name << ": no RGBA16F bake (" << half.status().message() << ")\n";
    return;  // values outside the half range are refused by the baker, by design
  }
  ASSERT_TRUE(half.ok()) << half.status().toString();
  Result<std::unique_ptr<InstancedRenderer>> half_renderer =
      InstancedRenderer::create(*device, *half);
  ASSERT_TRUE(half_renderer.ok()) << half_renderer.status().toString();
  ASSERT_EQ((*half_renderer)->textureFormat(), TexelFormat::kRgba16F);
  const float bound = report.max_error_fraction + kFloatTolerance;
  EXPECT_LT(test::compareWithCpu(**half_renderer, *exact, instances).position, bound)
      << name << " RGBA16F, baker's bound " << report.max_error << " model units";
}

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
  checkCharacter(*character, asset.path, 17);
}

TEST(SampleCharacterSkinning, TransformFeedbackMatchesCpuSkinner) {
  const Character sample = makeSampleCharacter();
  checkCharacter(sample, "sample character", 21);
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
