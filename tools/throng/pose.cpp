// `throng pose FILE --clip C --time T -o posed.obj`: the skinned mesh at a
// time, as OBJ.
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/obj_export.h"

namespace throng::cli {
namespace {

std::function<int()> setupPose(CLI::App& sub) {
  struct Args {
    std::string input, clip, output;
    float time = 0.0f;
    bool bind = false;
    ImportOptions import;
  };
  auto args = std::make_shared<Args>();
  sub.add_option("file", args->input, "a .glb or .gltf file")->required();
  sub.add_option("--clip", args->clip, "clip name or index (default: the rest pose)");
  sub.add_option("--time", args->time, "seconds on the file's own animation timeline");
  sub.add_option("-o,--out", args->output, "the .obj file to write")->required();
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  return [args] {
    Result<Character> imported = importGltf(args->input, args->import);
    if (!imported.ok()) return fail(imported.status().message());
    const Character& c = *imported;
    const Clip* clip = nullptr;
    if (!args->clip.empty()) {
      const int index = c.findClip(args->clip);
      if (index < 0) {
        return usageError(
            fmt::format("--clip {}: no such clip in {} ({} clips; see throng "
                        "inspect)",
                        args->clip, args->input, c.clips.size()));
      }
      clip = &c.clips[index];
    }
    PoseScratch scratch;
    std::vector<JointRows> palette(c.skeleton.jointCount());
    evaluatePalette(c.skeleton, clip, args->time, scratch, palette);
    std::vector<glm::vec3> positions(c.mesh.vertexCount()), normals(c.mesh.vertexCount());
    const SkinJob job{c.mesh.positions, c.mesh.normals, c.mesh.joints, c.mesh.weights,
                      palette,          positions,      normals};
    if (!job.run()) return fail(fmt::format("{}: mesh does not fit its skeleton", args->input));
    if (Status s = writeObj(c.mesh, positions, normals, args->output); !s.ok()) {
      return fail(s.message());
    }
    fmt::print("wrote {}: {} vertices, {} triangles, clip {}, time {} s\n", args->output,
               positions.size(), c.mesh.triangleCount(), clip ? clip->name : "(rest pose)",
               args->time);
    return 0;
  };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"pose", "write the skinned mesh at a clip time as OBJ (glTF world space)", setupPose});

}  // namespace
}  // namespace throng::cli
