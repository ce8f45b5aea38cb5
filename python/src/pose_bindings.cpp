// Python: a LOD's skinned vertices at a clip time, from a character (keyframes) or a package
// (baked frames), through the library's posePackage / poseCharacter as `throng pose`.
#include <cmath>
#include <memory>
#include <span>

#include <fmt/core.h>
#include <pybind11/numpy.h>

#include "module.h"
#include "throng/crowd/lod_pose.h"

namespace throng::python {
namespace {

// The clip's name (or index as its decimal text, looked up as findClip does); "" for None.
std::string clipText(const py::handle& clip) {
  if (clip.is_none()) return {};
  if (py::isinstance<py::int_>(clip) && !py::isinstance<py::bool_>(clip)) {
    return std::to_string(clip.cast<long long>());
  }
  if (py::isinstance<py::str>(clip)) return clip.cast<std::string>();
  raiseStatus(Status(ErrorCode::kInvalidArgument,
                     fmt::format("pose: clip {}: give a clip name, an index or None",
                                 py::repr(clip).cast<std::string>())));
}

py::array_t<float> pose(const py::handle& subject, const py::handle& clip, float time, int lod) {
  const PoseRequest request{clipText(clip), time, lod};
  Result<LodPose> posed = Status(ErrorCode::kInvalidArgument, "no subject");
  if (py::isinstance<PyCharacter>(subject)) {
    PyCharacter& c = subject.cast<PyCharacter&>();
    // LODs above 0 come from the default chain, built once (not for the full mesh).
    const std::span<const MeshLod> lods =
        lod > 0 ? std::span<const MeshLod>(c.defaultLods()) : std::span<const MeshLod>();
    posed = poseCharacter(c.character, lods, request, c.source);
  } else if (py::isinstance<PyPackage>(subject)) {
    const Package& package = subject.cast<const PyPackage&>().package;
    posed = posePackage(package, request, package.source);
  } else {
    throw py::type_error("pose: give a Character or a Package");
  }
  if (!posed.ok()) {
    const Status& s = posed.status();
    raiseStatus(Status(s.code(), "pose: " + s.message()));
  }
  return pointArray(posed->positions);
}

}  // namespace

void bindPose(py::module_& m) {
  m.def("pose", &pose, py::arg("subject"), py::arg("clip") = py::none(), py::arg("time") = 0.0f,
        py::arg("lod") = 0,
        "The posed vertices of LOD `lod` of a Character or Package as an (N, 3) float32 array "
        "(model units), as `throng pose` writes them: clip by name or index (an index is looked "
        "up as its decimal text, a clip of that name first; None: the rest pose); time in "
        "seconds on the file's timeline for a Character (its keyframes), from the clip's start "
        "for a Package (its baked frames, as the runtime plays them). A Character's LODs above "
        "0 come from its default chain, built once. Raises ValueError for an unknown clip or "
        "LOD.");
}

}  // namespace throng::python
