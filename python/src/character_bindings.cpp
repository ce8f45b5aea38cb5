// Python: characters (joints, clips, materials) from glTF files or the built-in sample.
#include <memory>

#include <fmt/core.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "module.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace throng::python {
namespace {

std::shared_ptr<PyCharacter> importFile(const std::filesystem::path& path,
                                        const std::vector<std::filesystem::path>& clips_from,
                                        const std::vector<std::filesystem::path>& allow_roots,
                                        bool event_sidecar) {
  ImportOptions options;
  for (const auto& p : clips_from) options.clip_files.push_back(pathString(p));
  for (const auto& p : allow_roots) options.allowed_roots.push_back(pathString(p));
  options.event_sidecar = event_sidecar;
  const std::string source = pathString(path);
  Result<Character> imported = [&] {
    py::gil_scoped_release release;
    return importGltf(source, options);
  }();
  return std::make_shared<PyCharacter>(valueOrRaise(std::move(imported)), source);
}

}  // namespace

void bindCharacter(py::module_& m) {
  py::class_<JointInfo>(m, "Joint", "A skeleton joint: index, name, parent (None for a root).")
      .def_readonly("index", &JointInfo::index)
      .def_readonly("name", &JointInfo::name)
      .def_readonly("parent", &JointInfo::parent)
      .def("__repr__", [](const JointInfo& j) {
        return fmt::format("Joint({}, '{}', parent={})", j.index, j.name,
                           j.parent ? std::to_string(*j.parent) : "None");
      });
  py::class_<ClipEvent>(m, "ClipEvent", "A named moment of a clip (seconds).")
      .def_readonly("name", &ClipEvent::name)
      .def_readonly("time", &ClipEvent::time)
      .def("__repr__",
           [](const ClipEvent& e) { return fmt::format("ClipEvent('{}', {:g})", e.name, e.time); });
  py::class_<Clip>(m, "Clip",
                   "A keyframed clip: name, start_time and end_time on the file's timeline "
                   "(seconds), duration, events (seconds from the clip's start).")
      .def_readonly("name", &Clip::name)
      .def_readonly("start_time", &Clip::start_time)
      .def_readonly("end_time", &Clip::end_time)
      .def_property_readonly("duration", &Clip::duration)
      .def_readonly("events", &Clip::events)
      .def("__repr__",
           [](const Clip& c) { return fmt::format("Clip('{}', {:g} s)", c.name, c.duration()); });
  py::class_<Material>(m, "Material",
                       "A sub-mesh's look: base_color (linear RGBA), texture (image index or "
                       "None), alpha_mode ('OPAQUE', 'MASK', 'BLEND'), alpha_cutoff, "
                       "double_sided.")
      .def_readonly("name", &Material::name)
      .def_property_readonly("base_color",
                             [](const Material& mat) {
                               const glm::vec4 c = mat.base_color;
                               return py::make_tuple(c.r, c.g, c.b, c.a);
                             })
      .def_property_readonly("texture",
                             [](const Material& mat) {
                               return mat.base_color_texture.present()
                                          ? std::optional<int>(mat.base_color_texture.image)
                                          : std::nullopt;
                             })
      .def_property_readonly("alpha_mode",
                             [](const Material& mat) { return alphaModeName(mat.alpha_mode); })
      .def_readonly("alpha_cutoff", &Material::alpha_cutoff)
      .def_readonly("double_sided", &Material::double_sided)
      .def("__repr__", [](const Material& mat) { return fmt::format("Material('{}')", mat.name); });

  py::class_<PyCharacter, std::shared_ptr<PyCharacter>>(
      m, "Character",
      "An imported character: skeleton, skinned mesh, clips and looks (see import_gltf).")
      .def_readonly("source", &PyCharacter::source)
      .def_property_readonly("joints",
                             [](const PyCharacter& c) { return jointInfos(c.character.skeleton); })
      .def_property_readonly("clips", [](const PyCharacter& c) { return c.character.clips; })
      .def_property_readonly("materials",
                             [](const PyCharacter& c) { return c.character.materials; })
      .def_property_readonly("variants", [](const PyCharacter& c) { return c.character.variants; })
      .def_property_readonly("warnings", [](const PyCharacter& c) { return c.character.warnings; })
      .def_property_readonly("vertices",
                             [](const PyCharacter& c) { return c.character.mesh.vertexCount(); })
      .def_property_readonly("triangles",
                             [](const PyCharacter& c) { return c.character.mesh.triangleCount(); })
      .def_property_readonly(
          "size", [](const PyCharacter& c) { return c.character.size(); },
          "the bind mesh's largest extent (model units): what errors are fractions of")
      .def_property_readonly(
          "positions", [](const PyCharacter& c) { return pointArray(c.character.mesh.positions); },
          "the bind-pose vertex positions, an (N, 3) float32 array (model units)")
      .def("__repr__", [](const PyCharacter& c) {
        return fmt::format("Character('{}', {} joints, {} clips, {} triangles)", c.source,
                           c.character.skeleton.jointCount(), c.character.clips.size(),
                           c.character.mesh.triangleCount());
      });

  m.def("import_gltf", &importFile, py::arg("path"), py::kw_only(),
        py::arg("clips_from") = std::vector<std::filesystem::path>{},
        py::arg("allow_roots") = std::vector<std::filesystem::path>{},
        py::arg("event_sidecar") = true,
        "Imports a .glb or .gltf file (docs/import.md). clips_from: more glTF files whose clips "
        "are bound by joint name (bake --clips-from); allow_roots: folders a .gltf's external "
        "files may also come from (--allow-root); event_sidecar: read NAME.events.json next to "
        "the file. Raises OSError, RuntimeError (bad or unsupported data, limits).");
  m.def(
      "sample",
      [](bool humanoid) {
        return std::make_shared<PyCharacter>(
            humanoid ? makeBenchmarkHumanoid() : makeSampleCharacter(), "sample");
      },
      py::kw_only(), py::arg("humanoid") = false,
      "The built-in sample character (23 joints, five clips), or with humanoid=True the "
      "71-joint benchmark humanoid (throng sample --humanoid).");
}

}  // namespace throng::python
