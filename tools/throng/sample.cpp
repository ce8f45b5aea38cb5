// `throng sample -o sample.glb`: writes the built-in sample character as glTF.
#include <string>

#include <fmt/core.h>

#include "command.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/sample_character.h"

namespace throng::cli {
namespace {

std::function<int()> setupSample(CLI::App& sub) {
  auto output = std::make_shared<std::string>("sample.glb");
  sub.add_option("-o,--out", *output, "the .glb (or .gltf) file to write");
  return [output] {
    const Character c = makeSampleCharacter();
    if (Status s = writeGltf(c, *output); !s.ok()) return fail(s.message());
    fmt::print("wrote {}: {} joints, {} vertices, {} triangles, {} clips\n", *output,
               c.skeleton.jointCount(), c.mesh.vertexCount(), c.mesh.triangleCount(),
               c.clips.size());
    return 0;
  };
}

[[maybe_unused]] const bool kRegistered =
    registerCommand({"sample", "write the built-in sample character as .glb", setupSample});

}  // namespace
}  // namespace throng::cli
