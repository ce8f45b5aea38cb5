// `throng inspect FILE [--json]`: joint tree, mesh, clips and warnings of a glTF file or
// a .throng package (its LOD table), as text or as one JSON object for scripts.
#include <cmath>
#include <filesystem>
#include <span>
#include <string>

#include <fmt/core.h>
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "attachment_output.h"
#include "command.h"
#include "crowd_frame.h"
#include "throng/core/file_io.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"
#include "throng/crowd/lod_table.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/package_info.h"
#include "warning_output.h"

namespace throng::cli {
namespace {

void printTree(const Skeleton& skeleton, int joint, int depth) {
  fmt::print("  {:>4}  {:{}}{}\n", joint, "", depth * 2, skeleton.names()[joint]);
  for (int child : skeleton.children(joint)) printTree(skeleton, child, depth + 1);
}

// Morph targets whose weight the clip animates.
int weightTracks(const Clip& clip) {
  int tracks = 0;
  for (const FloatTrack& track : clip.weights) tracks += !track.empty();
  return tracks;
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
  if (!m.morph_targets.empty()) {
    fmt::print("morph targets: {} (baked as {})\n", m.morph_targets.size(),
               morphBakeKindName(chooseMorphBakeKind(c)));
    for (size_t t = 0; t < m.morph_targets.size(); ++t) {
      const MorphTarget& target = m.morph_targets[t];
      fmt::print("  {:>3}  {:<24} {:<16} default weight {:.4g}{}{}\n", t, target.name, target.group,
                 target.default_weight, target.normals.empty() ? "" : ", normals",
                 target.tangents.empty() ? "" : ", tangents");
    }
  }
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
    fmt::print(
        "  {:>3}  {:<24} {:8.3f} s  ({:.3f} .. {:.3f}), {} tracks{}\n", i, clip.name,
        clip.duration(), clip.start_time, clip.end_time, tracks,
        weightTracks(clip) == 0 ? "" : fmt::format(", {} weight tracks", weightTracks(clip)));
  }
  // The report's own section: grouped like stderr's warnings (-v: each in full), even with -q.
  fmt::print("warnings: {}\n", c.warnings.size());
  const Verbosity shown =
      verbosity() == Verbosity::kVerbose ? Verbosity::kVerbose : Verbosity::kNormal;
  for (const std::string& line : warningLines(c.warnings, path, shown)) {
    fmt::print("  {}\n", line);
  }
  return 0;
}

// A glTF file as one JSON object: joints (parent -1 for roots), mesh, materials, images, clips
// and the import's warnings as data.
int inspectGltfJson(const std::string& path, const ImportOptions& options) {
  Result<Character> imported = importGltf(path, options);
  if (!imported.ok()) return fail(imported.status().message());
  const Character& c = *imported;
  const Skeleton& s = c.skeleton;
  nlohmann::ordered_json out;
  out["file"] = path;
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (int j = 0; j < s.jointCount(); ++j) {
    joints.push_back({{"index", j}, {"name", s.names()[j]}, {"parent", s.parents()[j]}});
  }
  out["joints"] = std::move(joints);
  const SkinnedMesh& m = c.mesh;
  const Bounds b = computeBounds(m.positions);
  nlohmann::ordered_json sub_meshes = nlohmann::ordered_json::array();
  for (const SubMesh& sm : m.submeshes) {
    sub_meshes.push_back(
        {{"name", sm.name}, {"triangles", sm.index_count / 3}, {"material", sm.material}});
  }
  out["mesh"] = {{"vertices", m.vertexCount()},
                 {"triangles", m.triangleCount()},
                 {"size", c.size()},
                 {"bounds", {{b.min.x, b.min.y, b.min.z}, {b.max.x, b.max.y, b.max.z}}},
                 {"vertex_colors", !m.colors.empty()},
                 {"tangents", tangentSourceName(m.tangent_source)},
                 {"sub_meshes", std::move(sub_meshes)}};
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const MorphTarget& target : m.morph_targets) {
    targets.push_back({{"name", target.name},
                       {"group", target.group},
                       {"default_weight", target.default_weight},
                       {"normals", !target.normals.empty()},
                       {"tangents", !target.tangents.empty()}});
  }
  out["mesh"]["morph_targets"] = std::move(targets);
  out["mesh"]["morph_bake"] = morphBakeKindName(chooseMorphBakeKind(c));
  nlohmann::ordered_json materials = nlohmann::ordered_json::array();
  for (const Material& material : c.materials) materials.push_back(describeMaterial(material));
  out["materials"] = std::move(materials);
  out["variants"] = c.variants;
  nlohmann::ordered_json images = nlohmann::ordered_json::array();
  for (const SourceImage& image : c.images) {
    images.push_back(
        {{"name", image.name}, {"width", image.pixels.width}, {"height", image.pixels.height}});
  }
  out["images"] = std::move(images);
  nlohmann::ordered_json clips = nlohmann::ordered_json::array();
  for (const Clip& clip : c.clips) {
    int tracks = 0;
    for (const JointTracks& t : clip.joints) {
      tracks += !t.translation.empty() + !t.rotation.empty() + !t.scale.empty();
    }
    clips.push_back({{"name", clip.name},
                     {"duration", clip.duration()},
                     {"start", clip.start_time},
                     {"end", clip.end_time},
                     {"tracks", tracks},
                     {"weight_tracks", weightTracks(clip)}});
  }
  out["clips"] = std::move(clips);
  out["warnings"] = warningsJson(c.warnings);
  fmt::print("{}\n", out.dump(2));
  return 0;
}

