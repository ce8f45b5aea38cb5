// glTF morph targets: which character targets each mesh node gets, their deltas and weights.
#include "offline/gltf_read_morph.h"

#include <fmt/format.h>

#include "offline/gltf_key_times.h"
#include "offline/gltf_read_accessor.h"
#include "offline/gltf_read_animation.h"

namespace throng::gltf {
namespace {

// The target count every primitive of mesh `m` agrees on (glTF requires one count per mesh).
Result<size_t> meshTargetCount(Document& doc, int m) {
  const tinygltf::Mesh& mesh = doc.model.meshes[static_cast<size_t>(m)];
  if (mesh.primitives.empty()) return size_t{0};
  const size_t count = mesh.primitives[0].targets.size();
  for (size_t p = 1; p < mesh.primitives.size(); ++p) {
    if (mesh.primitives[p].targets.size() != count) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("mesh {}: primitive {} has {} morph targets, primitive "
                                           "0 has {}",
                                           m, p, mesh.primitives[p].targets.size(), count)));
    }
  }
  if (count > kMaxTargetsPerMesh) {
    return Status(ErrorCode::kLimitExceeded,
                  place(doc, fmt::format("mesh {}: {} morph targets, more than the limit of {}", m,
                                         count, kMaxTargetsPerMesh)));
  }
  return count;
}

// mesh.extras.targetNames[i] when it is a string (the de facto convention), else "target<i>".
std::string targetName(const tinygltf::Mesh& mesh, size_t i) {
  if (mesh.extras.IsObject() && mesh.extras.Has("targetNames")) {
    const tinygltf::Value& names = mesh.extras.Get("targetNames");
    if (names.IsArray() && i < names.ArrayLen() && names.Get(static_cast<int>(i)).IsString()) {
      const std::string& name = names.Get(static_cast<int>(i)).Get<std::string>();
      if (!name.empty()) return name;
    }
  }
  return fmt::format("target{}", i);
}

std::vector<ComponentForm> deltaForms(const Document& doc, bool position) {
  if (!doc.quantized) return {kFloatForm};
  if (position) return {kFloatForm, kByteForm, kNormByteForm, kShortForm, kNormShortForm};
  return {kFloatForm, kNormByteForm, kNormShortForm};
}

}  // namespace

Result<MorphLayout> planMorphTargets(Document& doc, const SkeletonImport& skeleton) {
  const tinygltf::Model& model = doc.model;
  MorphLayout layout;
  layout.nodes.resize(model.nodes.size());
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const tinygltf::Node& node = model.nodes[n];
    if (node.mesh < 0 || (node.skin < 0 && skeleton.node_to_joint[n] < 0)) continue;
    Result<size_t> count = meshTargetCount(doc, node.mesh);
    if (!count.ok()) return count.status();
    if (*count == 0) continue;
    const tinygltf::Mesh& mesh = model.meshes[static_cast<size_t>(node.mesh)];
    const std::vector<double>& weights = !node.weights.empty() ? node.weights : mesh.weights;
    if (!weights.empty() && weights.size() != *count) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("node {} ('{}'): {} default weights for {} morph "
                                           "targets of mesh {}",
                                           n, node.name, weights.size(), *count, node.mesh)));
    }
    layout.nodes[n] = {static_cast<int>(layout.targets.size()), static_cast<int>(*count)};
    for (size_t t = 0; t < *count; ++t) {
      MorphTarget target;
      target.name = targetName(mesh, t);
      target.group = nodeName(doc, static_cast<int>(n));
      target.default_weight = weights.empty() ? 0.0f : static_cast<float>(weights[t]);
      if (!std::isfinite(target.default_weight)) {
        return Status(ErrorCode::kInvalidData,
                      place(doc, fmt::format("node {} ('{}'): default weight {} is not finite", n,
                                             node.name, weights[t])));
      }
      layout.targets.push_back(std::move(target));
    }
  }
  return layout;
}

Result<std::vector<TargetDeltas>> readTargetDeltas(Document& doc,
                                                   const tinygltf::Primitive& primitive,
                                                   size_t vertex_count, const std::string& what) {
  std::vector<TargetDeltas> out(primitive.targets.size());
  for (size_t t = 0; t < primitive.targets.size(); ++t) {
    const std::map<std::string, int>& attributes = primitive.targets[t];
    const std::pair<const char*, std::vector<float>*> streams[] = {{"POSITION", &out[t].positions},
                                                                   {"NORMAL", &out[t].normals},
                                                                   {"TANGENT", &out[t].tangents}};
    for (const auto& [name, stream] : streams) {
      auto it = attributes.find(name);
      if (it == attributes.end()) continue;
      const std::string where = fmt::format("{} target {} {}", what, t, name);
      // Tangent deltas are xyz only (glTF 2.0, "Morph Targets").
      Result<std::vector<float>> read = readFloats(
          doc,
          {it->second, TINYGLTF_TYPE_VEC3, deltaForms(doc, stream == &out[t].positions), where});
      if (!read.ok()) return read.status();
      if (read->size() != 3 * vertex_count) {
        return Status(ErrorCode::kInvalidData,
                      place(doc, fmt::format("{}: {} elements, POSITION {}", where,
                                             read->size() / 3, vertex_count)));
      }
      *stream = std::move(read).value();
    }
  }
  return out;
}

Status readWeightsChannel(Document& doc, const tinygltf::AnimationSampler& sampler,
                          const std::string& what, std::span<FloatTrack> tracks) {
  Interpolation interpolation = Interpolation::kLinear;
  if (Status s = readInterpolation(doc, sampler, what, interpolation); !s.ok()) return s;
  Result<std::vector<float>> times =
      readFloats(doc, {sampler.input, TINYGLTF_TYPE_SCALAR, {kFloatForm}, what + " input"});
  if (!times.ok()) return times.status();
  Result<std::vector<float>> values =
      readFloats(doc, {sampler.output,
                       TINYGLTF_TYPE_SCALAR,
                       {kFloatForm, kNormByteForm, kNormUByteForm, kNormShortForm, kNormUShortForm},
                       what + " output"});
  if (!values.ok()) return values.status();
  const size_t targets = tracks.size();
  const size_t per_key = interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (values->size() != times->size() * per_key * targets) {
    return Status(ErrorCode::kInvalidData,
                  place(doc, fmt::format("{}: {} output values for {} keys of {} morph targets "
                                         "(expected {})",
                                         what, values->size(), times->size(), targets,
                                         times->size() * per_key * targets)));
  }
  Result<KeyTimeSteps> steps = stepKeyTimes(*times, *values, per_key * targets, what);
  if (!steps.ok()) return Status(steps.status().code(), place(doc, steps.status().message()));
  warnKeySteps(doc, what, *steps);
  // A key holds per_key runs of one value per target: (in-tangents, values, out-tangents) for
  // CUBICSPLINE, so target t's slot s of key k is at (k * per_key + s) * targets + t.
  for (size_t t = 0; t < targets; ++t) {
    FloatTrack& track = tracks[t];
    track.interpolation = interpolation;
    track.times = *times;
    track.values.resize(times->size() * per_key);
    for (size_t i = 0; i < track.values.size(); ++i) track.values[i] = (*values)[i * targets + t];
  }
  return {};
}

}  // namespace throng::gltf
