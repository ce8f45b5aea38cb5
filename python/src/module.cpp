// The `throng` Python module: the offline layer (import, bake, packages, poses, previews).
#include "module.h"

#include <cstring>

#include "throng/core/package_format.h"
#include "throng/core/skeleton.h"
#include "throng/version.h"

namespace throng::python {

std::vector<JointInfo> jointInfos(const Skeleton& skeleton) {
  std::vector<JointInfo> joints;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parents()[j];
    joints.push_back({j, std::string(skeleton.names()[j]),
                      parent == kNoParent ? std::nullopt : std::optional<int>(parent)});
  }
  return joints;
}

const std::vector<MeshLod>& PyCharacter::defaultLods(const LodChainReport** report) {
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!lods_) lods_ = buildLodChain(character, defaultLodChainOptions(), &lod_report_);
  }
  if (!lods_->ok()) raiseStatus(lods_->status());
  if (report != nullptr) *report = &lod_report_;
  return lods_->value();
}

py::array_t<float> pointArray(const std::vector<glm::vec3>& points) {
  static_assert(sizeof(glm::vec3) == 3 * sizeof(float));
  py::array_t<float> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{3}});
  if (!points.empty()) {
    std::memcpy(out.mutable_data(), points.data(), points.size() * sizeof(glm::vec3));
  }
  return out;
}

void raiseStatus(const Status& status) {
  PyObject* type = PyExc_RuntimeError;
  if (status.code() == ErrorCode::kInvalidArgument) type = PyExc_ValueError;
  if (status.code() == ErrorCode::kIoError) type = PyExc_OSError;
  py::object error = py::reinterpret_borrow<py::object>(type)(status.toString());
  error.attr("code") = errorCodeName(status.code());
  PyErr_SetObject(type, error.ptr());
  throw py::error_already_set();
}

}  // namespace throng::python

PYBIND11_MODULE(throng, m) {
  namespace tp = throng::python;
  m.doc() =
      "throng's offline layer: import glTF characters, bake them into packages (with LOD "
      "chains), read packages, pose their meshes and preview their animation textures. "
      "Errors raise ValueError (a bad argument), OSError (a file) or RuntimeError (bad data, "
      "limits, versions) with the library's one-line message; the exception's `code` names the "
      "error (docs/errors.md).";
  m.attr("__version__") = THRONG_VERSION_STRING;
  m.attr("PACKAGE_FORMAT_VERSION") = throng::kPackageVersion;
  m.attr("OLDEST_READABLE_PACKAGE_FORMAT_VERSION") = throng::kOldestReadablePackageVersion;
  tp::bindWarning(m);
  tp::bindCharacter(m);
  tp::bindPackage(m);
  tp::bindAttachments(m);
  tp::bindPose(m);
}