// A package file read whole: the package and the format version its file was written with.
struct PackageFile {
  Package package;
  uint32_t format_version = 0;
};

Result<PackageFile> readPackageFile(const std::string& path) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  const std::span<const std::byte> data = std::as_bytes(std::span<const char>(*bytes));
  Result<Package> package = parsePackage(data, path);
  if (!package.ok()) return package.status();
  // A package that parses has a readable layout.
  return PackageFile{std::move(package).value(), readPackageLayout(data, path)->version};
}

// "12.5" or "never": a pick distance.
std::string distanceText(float distance) {
  return std::isfinite(distance) ? fmt::format("{:.4g}", distance) : "never";
}

// The package's description, then its LOD table (lodTable) as text: errors as percentages of
// the height, where each LOD is picked at the reference camera.
int inspectPackage(const std::string& path) {
  Result<PackageFile> file = readPackageFile(path);
  if (!file.ok()) return fail(file.status().message());
  const Package& p = file->package;
  fmt::print("{}\nformat version: {} (this build reads {} to {})\n{}", path, file->format_version,
             kOldestReadablePackageVersion, kPackageVersion, describePackage(p));
  const LodTable table = lodTable(p);
  fmt::print(
      "LOD table (errors in % of the height {:.4g}; picked at {} px, {:.0f} degrees, {} px "
      "threshold):\n",
      table.height, table.camera.viewport_height_px, glm::degrees(table.camera.fov_y),
      table.threshold_px);
  TextColumn lod{"  LOD", true, {}}, triangles{"triangles", true, {}}, joints{"joints", true, {}},
      max_error{"max error", true, {}}, p99{"p99 error", true, {}}, picked{"picked from", true, {}},
      heights{"(heights)", true, {}};
  for (const LodTableRow& row : table.rows) {
    lod.cells.push_back(fmt::format("{}", row.lod));
    triangles.cells.push_back(fmt::format("{}", row.triangles));
    joints.cells.push_back(fmt::format("{}", row.joints));
    max_error.cells.push_back(fmt::format("{:.3f}%", 100.0 * row.max_error));
    p99.cells.push_back(fmt::format("{:.3f}%", 100.0 * row.p99_error));
    picked.cells.push_back(distanceText(row.pick_distance));
    heights.cells.push_back(distanceText(row.pick_distance_heights));
  }
  printTable({lod, triangles, joints, max_error, p99, picked, heights});
  const Impostor& m = p.impostor;
  if (!m.empty()) {
    fmt::print(
        "impostor (the last LOD): {} x {} views, {} frames at {} fps, tiles {}x{}, atlases {}x{} "
        "({} bytes), max error {:.3f}%\n",
        m.azimuths, m.elevations, m.frameCount(), m.fps, m.tile_width, m.tile_height,
        m.atlasWidth(), m.atlasHeight(), m.byteSize(), 100.0f * m.max_error / table.height);
  }
  return 0;
}

