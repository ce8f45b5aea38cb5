// `throng sample -o sample.glb [--humanoid]`: writes a built-in character as glTF.
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/sample_character.h"

namespace throng::cli {
namespace {

std::function<int()> setupSample(CLI::App& sub) {
  auto output = std::make_shared<std::string>("sample.glb");
  auto humanoid = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  sub.add_option("-o,--out", *output, "the .glb (or .gltf) file to write");
  sub.add_flag("--humanoid", *humanoid,
               "the benchmark humanoid instead (71 joints, every channel keyed at 30 Hz)");
  sub.add_flag("--json", *json, "print what was written as one JSON object on stdout");
  return [output, humanoid, json] {
    const Character c = *humanoid ? makeBenchmarkHumanoid() : makeSampleCharacter();
    if (Status s = writeGltf(c, *output); !s.ok()) return fail(s.message());
    if (*json) {
      nlohmann::ordered_json out;
      out["output"] = *output;
      out["character"] = *humanoid ? "humanoid" : "sample";
      out["joints"] = c.skeleton.jointCount();
      out["vertices"] = c.mesh.vertexCount();
      out["triangles"] = c.mesh.triangleCount();
      out["clips"] = c.clips.size();
      out["warnings"] = nlohmann::ordered_json::array();  // built in: nothing to warn about
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    fmt::print("wrote {}: {} joints, {} vertices, {} triangles, {} clips\n", *output,
               c.skeleton.jointCount(), c.mesh.vertexCount(), c.mesh.triangleCount(),
               c.clips.size());
    return 0;
  };
}

[[maybe_unused]] const bool kSampleRegistered = registerCommand(
    {"sample", "write the built-in sample character (or the benchmark humanoid) as .glb",
     setupSample});

}  // namespace
}  // namespace throng::cli
