// `throng skeleton FILE -o out.skel`: writes the skeleton file of a glTF
// character (method A).
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "throng/core/skeleton_file.h"
#include "throng/offline/gltf_import.h"
#include "warning_output.h"

namespace throng::cli {
namespace {

std::function<int()> setupSkeleton(CLI::App& sub) {
  struct Args {
    std::string input, output;
    ImportOptions import;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub.add_option("file", args->input, "a .glb or .gltf file")->required();
  sub.add_option("-o,--out", args->output, "the skeleton file to write")->required();
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  sub.add_flag("--json", args->json,
               "print what was written as one JSON object on stdout (joints, warnings as data)");
  return [args] {
    Result<Character> imported = importGltf(args->input, args->import);
    if (!imported.ok()) return fail(imported.status().message());
    if (!args->json) printWarnings(imported->warnings, args->input);
    if (Status s = writeSkeletonFile(imported->skeleton, args->output); !s.ok()) {
      return fail(s.message());
    }
    if (args->json) {
      nlohmann::ordered_json out;
      out["input"] = args->input;
      out["output"] = args->output;
      out["joints"] = imported->skeleton.jointCount();
      out["warnings"] = warningsJson(imported->warnings);
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    fmt::print("wrote {} ({} joints)\n", args->output, imported->skeleton.jointCount());
    return 0;
  };
}

[[maybe_unused]] const bool kSkeletonRegistered = registerCommand(
    {"skeleton", "write the skeleton file (joint tree with relative matrices)", setupSkeleton});

}  // namespace
}  // namespace throng::cli
