// Python: a LOD's skinned vertices at a clip time, from a character (keyframes) or a package
// (baked frames), as `throng pose` computes them.
#include <cmath>
#include <memory>

#include <fmt/core.h>
#include <pybind11/numpy.h>

#include "module.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/playback.h"

namespace throng::python {
namespace {

// What to skin: a LOD's mesh, the skeleton joints of its palette slots (empty: slots are
// joints) and the skeleton's palette at the pose.
struct PoseInput {
  const SkinnedMesh* mesh = nullptr;
  std::span<const uint16_t> palette_joints;
  std::vector<JointRows> palette;
};

[[noreturn]] void badArgument(const std::string& message) {
  raiseStatus(Status(ErrorCode::kInvalidArgument, message));
}

// The clip `clip` names among `count` clips: a name (or decimal index) by `find`, or an int.
template <typename Find>
int clipIndex(const py::handle& clip, size_t count, const std::string& source, Find find) {
  int index = -1;
  if (py::isinstance<py::int_>(clip) && !py::isinstance<py::bool_>(clip)) {
    const long long n = clip.cast<long long>();
    if (n >= 0 && static_cast<size_t>(n) < count) index = static_cast<int>(n);
  } else if (py::isinstance<py::str>(clip)) {
    index = find(clip.cast<std::string>());
  } else {
    badArgument(fmt::format("pose: clip {}: give a clip name, an index or None",
                            py::repr(clip).cast<std::string>()));
  }
  if (index < 0) {
    badArgument(fmt::format("pose: clip {}: no such clip in {} ({} clips)",
                            py::str(clip).cast<std::string>(), source, count));
  }
  return index;
}

void checkLod(int lod, size_t count, const std::string& source) {
  if (lod < 0 || static_cast<size_t>(lod) >= count) {
    badArgument(fmt::format("pose: lod {}: no such LOD in {} ({} LOD{})", lod, source, count,
                            count == 1 ? "" : "s"));
  }
}

// Keyframes on the file's timeline; LODs > 0 from the character's default chain.
PoseInput characterPose(PyCharacter& c, const py::handle& clip, float time, int lod) {
  const Character& character = c.character;
  PoseInput in;
  in.mesh = &character.mesh;
  if (lod != 0) {
    const std::vector<MeshLod>& chain = c.defaultLods();
    checkLod(lod, chain.size(), c.source);
    in.mesh = &chain[lod].mesh;
    in.palette_joints = chain[lod].palette_joints;
  }
  const Clip* keyed = nullptr;
  if (!clip.is_none()) {
    keyed =
        &character
             .clips[clipIndex(clip, character.clips.size(), c.source,
                              [&](const std::string& name) { return character.findClip(name); })];
  }
  PoseScratch scratch;
  in.palette.resize(character.skeleton.jointCount());
  evaluatePalette(character.skeleton, keyed, time, scratch, in.palette);
  return in;
}

// Baked frames, `time` seconds from the clip's start, blended as the runtime plays them.
PoseInput packagePose(const PyPackage& p, const py::handle& clip, float time, int lod) {
  const Package& package = p.package;
  checkLod(lod, package.lods.size(), package.source);
  PoseInput in;
  in.mesh = &package.lods[lod].mesh;
  in.palette_joints = package.lods[lod].palette_joints;
  in.palette.resize(package.skeleton.jointCount());
  if (clip.is_none()) {
    PoseScratch scratch;
    evaluatePalette(package.skeleton, nullptr, 0.0f, scratch, in.palette);
    return in;
  }
  const int index =
      clipIndex(clip, package.clips.size(), package.source, [&](const std::string& name) {
        for (size_t c = 0; c < package.clips.size(); ++c) {
          if (package.clips[c].name == name) return static_cast<int>(c);
        }
        return -1;
      });
  InstanceFrames frames;
  frames.primary = sampleFrames(package.clips[index], time);
  frames.secondary = frames.primary;
  if (!FramePaletteJob{&package.animation, frames, in.palette}.run()) {
    raiseStatus(
        Status(ErrorCode::kInvalidData, fmt::format("{}: clip '{}' frames lie outside the texture",
                                                    package.source, package.clips[index].name)));
  }
  return in;
}

py::array_t<float> pose(const py::handle& subject, const py::handle& clip, float time, int lod) {
  if (!std::isfinite(time))
    badArgument(fmt::format("pose: time {} is not a number of seconds", time));
  PoseInput in;
  if (py::isinstance<PyCharacter>(subject)) {
    in = characterPose(subject.cast<PyCharacter&>(), clip, time, lod);
  } else if (py::isinstance<PyPackage>(subject)) {
    in = packagePose(subject.cast<const PyPackage&>(), clip, time, lod);
  } else {
    throw py::type_error("pose: give a Character or a Package");
  }
  // A bone-reduced LOD's palette slots stand for these skeleton joints.
  std::vector<JointRows> slots = in.palette;
  if (!in.palette_joints.empty()) {
    slots.resize(in.palette_joints.size());
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = in.palette[in.palette_joints[s]];
  }
  const SkinnedMesh& mesh = *in.mesh;
  std::vector<glm::vec3> positions(mesh.vertexCount());
  const SkinJob job{mesh.positions, {}, mesh.joints, mesh.weights, slots, positions, {}};
  if (!job.run()) {
    raiseStatus(Status(ErrorCode::kInvalidData, "pose: the mesh does not fit its skeleton"));
  }
  return pointArray(positions);
}

}  // namespace

void bindPose(py::module_& m) {
  m.def("pose", &pose, py::arg("subject"), py::arg("clip") = py::none(), py::arg("time") = 0.0f,
        py::arg("lod") = 0,
        "The posed vertices of LOD `lod` of a Character or Package as an (N, 3) float32 array "
        "(model units), as `throng pose` writes them: clip by name or index (None: the rest "
        "pose); time in seconds on the file's timeline for a Character (its keyframes), from "
        "the clip's start for a Package (its baked frames, as the runtime plays them). A "
        "Character's LODs above 0 come from its default chain, built once. Raises "
        "ValueError for an unknown clip or LOD.");
}

}  // namespace throng::python
