// CrowdRenderer: path choice from the caps, then per frame the crowd jobs and the path's draws.
#include "throng/render/crowd_renderer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include <fmt/core.h>

#include "throng/crowd/batch_palette.h"
#include "throng/crowd/culling.h"
#include "throng/crowd/lod_select.h"
#include "throng/crowd/lod_sort.h"
#include "throng/render/gl_check.h"

namespace throng::render {
namespace {

constexpr const char* kPathNames[kRenderPathCount] = {"auto", "instanced", "merged",
                                                      "per-character", "gpu"};

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The instanced path stores tints as 8-bit RGBA; the merged paths get the same values so that
// every path colours a character alike.
glm::vec4 quantizedTint(const glm::vec4& tint) {
  return glm::round(glm::clamp(tint, 0.0f, 1.0f) * 255.0f) / 255.0f;
}

// Debug colours of the LODs, finest first.
const glm::vec4 kLodColors[] = {
    {0.30f, 0.85f, 0.35f, 1.0f}, {0.75f, 0.90f, 0.25f, 1.0f}, {1.00f, 0.85f, 0.20f, 1.0f},
    {1.00f, 0.55f, 0.15f, 1.0f}, {0.95f, 0.25f, 0.20f, 1.0f}, {0.85f, 0.30f, 0.80f, 1.0f},
    {0.40f, 0.45f, 1.00f, 1.0f}, {0.25f, 0.85f, 0.95f, 1.0f},
};
// Default shadow radius against the character's bind-pose footprint, and its bounds in heights
// (a T-pose's arms make the footprint wide; a thin mesh still casts a visible shadow).
constexpr float kShadowFootprintScale = 0.8f;
constexpr float kMinShadowRadius = 0.15f;
constexpr float kMaxShadowRadius = 0.35f;

template <typename T>
void growTo(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

// Smallest chunks handed to the job system: below these the hand-over costs more than the work
// saved (a chunk of agents' playback or cull takes ~20 us; a palette ~1 us per joint row).
constexpr size_t kMinAgentsPerChunk = 4096;
// lod_'s mark of an agent outside the view: one byte holds an agent's LOD or this, so a crowd's
// renderer draws at most kMaxDrawnLods LODs.
constexpr uint8_t kCulled = 255;
constexpr size_t kMaxDrawnLods = kCulled;
constexpr size_t kMinPalettesPerChunk = 64;

// fn(begin, end) over chunks of `chunk` items: on the job system's threads, or in order on the
// calling thread when there is none.
template <typename Fn>
void forChunks(JobSystem* jobs, size_t count, size_t chunk, Fn&& fn) {
  if (jobs) {
    jobs->parallelFor(count, chunk, fn);
    return;
  }
  for (size_t begin = 0; begin < count; begin += chunk) fn(begin, std::min(count, begin + chunk));
}

}  // namespace

const char* renderPathName(RenderPath path) {
  const int i = static_cast<int>(path);
  return i < kRenderPathCount ? kPathNames[i] : "?";
}

glm::vec4 lodDebugColor(int lod) {
  constexpr int n = static_cast<int>(std::size(kLodColors));
  return kLodColors[((lod % n) + n) % n];
}

std::optional<RenderPath> renderPathFromName(std::string_view name) {
  for (int i = 0; i < kRenderPathCount; ++i) {
    if (name == kPathNames[i]) return static_cast<RenderPath>(i);
  }
  return std::nullopt;
}

CrowdRenderer::CrowdRenderer(Device& device, const Package& package, const CrowdRendererDesc& desc)
    : device_(&device),
      path_(desc.path),
      fixed_lod_(desc.fixed_lod),
      tint_(desc.tint),
      ground_(desc.ground),
      lod_tint_(desc.lod_tint),
      state_tints_(desc.state_tints),
      jobs_(desc.jobs) {
  const std::string source = package.source.empty() ? "package" : package.source;
  lod_threshold_pixels_ =
      desc.lod_threshold_pixels > 0.0f ? desc.lod_threshold_pixels : kDefaultLodThresholdPx;
  if (static_cast<int>(desc.path) >= kRenderPathCount) {
    status_ = Status(
        ErrorCode::kInvalidArgument,
        fmt::format("crowd renderer: render path {} does not exist", static_cast<int>(desc.path)));
    return;
  }
  if (package.lods.empty() || package.clips.empty()) {
    status_ = Status(ErrorCode::kInvalidData,
                     fmt::format("{}: a crowd needs at least one LOD and one clip ({} LODs, {} "
                                 "clips)",
                                 source, package.lods.size(), package.clips.size()));
    return;
  }
  if (package.lods.size() > kMaxDrawnLods) {
    status_ = Status(ErrorCode::kLimitExceeded,
                     fmt::format("{}: {} LODs, more than the {} a crowd can pick from", source,
                                 package.lods.size(), kMaxDrawnLods));
    return;
  }
  if (desc.fixed_lod &&
      (*desc.fixed_lod < 0 || *desc.fixed_lod >= static_cast<int>(package.lods.size()))) {
    status_ = Status(ErrorCode::kInvalidArgument,
                     fmt::format("{}: LOD {} asked for; the package has LODs 0..{}", source,
                                 *desc.fixed_lod, package.lods.size() - 1));
    return;
  }
  if (Status s = device.makeCurrent(); !s.ok()) {
    status_ = s;
    return;
  }
  clips_ = package.clips;
  for (const BakedClip& clip : clips_) {
    clip_spheres_.push_back(clipAxisSphere(clip.bounds));
    playback_clips_.push_back(playbackClip(clip));
  }
  const Bounds bind = computeBounds(package.lods[0].mesh.positions);
  character_height_ = std::max(bind.size().y, 1e-3f);
  character_footprint_ =
      std::clamp(0.5f * kShadowFootprintScale * std::max(bind.size().x, bind.size().z),
                 kMinShadowRadius * character_height_, kMaxShadowRadius * character_height_);
  const int skeleton_joints = package.skeleton.jointCount();
  for (const MeshLod& lod : package.lods) {
    LodDrawInfo info;
    info.drawn_lod = static_cast<int>(lod_info_.size());
    info.error = lod.max_error;
    info.joints =
        lod.palette_joints.empty() ? skeleton_joints : static_cast<int>(lod.palette_joints.size());
    info.triangles = lod.mesh.triangleCount();
    std::vector<uint32_t> grouped;
    info.materials =
        static_cast<int>(groupIndicesByMaterial(lod.mesh, package.materials, grouped)->size());
    lod_info_.push_back(info);
    MeshLod limits = lod;  // everything the LOD rule may read, but not the mesh
    limits.mesh = {};
    lods_.push_back(std::move(limits));
  }
  reach_ = lodReach(package.lods);
  choosePath(package, desc);
  if (!status_.ok()) {
    gpu_.reset();
    instanced_.reset();
    merged_.reset();
    return;
  }
  setLodTint(lod_tint_);
  stats_.agents_per_lod.assign(lods_.size(), 0);
  lod_counts_.assign(lods_.size(), 0);
  lod_first_.assign(lods_.size(), 0);
}

CrowdRenderer::~CrowdRenderer() = default;
CrowdRenderer::CrowdRenderer(CrowdRenderer&&) noexcept = default;
CrowdRenderer& CrowdRenderer::operator=(CrowdRenderer&&) noexcept = default;

namespace {

InstancedRendererOptions instancedOptions(const CrowdRendererDesc& desc) {
  InstancedRendererOptions options;
  options.cull_back_faces = !desc.double_sided;
  options.shared_texture = desc.animation_texture;
  options.shared_slot = desc.animation_texture_slot;
  options.palette_pass = desc.palette_pass;
  return options;
}

}  // namespace

void CrowdRenderer::choosePath(const Package& package, const CrowdRendererDesc& desc) {
  const Caps& caps = device_->caps();
  const std::string es = fmt::format("OpenGL ES {}.{}", caps.gles_major, caps.gles_minor);
  RenderPath path = desc.path;
  if (path == RenderPath::kAuto) {
    const bool es3 = caps.gles_major >= 3;
    const bool float_textures = caps.float_textures || caps.half_float_textures;
    const bool vertex_textures = caps.max_vertex_texture_image_units > 0;
    const bool compute = caps.compute &&
                         caps.max_compute_shader_storage_blocks >= kGpuCrowdStorageBlocks &&
                         caps.max_compute_image_uniforms >= 1;
    // The gpu path draws no blob shadows yet (they need the visible agents on the CPU).
    const bool shadows = desc.ground.shadows;
    // Nor material variants (its compute pass carries no appearances).
    const bool variants = !package.variants.empty();
    if (es3 && compute && !shadows && !variants && caps.instancing && float_textures &&
        vertex_textures) {
      Status gpu = createGpu(package, desc);
      if (gpu.ok()) {
        path_ = RenderPath::kGpu;
        reason_ = fmt::format(
            "{} with compute shaders ({} storage buffers per compute shader, {} per vertex "
            "shader, blocks up to {} MB): the GPU simulates, plays back, culls and picks LODs; "
            "the {}x{} animation texture fits GL_MAX_TEXTURE_SIZE {}",
            es, caps.max_compute_shader_storage_blocks, caps.max_vertex_shader_storage_blocks,
            caps.max_shader_storage_block_size >> 20, instanced_->textureWidth(),
            instanced_->textureHeight(), caps.max_texture_size);
        return;
      }
      if (gpu.code() != ErrorCode::kLimitExceeded && gpu.code() != ErrorCode::kUnsupported) {
        status_ = gpu;
        return;
      }
      gpu_.reset();
      instanced_.reset();
    }
    if (es3 && caps.instancing && float_textures && vertex_textures) {
      Result<std::unique_ptr<InstancedRenderer>> instanced =
          InstancedRenderer::create(*device_, package, instancedOptions(desc));
      if (instanced.ok()) {
        instanced_ = std::move(instanced).value();
        path_ = RenderPath::kInstanced;
        reason_ = fmt::format(
            "{} with instancing, float textures and vertex texture fetch{}; the {}x{} animation "
            "texture fits GL_MAX_TEXTURE_SIZE {}",
            es,
            !caps.compute ? " (no ES 3.1 compute: the CPU feeds the instances)"
            : shadows     ? " (blob shadows asked for, which the gpu path does not draw yet)"
            : variants    ? " (material variants, which the gpu path does not draw yet)"
                          : "",
            instanced_->textureWidth(), instanced_->textureHeight(), caps.max_texture_size);
        return;
      }
      if (instanced.status().code() != ErrorCode::kLimitExceeded) {
        status_ = instanced.status();
        return;
      }
      path = RenderPath::kMerged;
      reason_ = fmt::format("the animation texture is too large for this {} device ({})", es,
                            instanced.status().message());
    } else if (caps.gles_major == 2) {
      path = RenderPath::kMerged;
      reason_ = fmt::format("{}: no instancing or texelFetch, palettes go in uniforms", es);
    } else {
      path = RenderPath::kPerCharacter;
      std::string missing;
      if (!caps.instancing) missing += "instancing";
      if (!float_textures) missing += std::string(missing.empty() ? "" : ", ") + "float textures";
      if (!vertex_textures) {
        missing += std::string(missing.empty() ? "" : ", ") + "vertex texture fetch";
      }
      reason_ = fmt::format("{} without {}", es, missing);
    }
  } else {
    reason_ = "asked for";
  }
  path_ = path;
  switch (path) {
    case RenderPath::kInstanced: {
      Result<std::unique_ptr<InstancedRenderer>> instanced =
          InstancedRenderer::create(*device_, package, instancedOptions(desc));
      if (!instanced.ok()) {
        status_ = instanced.status();
        return;
      }
      instanced_ = std::move(instanced).value();
      return;
    }
    case RenderPath::kMerged:
    case RenderPath::kPerCharacter:
      status_ = createMerged(package, desc, path == RenderPath::kPerCharacter);
      return;
    case RenderPath::kGpu:
      status_ = createGpu(package, desc);
      return;
    case RenderPath::kAuto:
      break;
  }
}

Status CrowdRenderer::createGpu(const Package& package, const CrowdRendererDesc& desc) {
  Result<std::unique_ptr<InstancedRenderer>> instanced =
      InstancedRenderer::create(*device_, package, instancedOptions(desc));
  if (!instanced.ok()) return instanced.status();
  instanced_ = std::move(instanced).value();
  Result<std::unique_ptr<GpuCrowd>> gpu = GpuCrowd::create(*device_, package, *instanced_);
  if (!gpu.ok()) return gpu.status();
  gpu_ = std::move(gpu).value();
  for (int l = 0; l < kGpuLodColors; ++l) gpu_lod_colors_[l] = lodDebugColor(l);
  return Status::okStatus();
}

Status CrowdRenderer::createMerged(const Package& package, const CrowdRendererDesc& desc,
                                   bool per_character) {
  MergedBatchDesc merged_desc;
  merged_desc.max_vertex_uniform_vectors = desc.max_vertex_uniform_vectors;
  merged_desc.max_characters_per_batch = per_character ? 1 : 0;
  merged_desc.cull_back_faces = !desc.double_sided;
  merged_desc.max_fallback_error = desc.max_fallback_error;
  // The 2-vec4 encoding holds similarity transforms only: measure every baked frame, once.
  const QuatEncodingCheck check = checkQuatEncoding(package.animation, reach_);
  quat_encoding_error_ = check.worst_error / character_height_;
  const bool quat_fits = quat_encoding_error_ <= kMaxQuatJointError;
  merged_desc.joint_encoding =
      desc.joint_encoding.value_or(quat_fits ? JointEncoding::kQuatScale : JointEncoding::kRows);
  const std::string measured =
      fmt::format("{:.3g}% of the height at most over {} baked frames",
                  100.0f * quat_encoding_error_, package.animation.frame_count);
  if (desc.joint_encoding) {
    joint_encoding_reason_ = fmt::format("{}: asked for (the 2-vec4 error: {})",
                                         jointEncodingName(merged_desc.joint_encoding), measured);
  } else if (quat_fits) {
    joint_encoding_reason_ =
        fmt::format("{}: error {}", jointEncodingName(merged_desc.joint_encoding), measured);
  } else {
    joint_encoding_reason_ = fmt::format(
        "{}: 2 vec4 would be off by {:.3g}% of the height (frame {}, joint {}: non-uniform scale, "
        "shear or mirroring), over the {:.3g}% allowed",
        jointEncodingName(merged_desc.joint_encoding), 100.0f * quat_encoding_error_, check.frame,
        check.joint, 100.0f * kMaxQuatJointError);
  }
  joint_encoding_ = merged_desc.joint_encoding;
  Result<std::unique_ptr<MergedBatchRenderer>> merged =
      MergedBatchRenderer::create(*device_, package.lods, package.skeleton.jointCount(),
                                  merged_desc, Looks{package.materials, package.images});
  if (!merged.ok()) return merged.status();
  merged_ = std::move(merged).value();
  texture_ = package.animation;
  drawn_lod_.resize(lods_.size());
  for (int l = 0; l < lodCount(); ++l) {
    const MergedLodInfo& info = merged_->lodInfo(l);
    drawn_lod_[l] = static_cast<uint8_t>(info.drawn_lod);
    lod_info_[l].drawn_lod = info.drawn_lod;
    lod_info_[l].joints = info.joints;
    lod_info_[l].characters_per_draw = info.characters_per_batch;
    lod_info_[l].triangles = lod_info_[info.drawn_lod].triangles;
    lod_info_[l].error = info.error;
    lod_info_[l].materials = lod_info_[info.drawn_lod].materials;
  }
  warnings_ = merged_->warnings();
  return Status::okStatus();
}

LodDrawInfo CrowdRenderer::lodInfo(int lod) const {
  if (!ok() || lod < 0 || lod >= lodCount()) return {};
  return lod_info_[lod];
}

void CrowdRenderer::setLodThresholdPixels(float pixels) {
  lod_threshold_pixels_ = pixels > 0.0f ? pixels : kDefaultLodThresholdPx;
}

AgentDrawInfo CrowdRenderer::agentDrawInfo(uint32_t agent) const {
  AgentDrawInfo info;
  if (!ok()) return info;
  const uint32_t visible = stats_.visible;
  int draw_call = 0;
  for (int l = 0; l < lodCount(); ++l) {
    const uint32_t count = lod_counts_[l];
    if (count == 0) continue;
    // Instanced: one draw per LOD; merged paths: K characters per draw.
    const uint32_t per_draw =
        instanced_ ? count : static_cast<uint32_t>(std::max(1, lod_info_[l].characters_per_draw));
    for (uint32_t i = lod_first_[l]; i < lod_first_[l] + count && i < visible; ++i) {
      if (order_[i] != agent) continue;
      const uint32_t k = i - lod_first_[l];
      info.visible = true;
      info.lod = l;
      info.drawn_lod = lod_info_[l].drawn_lod;
      info.draw_call = draw_call + static_cast<int>(k / per_draw);
      info.slot = static_cast<int>(k % per_draw);
      return info;
    }
    draw_call += static_cast<int>((count + per_draw - 1) / per_draw);
  }
  return info;
}

Status CrowdRenderer::readInstanceRecords(std::vector<InstanceRecord>& out) const {
  if (!ok()) return status_;
  if (!instanced_ || gpu_)
    return Status(ErrorCode::kUnsupported,
                  fmt::format("crowd renderer: the {} path keeps no instance records on the CPU's "
                              "side",
                              renderPathName(path_)));
  out.resize(instanced_->uploadedCount());
  return instanced_->readRecords(out);
}

void CrowdRenderer::setLodTint(bool on) {
  lod_tint_ = on;
  // The debug colour alone shows, not multiplied by the materials.
  if (instanced_) instanced_->setPlainMaterials(on);
  if (merged_) merged_->setPlainMaterials(on);
}

glm::vec4 CrowdRenderer::agentTint(const CrowdFrame& frame, uint32_t agent, int lod) const {
  if (lod_tint_) return lodDebugColor(lod);
  glm::vec4 tint = frame.tints.empty() || !tint_ ? glm::vec4(1.0f) : frame.tints[agent];
  if (state_tints_ && !frame.states.empty()) {
    tint *= (*state_tints_)[static_cast<int>(frame.states[agent])];
  }
  return tint;
}

Status CrowdRenderer::drawGround(const FrameView& view, const CrowdFrame& frame, uint32_t visible) {
  if (!ground_.grid && !ground_.shadows) return Status::okStatus();
  const Clock::time_point start = Clock::now();
  if (!ground_renderer_) {
    Result<std::unique_ptr<GroundRenderer>> made = GroundRenderer::create(*device_);
    if (!made.ok()) return made.status();
    ground_renderer_ = std::move(made).value();
  }
  GroundDesc desc = ground_;
  if (!(desc.cell > 0.0f)) desc.cell = 0.5f * character_height_;
  const float radius = desc.shadow_radius > 0.0f ? desc.shadow_radius : character_footprint_;
  uint32_t count = 0;
  if (desc.shadows) {
    growTo(shadows_, visible);
    for (uint32_t i = 0; i < visible; ++i) {
      const Placement& p = frame.placements[order_[i]];
      shadows_[count++] = {glm::vec3(p.position.x, desc.height, p.position.z),
                           radius * std::abs(p.scale)};
    }
  }
  Status s =
      ground_renderer_->draw(view, desc, std::span<const BlobShadow>(shadows_.data(), count));
  stats_.ground_draw_calls = ground_renderer_->drawCalls();
  stats_.cpu_ms.ground = millisecondsSince(start);
  return s;
}

void CrowdRenderer::update(Crowd& crowd, float seconds) {
  const Clock::time_point start = Clock::now();
  if (gpu_) {
    if (Status s = gpu_->update(crowd, seconds); !s.ok() && update_status_.ok()) update_status_ = s;
  } else {
    crowd.update(seconds, jobs_);
  }
  pending_update_ms_ += millisecondsSince(start);
}

Result<bool> CrowdRenderer::readBack(Crowd& crowd, bool wait) {
  if (!ok()) return status_;
  if (!gpu_) return true;
  return gpu_->readBack(crowd, wait);
}

void CrowdRenderer::beginStats(uint32_t agents) {
  std::fill(stats_.agents_per_lod.begin(), stats_.agents_per_lod.end(), 0u);
  stats_.agents = agents;
  stats_.visible = 0;
  stats_.draw_calls = 0;
  stats_.triangles = 0;
  stats_.ground_draw_calls = 0;
  stats_.counts_lag = 0;
  stats_.palette_pass = false;
  stats_.cpu_ms = {};
  stats_.cpu_ms.update = pending_update_ms_;
  pending_update_ms_ = 0.0;
}

// The gpu path's counters: the draws issued now, then the GPU's counts.
void CrowdRenderer::gpuStats() {
  stats_.agents = gpu_->agentCount();
  stats_.draw_calls = instanced_->stats().draw_calls;
  stats_.animation_texture_binds = instanced_->stats().animation_texture_binds;
  gpuCounts();
}

// The counts of the newest frame the GPU has finished (read back without waiting).
void CrowdRenderer::gpuCounts() const {
  const GpuFrameCounts& counts = gpu_->counts();
  stats_.counts_lag = static_cast<uint32_t>(gpu_->framesDrawn() - counts.frame);
  std::fill(stats_.agents_per_lod.begin(), stats_.agents_per_lod.end(), 0u);
  stats_.visible = 0;
  stats_.triangles = 0;
  if (counts.frame == 0) return;
  for (int l = 0; l < lodCount(); ++l) {
    stats_.agents_per_lod[l] = counts.agents_per_lod[l];
    stats_.triangles += uint64_t{counts.agents_per_lod[l]} * lod_info_[l].triangles;
  }
  stats_.visible = counts.visible;
}

const CrowdFrameStats& CrowdRenderer::stats() const {
  if (ok() && gpu_) gpuCounts();
  return stats_;
}

Status CrowdRenderer::draw(const FrameView& view, const Crowd& crowd,
                           std::span<const glm::vec4> tints) {
  if (crowd.characterCount() > 1) {
    return Status(ErrorCode::kInvalidArgument,
                  "a mixed crowd: draw each character's agents with its own renderer "
                  "(CharacterGatherJob)");
  }
  if (!ok() || !gpu_) {
    return draw(view, CrowdFrame{crowd.placements(), crowd.playback(), tints, crowd.states(),
                                 crowd.variants()});
  }
  beginStats(crowd.agentCount());
  Status s = update_status_;
  update_status_ = Status::okStatus();
  if (!s.ok()) return s;
  const Clock::time_point start = Clock::now();
  GpuDrawOptions options;
  options.fixed_lod = fixed_lod_.value_or(-1);
  options.lod_view = lodViewOf(view, device_->height(), lod_threshold_pixels_);
  options.lod_view.reach = reach_;
  options.state_tints = state_tints_ ? &*state_tints_ : nullptr;
  options.lod_colors = lod_tint_ ? &gpu_lod_colors_ : nullptr;
  // The ground's grid (blob shadows need the visible agents, which the GPU keeps).
  if (s = drawGround(view, CrowdFrame{}, 0); !s.ok()) {
    if (s.code() == ErrorCode::kGlError) status_ = s;
    return s;
  }
  // CrowdRendererDesc::tint off: every agent shows its material.
  s = gpu_->draw(view, crowd, tint_ ? tints : std::span<const glm::vec4>(), options);
  stats_.cpu_ms.submit = millisecondsSince(start);
  gpuStats();
  // After a GL error GL's state is undefined: the renderer stops (as on the other paths).
  if (s.code() == ErrorCode::kGlError) status_ = s;
  return s;
}

Status CrowdRenderer::draw(const FrameView& view, const CrowdFrame& frame) {
  if (!ok()) return status_;
  const size_t n = frame.placements.size();
  if (frame.playback.size() != n || (!frame.tints.empty() && frame.tints.size() != n) ||
      (!frame.states.empty() && frame.states.size() != n) ||
      (!frame.variants.empty() && frame.variants.size() != n)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("crowd renderer: {} placements, {} playback states, {} tints, {} "
                              "agent states and {} variants (each must be one per agent; tints, "
                              "states and variants may be none)",
                              n, frame.playback.size(), frame.tints.size(), frame.states.size(),
                              frame.variants.size()));
  }
  beginStats(static_cast<uint32_t>(n));
  if (gpu_) {
    const Clock::time_point start = Clock::now();
    GpuDrawOptions options;
    options.fixed_lod = fixed_lod_.value_or(-1);
    options.lod_view = lodViewOf(view, device_->height(), lod_threshold_pixels_);
    options.lod_view.reach = reach_;
    options.lod_colors = lod_tint_ ? &gpu_lod_colors_ : nullptr;
    if (Status g = drawGround(view, CrowdFrame{}, 0); !g.ok()) {
      if (g.code() == ErrorCode::kGlError) status_ = g;
      return g;
    }
    // Span-given agents all stand idle on the GPU: their states' tints are folded in here.
    std::span<const glm::vec4> tints = tint_ ? frame.tints : std::span<const glm::vec4>();
    if (state_tints_ && !frame.states.empty() && !lod_tint_) {
      growTo(tints_, n);
      for (uint32_t a = 0; a < n; ++a) tints_[a] = agentTint(frame, a, 0);
      tints = std::span<const glm::vec4>(tints_.data(), n);
    }
    Status s = gpu_->draw(view, frame.placements, frame.playback, tints, options);
    stats_.cpu_ms.submit = millisecondsSince(start);
    gpuStats();
    if (s.code() == ErrorCode::kGlError) status_ = s;
    return s;
  }
  growTo(lod_, n);
  growTo(order_, n);

