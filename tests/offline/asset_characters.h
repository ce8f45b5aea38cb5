// The skinned characters of the shared assets folder, for tests that run over every one of them.
#pragma once

#include <string>
#include <vector>

#include "support/test_support.h"
#include "throng/core/character.h"
#include "throng/offline/gltf_import.h"

namespace throng::test {

struct SkinnedAsset {
  const char* path;
  std::vector<const char*> clip_files;  // mesh-less rigs whose clips bind by joint name
};

inline const std::vector<SkinnedAsset>& skinnedAssets() {
  static const std::vector<SkinnedAsset> assets = {
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
  return assets;
}

// A test name for a parameterised test over skinnedAssets(): the file name without extension.
inline std::string assetTestName(const SkinnedAsset& asset) {
  std::string name = asset.path;
  name = name.substr(name.rfind('/') + 1);
  return name.substr(0, name.find('.'));
}

// Whether every file of `asset` is present (tests skip otherwise).
inline bool assetPresent(const SkinnedAsset& asset) {
  if (!std::filesystem::exists(assetPath(asset.path))) return false;
  for (const char* file : asset.clip_files) {
    if (!std::filesystem::exists(assetPath(file))) return false;
  }
  return true;
}

// Imports `asset` with its clip files.
inline Result<Character> importAsset(const SkinnedAsset& asset) {
  ImportOptions options;
  for (const char* file : asset.clip_files) options.clip_files.push_back(assetPath(file).string());
  return importGltf(assetPath(asset.path).string(), options);
}

}  // namespace throng::test
