// validatePackage: the invariants a runtime relies on, checked once when a package is read or
// written.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "throng/core/character.h"
#include "throng/core/excerpt.h"
#include "throng/core/half.h"
#include "throng/core/package.h"

namespace throng {
namespace {

Status invalid(std::string_view source, const std::string& what) {
  return Status(ErrorCode::kInvalidData, fmt::format("{}: {}", source, what));
}

bool finiteNonNegative(float v) {
  return std::isfinite(v) && v >= 0.0f;
}

Status validateTexture(const AnimationTexture& t, int joint_count, std::string_view source) {
  if (t.format != TexelFormat::kRgba32F && t.format != TexelFormat::kRgba16F) {
    return invalid(source, fmt::format("animation texture has unknown texel format {}",
                                       static_cast<int>(t.format)));
  }
  if (t.joint_count != static_cast<uint32_t>(joint_count)) {
    return invalid(source, fmt::format("animation texture has {} joints, the skeleton {}",
                                       t.joint_count, joint_count));
  }
  if (t.width > kMaxAnimationTextureSize || t.height > kMaxAnimationTextureSize) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: animation texture {}x{} exceeds the limit of {} per side",
                              source, t.width, t.height, kMaxAnimationTextureSize));
  }
  if (t.frame_count == 0) return invalid(source, "animation texture has no frames");
  const uint64_t per_frame = 3ull * t.joint_count;
  if (t.width == 0) return invalid(source, "animation texture has width 0");
  uint64_t rows = 0;
  if (per_frame <= t.width) {
    if (t.frames_per_row == 0 || t.frames_per_row * per_frame > t.width) {
      return invalid(source, fmt::format("animation texture: {} frames of {} texels per row do "
                                         "not fit its width {}",
                                         t.frames_per_row, per_frame, t.width));
    }
    rows = (static_cast<uint64_t>(t.frame_count) + t.frames_per_row - 1) / t.frames_per_row;
  } else {
    // A frame wider than the texture spans rows of whole joints (animation_texture.h).
    if (t.frames_per_row != 1 || t.width % 3 != 0) {
      return invalid(source, fmt::format("animation texture: a frame of {} texels spans rows of "
                                         "{}, which needs a width that is a multiple of 3 and 1 "
                                         "frame per row (it has {})",
                                         per_frame, t.width, t.frames_per_row));
    }
    rows = static_cast<uint64_t>(t.frame_count) * t.rowsPerFrame();
  }
  if (rows != t.height) {
    return invalid(source, fmt::format("animation texture: {} frames of {} texels at width {} "
                                       "need {} rows, height is {}",
                                       t.frame_count, per_frame, t.width, rows, t.height));
  }
  const uint64_t channels = static_cast<uint64_t>(t.width) * t.height * 4;
  const bool is32 = t.format == TexelFormat::kRgba32F;
  const size_t stored = is32 ? t.texels32.size() : t.texels16.size();
  const size_t other = is32 ? t.texels16.size() : t.texels32.size();
  if (stored != channels || other != 0) {
    return invalid(source, fmt::format("animation texture {}x{} holds {} channels, expected {}",
                                       t.width, t.height, stored, channels));
  }
  for (size_t i = 0; i < stored; ++i) {
    const bool finite = is32 ? std::isfinite(t.texels32[i]) : halfIsFinite(t.texels16[i]);
    if (!finite) {
      const size_t texel = i / 4;
      return invalid(source, fmt::format("animation texture texel ({}, {}) is not finite",
                                         texel % t.width, texel / t.width));
    }
  }
  return {};
}

