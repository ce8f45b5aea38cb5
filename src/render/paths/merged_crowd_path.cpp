// The merged paths: the joint encoding's choice, frames then palettes packed per visible agent,
// and the batches' draws.
#include "render/paths/merged_crowd_path.h"

#include <algorithm>

#include <fmt/core.h>

#include "render/gl_check.h"
#include "render/passes/pass_support.h"
#include "render/passes/playback_pass.h"
#include "throng/crowd/batch_palette.h"

namespace throng::render {
namespace {

// The instanced path stores tints as 8-bit RGBA; the merged paths get the same values so that
// every path colours a character alike.
glm::vec4 quantizedTint(const glm::vec4& tint) {
  return glm::round(glm::clamp(tint, 0.0f, 1.0f) * 255.0f) / 255.0f;
}

// The palettes' encoding: asked for, or 2 vec4 when every baked frame holds in it within
// kMaxQuatJointError of the character's height (measured once), else 3x4 rows; and why.
JointEncoding chooseEncoding(const Package& package, const CrowdRendererDesc& desc,
                             CrowdFacts& facts) {
  const QuatEncodingCheck check = checkQuatEncoding(package.animation, facts.reach);
  facts.quat_encoding_error = check.worst_error / facts.character_height;
  const bool quat_fits = facts.quat_encoding_error <= kMaxQuatJointError;
  const JointEncoding encoding =
      desc.joint_encoding.value_or(quat_fits ? JointEncoding::kQuatScale : JointEncoding::kRows);
  const std::string measured =
      fmt::format("{:.3g}% of the height at most over {} baked frames",
                  100.0f * facts.quat_encoding_error, package.animation.frame_count);
  if (desc.joint_encoding) {
    facts.joint_encoding_reason =
        fmt::format("{}: asked for (the 2-vec4 error: {})", jointEncodingName(encoding), measured);
  } else if (quat_fits) {
    facts.joint_encoding_reason =
        fmt::format("{}: error {}", jointEncodingName(encoding), measured);
  } else {
    facts.joint_encoding_reason = fmt::format(
        "{}: 2 vec4 would be off by {:.3g}% of the height (frame {}, joint {}: non-uniform scale, "
        "shear or mirroring), over the {:.3g}% allowed",
        jointEncodingName(encoding), 100.0f * facts.quat_encoding_error, check.frame, check.joint,
        100.0f * kMaxQuatJointError);
  }
  facts.joint_encoding = encoding;
  return encoding;
}

}  // namespace

Result<std::unique_ptr<MergedCrowdPath>> MergedCrowdPath::create(Device& device,
                                                                 const Package& package,
                                                                 const CrowdRendererDesc& desc,
                                                                 bool per_character,
                                                                 CrowdFacts& facts) {
  if (package.morph.kind != MorphBakeKind::kNone) {
    // Its vertices move by a texture (docs/morph.md) the vertex stage fetches.
    const char* path = per_character ? "per-character" : "merged";
    const std::string name = package.source.empty() ? "the package" : package.source;
    const Caps& caps = device.caps();
    if (caps.max_vertex_texture_image_units < 1) {
      return Status(ErrorCode::kUnsupported,
                    fmt::format("{} path: {} animates its vertices ({}), which needs vertex "
                                "texture fetch; the device has none "
                                "(GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS 0)",
                                path, name, morphBakeKindName(package.morph.kind)));
    }
    if (!caps.float_textures && !caps.half_float_textures) {
      return Status(ErrorCode::kUnsupported,
                    fmt::format("{} path: {} animates its vertices ({}), which needs float "
                                "textures; the device has neither OES_texture_float nor "
                                "OES_texture_half_float",
                                path, name, morphBakeKindName(package.morph.kind)));
    }
  }
  MergedBatchDesc merged_desc;
  merged_desc.max_vertex_uniform_vectors = desc.max_vertex_uniform_vectors;
  merged_desc.max_characters_per_batch = per_character ? 1 : 0;
  merged_desc.cull_back_faces = !desc.double_sided;
  merged_desc.max_fallback_error = desc.max_fallback_error;
  merged_desc.joint_encoding = chooseEncoding(package, desc, facts);
  merged_desc.shader = desc.shader;
  merged_desc.morph = &package.morph;
  merged_desc.morph_frame_count = package.animation.frame_count;
  if (desc.impostors && !package.impostor.empty()) {
    merged_desc.fade_lod = static_cast<int>(package.lods.size()) - 1;
  }
  Result<std::unique_ptr<MergedBatchRenderer>> merged =
      MergedBatchRenderer::create(device, package.lods, package.skeleton.jointCount(), merged_desc,
                                  Looks{package.materials, package.images});
  if (!merged.ok()) return merged.status();
  std::unique_ptr<MergedCrowdPath> path(new MergedCrowdPath(facts, device, per_character));
  path->renderer_ = std::move(merged).value();
  path->texture_ = package.animation;
  path->morph_ = package.morph.kind != MorphBakeKind::kNone;
  const MergedBatchRenderer& renderer = *path->renderer_;
  facts.drawn_lod.resize(facts.lods.size());
  for (int l = 0; l < facts.lodCount(); ++l) {
    const MergedLodInfo& info = renderer.lodInfo(l);
    LodDrawInfo& lod = facts.lod_info[l];
    facts.drawn_lod[l] = static_cast<uint8_t>(info.drawn_lod);
    lod.drawn_lod = info.drawn_lod;
    lod.joints = info.joints;
    lod.characters_per_draw = info.characters_per_batch;
    lod.triangles = facts.lod_info[info.drawn_lod].triangles;
    lod.error = info.error;
    lod.materials = facts.lod_info[info.drawn_lod].materials;
  }
  facts.warnings = renderer.warnings();
  return path;
}

Status MergedCrowdPath::pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) {
  const PassClock::time_point start = PassClock::now();
  growTo(frames_, in.frame.placements.size());
  const std::span<const PlaybackClip> clips(facts().playback_clips);
  forVisibleAgents(lists, in.frame.placements.size(), in.jobs, [&](uint32_t a, uint32_t, int) {
    frames_[a] = agentFrames(clips, in.frame.playback[a]);
  });
  stats.cpu_ms.playback = millisecondsSince(start);
  const PassClock::time_point palettes = PassClock::now();
  packPalettes(in, lists);
  packImpostors(in, lists);
  stats.cpu_ms.pack_upload = millisecondsSince(palettes);
  return Status::okStatus();
}

