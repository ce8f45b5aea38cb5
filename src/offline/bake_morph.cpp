// Morph targets into a package: vertex animation textures (VAT) or per-frame weights and deltas.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "throng/core/excerpt.h"
#include "throng/core/half.h"
#include "throng/core/morph.h"
#include "throng/offline/bake.h"

namespace throng {
namespace {

// Every texture frame's weights of all the mesh's targets: frame-major, frames x targets.
Result<std::vector<float>> frameWeights(const Character& character, const Package& package) {
  const std::span<const MorphTarget> targets = character.mesh.morph_targets;
  std::vector<float> weights(static_cast<size_t>(package.animation.frame_count) * targets.size());
  for (const BakedClip& baked : package.clips) {
    const int c = character.findClip(baked.name);
    if (c < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: baked clip '{}' is not a clip of the character",
                                package.source, excerpt(baked.name)));
    }
    const Clip& clip = character.clips[static_cast<size_t>(c)];
    for (uint32_t i = 0; i < baked.frame_count; ++i) {
      const size_t f = static_cast<size_t>(baked.first_frame) + i;
      const std::span<float> frame =
          std::span<float>(weights).subspan(f * targets.size(), targets.size());
      sampleMorphWeights(targets, &clip, bakedFrameTime(clip, baked, i), frame);
      // Finite keys can still interpolate past the float range (cubic-spline tangents).
      for (size_t t = 0; t < frame.size(); ++t) {
        if (!std::isfinite(frame[t])) {
          return Status(ErrorCode::kInvalidData,
                        fmt::format("{}: clip '{}' frame {}: morph target {} gets a weight that "
                                    "is not finite (its keys overflow a float)",
                                    package.source, excerpt(baked.name), i, t));
        }
      }
    }
  }
  return weights;
}

// The targets that some frame weighs: the only ones a kTargetDeltas shader loops over.
std::vector<size_t> activeTargets(std::span<const float> weights, size_t targets) {
  std::vector<size_t> active;
  for (size_t t = 0; t < targets; ++t) {
    for (size_t i = t; i < weights.size(); i += targets) {
      if (weights[i] != 0.0f) {
        active.push_back(t);
        break;
      }
    }
  }
  return active;
}

bool allFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

Status checkHalf(const glm::vec3& v, TexelFormat format, const std::string& where) {
  if (format == TexelFormat::kRgba16F &&
      !(std::fabs(v.x) <= kMaxHalf && std::fabs(v.y) <= kMaxHalf && std::fabs(v.z) <= kMaxHalf)) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: a value is outside the half-float range (+-{}); bake with "
                              "rgba32f",
                              where, kMaxHalf));
  }
  return {};
}

// One LOD's VAT: block f holds frame f's morphed positions and normals. Returns the largest
// position error the texel format adds.
Result<float> bakeVertexFrames(const SkinnedMesh& mesh, std::span<const float> weights,
                               uint32_t frames, VertexTexture& texture, const std::string& where) {
  const size_t n = mesh.vertexCount();
  const size_t targets = mesh.morph_targets.size();
  std::vector<glm::vec3> positions(n), normals(n);
  float error = 0.0f;
  for (uint32_t f = 0; f < frames; ++f) {
    const bool ok = MorphJob{
        mesh.morph_targets,
        weights.subspan(f * targets, targets),
        mesh.positions,
        mesh.normals,
        {},
        positions,
        normals,
        {}}.run();
    if (!ok) {  // the targets are validated: only the normals can differ
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: {} normals for {} vertices", where, mesh.normals.size(), n));
    }
    for (uint32_t v = 0; v < n; ++v) {
      // Finite weights times finite deltas can still overflow a float (a weight of 1e30).
      if (!allFinite(positions[v]) || !allFinite(normals[v])) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{} frame {}: the morph targets move vertex {} to a position "
                                  "or normal that is not finite (weights times deltas overflow "
                                  "a float)",
                                  where, f, v));
      }
      if (Status s = checkHalf(positions[v], texture.format, fmt::format("{} frame {}", where, f));
          !s.ok()) {
        return s;
      }
      storeVertexTexel(texture, f, v, 0, positions[v]);
      storeVertexTexel(texture, f, v, 1, normals[v]);
      error = std::max(error, glm::distance(loadVertexTexel(texture, f, v, 0), positions[v]));
    }
  }
  return error;
}

