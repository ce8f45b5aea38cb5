// `throng inspect FILE [--json]`: joint tree, mesh, clips and warnings of a glTF file or
// a .throng package; a package's LOD table as JSON for scripts.
#include <cmath>
#include <filesystem>
#include <span>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "throng/core/file_io.h"
#include "throng/core/lod_projection.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"
#include "throng/crowd/lod_pick.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/package_info.h"

namespace throng::cli {
namespace {

void printTree(const Skeleton& skeleton, int joint, int depth) {
  fmt::print("  {:>4}  {:{}}{}\n", joint, "", depth * 2, skeleton.names()[joint]);
  for (int child : skeleton.children(joint)) printTree(skeleton, child, depth + 1);
}

int inspectGltf(const std::string& path, const ImportOptions& options) {
  Result<Character> imported = importGltf(path, options);
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
  if (!m.tangents.empty()) fmt::print("tangents: {}\n", tangentSourceName(m.tangent_source));
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

// JSON numbers must be finite: a LOD never picked has no distance (null).
nlohmann::ordered_json finiteOrNull(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

// One JSON object: the package, its LOD table (errors as fractions of the character's height,
// the largest extent of LOD 0's bind mesh; pick distances in model units and in heights at the
// reference camera), its clips and texture.
int inspectPackageJson(const std::string& path) {
  Result<Package> package = readPackage(path);
  if (!package.ok()) return fail(package.status().message());
  // The version the file was written in (readPackage takes every readable one), not this
  // library's: the file was read, so its header reads again.
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes.ok()) return fail(bytes.status().message());
  Result<PackageLayout> layout = readPackageLayout(std::as_bytes(std::span(*bytes)), path);
  if (!layout.ok()) return fail(layout.status().message());
  const Package& p = *package;
  const float height = computeBounds(p.lods[0].mesh.positions).largestExtent();
  auto fraction = [&](float v) { return height > 0.0f ? v / height : 0.0f; };
  const LodProjection camera;  // 1080 px, 60 degrees
  nlohmann::ordered_json out;
  out["file"] = path;
  out["source"] = p.source;
  out["format_version"] = layout->version;
  out["joints"] = p.skeleton.jointCount();
  out["height"] = height;
  out["pick_camera"] = {{"viewport_height_px", camera.viewport_height_px},
                        {"fov_y_degrees", camera.fov_y * 180.0 / 3.14159265358979},
                        {"threshold_px", kDefaultLodThresholdPx}};
  nlohmann::ordered_json lods = nlohmann::ordered_json::array();
  for (size_t l = 0; l < p.lods.size(); ++l) {
    const MeshLod& lod = p.lods[l];
    const float distance = lodPickDistance(p.lods, static_cast<int>(l), camera);
    lods.push_back({
        {"lod", l},
        {"triangles", lod.mesh.triangleCount()},
        {"vertices", lod.mesh.vertexCount()},
        {"sub_meshes", lod.mesh.submeshes.size()},
        {"joints", lod.palette_joints.empty() ? static_cast<size_t>(p.skeleton.jointCount())
                                              : lod.palette_joints.size()},
        {"max_error", fraction(lod.max_error)},
        {"p99_error", fraction(lod.p99_error)},
        {"geometric_error", fraction(lod.geometric_error)},
        {"skinning_error", fraction(lod.skinning_error)},
        {"pick_distance", finiteOrNull(distance)},
        {"pick_distance_heights", finiteOrNull(height > 0.0f ? distance / height : 0.0f)},
        {"max_distance", lod.max_distance},
    });
  }
  out["lods"] = std::move(lods);
  nlohmann::ordered_json clips = nlohmann::ordered_json::array();
  for (const BakedClip& c : p.clips) {
    clips.push_back({{"name", c.name},
                     {"frames", c.frame_count},
                     {"fps", c.fps},
                     {"duration", c.duration},
                     {"loop", c.loop}});
  }
  out["clips"] = std::move(clips);
  const AnimationTexture& t = p.animation;
  out["texture"] = {{"width", t.width},
                    {"height", t.height},
                    {"format", t.format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f"},
                    {"frames", t.frame_count},
                    {"frames_per_row", t.frames_per_row},
                    {"rows_per_frame", t.rowsPerFrame()}};
  fmt::print("{}\n", out.dump(2));
  return 0;
}

std::function<int()> setupInspect(CLI::App& sub) {
  struct Args {
    std::string path;
    bool json = false;
    ImportOptions import;
  };
  auto args = std::make_shared<Args>();
  sub.add_option("file", args->path, "a .glb, .gltf or .throng file")->required();
  sub.add_flag("--json", args->json,
               "print a package as one JSON object (LOD table: triangles, joints, errors as "
               "fractions of the height, pick distances at 1080 px and 60 degrees)");
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  return [args] {
    const bool package = std::filesystem::path(args->path).extension() == ".throng";
    if (args->json) {
      if (!package) return fail(fmt::format("{}: --json describes .throng packages", args->path));
      return inspectPackageJson(args->path);
    }
    if (package) return inspectPackage(args->path);
    return inspectGltf(args->path, args->import);
  };
}

[[maybe_unused]] const bool kRegistered =
    registerCommand({"inspect",
                     "show the joint tree, meshes, clips and warnings of a "
                     "glTF file or package",
                     setupInspect});

}  // namespace
}  // namespace throng::cli