// Every visible agent's placed palette, LOD by LOD, in one array.
void MergedCrowdPath::packPalettes(const FrameInput& in, const AgentLists& lists) {
  const CrowdFacts& f = facts();
  const int lod_count = f.lodCount();
  const uint32_t visible = lists.visible;
  size_t rows = 0;
  const int mesh_lods = renderer_->lodCount();  // the impostor's LOD, if any, comes after
  for (int l = 0; l < mesh_lods; ++l) {
    rows += static_cast<size_t>(lists.lod_counts[l]) * f.lod_info[l].joints;
  }
  growTo(palettes_, rows);
  growTo(tints_, visible);
  growTo(agents_, visible);
  if (morph_) growTo(morph_frames_, static_cast<size_t>(visible) * kMorphVectorsPerCharacter);
  // Slot i (LOD l) starts at row_first[l] + (i - lod_first[l]) * joints of l.
  size_t row_first[kMaxLodLevels] = {};
  for (int l = 1; l < lod_count; ++l) {
    row_first[l] =
        row_first[l - 1] + static_cast<size_t>(lists.lod_counts[l - 1]) * f.lod_info[l - 1].joints;
  }
  const CrowdFrame& frame = in.frame;
  const uint32_t meshes = lod_count > mesh_lods ? lists.lod_first[mesh_lods] : visible;
  forChunks(
      in.jobs, meshes, in.jobs ? in.jobs->chunkFor(meshes, kMinPalettesPerChunk) : meshes,
      [&](size_t begin, size_t end) {
        int l = 0;
        for (size_t i = begin; i < end; ++i) {
          while (i >= lists.lod_first[l] + lists.lod_counts[l]) ++l;
          const std::span<const uint16_t> joints = renderer_->paletteJoints(l);
          const uint32_t a = lists.order[i];
          const size_t at = row_first[l] + (i - lists.lod_first[l]) * joints.size();
          const std::span<JointRows> out(palettes_.data() + at, joints.size());
          const LayerSample layer = agentLayer(f, frame, a);
          if (layer.weight > 0.0f) {
            layeredBakedPalette(texture_, frames_[a], layer, f.pivots,
                                placementMatrix(frame.placements[a]), joints, out);
          } else {
            bakedPalette(texture_, frames_[a], placementMatrix(frame.placements[a]), joints, out);
          }
          tints_[i] = quantizedTint(agentTint(in.settings, frame, a, l));
          const uint16_t variant = frame.variants.empty() ? uint16_t{0} : frame.variants[a];
          agents_[i] = glm::vec4(
              static_cast<float>(agentId(frame, a)), static_cast<float>(agentStateByte(frame, a)),
              static_cast<float>(variant), mergedLodAndProps(l, agentAttachments(frame, a)));
          if (morph_) {
            // The morph texture's frames, as the palette's (FrameMorphJob's arithmetic).
            const InstanceFrames& fr = frames_[a];
            glm::vec4* m = morph_frames_.data() + i * kMorphVectorsPerCharacter;
            m[0] = glm::vec4(
                static_cast<float>(fr.primary.frame_a), static_cast<float>(fr.primary.frame_b),
                static_cast<float>(fr.secondary.frame_a), static_cast<float>(fr.secondary.frame_b));
            m[1] = glm::vec4(fr.primary.blend, fr.secondary.blend, fr.fade, 0.0f);
          }
        }
      });
}