Status validateClips(const Package& p, std::string_view source) {
  if (p.clips.empty()) return invalid(source, "package has no clips");
  for (size_t c = 0; c < p.clips.size(); ++c) {
    const BakedClip& clip = p.clips[c];
    const std::string where = fmt::format("clip {} ('{}')", c, excerpt(clip.name));
    if (clip.frame_count == 0 ||
        static_cast<uint64_t>(clip.first_frame) + clip.frame_count > p.animation.frame_count) {
      return invalid(source,
                     fmt::format("{}: frames [{}, +{}) outside the texture's {} frames", where,
                                 clip.first_frame, clip.frame_count, p.animation.frame_count));
    }
    if (!(std::isfinite(clip.fps) && clip.fps > 0.0f)) {
      return invalid(source, fmt::format("{}: frame rate {} is not positive", where, clip.fps));
    }
    if (!finiteNonNegative(clip.duration)) {
      return invalid(source, fmt::format("{}: duration {} is not valid", where, clip.duration));
    }
    if (!isFinite(clip.bounds.min) || !isFinite(clip.bounds.max) ||
        glm::any(glm::greaterThan(clip.bounds.min, clip.bounds.max))) {
      return invalid(source, fmt::format("{}: bounds are not a finite box", where));
    }
    if (!clip.root_motion.empty() && clip.root_motion.size() != clip.frame_count) {
      return invalid(source, fmt::format("{}: {} root motion entries for {} frames", where,
                                         clip.root_motion.size(), clip.frame_count));
    }
    for (const glm::vec3& m : clip.root_motion) {
      if (!isFinite(m)) return invalid(source, where + ": non-finite root motion");
    }
    if (Status s = validateClipEvents(clip.events, clip.duration, source, clip.name); !s.ok()) {
      return s;
    }
  }
  return {};
}

// The morph animation against the LODs and the animation's frames (vertex_animation.h). Errors
// name the section, VATX, as a reader of the file would look for it.
Status validateMorph(const Package& p, std::string_view source) {
  const MorphAnimation& m = p.morph;
  const std::string where = fmt::format("{}: section VATX", source);
  for (size_t l = 0; l < p.lods.size(); ++l) {
    if (!p.lods[l].mesh.morph_targets.empty()) {
      return invalid(where, fmt::format("LOD {} mesh still has {} morph targets; a package holds "
                                        "them baked (bakeMorphAnimation)",
                                        l, p.lods[l].mesh.morph_targets.size()));
    }
  }
  if (m.kind == MorphBakeKind::kNone) {
    if (!m.lods.empty() || !m.targets.empty() || !m.frame_weights.empty() || m.max_error != 0.0f) {
      return invalid(where, "no morph animation, but textures, targets or weights");
    }
    return {};
  }
  if (m.kind != MorphBakeKind::kVertexFrames && m.kind != MorphBakeKind::kTargetDeltas) {
    return invalid(where, fmt::format("unknown morph kind {}", static_cast<int>(m.kind)));
  }
  if (!finiteNonNegative(m.max_error)) return invalid(where, "error is negative or not finite");
  const bool frames = m.kind == MorphBakeKind::kVertexFrames;
  const uint64_t frame_count = p.animation.frame_count;
  if (frames && (!m.targets.empty() || !m.frame_weights.empty())) {
    return invalid(where, "vertex frames with target names or weights");
  }
  if (!frames && (m.targets.empty() || m.frame_weights.size() != frame_count * m.targets.size())) {
    return invalid(where, fmt::format("{} weights for {} frames of {} targets",
                                      m.frame_weights.size(), frame_count, m.targets.size()));
  }
  for (size_t i = 0; i < m.frame_weights.size(); ++i) {
    if (!std::isfinite(m.frame_weights[i])) {
      return invalid(where, fmt::format("weight {} (frame {}, target {}) is not finite", i,
                                        i / m.targets.size(), i % m.targets.size()));
    }
  }
  if (m.lods.size() != p.lods.size()) {
    return invalid(where, fmt::format("{} LOD textures for {} LODs", m.lods.size(), p.lods.size()));
  }
  const uint64_t blocks = frames ? frame_count : m.targets.size();
  for (size_t l = 0; l < m.lods.size(); ++l) {
    const VertexTexture& t = m.lods[l];
    const std::string lod = fmt::format("LOD {} texture", l);
    if (t.format != m.lods[0].format) return invalid(where, lod + ": another texel format");
    if (t.vertex_count != p.lods[l].mesh.vertexCount() || t.block_count != blocks) {
      return invalid(where,
                     fmt::format("{}: {} vertices x {} blocks, the LOD has {} vertices and "
                                 "{} {}",
                                 lod, t.vertex_count, t.block_count, p.lods[l].mesh.vertexCount(),
                                 blocks, frames ? "frames" : "targets"));
    }
    if (t.width == 0 || t.width % 2 != 0 || t.width > kMaxAnimationTextureSize ||
        t.height > kMaxAnimationTextureSize) {
      return invalid(where, fmt::format("{}: {}x{} is not an even width within the limit of {}",
                                        lod, t.width, t.height, kMaxAnimationTextureSize));
    }
    const uint64_t texels = blocks * t.vertex_count * kVertexTexelsPerVertex;
    if (static_cast<uint64_t>(t.height) !=
        std::max<uint64_t>(1, (texels + t.width - 1) / t.width)) {
      return invalid(
          where, fmt::format("{}: {} texels at width {} need {} rows, height is {}", lod, texels,
                             t.width, (texels + t.width - 1) / t.width, t.height));
    }
    const uint64_t channels = static_cast<uint64_t>(t.width) * t.height * 4;
    const bool is32 = t.format == TexelFormat::kRgba32F;
    const size_t stored = is32 ? t.texels32.size() : t.texels16.size();
    const size_t other = is32 ? t.texels16.size() : t.texels32.size();
    if (stored != channels || other != 0) {
      return invalid(where, fmt::format("{}: {} channels, expected {}", lod, stored, channels));
    }
    for (size_t i = 0; i < stored; ++i) {
      if (!(is32 ? std::isfinite(t.texels32[i]) : halfIsFinite(t.texels16[i]))) {
        return invalid(where, fmt::format("{}: texel {} is not finite", lod, i / 4));
      }
    }
  }
  return {};
}

}  // namespace

