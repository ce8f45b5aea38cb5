// `throng inspect FILE`: joint tree, mesh, clips and warnings of a glTF file or
// a .throng package.
#include <filesystem>
#include <string>

#include <fmt/core.h>

#include "command.h"
#include "throng/core/package.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/package_info.h"

namespace throng::cli {
namespace {

void printTree(const Skeleton& skeleton, int joint, int depth) {
  fmt::print("  {:>4}  {:{}}{}\n", joint, "", depth * 2, skeleton.names()[joint]);
  for (int child : skeleton.children(joint)) printTree(skeleton, child, depth + 1);
}

int inspectGltf(const std::string& path) {
  Result<Character> imported = importGltf(path);
  if (!imported.ok()) return fail(imported.status().message());
  const Character& c = *imported;
  const Skeleton& s = c.skeleton;
  fmt::print("{}\n", path);
  fmt::print("joints: {}\n", s.jointCount());
  for (int j = 0; j < s.jointCount(); ++j) {
    if (s.parents()[j] == kNoParent) printTree(s, j, 0);
  }
  const SkinnedMesh& m = c.mesh;
  const Bounds b = computeBounds(m.positions);
  fmt::print(
      "mesh: {} vertices, {} triangles, {} sub-meshes, size {:.4g} "
      "(bounds {:.4g} {:.4g} "
      "{:.4g} .. {:.4g} {:.4g} {:.4g})\n",
      m.vertexCount(), m.triangleCount(), m.submeshes.size(), c.size(), b.min.x, b.min.y, b.min.z,
      b.max.x, b.max.y, b.max.z);
  for (const SubMesh& sm : m.submeshes) {
    fmt::print("  {:<24} {:>8} triangles, material {}\n", sm.name.empty() ? "(unnamed)" : sm.name,
               sm.index_count / 3, sm.material);
  }
  if (!m.colors.empty()) fmt::print("vertex colours: yes\n");
  fmt::print("materials: {}{}\n", c.materials.size(),
             c.materials.empty() ? " (the default material)" : "");
  for (size_t i = 0; i < c.materials.size(); ++i) {
    fmt::print("  {:>3}  {}\n", i, describeMaterial(c.materials[i]));
  }
  for (size_t v = 0; v < c.variants.size(); ++v) fmt::print("variant {}: {}\n", v, c.variants[v]);
  fmt::print("images: {}\n", c.images.size());
  for (size_t i = 0; i < c.images.size(); ++i) {
    fmt::print("  {:>3}  {} {} x {}\n", i, c.images[i].name, c.images[i].pixels.width,
               c.images[i].pixels.height);
  }
  fmt::print("clips: {}\n", c.clips.size());
  for (size_t i = 0; i < c.clips.size(); ++i) {
    const Clip& clip = c.clips[i];
    int tracks = 0;
    for (const JointTracks& t : clip.joints) {
      tracks += !t.translation.empty() + !t.rotation.empty() + !t.scale.empty();
    }
    fmt::print("  {:>3}  {:<24} {:8.3f} s  ({:.3f} .. {:.3f}), {} tracks\n", i, clip.name,
               clip.duration(), clip.start_time, clip.end_time, tracks);
  }
  fmt::print("warnings: {}\n", c.warnings.size());
  for (const std::string& w : c.warnings) fmt::print("  {}\n", w);
  return 0;
}

int inspectPackage(const std::string& path) {
  Result<Package> package = readPackage(path);
  if (!package.ok()) return fail(package.status().message());
  fmt::print("{}\n{}", path, describePackage(*package));
  return 0;
}

std::function<int()> setupInspect(CLI::App& sub) {
  auto path = std::make_shared<std::string>();
  sub.add_option("file", *path, "a .glb, .gltf or .throng file")->required();
  return [path] {
    if (std::filesystem::path(*path).extension() == ".throng") return inspectPackage(*path);
    return inspectGltf(*path);
  };
}

[[maybe_unused]] const bool kRegistered =
    registerCommand({"inspect",
                     "show the joint tree, meshes, clips and warnings of a "
                     "glTF file or package",
                     setupInspect});

}  // namespace
}  // namespace throng::cli