// JSON numbers must be finite: a LOD never picked has no distance (null).
nlohmann::ordered_json finiteOrNull(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

// The impostor as the last entry of `lods` (docs/lods.md, "Impostors"): its views, frames per
// clip, tiles and atlases, and its error as a fraction of `height`, as the mesh LODs' are.
nlohmann::ordered_json impostorLodJson(const Impostor& m, float height) {
  return {
      {"kind", "impostor"},
      {"views", {{"azimuths", m.azimuths}, {"elevations", m.elevations}, {"count", m.viewCount()}}},
      {"fps", m.fps},
      {"frames_per_clip", m.clip_frames},
      {"tile", {{"width", m.tile_width}, {"height", m.tile_height}}},
      {"atlas", {{"width", m.atlasWidth()}, {"height", m.atlasHeight()}, {"bytes", m.byteSize()}}},
      {"max_error", height > 0.0f ? m.max_error / height : m.max_error}};
}

// One JSON object: the package and the format version of its file, its LOD table (lodTable:
// errors as fractions of the character's height, the largest extent of LOD 0's bind mesh; pick
// distances in model units and in heights at the reference camera), its clips, props (triangles
// per LOD), masks and texture.
int inspectPackageJson(const std::string& path) {
  Result<PackageFile> file = readPackageFile(path);
  if (!file.ok()) return fail(file.status().message());
  const Package& p = file->package;
  const uint32_t version = file->format_version;
  const LodTable table = lodTable(p);
  nlohmann::ordered_json out;
  out["file"] = path;
  out["source"] = p.source;
  out["format_version"] = version;
  out["joints"] = p.skeleton.jointCount();
  out["height"] = table.height;
  out["pick_camera"] = {{"viewport_height_px", table.camera.viewport_height_px},
                        {"fov_y_degrees", glm::degrees(table.camera.fov_y)},
                        {"threshold_px", table.threshold_px}};
  nlohmann::ordered_json lods = nlohmann::ordered_json::array();
  for (const LodTableRow& row : table.rows) {
    lods.push_back({
        {"kind", "mesh"},
        {"lod", row.lod},
        {"triangles", row.triangles},
        {"vertices", row.vertices},
        {"sub_meshes", row.sub_meshes},
        {"joints", row.joints},
        {"max_error", row.max_error},
        {"p99_error", row.p99_error},
        {"geometric_error", row.geometric_error},
        {"skinning_error", row.skinning_error},
        {"pick_distance", finiteOrNull(row.pick_distance)},
        {"pick_distance_heights", finiteOrNull(row.pick_distance_heights)},
        {"max_distance", row.max_distance},
    });
  }
  if (!p.impostor.empty()) lods.push_back(impostorLodJson(p.impostor, table.height));
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
  out["props"] = propsJson(p);
  out["masks"] = masksJson(p);
  const AnimationTexture& t = p.animation;
  out["texture"] = {{"width", t.width},
                    {"height", t.height},
                    {"format", t.format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f"},
                    {"frames", t.frame_count},
                    {"frames_per_row", t.frames_per_row},
                    {"rows_per_frame", t.rowsPerFrame()}};
  const MorphAnimation& morph = p.morph;
  nlohmann::ordered_json morph_lods = nlohmann::ordered_json::array();
  uint64_t morph_bytes = 0;
  for (const VertexTexture& v : morph.lods) {
    morph_lods.push_back({{"width", v.width},
                          {"height", v.height},
                          {"vertices", v.vertex_count},
                          {"blocks", v.block_count},
                          {"bytes", v.byteSize()}});
    morph_bytes += v.byteSize();
  }
  out["morph"] = {
      {"kind", morphBakeKindName(morph.kind)},
      {"format",
       morph.lods.empty() || morph.lods[0].format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f"},
      {"targets", morph.targets},
      {"max_error", morph.max_error},
      {"bytes", morph_bytes},
      {"lods", std::move(morph_lods)}};
  out["warnings"] = nlohmann::ordered_json::array();  // a package carries none
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
               "print one JSON object: a package's LOD table (triangles, joints, errors as "
               "fractions of the height, pick distances at 1080 px and 60 degrees), a glTF "
               "file's joints, mesh, clips and warnings");
  sub.add_option("--allow-root", args->import.allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  return [args] {
    const bool package = std::filesystem::path(args->path).extension() == ".throng";
    if (args->json) {
      return package ? inspectPackageJson(args->path) : inspectGltfJson(args->path, args->import);
    }
    if (package) return inspectPackage(args->path);
    return inspectGltf(args->path, args->import);
  };
}

[[maybe_unused]] const bool kInspectRegistered =
    registerCommand({"inspect",
                     "show the joint tree, meshes, clips and warnings of a "
                     "glTF file or package",
                     setupInspect});

}  // namespace
}  // namespace throng::cli
