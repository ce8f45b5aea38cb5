// Loading the INPUT of the crowd commands: package, glTF baked in memory, or the sample.
#include "crowd_input.h"

#include <filesystem>

#include <fmt/core.h>

#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"

namespace throng::cli {
namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
  if (text.size() < suffix.size()) return false;
  std::string tail = text.substr(text.size() - suffix.size());
  for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tail == suffix;
}

// Shares of the progress bar: importing, baking the clips, building the LOD chain.
constexpr float kImportShare = 0.15f;
constexpr float kBakeShare = 0.6f;

void report(const LoadProgress& progress, float done, const char* step) {
  if (progress) progress(done, step);
}

Result<CrowdInput> bakeInMemory(const Character& character, CrowdInput input,
                                const LoadProgress& progress) {
  BakeOptions options;
  options.source = input.name;
  if (progress) {
    options.progress = [&progress](uint32_t done, uint32_t total) {
      const float share = total > 0 ? static_cast<float>(done) / static_cast<float>(total) : 1.0f;
      progress(kImportShare + kBakeShare * share, "baking clips");
    };
  }
  report(progress, kImportShare, "baking clips");
  Result<Package> package = bakeCharacter(character, options);
  if (!package.ok()) return package.status();
  input.package = std::move(package).value();
  report(progress, kImportShare + kBakeShare, "building LODs");
  Result<std::vector<MeshLod>> lods = buildLodChain(character, defaultLodChainOptions());
  if (lods.ok()) {
    input.package.lods = std::move(lods).value();
    // Each LOD's morph texture holds its own vertices (the chain's meshes keep their targets).
    if (Status s = bakeMorphAnimation(character, input.package, options.max_width); !s.ok()) {
      return s;
    }
  } else {
    input.warnings.push_back(
        makeWarning(WarningKind::kNoLodChain,
                    fmt::format("{}: no LOD chain, every agent draws LOD 0 ({})", input.name,
                                lods.status().message()),
                    input.name));
    input.warnings.back().with("file", input.name).with("reason", lods.status().message());
  }
  return input;
}

}  // namespace

Result<CrowdInput> loadCrowdInput(const std::string& name, const LoadProgress& progress,
                                  const std::vector<std::string>& clip_files) {
  CrowdInput input;
  input.name = name;
  Result<CrowdInput> loaded = Status(ErrorCode::kInvalidArgument, "no input");
  if (name == "sample") {
    input.sample = true;
    input.how = "the built-in character, baked in memory";
    loaded = bakeInMemory(makeSampleCharacter(), std::move(input), progress);
  } else if (endsWith(name, ".glb") || endsWith(name, ".gltf")) {
    report(progress, 0.0f, "importing");
    ImportOptions options;
    options.clip_files = clip_files;
    Result<Character> character = importGltf(name, options);
    if (!character.ok()) return character.status();
    input.warnings = character->warnings;
    if (character->clips.empty()) {
      // Still a crowd: every agent stands in the rest pose (one clip with no keys).
      Clip rest;
      rest.name = "rest pose";
      rest.joints.resize(static_cast<size_t>(character->skeleton.jointCount()));
      character->clips.push_back(std::move(rest));
      input.warnings.push_back(
          makeWarning(WarningKind::kRestPoseOnly,
                      fmt::format("{}: no clips; the crowd plays the rest pose", name), name));
      input.warnings.back().with("file", name);
    }
    input.how = "glTF, baked in memory";
    loaded = bakeInMemory(*character, std::move(input), progress);
  } else {
    if (!clip_files.empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: a package's clips are baked in; more clip files apply to "
                                "glTF input only",
                                name));
    }
    report(progress, 0.0f, "reading the package");
    Result<Package> package = readPackage(name);
    if (!package.ok()) return package.status();
    input.package = std::move(package).value();
    input.how = "package";
    loaded = std::move(input);
  }
  if (!loaded.ok()) return loaded.status();
  const Package& package = loaded->package;
  if (package.lods.empty() || package.clips.empty()) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: no mesh or no clips to draw", name));
  }
  loaded->size = std::max(computeBounds(package.lods[0].mesh.positions).largestExtent(), 1e-3f);
  report(progress, 1.0f, "done");
  return loaded;
}

Result<ClipSet> crowdClipSet(CrowdInput& input, const std::string& clip_map) {
  Result<ClipMap> map = parseClipMap(clip_map);
  if (!map.ok()) return map.status();
  if (input.sample) {
    // The sample's walk and run are in place; these speeds keep its planted feet from sliding.
    if (map->walk_speed <= 0.0f) map->walk_speed = kSampleWalkSpeed;
    if (map->run_speed <= 0.0f) map->run_speed = kSampleRunSpeed;
  }
  std::vector<Warning> warnings;
  Result<ClipSet> set = makeClipSet(input.package.clips, *map, &warnings);
  if (!set.ok()) {
    return Status(set.status().code(), fmt::format("{}: {}", input.name, set.status().message()));
  }
  for (Warning& w : warnings) {
    w.message = input.name + ": " + w.message;
    w.details.insert(w.details.begin(), {"file", input.name});
    input.warnings.push_back(std::move(w));
  }
  return set;
}

}  // namespace throng::cli
