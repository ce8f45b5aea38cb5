// The Python module's shared parts: its character and package objects, status -> exception.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "throng/core/character.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"

namespace throng::python {

namespace py = pybind11;

// A character and the name a bake records as its source (the imported path, or "sample"). Python
// cannot change it, so its default LOD chain is built once and shared by bakes and poses.
struct PyCharacter {
  PyCharacter(Character c, std::string s) : character(std::move(c)), source(std::move(s)) {}

  // The chain of buildLodChain(character, defaultLodChainOptions()) and its report, built on the
  // first call with the GIL released (call with it held). Raises the chain's error.
  const std::vector<MeshLod>& defaultLods(const LodChainReport** report = nullptr);

  const Character character;
  const std::string source;

 private:
  std::mutex mutex_;  // taken with the GIL released only, so it never waits on the GIL
  std::optional<Result<std::vector<MeshLod>>> lods_;
  LodChainReport lod_report_;
};

// A package; the reports of its bake when it was baked in this process (not when loaded).
struct PyPackage {
  Package package;
  std::optional<BakeReport> bake_report;
  std::optional<LodChainReport> lod_report;  // when baked with lods=True
};

// A joint as Python sees it: parent None for a root.
struct JointInfo {
  int index = 0;
  std::string name;
  std::optional<int> parent;
};
std::vector<JointInfo> jointInfos(const Skeleton& skeleton);

// Points as an (N, 3) float32 array.
py::array_t<float> pointArray(const std::vector<glm::vec3>& points);

// Raises the exception for `status` (call with the GIL held): ValueError for kInvalidArgument,
// OSError for kIoError, RuntimeError for every other code. Its text is status.toString() ("io
// error: hero.glb: ..."), its `code` attribute the error's name (errorCodeName).
[[noreturn]] void raiseStatus(const Status& status);

template <typename T>
T valueOrRaise(Result<T> result) {
  if (!result.ok()) raiseStatus(result.status());
  return std::move(result).value();
}

// os.fspath-like paths arrive as std::filesystem::path; the library takes strings.
inline std::string pathString(const std::filesystem::path& path) {
  return path.string();
}

// The Warning class (kind, message, subject, details): bind it before anything that returns
// warnings.
void bindWarning(py::module_& m);
void bindCharacter(py::module_& m);
void bindPackage(py::module_& m);
// Props and masks: Prop, Mask, Character.with_props, .props and .masks on both classes (after
// bindCharacter and bindPackage).
void bindAttachments(py::module_& m);
void bindPose(py::module_& m);

}  // namespace throng::python