Status validatePackage(const Package& p, std::string_view source) {
  const int joints = p.skeleton.jointCount();
  if (joints == 0) return invalid(source, "skeleton has no joints");
  if (p.lods.empty()) return invalid(source, "package has no mesh");
  for (size_t l = 0; l < p.lods.size(); ++l) {
    const MeshLod& lod = p.lods[l];
    const std::string where = fmt::format("{} LOD {}", source, l);
    if (lod.palette_joints.size() > static_cast<size_t>(kMaxJoints)) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("{}: palette of {} joints exceeds the limit of {}", where,
                                lod.palette_joints.size(), kMaxJoints));
    }
    for (size_t s = 0; s < lod.palette_joints.size(); ++s) {
      if (lod.palette_joints[s] >= joints) {
        return invalid(where, fmt::format("palette slot {} names joint {}, the skeleton has {}", s,
                                          lod.palette_joints[s], joints));
      }
    }
    if (!finiteNonNegative(lod.geometric_error) || !finiteNonNegative(lod.skinning_error) ||
        !finiteNonNegative(lod.max_distance) || !finiteNonNegative(lod.max_error) ||
        !finiteNonNegative(lod.p99_error)) {
      return invalid(where, "error or distance is negative or not finite");
    }
    if (lod.p99_error > lod.max_error) {
      return invalid(where, fmt::format("p99 error {} exceeds its max error {}", lod.p99_error,
                                        lod.max_error));
    }
    const int palette =
        lod.palette_joints.empty() ? joints : static_cast<int>(lod.palette_joints.size());
    if (Status s = validateMesh(lod.mesh, palette, where); !s.ok()) return s;
    if (Status s = validateSubMeshLooks(lod.mesh, p.materials, p.variants.size(), where); !s.ok()) {
      return s;
    }
    if (Status s = validateAttachmentGroups(lod.mesh.attachments, p.attachments.size(), where);
        !s.ok()) {
      return s;
    }
  }
  if (Status s = validateAttachments(p.attachments, p.masks, p.skeleton, source); !s.ok()) {
    return s;
  }
  for (size_t m = 0; m < p.materials.size(); ++m) {
    if (Status s = validateMaterial(p.materials[m], m, p.images.size(), source); !s.ok()) return s;
  }
  if (Status s = validateImageColorSpaces(p.materials, source); !s.ok()) return s;
  for (size_t i = 0; i < p.images.size(); ++i) {
    if (Status s = validatePackageImage(p.images[i], source, i); !s.ok()) return s;
  }
  if (Status s = validateTexture(p.animation, joints, source); !s.ok()) return s;
  if (Status s = validateMorph(p, source); !s.ok()) return s;
  if (Status s = validateClips(p, source); !s.ok()) return s;
  return validateImpostor(p.impostor, p.clips.size(), fmt::format("{}: section IMPS", source));
}

}  // namespace throng
