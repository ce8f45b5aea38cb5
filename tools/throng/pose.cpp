// `throng pose INPUT [--lod N] --clip C --time T -o posed.obj`: a LOD's skinned mesh at a clip
// time, as OBJ, from a glTF file or a baked package.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "progress_bar.h"
#include "throng/core/package.h"
#include "throng/crowd/lod_pose.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/obj_export.h"
#include "warning_output.h"

namespace throng::cli {
namespace {

struct PoseArgs {
  std::string input, clip, output;
  float time = 0.0f;
  int lod = 0;
  std::string layer;  // CLIP@JOINT
  float layer_time = 0.0f;
  float layer_weight = 1.0f;
  std::string attachments = "all";  // all, none, or names / indices, comma-separated
  ImportOptions import;             // --allow-root
  bool json = false;
};

// A glTF file: the keyframed clip at T on the file's timeline; LODs above 0 from the default
// chain, built only for them. The import's warnings go to `warnings`.
Result<LodPose> fromGltf(const PoseArgs& args, const PoseRequest& request, Character& character,
                         std::vector<MeshLod>& lods, std::vector<Warning>& warnings) {
  Result<Character> imported = importGltf(args.input, args.import);
  if (!imported.ok()) return imported.status();
  character = std::move(imported).value();
  warnings = character.warnings;
  if (args.lod != 0) {
    ProgressBar bar;
    LodChainOptions options = defaultLodChainOptions();
    options.progress = [&bar](uint32_t done, uint32_t total) {
      bar.update("building LODs", done, total, "levels");
    };
    LodChainReport report;
    Result<std::vector<MeshLod>> chain = buildLodChain(character, options, &report);
    bar.finish();
    if (!chain.ok()) return chain.status();
    lods = std::move(chain).value();
    warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
  }
  return poseCharacter(character, lods, request, args.input);
}

// --attachments' mask against the subject's props: all, none, or names / indices. 0, or the exit
// code after the message.
int attachmentMask(const std::string& text, std::span<const Attachment> attachments,
                   uint32_t& mask) {
  mask = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    start = comma + 1;
    if (name == "all") {
      mask = kAllAttachments;
      continue;
    }
    if (name == "none") continue;
    int found = findAttachment(attachments, name);
    size_t index = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
    if (found < 0 && ec == std::errc() && end == name.data() + name.size() && !name.empty() &&
        index < attachments.size()) {
      found = static_cast<int>(index);
    }
    if (found < 0) {
      std::string list;
      for (size_t i = 0; i < attachments.size(); ++i) {
        list += fmt::format("{}{} {}", i == 0 ? "" : ", ", i, attachments[i].name);
      }
      return usageError(fmt::format("--attachments {}: no prop '{}' (props: {})", text, name,
                                    list.empty() ? "none" : list));
    }
    mask |= 1u << found;
  }
  return 0;
}

int runPose(const PoseArgs& args) {
  const bool is_package = std::filesystem::path(args.input).extension() == ".throng";
  PoseRequest request{args.clip, args.time, args.lod};
  if (!args.layer.empty()) {
    const size_t at = args.layer.rfind('@');
    if (at == std::string::npos || at == 0 || at + 1 == args.layer.size()) {
      return usageError(fmt::format("--layer {}: must be CLIP@JOINT", args.layer));
    }
    request.layer_clip = args.layer.substr(0, at);
    request.layer_joint = args.layer.substr(at + 1);
    request.layer_time = args.layer_time;
    request.layer_weight = args.layer_weight;
  }
  // What the pose borrows its mesh from lives here.
  Package package;
  Character character;
  std::vector<MeshLod> lods;
  std::vector<Warning> warnings;
  Result<LodPose> posed = Status(ErrorCode::kInvalidArgument, "no input");
  if (is_package) {
    Result<Package> read = readPackage(args.input);
    if (!read.ok()) return fail(read.status().message());
    package = std::move(read).value();
    if (int code = attachmentMask(args.attachments, package.attachments, request.attachments);
        code != 0) {
      return code;
    }
    posed = posePackage(package, request, args.input);
  } else {
    if (args.attachments != "all") {
      return usageError(
          fmt::format("--attachments {}: a .glb/.gltf carries no props; bake it "
                      "with --attach and pose the package",
                      args.attachments));
    }
    posed = fromGltf(args, request, character, lods, warnings);
  }
  if (!posed.ok()) {
    // A LOD, clip or time the input does not have is the command line's mistake.
    return posed.status().code() == ErrorCode::kInvalidArgument
               ? usageError("--" + posed.status().message())
               : fail(posed.status().message());
  }
  const LodPose& p = *posed;
  if (!args.json) printWarnings(warnings, args.input);
  if (Status s = writeObj(*p.mesh, p.positions, p.normals, args.output); !s.ok()) {
    return fail(s.message());
  }
  const std::string clip_name = p.clip < 0   ? "(rest pose)"
                                : is_package ? package.clips[static_cast<size_t>(p.clip)].name
                                             : character.clips[static_cast<size_t>(p.clip)].name;
  if (args.json) {
    nlohmann::ordered_json out;
    out["input"] = args.input;
    out["output"] = args.output;
    out["lod"] = args.lod;
    out["lod_count"] = p.lod_count;
    out["vertices"] = p.positions.size();
    out["triangles"] = p.mesh->triangleCount();
    out["joints"] = p.joints;
    out["clip"] = p.clip < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(clip_name);
    out["time"] = args.time;
    out["layer"] =
        p.layer_clip < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(args.layer);
    out["warnings"] = warningsJson(warnings);
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("wrote {}: LOD {} of {}, {} vertices, {} triangles, {} joints, clip {}, time {} s\n",
             args.output, args.lod, p.lod_count, p.positions.size(), p.mesh->triangleCount(),
             p.joints, clip_name, args.time);
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
  sub.add_option("--layer", args->layer,
                 "a second clip on the subtree of a joint, re-rooted on the base pose: CLIP@JOINT");
  sub.add_option("--layer-time", args->layer_time, "seconds into the layer's clip (as --time)")
      ->capture_default_str();
  sub.add_option("--layer-weight", args->layer_weight, "the layer's weight, 0..1")
      ->capture_default_str();
  sub.add_option("--attachments", args->attachments,
                 "props to show (package): all, none, or names / indices, comma-separated")
      ->capture_default_str();
  sub.add_option("-o,--out", args->output, "the .obj file to write")->required();
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  sub.add_flag("--json", args->json,
               "print what was written as one JSON object on stdout (LOD, counts, clip, "
               "warnings as data)");
  return [args] { return runPose(*args); };
}

[[maybe_unused]] const bool kPoseRegistered = registerCommand(
    {"pose", "write a LOD's skinned mesh at a clip time as OBJ (glTF or package)", setupPose});

}  // namespace
}  // namespace throng::cli
