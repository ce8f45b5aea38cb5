// `throng sample -o sample.glb [--humanoid]`: writes a built-in character as glTF.
#include <string>

#include <fmt/core.h>

#include "command.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/sample_character.h"

namespace throng::cli {
namespace {

std::function<int()> setupSample(CLI::App& sub) {
  auto output = std::make_shared<std::string>("sample.glb");
  auto humanoid = std::make_shared<bool>(false);
  sub.add_option("-o,--out", *output, "the .glb (or .gltf) file to write");
  sub.add_flag("--humanoid", *humanoid,
               "the benchmark humanoid instead (71 joints, every channel keyed at 30 Hz)");
  return [output, humanoid] {
    const Character c = *humanoid ? makeBenchmarkHumanoid() : makeSampleCharacter();
    if (Status s = writeGltf(c, *output); !s.ok()) return fail(s.message());
    fmt::print("wrote {}: {} joints, {} vertices, {} triangles, {} clips\n", *output,
               c.skeleton.jointCount(), c.mesh.vertexCount(), c.mesh.triangleCount(),
               c.clips.size());
    return 0;
  };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"sample", "write the built-in sample character (or the benchmark humanoid) as .glb",
     setupSample});

}  // namespace
}  // namespace throng::cli