void MergedCrowdPath::packImpostors(const FrameInput& in, const AgentLists& lists) {
  const int lod = facts().impostor_lod;
  impostor_agents_.clear();
  fades_.clear();
  if (!impostors_ || lod < 1 || static_cast<size_t>(lod) >= lists.lod_counts.size()) return;
  const uint32_t first = lists.lod_first[lod];
  const uint32_t count = lists.lod_counts[lod];
  impostor_agents_.resize(count);
  const CrowdFrame& frame = in.frame;
  // The cross-fade: the last mesh LOD's agents in the band, weighed by distance as
  // instanced.vert does; each is drawn both ways behind the screen door.
  const glm::vec2 band = impostorFadeBand(facts(), in, deviceHeight());
  if (band.y > 0.0f) {
    const uint32_t fade_first = lists.lod_first[lod - 1];
    fades_.resize(lists.lod_counts[lod - 1]);
    for (size_t i = 0; i < fades_.size(); ++i) {
      const uint32_t a = lists.order[fade_first + i];
      const Placement& placement = frame.placements[a];
      fades_[i] = std::clamp(
          (glm::length(placement.position - in.view.eye) / placement.scale - band.x) * band.y, 0.0f,
          1.0f);
      if (fades_[i] <= 0.0f) continue;
      impostor_agents_.push_back(impostors_->agentOf(
          placement, frame.playback[a], quantizedTint(agentTint(in.settings, frame, a, lod - 1)),
          agentId(frame, a), agentStateByte(frame, a), -fades_[i]));
    }
  }
  if (count == 0) return;
  forChunks(in.jobs, count, in.jobs ? in.jobs->chunkFor(count, kMinPalettesPerChunk) : count,
            [&](size_t begin, size_t end) {
              for (size_t i = begin; i < end; ++i) {
                const uint32_t a = lists.order[first + i];
                impostor_agents_[i] =
                    impostors_->agentOf(frame.placements[a], frame.playback[a],
                                        quantizedTint(agentTint(in.settings, frame, a, lod)),
                                        agentId(frame, a), agentStateByte(frame, a), -1.0f);
              }
            });
}

Status MergedCrowdPath::prepareImpostors(const Device& device, const Package& package,
                                         const CrowdRendererDesc& desc, int lod) {
  ImpostorBatching batching;
  batching.max_vertex_uniform_vectors = desc.max_vertex_uniform_vectors;
  batching.max_agents_per_draw = per_character_ ? 1 : 0;
  Result<std::unique_ptr<ImpostorRenderer>> made =
      ImpostorRenderer::createBatched(device, package, lod, desc.shader.get(), batching);
  if (!made.ok()) return made.status();
  impostors_ = std::move(made).value();
  return Status::okStatus();
}

Status MergedCrowdPath::submit(const FrameInput& in, const AgentLists& lists,
                               CrowdFrameStats& stats) {
  const PassClock::time_point start = PassClock::now();
  const CrowdFacts& f = facts();
  renderer_->beginFrame(in.view, in.shading, in.pass);
  // Opaque materials of every LOD, then the blended ones (their batches' palettes go up again);
  // the depth pass draws both at once.
  const std::optional<MaterialPass> color_passes[] = {MaterialPass::kOpaque, MaterialPass::kBlend};
  const std::optional<MaterialPass> depth_passes[] = {std::nullopt};
  const std::span<const std::optional<MaterialPass>> passes =
      in.pass == DrawPass::kDepth ? std::span<const std::optional<MaterialPass>>(depth_passes)
                                  : std::span<const std::optional<MaterialPass>>(color_passes);
  const int mesh_lods = renderer_->lodCount();
  uint32_t impostor_draws = 0;
  Status s;
  for (const std::optional<MaterialPass> pass : passes) {
    size_t at = 0;
    for (int l = 0; l < mesh_lods; ++l) {
      const uint32_t count = lists.lod_counts[l];
      if (count == 0) continue;
      const size_t rows = static_cast<size_t>(count) * f.lod_info[l].joints;
      const uint32_t first = lists.lod_first[l];
      const bool faded = !fades_.empty() && l == f.impostor_lod - 1;
      renderer_->drawCharacters(
          l, std::span<const JointRows>(palettes_.data() + at, rows),
          std::span<const glm::vec4>(tints_.data() + first, count), pass,
          std::span<const glm::vec4>(agents_.data() + first, count),
          faded ? std::span<const float>(fades_) : std::span<const float>(),
          morph_ ? std::span<const glm::vec4>(
                       morph_frames_.data() + size_t{first} * kMorphVectorsPerCharacter,
                       size_t{count} * kMorphVectorsPerCharacter)
                 : std::span<const glm::vec4>());
      at += rows;
    }
    // The impostors after the opaque meshes (they are cut out, not blended).
    if (impostors_ && pass != MaterialPass::kBlend && s.ok()) {
      s = impostors_->drawAgents(in.view, impostor_agents_, in.shading, in.pass, impostor_draws);
    }
  }
  const MergedFrameStats drawn = renderer_->endFrame();
  if (s.ok()) s = renderer_->frameStatus();
  if (s.ok()) s = checkGl("crowd renderer: merged draw");
  stats.cpu_ms.submit = millisecondsSince(start);
  stats.draw_calls = static_cast<uint32_t>(drawn.draw_calls) + impostor_draws;
  stats.triangles = drawn.triangles + uint64_t{2} * (impostors_ ? impostor_agents_.size() : 0);
  return s;
}

}  // namespace throng::render