// One LOD's deltas: block b holds active target b's position and normal deltas. Returns an upper
// bound of the position error the texel format adds at any frame: sum_t |w_t| * e_t, e_t the
// target's largest rounding.
Result<float> bakeTargetDeltas(const SkinnedMesh& mesh, std::span<const size_t> active,
                               std::span<const float> active_weights, VertexTexture& texture,
                               const std::string& where) {
  std::vector<float> rounding(active.size(), 0.0f);
  for (uint32_t b = 0; b < active.size(); ++b) {
    const MorphTarget& target = mesh.morph_targets[active[b]];
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
      const glm::vec3 normal = target.normals.empty() ? glm::vec3(0.0f) : target.normals[v];
      if (Status s = checkHalf(target.positions[v], texture.format,
                               fmt::format("{} target '{}'", where, excerpt(target.name)));
          !s.ok()) {
        return s;
      }
      storeVertexTexel(texture, b, v, 0, target.positions[v]);
      storeVertexTexel(texture, b, v, 1, normal);
      rounding[b] = std::max(rounding[b],
                             glm::distance(loadVertexTexel(texture, b, v, 0), target.positions[v]));
    }
  }
  float bound = 0.0f;
  for (size_t f = 0; f * active.size() < active_weights.size(); ++f) {
    float sum = 0.0f;
    for (size_t b = 0; b < active.size(); ++b) {
      sum += std::fabs(active_weights[f * active.size() + b]) * rounding[b];
    }
    bound = std::max(bound, sum);
  }
  if (!std::isfinite(bound)) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: the weights times the deltas' rounding overflow a float (the "
                              "error bound is not finite)",
                              where));
  }
  return bound;
}

}  // namespace

MorphBakeKind chooseMorphBakeKind(const Character& character) {
  const SkinnedMesh& mesh = character.mesh;
  if (mesh.morph_targets.empty()) return MorphBakeKind::kNone;
  for (const glm::vec4& w : mesh.weights) {
    if (w.x != 1.0f) return MorphBakeKind::kTargetDeltas;
  }
  return MorphBakeKind::kVertexFrames;
}

Status bakeMorphAnimation(const Character& character, Package& package, uint32_t max_width,
                          MorphBakeReport* report) {
  MorphBakeReport local;
  MorphBakeReport& rep = report != nullptr ? *report : local;
  rep = MorphBakeReport{};
  package.morph = MorphAnimation{};
  const std::span<const MorphTarget> targets = character.mesh.morph_targets;
  rep.kind = chooseMorphBakeKind(character);
  rep.targets = targets.size();
  const std::string source = package.source.empty() ? "character" : package.source;
  if (rep.kind == MorphBakeKind::kNone) {
    for (MeshLod& lod : package.lods) lod.mesh.morph_targets.clear();
    return {};
  }
  for (size_t l = 0; l < package.lods.size(); ++l) {
    if (package.lods[l].mesh.morph_targets.size() != targets.size()) {
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("{}: LOD {} has {} morph targets, the character {} (bake the "
                      "morph animation from meshes that still have them)",
                      source, l, package.lods[l].mesh.morph_targets.size(), targets.size()));
    }
  }
  Result<std::vector<float>> weights = frameWeights(character, package);
  if (!weights.ok()) return weights.status();
  MorphAnimation morph;
  morph.kind = rep.kind;
  const TexelFormat format = package.animation.format;
  const uint32_t frames = package.animation.frame_count;
  std::vector<size_t> active;
  if (morph.kind == MorphBakeKind::kTargetDeltas) {
    active = activeTargets(*weights, targets.size());
    if (active.empty()) active.push_back(0);  // nothing moves: one target keeps the layout valid
    for (size_t t : active) morph.targets.push_back(targets[t].name);
    morph.frame_weights.resize(static_cast<size_t>(frames) * active.size());
    for (size_t f = 0; f < frames; ++f) {
      for (size_t b = 0; b < active.size(); ++b) {
        morph.frame_weights[f * active.size() + b] = (*weights)[f * targets.size() + active[b]];
      }
    }
    rep.active_targets = active.size();
  }
  const uint32_t blocks =
      morph.kind == MorphBakeKind::kVertexFrames ? frames : static_cast<uint32_t>(active.size());
  for (size_t l = 0; l < package.lods.size(); ++l) {
    const SkinnedMesh& mesh = package.lods[l].mesh;
    const std::string where = fmt::format("{}: LOD {} morph", source, l);
    // Both bakes read every target's deltas of every vertex.
    if (Status s = validateMorphTargets(mesh.morph_targets, mesh.vertexCount(), where); !s.ok()) {
      return s;
    }
    VertexTexture texture = allocateVertexTexture(format, static_cast<uint32_t>(mesh.vertexCount()),
                                                  blocks, std::max(2u, max_width));
    if (texture.height > kMaxAnimationTextureSize) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("{}: {} vertices x {} {} need a texture {} rows high, more than "
                                "the limit of {} (lower the frame rate or bake fewer clips)",
                                where, mesh.vertexCount(), blocks,
                                morph.kind == MorphBakeKind::kVertexFrames ? "frames" : "targets",
                                texture.height, kMaxAnimationTextureSize));
    }
    Result<float> error = morph.kind == MorphBakeKind::kVertexFrames
                              ? bakeVertexFrames(mesh, *weights, frames, texture, where)
                              : bakeTargetDeltas(mesh, active, morph.frame_weights, texture, where);
    if (!error.ok()) return error.status();
    morph.max_error = std::max(morph.max_error, *error);
    rep.texel_bytes += texture.byteSize();
    morph.lods.push_back(std::move(texture));
  }
  rep.max_error = morph.max_error;
  for (MeshLod& lod : package.lods) lod.mesh.morph_targets.clear();
  package.morph = std::move(morph);
  return {};
}

}  // namespace throng
