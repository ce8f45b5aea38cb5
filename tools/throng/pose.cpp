// `throng pose INPUT [--lod N] --clip C --time T -o posed.obj`: a LOD's skinned mesh at a clip
// time, as OBJ, from a glTF file or a baked package.
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "throng/core/package.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/playback.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/obj_export.h"

namespace throng::cli {
namespace {

struct PoseArgs {
  std::string input, clip, output;
  float time = 0.0f;
  int lod = 0;
  ImportOptions import;  // --allow-root
};

// What to skin: a LOD mesh, its palette slots' joints and the full skeleton's palette.
struct Posed {
  SkinnedMesh mesh;
  std::vector<uint16_t> palette_joints;  // empty: slots are skeleton joints
  std::vector<JointRows> palette;        // skeleton joints
  std::string clip_name = "(rest pose)";
  int lod_count = 1;
};

// Errors of the command line (a LOD or clip the input does not have) come back as
// kInvalidArgument and exit as usage errors.
std::string lodRangeError(const std::string& input, int lod, size_t count) {
  return fmt::format("--lod {}: no such LOD in {} ({} LOD{}; see throng inspect)", lod, input,
                     count, count == 1 ? "" : "s");
}

std::string clipError(const std::string& input, const std::string& clip, size_t count) {
  return fmt::format("--clip {}: no such clip in {} ({} clips; see throng inspect)", clip, input,
                     count);
}

// A package: the baked frames of clip C at T seconds from its start (as the runtime plays it).
Result<Posed> fromPackage(const PoseArgs& args) {
  Result<Package> package = readPackage(args.input);
  if (!package.ok()) return package.status();
  const Package& p = *package;
  if (args.lod < 0 || static_cast<size_t>(args.lod) >= p.lods.size()) {
    return Status(ErrorCode::kInvalidArgument, lodRangeError(args.input, args.lod, p.lods.size()));
  }
  Posed out;
  out.lod_count = static_cast<int>(p.lods.size());
  out.mesh = p.lods[args.lod].mesh;
  out.palette_joints = p.lods[args.lod].palette_joints;
  out.palette.resize(p.skeleton.jointCount());
  if (args.clip.empty()) {
    PoseScratch scratch;
    evaluatePalette(p.skeleton, nullptr, 0.0f, scratch, out.palette);
    return out;
  }
  int index = -1;
  for (size_t c = 0; c < p.clips.size() && index < 0; ++c) {
    if (p.clips[c].name == args.clip) index = static_cast<int>(c);
  }
  if (index < 0 && !args.clip.empty() &&
      args.clip.find_first_not_of("0123456789") == std::string::npos) {
    const unsigned long n = std::stoul(args.clip);
    if (n < p.clips.size()) index = static_cast<int>(n);
  }
  if (index < 0) {
    return Status(ErrorCode::kInvalidArgument, clipError(args.input, args.clip, p.clips.size()));
  }
  InstanceFrames frames;
  frames.primary = sampleFrames(p.clips[index], args.time);
  frames.secondary = frames.primary;
  if (!FramePaletteJob{&p.animation, frames, out.palette}.run()) {
    return Status(
        ErrorCode::kInvalidData,
        fmt::format("{}: clip '{}' frames lie outside the texture", args.input, args.clip));
  }
  out.clip_name = p.clips[index].name;
  return out;
}

// A glTF file: the default LOD chain, the keyframed clip at T on the file's timeline.
Result<Posed> fromGltf(const PoseArgs& args) {
  Result<Character> imported = importGltf(args.input, args.import);
  if (!imported.ok()) return imported.status();
  const Character& c = *imported;
  Posed out;
  if (args.lod == 0) {
    out.mesh = c.mesh;
  } else {
    Result<std::vector<MeshLod>> lods = buildLodChain(c, defaultLodChainOptions());
    if (!lods.ok()) return lods.status();
    out.lod_count = static_cast<int>(lods->size());
    if (args.lod < 0 || static_cast<size_t>(args.lod) >= lods->size()) {
      return Status(ErrorCode::kInvalidArgument, lodRangeError(args.input, args.lod, lods->size()));
    }
    out.mesh = std::move((*lods)[args.lod].mesh);
    out.palette_joints = std::move((*lods)[args.lod].palette_joints);
  }
  const Clip* clip = nullptr;
  if (!args.clip.empty()) {
    const int index = c.findClip(args.clip);
    if (index < 0) {
      return Status(ErrorCode::kInvalidArgument, clipError(args.input, args.clip, c.clips.size()));
    }
    clip = &c.clips[index];
    out.clip_name = clip->name;
  }
  PoseScratch scratch;
  out.palette.resize(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, clip, args.time, scratch, out.palette);
  return out;
}

int runPose(const PoseArgs& args) {
  const bool package = std::filesystem::path(args.input).extension() == ".throng";
  Result<Posed> posed = package ? fromPackage(args) : fromGltf(args);
  if (!posed.ok()) {
    return posed.status().code() == ErrorCode::kInvalidArgument
               ? usageError(posed.status().message())
               : fail(posed.status().message());
  }
  Posed& p = *posed;
  // A bone-reduced LOD's palette slots stand for these skeleton joints.
  std::vector<JointRows> slots = p.palette;
  if (!p.palette_joints.empty()) {
    slots.resize(p.palette_joints.size());
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = p.palette[p.palette_joints[s]];
  }
  std::vector<glm::vec3> positions(p.mesh.vertexCount()), normals(p.mesh.vertexCount());
  const SkinJob job{p.mesh.positions, p.mesh.normals, p.mesh.joints, p.mesh.weights, slots,
                    positions,        normals};
  if (!job.run()) return fail(fmt::format("{}: mesh does not fit its skeleton", args.input));
  if (Status s = writeObj(p.mesh, positions, normals, args.output); !s.ok()) {
    return fail(s.message());
  }
  fmt::print("wrote {}: LOD {} of {}, {} vertices, {} triangles, {} joints, clip {}, time {} s\n",
             args.output, args.lod, p.lod_count, positions.size(), p.mesh.triangleCount(),
             p.palette_joints.empty() ? p.palette.size() : p.palette_joints.size(), p.clip_name,
             args.time);
  return 0;
}

std::function<int()> setupPose(CLI::App& sub) {
  auto args = std::make_shared<PoseArgs>();
  sub.add_option("input", args->input,
                 "a .glb/.gltf file (LODs: the default chain) or a .throng package")
      ->required();
  sub.add_option("--lod", args->lod, "level of detail to pose (0: the full mesh)")
      ->capture_default_str();
  sub.add_option("--clip", args->clip, "clip name or index (default: the rest pose)");
  sub.add_option("--time", args->time,
                 "seconds: on the file's animation timeline (glTF), from the clip's start "
                 "(package)");
  sub.add_option("-o,--out", args->output, "the .obj file to write")->required();
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  return [args] { return runPose(*args); };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"pose", "write a LOD's skinned mesh at a clip time as OBJ (glTF or package)", setupPose});

}  // namespace
}  // namespace throng::cli
