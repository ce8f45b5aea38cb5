// Python: bake (every option of `throng bake`), packages (LOD table, clips, save, load) and
// the animation texture's preview.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>

#include <fmt/core.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "module.h"
#include "throng/core/package_format.h"
#include "throng/crowd/lod_table.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/offline/texture_preview.h"

namespace throng::python {
namespace {

const char* formatName(TexelFormat format) {
  return format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f";
}

// What bake() was given: a Character, the word "sample", or a path to import.
std::shared_ptr<PyCharacter> bakeInput(const py::handle& input,
                                       const std::vector<std::filesystem::path>& clips_from,
                                       const std::vector<std::filesystem::path>& allow_roots) {
  if (py::isinstance<PyCharacter>(input)) {
    if (!clips_from.empty() || !allow_roots.empty()) {
      raiseStatus(Status(ErrorCode::kInvalidArgument,
                         "bake: clips_from and allow_roots apply when bake imports a file; "
                         "give them to import_gltf for a Character"));
    }
    return input.cast<std::shared_ptr<PyCharacter>>();
  }
  if (py::isinstance<py::str>(input) && input.cast<std::string>() == "sample") {
    if (!clips_from.empty() || !allow_roots.empty()) {
      raiseStatus(Status(ErrorCode::kInvalidArgument,
                         "bake: clips_from and allow_roots apply to a file, not to 'sample'"));
    }
    return std::make_shared<PyCharacter>(makeSampleCharacter(), "sample");
  }
  const std::string path =
      pathString(py::module_::import("os").attr("fspath")(input).cast<std::string>());
  ImportOptions options;
  for (const auto& p : clips_from) options.clip_files.push_back(pathString(p));
  for (const auto& p : allow_roots) options.allowed_roots.push_back(pathString(p));
  Result<Character> imported = [&] {
    py::gil_scoped_release release;
    return importGltf(path, options);
  }();
  return std::make_shared<PyCharacter>(valueOrRaise(std::move(imported)), path);
}

// Clip names, or indices (ints) written as the decimal names the library also accepts.
std::vector<std::string> clipNames(const py::handle& clips, const char* option) {
  std::vector<std::string> names;
  if (clips.is_none()) return names;
  if (py::isinstance<py::str>(clips)) {
    raiseStatus(Status(ErrorCode::kInvalidArgument,
                       fmt::format("bake: {} takes a list of clip names or indices, not a "
                                   "string",
                                   option)));
  }
  for (const py::handle item : clips) {
    if (py::isinstance<py::str>(item)) {
      names.push_back(item.cast<std::string>());
    } else if (py::isinstance<py::int_>(item) && !py::isinstance<py::bool_>(item)) {
      names.push_back(py::str(item).cast<std::string>());
    } else {
      raiseStatus(Status(ErrorCode::kInvalidArgument,
                         fmt::format("bake: {}: {} is neither a clip name nor an index", option,
                                     py::repr(item).cast<std::string>())));
    }
  }
  return names;
}

std::shared_ptr<PyPackage> bake(const py::handle& input, bool lods, float fps,
                                const std::string& format, const py::handle& clips,
                                const py::handle& loop, const py::handle& no_loop,
                                int64_t max_width, std::optional<float> max_error, int threads,
                                std::optional<std::filesystem::path> preview,
                                const std::vector<std::filesystem::path>& clips_from,
                                const std::vector<std::filesystem::path>& allow_roots) {
  BakeOptions options;
  if (format == "rgba16f") {
    options.format = TexelFormat::kRgba16F;
  } else if (format != "rgba32f") {
    raiseStatus(Status(ErrorCode::kInvalidArgument,
                       fmt::format("bake: format '{}': must be 'rgba32f' or 'rgba16f'", format)));
  }
  if (max_width < 0 || max_width > std::numeric_limits<uint32_t>::max()) {
    raiseStatus(Status(
        ErrorCode::kInvalidArgument,
        fmt::format("bake: max_width {} is outside [3, {}]", max_width, kMaxAnimationTextureSize)));
  }
  options.fps = fps;
  options.max_width = static_cast<uint32_t>(max_width);
  options.clips = clipNames(clips, "clips");
  options.loop = clipNames(loop, "loop");
  options.no_loop = clipNames(no_loop, "no_loop");
  if (max_error) {
    if (!(*max_error >= 0.0f)) {
      raiseStatus(Status(ErrorCode::kInvalidArgument,
                         fmt::format("bake: max_error {} must be a number >= 0", *max_error)));
    }
    options.max_error = *max_error;
  }
  options.threads = threads;
  const std::shared_ptr<PyCharacter> character = bakeInput(input, clips_from, allow_roots);
  options.source = character->source;

  auto out = std::make_shared<PyPackage>();
  BakeReport report;
  Result<Package> package = [&] {
    py::gil_scoped_release release;
    return bakeCharacter(character->character, options, &report);
  }();
  out->package = valueOrRaise(std::move(package));
  out->bake_report = std::move(report);
  if (lods) {
    // Method A's default chain replaces lods[0] alone, as `throng bake --lods` does.
    const LodChainReport* lod_report = nullptr;
    out->package.lods = character->defaultLods(&lod_report);
    out->lod_report = *lod_report;
    // Each LOD's morph texture holds its own vertices (the chain's meshes keep their targets).
    const Status morph = bakeMorphAnimation(character->character, out->package, options.max_width,
                                            &out->bake_report->morph);
    if (!morph.ok()) raiseStatus(morph);
  }
  if (preview) {
    const Status written = writeTexturePreview(out->package.animation, pathString(*preview));
    if (!written.ok()) raiseStatus(written);
  }
  return out;
}

py::array_t<uint8_t> previewArray(const PyPackage& p) {
  ImageLevel image = valueOrRaise(texturePreviewImage(p.package.animation, p.package.source));
  py::array_t<uint8_t> out({static_cast<py::ssize_t>(image.height),
                            static_cast<py::ssize_t>(image.width), py::ssize_t{4}});
  std::memcpy(out.mutable_data(), image.rgba.data(), image.rgba.size());
  return out;
}

std::vector<Warning> warnings(const PyPackage& p) {
  std::vector<Warning> out;
  if (p.bake_report) out = p.bake_report->warnings;
  if (p.lod_report)
    out.insert(out.end(), p.lod_report->warnings.begin(), p.lod_report->warnings.end());
  return out;
}

void bindReports(py::module_& m) {
  py::class_<ClipBakeReport>(m, "ClipBakeReport",
                             "How one clip baked: frames, fps, loop and why, errors (model "
                             "units; end_mismatch as a fraction of the size).")
      .def_readonly("name", &ClipBakeReport::name)
      .def_readonly("frames", &ClipBakeReport::frames)
      .def_readonly("fps", &ClipBakeReport::fps)
      .def_readonly("duration", &ClipBakeReport::duration)
      .def_readonly("loop", &ClipBakeReport::loop)
      .def_property_readonly("loop_reason",
                             [](const ClipBakeReport& c) { return loopReasonName(c.loop_reason); })
      .def_readonly("root_motion", &ClipBakeReport::root_motion)
      .def_readonly("end_mismatch", &ClipBakeReport::end_mismatch)
      .def_readonly("max_error", &ClipBakeReport::max_error)
      .def_readonly("interpolation_error", &ClipBakeReport::interpolation_error);
  py::class_<BakeReport>(m, "BakeReport", "What `throng bake` prints: per clip and in all.")
      .def_readonly("clips", &BakeReport::clips)
      .def_readonly("character_size", &BakeReport::character_size)
      .def_readonly("max_error", &BakeReport::max_error)
      .def_readonly("max_error_fraction", &BakeReport::max_error_fraction)
      .def_readonly("interpolation_error", &BakeReport::interpolation_error)
      .def_readonly("interpolation_error_fraction", &BakeReport::interpolation_error_fraction)
      .def_property_readonly("format", [](const BakeReport& r) { return formatName(r.format); })
      .def_readonly("width", &BakeReport::width)
      .def_readonly("height", &BakeReport::height)
      .def_readonly("frames", &BakeReport::frames)
      .def_readonly("texel_bytes", &BakeReport::texel_bytes)
      .def_readonly("materials", &BakeReport::materials)
      .def_readonly("images", &BakeReport::images)
      .def_readonly("image_bytes", &BakeReport::image_bytes)
      .def_readonly("threads", &BakeReport::threads)
      .def_readonly("seconds", &BakeReport::seconds)
      .def_readonly("warnings", &BakeReport::warnings);
  py::class_<LodLevelReport>(m, "LodLevelReport",
                             "What became of one level of the LOD chain (errors in model units; "
                             "lod -1 when the level was dropped).")
      .def_readonly("level", &LodLevelReport::level)
      .def_readonly("lod", &LodLevelReport::lod)
      .def_readonly("target_triangles", &LodLevelReport::target_triangles)
      .def_readonly("triangles", &LodLevelReport::triangles)
      .def_readonly("target_joints", &LodLevelReport::target_joints)
      .def_readonly("joints", &LodLevelReport::joints)
      .def_readonly("sloppy", &LodLevelReport::sloppy)
      .def_readonly("joints_capped", &LodLevelReport::joints_capped)
      .def_readonly("max_error", &LodLevelReport::max_error)
      .def_readonly("p99_error", &LodLevelReport::p99_error)
      .def_readonly("pick_distance", &LodLevelReport::pick_distance)
      .def_readonly("seconds", &LodLevelReport::seconds);
  py::class_<LodChainReport>(m, "LodChainReport", "The LOD chain's levels and warnings.")
      .def_readonly("character_size", &LodChainReport::character_size)
      .def_readonly("levels", &LodChainReport::levels)
      .def_readonly("warnings", &LodChainReport::warnings);
}

}  // namespace

void bindPackage(py::module_& m) {
  bindReports(m);
  py::class_<LodTableRow>(m, "Lod",
                          "One level of detail, as `throng inspect --json` reports it: errors "
                          "as fractions of the package's height, pick_distance in model units "
                          "(inf: never picked) and in heights, at 1080 px and 60 degrees; "
                          "kind is 'mesh' (inspect lists a package's impostor after them).")
      .def_property_readonly("kind", [](const LodTableRow&) { return "mesh"; })
      .def_readonly("lod", &LodTableRow::lod)
      .def_readonly("triangles", &LodTableRow::triangles)
      .def_readonly("vertices", &LodTableRow::vertices)
      .def_readonly("sub_meshes", &LodTableRow::sub_meshes)
      .def_readonly("joints", &LodTableRow::joints)
      .def_readonly("max_error", &LodTableRow::max_error)
      .def_readonly("p99_error", &LodTableRow::p99_error)
      .def_readonly("geometric_error", &LodTableRow::geometric_error)
      .def_readonly("skinning_error", &LodTableRow::skinning_error)
      .def_readonly("pick_distance", &LodTableRow::pick_distance)
      .def_readonly("pick_distance_heights", &LodTableRow::pick_distance_heights)
      .def_readonly("max_distance", &LodTableRow::max_distance)
      .def("__repr__", [](const LodTableRow& l) {
        return fmt::format("Lod({}, {} triangles, {} joints, max_error={:.4g})", l.lod, l.triangles,
                           l.joints, l.max_error);
      });
  py::class_<BakedClip>(m, "BakedClip",
                        "A clip of a package: frames stored, fps, duration (seconds), loop, "
                        "events (seconds from its start).")
      .def_readonly("name", &BakedClip::name)
      .def_readonly("frames", &BakedClip::frame_count)
      .def_readonly("fps", &BakedClip::fps)
      .def_readonly("duration", &BakedClip::duration)
      .def_readonly("loop", &BakedClip::loop)
      .def_readonly("events", &BakedClip::events)
      .def("__repr__", [](const BakedClip& c) {
        return fmt::format("BakedClip('{}', {} frames)", c.name, c.frame_count);
      });

  py::class_<PyPackage, std::shared_ptr<PyPackage>>(
      m, "Package", "A baked package (.throng): skeleton, LODs, clips, texture, looks.")
      .def_property_readonly("source", [](const PyPackage& p) { return p.package.source; })
      .def_property_readonly("joints",
                             [](const PyPackage& p) { return jointInfos(p.package.skeleton); })
      .def_property_readonly(
          "lods", [](const PyPackage& p) { return lodTable(p.package).rows; },
          "the LOD table, a list of Lod")
      .def_property_readonly(
          "height", [](const PyPackage& p) { return lodTable(p.package).height; },
          "LOD 0's bind mesh's largest extent (model units): what LOD errors are fractions of")
      .def_property_readonly("clips", [](const PyPackage& p) { return p.package.clips; })
      .def_property_readonly("materials", [](const PyPackage& p) { return p.package.materials; })
      .def_property_readonly("variants", [](const PyPackage& p) { return p.package.variants; })
      .def_property_readonly(
          "texture",
          [](const PyPackage& p) {
            const AnimationTexture& t = p.package.animation;
            py::dict d;
            d["width"] = t.width;
            d["height"] = t.height;
            d["format"] = formatName(t.format);
            d["frames"] = t.frame_count;
            d["frames_per_row"] = t.frames_per_row;
            d["rows_per_frame"] = t.rowsPerFrame();
            return d;
          },
          "the animation texture's size (texels), format and layout, as inspect --json")
      .def_readonly("bake_report", &PyPackage::bake_report,
                    "the bake's report (None for a loaded package)")
      .def_readonly("lod_report", &PyPackage::lod_report,
                    "the LOD chain's report (None unless baked with lods=True)")
      .def_property_readonly("warnings", &warnings, "the bake's and the LOD chain's warnings")
      .def(
          "save",
          [](const PyPackage& p, const std::filesystem::path& path) {
            const Status s = [&] {
              py::gil_scoped_release release;
              return writePackage(p.package, pathString(path));
            }();
            if (!s.ok()) raiseStatus(s);
          },
          py::arg("path"), "Validates and writes the package (through a temporary file).")
      .def("preview", &previewArray,
           "The animation texture's picture as `bake --preview` draws it: an (H, W, 4) uint8 "
           "array, H twice the texture's height.")
      .def(
          "save_preview",
          [](const PyPackage& p, const std::filesystem::path& path) {
            const Status s = writeTexturePreview(p.package.animation, pathString(path));
            if (!s.ok()) raiseStatus(s);
          },
          py::arg("path"), "Writes the preview as an RGB PNG (bake --preview).")
      .def("__repr__", [](const PyPackage& p) {
        return fmt::format("Package('{}', {} joints, {} LODs, {} clips)", p.package.source,
                           p.package.skeleton.jointCount(), p.package.lods.size(),
                           p.package.clips.size());
      });

  m.def(
      "load_package",
      [](const std::filesystem::path& path) {
        Result<Package> package = [&] {
          py::gil_scoped_release release;
          return readPackage(pathString(path));
        }();
        auto out = std::make_shared<PyPackage>();
        out->package = valueOrRaise(std::move(package));
        return out;
      },
      py::arg("path"),
      "Reads and validates a .throng package. Raises OSError, RuntimeError (damage; a format "
      "version this library does not read: docs/formats.md).");
  m.def("bake", &bake, py::arg("character"), py::kw_only(), py::arg("lods") = false,
        py::arg("fps") = 30.0f, py::arg("format") = "rgba32f", py::arg("clips") = py::none(),
        py::arg("loop") = py::none(), py::arg("no_loop") = py::none(), py::arg("max_width") = 4096,
        py::arg("max_error") = py::none(), py::arg("threads") = 0, py::arg("preview") = py::none(),
        py::arg("clips_from") = std::vector<std::filesystem::path>{},
        py::arg("allow_roots") = std::vector<std::filesystem::path>{},
        "Bakes a Character, a .glb/.gltf path or 'sample' into a Package, with the options of "
        "`throng bake`: lods (--lods: the method A LOD chain), fps, format ('rgba32f' or "
        "'rgba16f'), clips / loop / no_loop (names or indices), max_width (texels), max_error "
        "(model units: fail above it), threads (0: one per core), preview (a PNG path), and for "
        "a path clips_from and allow_roots (as import_gltf). Raises ValueError for a bad "
        "option or clip, RuntimeError when a limit or max_error is passed.");
}

}  // namespace throng::python