  // Fixed chunks of agents (JobSystem): each chunk's passes write only the chunk's agents' entries
  // (and, in the second pass, the slots the chunk's cursors hand out), and the steps across chunks
  // (counts, cursors) run in chunk order, so the output is the same whatever the thread count.
  const size_t chunk = jobs_ ? jobs_->chunkFor(n, kMinAgentsPerChunk) : std::max<size_t>(n, 1);
  const size_t chunks = (n + chunk - 1) / chunk;
  const size_t lod_count = lods_.size();
  growTo(chunk_cursors_, chunks * lod_count);
  std::fill_n(chunk_cursors_.begin(), chunks * lod_count, 0u);

  // First pass: culling (the clips' axis spheres) and the LOD pick, both without a sine, cosine,
  // square root or division per agent; lod_[a] = the LOD agent a is drawn with, or kCulled.
  Clock::time_point start = Clock::now();
  const FrustumLanes frustum = frustumLanes(frustumFromViewProjection(view.view_projection));
  LodView lod_view = lodViewOf(view, device_->height(), lod_threshold_pixels_);
  lod_view.reach = reach_;
  const LodRule rule(lods_, lod_view);
  const int fixed_lod = fixed_lod_.value_or(-1);
  const size_t clip_count = clips_.size();
  std::atomic<bool> bad_clip = false;
  forChunks(jobs_, n, chunk, [&](size_t begin, size_t end) {
    // Counted on the stack, stored once: chunks' counts share cache lines.
    uint32_t counts[kMaxDrawnLods];
    std::fill_n(counts, lod_count, 0u);
    bool bad = false;
    for (size_t a = begin; a < end; ++a) {
      const AgentPlayback& p = frame.playback[a];
      if (p.clip >= clip_count || p.previous_clip >= clip_count) {
        bad = true;
        lod_[a] = kCulled;
        continue;
      }
      AxisSphere local = clip_spheres_[p.clip];
      if (p.fade > 0.0f) local = mergeAxisSpheres(local, clip_spheres_[p.previous_clip]);
      const Placement& placement = frame.placements[a];
      if (!axisSphereInFrustum(frustum, local, placement)) {
        lod_[a] = kCulled;
        continue;
      }
      int l = fixed_lod >= 0 ? fixed_lod : rule.pick(placement);
      if (!drawn_lod_.empty()) l = drawn_lod_[l];
      lod_[a] = static_cast<uint8_t>(l);
      ++counts[l];
    }
    std::copy_n(counts, lod_count, chunk_cursors_.data() + (begin / chunk) * lod_count);
    if (bad) bad_clip = true;
  });
  if (bad_clip) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("crowd renderer: an agent plays a clip the package lacks (it has {} "
                              "clips)",
                              clips_.size()));
  }
  stats_.cpu_ms.cull = millisecondsSince(start);
  // Agents per LOD; then each chunk's first slot per LOD, after the earlier chunks' (agents end
  // up by LOD, then by index: a stable counting sort).
  start = Clock::now();
  std::fill(lod_counts_.begin(), lod_counts_.end(), 0u);
  for (size_t c = 0; c < chunks; ++c) {
    for (size_t l = 0; l < lod_count; ++l) lod_counts_[l] += chunk_cursors_[c * lod_count + l];
  }
  lodOffsets(lod_counts_, lod_first_);
  uint32_t visible = 0;
  for (size_t l = 0; l < lod_count; ++l) visible += lod_counts_[l];
  lod_next_.assign(lod_first_.begin(), lod_first_.end());
  for (size_t c = 0; c < chunks; ++c) {
    for (size_t l = 0; l < lod_count; ++l) {
      const uint32_t count = chunk_cursors_[c * lod_count + l];
      chunk_cursors_[c * lod_count + l] = lod_next_[l];
      lod_next_[l] += count;
    }
  }
  stats_.cpu_ms.lod = millisecondsSince(start);
  stats_.visible = visible;
  std::copy(lod_counts_.begin(), lod_counts_.end(), stats_.agents_per_lod.begin());

  // Second pass: each visible agent's slot in draw order and its frames. The instanced path
  // plays it back and packs its record straight into the mapped instance buffer there (one
  // pass, no copy); the merged paths keep the frames for their palettes.
  start = Clock::now();
  std::span<InstanceRecord> records;
  if (instanced_) {
    Result<std::span<InstanceRecord>> mapped = instanced_->beginRecords(visible);
    if (!mapped.ok()) {
      if (mapped.status().code() == ErrorCode::kGlError) status_ = mapped.status();
      return mapped.status();
    }
    records = *mapped;
  } else {
    growTo(frames_, n);
  }
  const uint32_t last_frame = instanced_ ? instanced_->lastFrame() : 0;
  const std::span<const PlaybackClip> clips(playback_clips_);
  forChunks(jobs_, n, chunk, [&](size_t begin, size_t end) {
    uint32_t cursors[kMaxDrawnLods];  // on the stack, as the counts above
    std::copy_n(chunk_cursors_.data() + (begin / chunk) * lod_count, lod_count, cursors);
    for (size_t a = begin; a < end; ++a) {
      const uint8_t l = lod_[a];
      if (l == kCulled) continue;
      const uint32_t i = cursors[l]++;
      order_[i] = static_cast<uint32_t>(a);
      if (instanced_) {
        withAgentFrames(clips, frame.playback[a],
                        [&](const FrameSample& primary, const FrameSample& secondary, float fade) {
                          encodeInstanceRecord(
                              frame.placements[a], primary, secondary, fade,
                              agentTint(frame, static_cast<uint32_t>(a), l),
                              frame.variants.empty() ? uint16_t{0} : frame.variants[a], last_frame,
                              records[i]);
                        });
      } else {
        frames_[a] = agentFrames(clips, frame.playback[a]);
      }
    }
  });
  if (instanced_) {
    if (Status s = instanced_->endRecords(); !s.ok()) {
      if (s.code() == ErrorCode::kGlError) status_ = s;
      return s;
    }
  }
  (instanced_ ? stats_.cpu_ms.pack_upload : stats_.cpu_ms.playback) = millisecondsSince(start);
  if (Status s = drawGround(view, frame, visible); !s.ok()) {
    if (s.code() == ErrorCode::kGlError) status_ = s;
    return s;
  }
  Status drawn = packAndSubmit(view, frame, visible);
  // After a GL error (GL_OUT_OF_MEMORY above all) GL's state is undefined: the renderer stops.
  if (drawn.code() == ErrorCode::kGlError) status_ = drawn;
  return drawn;
}

