// `throng skeleton FILE -o out.skel`: writes the skeleton file of a glTF
// character (method A).
#include <string>

#include <fmt/core.h>

#include "command.h"
#include "throng/core/skeleton_file.h"
#include "throng/offline/gltf_import.h"

namespace throng::cli {
namespace {

std::function<int()> setupSkeleton(CLI::App& sub) {
  struct Args {
    std::string input, output;
    ImportOptions import;
  };
  auto args = std::make_shared<Args>();
  sub.add_option("file", args->input, "a .glb or .gltf file")->required();
  sub.add_option("-o,--out", args->output, "the skeleton file to write")->required();
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  return [args] {
    Result<Character> imported = importGltf(args->input, args->import);
    if (!imported.ok()) return fail(imported.status().message());
    if (Status s = writeSkeletonFile(imported->skeleton, args->output); !s.ok()) {
      return fail(s.message());
    }
    fmt::print("wrote {} ({} joints)\n", args->output, imported->skeleton.jointCount());
    return 0;
  };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"skeleton", "write the skeleton file (joint tree with relative matrices)", setupSkeleton});

}  // namespace
}  // namespace throng::cli
