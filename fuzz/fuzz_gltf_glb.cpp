// libFuzzer target: the glTF importer on one file (.glb, or .gltf with embedded data uris), then
// the bake of what it imports: every result must pass validation, every error be one clear line.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"

namespace {

// Baking is tried on small characters only, so that one input costs milliseconds.
constexpr size_t kMaxBakedVertices = 20'000;
constexpr float kMaxBakedSeconds = 20.0f;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace throng;
  const std::string path = (fuzz::scratchDir() / "input.glb").string();
  fuzz::writeBytes(path, std::string_view(reinterpret_cast<const char*>(data), size));
  Result<Character> character = importGltf(path);
  if (!character.ok()) {
    fuzz::checkError(character.status(), path);
    return 0;
  }
  if (Status s = validateCharacter(*character, path); !s.ok()) {
    fuzz::reportAndTrap("the importer returned a character its own validation refuses", s);
  }
  float seconds = 0.0f;
  for (const Clip& clip : character->clips) seconds += clip.duration();
  if (character->clips.empty() || character->mesh.vertexCount() > kMaxBakedVertices ||
      !(seconds <= kMaxBakedSeconds)) {
    return 0;
  }
  BakeOptions options;
  options.fps = 2.0f;
  options.threads = 1;
  options.source = path;
  Result<Package> package = bakeCharacter(*character, options);
  if (!package.ok()) {
    fuzz::checkError(package.status(), path);
    return 0;
  }
  // What the bake produced, its own reader must accept.
  if (Status s = validatePackage(*package, path); !s.ok()) {
    fuzz::reportAndTrap("the bake wrote a package its own validation refuses", s);
  }
  return 0;
}