Status CrowdRenderer::packAndSubmit(const FrameView& view, const CrowdFrame& frame,
                                    uint32_t visible) {
  if (instanced_) {
    // The records went up with the playback pass (draw()).
    const Clock::time_point start = Clock::now();
    Status s = instanced_->submit(view, lod_counts_);
    stats_.cpu_ms.submit = millisecondsSince(start);
    stats_.draw_calls = instanced_->stats().draw_calls;
    stats_.triangles = instanced_->stats().triangles;
    stats_.animation_texture_binds = instanced_->stats().animation_texture_binds;
    stats_.palette_pass = instanced_->stats().palette_pass;
    return s;
  }

  Clock::time_point start = Clock::now();
  // Merged paths: every visible agent's placed palette, LOD by LOD, in one array.
  size_t rows = 0;
  for (int l = 0; l < lodCount(); ++l) {
    rows += static_cast<size_t>(lod_counts_[l]) * lod_info_[l].joints;
  }
  growTo(palettes_, rows);
  growTo(tints_, visible);
  if (!frame.variants.empty()) growTo(variants_, visible);
  // Slot i (LOD l) starts at row_first[l] + (i - lod_first_[l]) * joints of l.
  size_t row_first[kMaxLodLevels] = {};
  for (int l = 1; l < lodCount(); ++l) {
    row_first[l] =
        row_first[l - 1] + static_cast<size_t>(lod_counts_[l - 1]) * lod_info_[l - 1].joints;
  }
  forChunks(jobs_, visible, jobs_ ? jobs_->chunkFor(visible, kMinPalettesPerChunk) : visible,
            [&](size_t begin, size_t end) {
              int l = 0;
              for (size_t i = begin; i < end; ++i) {
                while (i >= lod_first_[l] + lod_counts_[l]) ++l;
                const std::span<const uint16_t> joints = merged_->paletteJoints(l);
                const uint32_t a = order_[i];
                const size_t at = row_first[l] + (i - lod_first_[l]) * joints.size();
                bakedPalette(texture_, frames_[a], placementMatrix(frame.placements[a]), joints,
                             std::span<JointRows>(palettes_.data() + at, joints.size()));
                tints_[i] = quantizedTint(agentTint(frame, a, l));
                if (!frame.variants.empty()) variants_[i] = frame.variants[a];
              }
            });
  stats_.cpu_ms.pack_upload = millisecondsSince(start);

  start = Clock::now();
  merged_->beginFrame(view);
  // Opaque materials of every LOD, then the blended ones (their batches' palettes go up again).
  for (const MaterialPass pass : {MaterialPass::kOpaque, MaterialPass::kBlend}) {
    size_t at = 0;
    for (int l = 0; l < lodCount(); ++l) {
      if (lod_counts_[l] == 0) continue;
      const size_t count = static_cast<size_t>(lod_counts_[l]) * lod_info_[l].joints;
      merged_->drawCharacters(
          l, std::span<const JointRows>(palettes_.data() + at, count),
          std::span<const glm::vec4>(tints_.data() + lod_first_[l], lod_counts_[l]), pass,
          frame.variants.empty()
              ? std::span<const uint16_t>()
              : std::span<const uint16_t>(variants_.data() + lod_first_[l], lod_counts_[l]));
      at += count;
    }
  }
  const MergedFrameStats merged_stats = merged_->endFrame();
  Status s = checkGl("crowd renderer: merged draw");
  stats_.cpu_ms.submit = millisecondsSince(start);
  stats_.draw_calls = static_cast<uint32_t>(merged_stats.draw_calls);
  stats_.triangles = merged_stats.triangles;
  return s;
}

}  // namespace throng::render
