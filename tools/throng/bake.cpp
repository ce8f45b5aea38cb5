// `throng bake`: import a character, bake its clips into an animation texture, write a package.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "attachment_output.h"
#include "command.h"
#include "progress_bar.h"
#include "throng/core/package.h"
#include "throng/impostor/impostor_bake.h"
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/offline/texture_preview.h"
#include "throng/render/capture.h"
#include "warning_output.h"

namespace throng::cli {
namespace {

struct BakeArgs {
  std::string input;
  bool sample = false;
  std::string output;
  float fps = 30.0f;
  std::string format = "rgba32f";
  std::vector<std::string> clips;
  std::vector<std::string> loop;
  std::vector<std::string> no_loop;
  uint32_t max_width = 4096;
  float max_error = -1.0f;
  std::string preview;
  std::vector<std::string> clips_from;
  std::vector<std::string> allowed_roots;
  int threads = 0;
  std::vector<std::string> attach;  // JOINT=PROP.glb[@tx,ty,tz,rx,ry,rz,s]
  std::vector<std::string> masks;   // NAME=JOINT
  bool lods = false;
  bool impostors = false;
  std::optional<double> impostor_budget_mb;  // MiB; empty: kDefaultImpostorBudgetBytes
  std::string impostor_preview;              // PNG of both atlases
  bool json = false;
};

// Atlases past 1 GiB are a typo, not a budget (the largest atlases possible take 448 MiB).
constexpr double kMaxImpostorBudgetMb = 1024.0;

// What --impostors baked: the layout and its error (model units), the bytes and the seconds.
struct ImpostorReport {
  bool baked = false;
  impostor::ImpostorPlan plan;    // the layout (no atlases: they went into the package)
  impostor::ImpostorError error;  // measured; its total is the stored max_error
  std::string worst_clip;         // the name of the clip of the worst sample
  double seconds = 0.0;
};

const char* texelFormatName(TexelFormat format) {
  return format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f";
}

std::string percent(float fraction) {
  return fmt::format("{:.4f}%", 100.0f * fraction);
}

void printSummary(const BakeArgs& args, const std::string& source, const BakeReport& r,
                  uint64_t file_bytes) {
  fmt::print("baked {} -> {}\n", source, args.output);
  fmt::print("{:<28} {:>7} {:>8} {:>8} {:<18} {:>9} {:>12} {:>12}\n", "clip", "frames", "fps",
             "seconds", "loop", "ends", "error", "mid-frame");
  for (const ClipBakeReport& c : r.clips) {
    fmt::print("{:<28} {:>7} {:>8.3f} {:>8.3f} {:<18} {:>9} {:>12.4g} {:>12.4g}\n", c.name,
               c.frames, c.fps, c.duration,
               fmt::format("{} ({})", c.loop ? "yes" : "no", loopReasonName(c.loop_reason)),
               percent(c.end_mismatch), c.max_error, c.interpolation_error);
  }
  fmt::print("texture: {} x {} texels, {}, {} bytes, {} frames; package {} bytes\n", r.width,
             r.height, r.format == TexelFormat::kRgba32F ? "RGBA32F" : "RGBA16F", r.texel_bytes,
             r.frames, file_bytes);
  if (r.morph.kind != MorphBakeKind::kNone) {
    fmt::print("morph: {} targets baked as {}{}, {} bytes, error {:.4g} model units\n",
               r.morph.targets, morphBakeKindName(r.morph.kind),
               r.morph.kind == MorphBakeKind::kTargetDeltas
                   ? fmt::format(" ({} active)", r.morph.active_targets)
                   : std::string(),
               r.morph.texel_bytes, r.morph.max_error);
  }
  fmt::print("looks: {} material{}, {} image{} ({} bytes with their mip chains)\n", r.materials,
             r.materials == 1 ? "" : "s", r.images, r.images == 1 ? "" : "s", r.image_bytes);
  fmt::print("error: {:.4g} model units = {} of the character's size {:.4g}\n", r.max_error,
             percent(r.max_error_fraction), r.character_size);
  fmt::print("mid-frame interpolation error: {:.4g} model units = {} (raise --fps to lower it)\n",
             r.interpolation_error, percent(r.interpolation_error_fraction));
  fmt::print(
      "('ends': how far the last pose is from the first, as a share of the size; clips "
      "loop below {}; override with --loop / --no-loop)\n",
      percent(kLoopPoseTolerance));
  fmt::print("time: {:.3f} s on {} thread{}\n", r.seconds, r.threads, r.threads == 1 ? "" : "s");
}

void printLods(const LodChainReport& r, double seconds) {
  fmt::print("{:<5} {:>4} {:>17} {:>9} {:>10} {:>10} {:>12}  {}\n", "level", "LOD",
             "triangles/target", "joints", "max error", "p99 error", "picked from", "seconds");
  const float size = r.character_size > 0.0f ? r.character_size : 1.0f;
  for (const LodLevelReport& l : r.levels) {
    fmt::print("{:<5} {:>4} {:>17} {:>9} {:>10} {:>10} {:>12}  {:.2f}\n", l.level,
               l.lod < 0 ? std::string("-") : std::to_string(l.lod),
               fmt::format("{}/{}", l.triangles, l.target_triangles),
               fmt::format("{}/{}", l.joints, l.target_joints), percent(l.max_error / size),
               percent(l.p99_error / size),
               l.lod <= 0 ? std::string("-") : fmt::format("{:.1f} h", l.pick_distance / size),
               l.seconds);
  }
  fmt::print(
      "(errors: against the full mesh and skeleton over every clip frame, as a share of the "
      "height {:.4g}; 'picked from': distance in heights where the LOD's error is 1 px at "
      "1080 px and 60 degrees)\nLODs: {:.3f} s\n",
      r.character_size, seconds);
}

// --impostors: the impostor atlases of the finished package (bakeImpostors), timed. 0, or the
// exit code after the message.
int bakeImpostorAtlases(const BakeArgs& args, Package& package, ImpostorReport& report) {
  impostor::ImpostorBakeOptions options;
  if (args.impostor_budget_mb) {
    options.budget_bytes = static_cast<uint64_t>(*args.impostor_budget_mb * 1024.0 * 1024.0);
  }
  const auto start = std::chrono::steady_clock::now();
  Result<Impostor> baked = impostor::bakeImpostors(package, options, &report.plan, &report.error);
  if (!baked.ok()) return fail(baked.status().toString());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  package.impostor = std::move(baked).value();
  report.worst_clip = package.clips[report.error.worst_clip].name;
  report.baked = true;
  return 0;
}

// Grey the colour atlas's transparent texels are shown over.
constexpr float kPreviewBackground = 96.0f;

// --impostor-preview: the colour atlas over grey (alpha blended), the normal atlas below it.
Status writeImpostorPreview(const Impostor& m, const std::string& path) {
  render::Image image;
  image.width = static_cast<int>(m.atlasWidth());
  image.height = static_cast<int>(2 * m.atlasHeight());
  image.rgba.resize(static_cast<size_t>(image.width) * image.height * 4);
  const size_t texels = static_cast<size_t>(m.atlasWidth()) * m.atlasHeight();
  for (size_t t = 0; t < texels; ++t) {
    const float a = m.color[t * 4 + 3] / 255.0f;
    for (int c = 0; c < 3; ++c) {
      image.rgba[t * 4 + c] = static_cast<uint8_t>(
          std::lround(m.color[t * 4 + c] * a + kPreviewBackground * (1.0f - a)));
      image.rgba[(texels + t) * 4 + c] = m.normals[t * 3 + c];
    }
    image.rgba[t * 4 + 3] = 255;
    image.rgba[(texels + t) * 4 + 3] = 255;
  }
  return render::writePng(image, path);
}

uint64_t impostorBytes(const Impostor& m) {
  return static_cast<uint64_t>(m.atlasWidth()) * m.atlasHeight() *
         (kImpostorColorBytes + kImpostorNormalBytes);
}

// The worst sample's view: azimuth (degrees round from the character's +Z side, [0, 360)) and
// elevation (degrees above the horizon).
glm::vec2 worstViewDegrees(const impostor::ImpostorError& e) {
  const glm::vec3 d = e.worst_direction;
  float azimuth = glm::degrees(std::atan2(d.x, d.z));
  if (azimuth < 0.0f) azimuth += 360.0f;
  return {azimuth, glm::degrees(std::asin(std::clamp(d.y, -1.0f, 1.0f)))};
}

void printImpostor(const ImpostorReport& r, float height) {
  const Impostor& m = r.plan.layout;
  const glm::vec2 worst = worstViewDegrees(r.error);
  fmt::print(
      "impostor: {} x {} views, {} frames at {} fps, tiles {}x{}, atlases {}x{} ({} bytes), "
      "mesh LOD {}; error {:.3f}% of the height (silhouette {:.3f}%, 90th percentile {:.3f}%, "
      "over {} samples between the baked views and frames, the worst '{}' at {:.2f} s from "
      "{:.1f} degrees round and {:.1f} up; texel {:.3f}%); {:.3f} s\n",
      m.azimuths, m.elevations, m.frameCount(), m.fps, m.tile_width, m.tile_height, m.atlasWidth(),
      m.atlasHeight(), impostorBytes(m), r.plan.lod, 100.0f * r.error.total() / height,
      100.0f * r.error.silhouette / height, 100.0f * r.error.silhouette_p90 / height,
      r.error.samples, r.worst_clip, r.error.worst_time, worst.x, worst.y,
      100.0f * r.error.texel / height, r.seconds);
}

nlohmann::ordered_json impostorJson(const ImpostorReport& r, float height) {
  if (!r.baked) return nullptr;
  const Impostor& m = r.plan.layout;
  return {{"azimuths", m.azimuths},
          {"elevations", m.elevations},
          {"frames", m.frameCount()},
          {"fps", m.fps},
          {"tile_width", m.tile_width},
          {"tile_height", m.tile_height},
          {"atlas_width", m.atlasWidth()},
          {"atlas_height", m.atlasHeight()},
          {"bytes", impostorBytes(m)},
          {"max_error", r.error.total() / height},
          {"silhouette_error", r.error.silhouette / height},
          {"silhouette_error_p90", r.error.silhouette_p90 / height},
          {"error_samples", r.error.samples},
          {"worst_sample",
           {{"clip", r.worst_clip},
            {"time", r.error.worst_time},
            {"azimuth_deg", worstViewDegrees(r.error).x},
            {"elevation_deg", worstViewDegrees(r.error).y}}},
          {"texel_error", r.error.texel / height},
          {"mesh_lod", r.plan.lod},
          {"seconds", r.seconds}};
}

// The whole report as one JSON object: the bake (per clip and in all), the LOD chain when built,
// its props and masks, the files written and every warning as data.
void printBakeJson(const BakeArgs& args, const std::string& source, const BakeReport& r,
                   const Package& package, const LodChainReport* lods, double lod_seconds,
                   const ImpostorReport& impostor, uint64_t file_bytes,
                   const std::vector<Warning>& warnings) {
  nlohmann::ordered_json clips = nlohmann::ordered_json::array();
  for (const ClipBakeReport& c : r.clips) {
    clips.push_back({{"name", c.name},
                     {"frames", c.frames},
                     {"fps", c.fps},
                     {"duration", c.duration},
                     {"loop", c.loop},
                     {"loop_reason", loopReasonName(c.loop_reason)},
                     {"root_motion", c.root_motion},
                     {"end_mismatch", c.end_mismatch},
                     {"max_error", c.max_error},
                     {"interpolation_error", c.interpolation_error}});
  }
  nlohmann::ordered_json out;
  out["input"] = source;
  out["output"] = args.output;
  out["package_bytes"] = file_bytes;
  out["preview"] =
      args.preview.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(args.preview);
  out["clips"] = std::move(clips);
  out["props"] = propsJson(package);
  out["masks"] = masksJson(package);
  out["texture"] = {{"width", r.width},
                    {"height", r.height},
                    {"format", texelFormatName(r.format)},
                    {"frames", r.frames},
                    {"bytes", r.texel_bytes}};
  out["looks"] = {{"materials", r.materials}, {"images", r.images}, {"image_bytes", r.image_bytes}};
  out["morph"] = {{"kind", morphBakeKindName(r.morph.kind)},
                  {"targets", r.morph.targets},
                  {"active_targets", r.morph.active_targets},
                  {"bytes", r.morph.texel_bytes},
                  {"max_error", r.morph.max_error}};
  out["character_size"] = r.character_size;
  out["max_error"] = r.max_error;
  out["max_error_fraction"] = r.max_error_fraction;
  out["interpolation_error"] = r.interpolation_error;
  out["interpolation_error_fraction"] = r.interpolation_error_fraction;
  out["threads"] = r.threads;
  out["seconds"] = r.seconds;
  if (lods != nullptr) {
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const LodLevelReport& l : lods->levels) {
      levels.push_back({{"level", l.level},
                        {"lod", l.lod},
                        {"triangles", l.triangles},
                        {"target_triangles", l.target_triangles},
                        {"joints", l.joints},
                        {"target_joints", l.target_joints},
                        {"sloppy", l.sloppy},
                        {"joints_capped", l.joints_capped},
                        {"max_error", l.max_error},
                        {"p99_error", l.p99_error},
                        {"pick_distance", l.pick_distance},
                        {"seconds", l.seconds}});
    }
    out["lods"] = {{"character_size", lods->character_size},
                   {"levels", std::move(levels)},
                   {"seconds", lod_seconds}};
  } else {
    out["lods"] = nullptr;
  }
  out["impostor"] = impostorJson(impostor, r.character_size);
  out["warnings"] = warningsJson(warnings);
  fmt::print("{}\n", out.dump(2));
}

// Usage errors of the options alone: 0, or the exit code after the message.
int checkBakeArgs(const BakeArgs& args, bool use_sample, TexelFormat& format) {
  if (!use_sample && args.input.empty()) {
    return usageError("bake: give an input file (.glb/.gltf), 'sample' or --sample");
  }
  format = TexelFormat::kRgba32F;
  if (args.format == "rgba16f") {
    format = TexelFormat::kRgba16F;
  } else if (args.format != "rgba32f") {
    return usageError(fmt::format("--format {}: must be rgba32f or rgba16f", args.format));
  }
  if (!(args.fps > 0.0f && args.fps <= kMaxBakeFps)) {
    return usageError(fmt::format("--fps {}: must be a number in (0, {}]", args.fps, kMaxBakeFps));
  }
  if (args.threads < 0 || args.threads > kMaxBakeThreads) {
    return usageError(fmt::format("--threads {}: must be a whole number in 0..{}", args.threads,
                                  kMaxBakeThreads));
  }
  if (args.max_width < 3 || args.max_width > kMaxAnimationTextureSize) {
    return usageError(fmt::format("--max-width {}: must be a whole number in 3..{}", args.max_width,
                                  kMaxAnimationTextureSize));
  }
  if (args.impostor_budget_mb && !args.impostors) {
    return usageError("--impostor-budget: only with --impostors");
  }
  if (!args.impostor_preview.empty() && !args.impostors) {
    return usageError("--impostor-preview: only with --impostors");
  }
  if (args.impostor_budget_mb &&
      !(*args.impostor_budget_mb > 0.0 && *args.impostor_budget_mb <= kMaxImpostorBudgetMb)) {
    return usageError(fmt::format("--impostor-budget {}: must be a number of MB in (0, {}]",
                                  *args.impostor_budget_mb, kMaxImpostorBudgetMb));
  }
  return 0;
}

// Clip names are the command line's: an unknown one is a usage error naming its flag. 0, or the
// exit code after the message.
int checkClipNames(const BakeArgs& args, const Character& character, const std::string& source) {
  const std::pair<const char*, const std::vector<std::string>*> named[] = {
      {"--clips", &args.clips}, {"--loop", &args.loop}, {"--no-loop", &args.no_loop}};
  for (const auto& [flag, names] : named) {
    for (const std::string& name : *names) {
      if (character.findClip(name) >= 0) continue;
      std::string clips;
      for (size_t c = 0; c < character.clips.size(); ++c) {
        clips += fmt::format("{}{} {}", c == 0 ? "" : ", ", c, character.clips[c].name);
      }
      return usageError(fmt::format("{} {}: no such clip in {} (clips: {})", flag, name, source,
                                    clips.empty() ? "none" : clips));
    }
  }
  return 0;
}

// The props and masks of the sidecar next to the input (when there is one), then of --attach and
// --mask: a text or joint the character lacks is a usage error naming its flag. 0, or the exit
// code after the message.
int addAttachments(const BakeArgs& args, bool use_sample, const std::string& source,
                   Character& character) {
  AttachmentSidecar all;
  if (!use_sample) {
    const std::string sidecar = attachmentsSidecarPath(args.input);
    std::error_code error;
    if (std::filesystem::exists(sidecar, error)) {
      Result<AttachmentSidecar> read = readAttachmentsSidecar(sidecar);
      if (!read.ok()) return fail(read.status().toString());
      all = std::move(read).value();
      ImportOptions import;
      import.allowed_roots = args.allowed_roots;
      if (Status s = attachProps(character, all.attachments, import, sidecar); !s.ok()) {
        return fail(s.toString());
      }
      for (const MaskSpec& mask : all.masks) {
        if (Status s = addJointMask(character, mask, sidecar); !s.ok()) return fail(s.toString());
      }
    }
  }
  for (const std::string& text : args.attach) {
    Result<AttachmentSpec> spec = parseAttachmentSpec(text);
    if (!spec.ok()) return usageError(fmt::format("--attach {}", spec.status().message()));
    if (character.skeleton.findJoint(spec->joint) < 0) {
      return usageError(fmt::format("--attach {}: no joint '{}' in {} ({})", text, spec->joint,
                                    source, jointNameHint(character.skeleton, spec->joint)));
    }
    ImportOptions import;
    import.allowed_roots = args.allowed_roots;
    if (Status s = attachProps(character, std::span(&*spec, 1), import, source); !s.ok()) {
      return s.code() == ErrorCode::kInvalidArgument
                 ? usageError(fmt::format("--attach {}: {}", text, s.message()))
                 : fail(s.toString());
    }
  }
  for (const std::string& text : args.masks) {
    Result<MaskSpec> spec = parseMaskSpec(text);
    if (!spec.ok()) return usageError(fmt::format("--mask {}", spec.status().message()));
    if (Status s = addJointMask(character, *spec, source); !s.ok()) {
      return usageError(fmt::format("--mask {}: {}", text, s.message()));
    }
  }
  return 0;
}

// Method A: the default chain of mesh LODs and bone-reduced skeletons replaces lods[0] alone. 0,
// or the exit code after the message.
int buildLods(const Character& character, const std::string& source, uint32_t max_width,
              Package& package, LodChainReport& report, BakeReport& bake_report, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  LodChainOptions options = defaultLodChainOptions();
  ProgressBar bar;
  options.progress = [&bar](uint32_t done, uint32_t total) {
    bar.update("building LODs", done, total, "levels");
  };
  Result<std::vector<MeshLod>> lods = buildLodChain(character, options, &report);
  bar.finish();
  if (!lods.ok()) return fail(lods.status().toString());
  package.lods = std::move(*lods);
  for (size_t i = 0; i < package.lods.size(); ++i) {
    const MeshLod& lod = package.lods[i];
    // Caught here, naming the input, rather than by the package check naming the output.
    if (!std::isfinite(lod.geometric_error) || !std::isfinite(lod.skinning_error)) {
      return fail(
          fmt::format("invalid data: {}: LOD {}: the {} error is not finite (the "
                      "character's poses move vertices beyond the float range)",
                      source, i, std::isfinite(lod.geometric_error) ? "skinning" : "geometric"));
    }
  }
  // Each LOD's morph texture holds its own vertices (the chain's meshes keep their targets).
  if (Status s = bakeMorphAnimation(character, package, max_width, &bake_report.morph); !s.ok()) {
    return fail(s.toString());
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return 0;
}

int runBake(const BakeArgs& args) {
  const bool use_sample = args.sample || args.input == "sample";
  TexelFormat format = TexelFormat::kRgba32F;
  if (int code = checkBakeArgs(args, use_sample, format); code != 0) return code;
  const std::string source = use_sample ? "sample" : args.input;

  Character character;
  if (use_sample) {
    character = makeSampleCharacter();
  } else {
    ImportOptions import;
    import.clip_files = args.clips_from;
    import.allowed_roots = args.allowed_roots;
    Result<Character> imported = importGltf(args.input, import);
    if (!imported.ok()) return fail(imported.status().toString());
    character = std::move(imported).value();
  }
  // Warnings in the order they arose: import, bake, LOD chain; printed as each step ends (the
  // next may take a while), or all inside the JSON object.
  std::vector<Warning> warnings = character.warnings;
  if (!args.json) printWarnings(character.warnings, source);
  if (int code = checkClipNames(args, character, source); code != 0) return code;
  if (int code = addAttachments(args, use_sample, source, character); code != 0) return code;

  BakeOptions options;
  options.fps = args.fps;
  options.format = format;
  options.max_width = args.max_width;
  options.clips = args.clips;
  options.loop = args.loop;
  options.no_loop = args.no_loop;
  options.max_error = args.max_error;
  options.threads = args.threads;
  options.source = source;
  ProgressBar bar;
  options.progress = [&bar](uint32_t done, uint32_t total) {
    bar.update("baking", done, total, "frames");
  };
  BakeReport report;
  Result<Package> package = bakeCharacter(character, options, &report);
  bar.finish();
  if (!package.ok()) return fail(package.status().toString());
  warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
  if (!args.json) printWarnings(report.warnings, source);

  LodChainReport lod_report;
  double lod_seconds = 0.0;
  if (args.lods) {
    if (int code = buildLods(character, source, options.max_width, *package, lod_report, report,
                             lod_seconds);
        code != 0) {
      return code;
    }
    warnings.insert(warnings.end(), lod_report.warnings.begin(), lod_report.warnings.end());
    if (!args.json) {
      printWarnings(lod_report.warnings, source);
      printLods(lod_report, lod_seconds);
    }
  }
  ImpostorReport impostor_report;
  if (args.impostors) {
    if (int code = bakeImpostorAtlases(args, *package, impostor_report); code != 0) return code;
    if (!args.json) printImpostor(impostor_report, report.character_size);
    if (!args.impostor_preview.empty()) {
      if (Status s = writeImpostorPreview(package->impostor, args.impostor_preview); !s.ok()) {
        return fail(s.toString());
      }
    }
  }
  if (Status s = writePackage(*package, args.output); !s.ok()) return fail(s.toString());
  if (!args.preview.empty()) {
    if (Status s = writeTexturePreview(package->animation, args.preview); !s.ok()) {
      return fail(s.toString());
    }
  }
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(args.output, ec);
  if (args.json) {
    printBakeJson(args, source, report, *package, args.lods ? &lod_report : nullptr, lod_seconds,
                  impostor_report, ec ? 0 : bytes, warnings);
  } else {
    printSummary(args, source, report, ec ? 0 : bytes);
  }
  return 0;
}

std::function<int()> setupBake(CLI::App& sub) {
  auto args = std::make_shared<BakeArgs>();
  sub.add_option("input", args->input,
                 "character file (.glb/.gltf), or the word 'sample' for the built-in character");
  sub.add_flag("--sample", args->sample, "bake the built-in sample character");
  sub.add_option("-o,--out", args->output, "package file to write (.throng)")->required();
  sub.add_option("--fps", args->fps, "samples per second (each clip rounds it to whole frames)")
      ->capture_default_str();
  sub.add_option("--format", args->format, "texel format: rgba32f (exact) or rgba16f (half)")
      ->capture_default_str();
  sub.add_option("--clips", args->clips, "clips to bake, by name or index (default: all)")
      ->delimiter(',');
  sub.add_option("--loop", args->loop, "clips that loop whatever their poses")->delimiter(',');
  sub.add_option("--no-loop", args->no_loop, "clips that play once whatever their poses")
      ->delimiter(',');
  sub.add_option("--max-width", args->max_width, "largest texture width in texels")
      ->capture_default_str();
  sub.add_option("--max-error", args->max_error,
                 "fail when a baked vertex strays further than this (model units)");
  sub.add_option("--preview", args->preview, "also write the texture as a PNG picture");
  sub.add_option("--clips-from", args->clips_from,
                 "more glTF files whose clips are bound to the character by joint name");
  sub.add_option("--allow-root", args->allowed_roots,
                 "a folder the .gltf's external files may also come from (repeatable)")
      ->allow_extra_args(false);
  sub.add_option("--attach", args->attach,
                 "carry a prop: JOINT=PROP.glb[@tx,ty,tz,rx,ry,rz,s] (offset in the joint's "
                 "space, degrees; repeatable; also read from NAME.attachments.json)")
      ->allow_extra_args(false);
  sub.add_option("--mask", args->masks,
                 "name a joint subtree layers play on: NAME=JOINT (repeatable)")
      ->allow_extra_args(false);
  sub.add_flag(
      "--lods", args->lods,
      "also build the method A LOD chain (simplified meshes, 24-, 15- and 10-joint skeletons, "
      "each within an error cap)");
  sub.add_flag("--impostors", args->impostors,
               "also bake the impostor: the character drawn from a grid of views and frames into "
               "colour and normal atlases, the LOD past the last mesh (docs/lods.md)");
  sub.add_option("--impostor-budget", args->impostor_budget_mb,
                 "bytes the impostor's two atlases may take, in MB (MiB; default 16)");
  sub.add_option("--impostor-preview", args->impostor_preview,
                 "also write the impostor's atlases as a PNG picture (colour over grey, normals "
                 "below)");
  sub.add_option("--threads", args->threads, "worker threads (0: one per core)")
      ->capture_default_str();
  sub.add_flag("--json", args->json,
               "print the report as one JSON object on stdout (clips, texture, errors, LOD "
               "levels, warnings as data)");
  return [args] { return runBake(*args); };
}

const bool kBakeRegistered = registerCommand(
    {"bake", "bake every clip into an animation texture package (method B)", setupBake});

}  // namespace
}  // namespace throng::cli
