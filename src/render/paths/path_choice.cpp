// The path choice: what the device offers, tried from the GPU-driven path down.
#include "render/paths/path_choice.h"

#include <fmt/core.h>

#include "render/gpu_crowd.h"
#include "render/paths/gpu_driven_path.h"
#include "render/paths/instanced_crowd_path.h"
#include "render/paths/merged_crowd_path.h"

namespace throng::render {
namespace {

// A made path as the choice's (type-erased) result, or its failure.
template <typename Path>
Status take(Result<std::unique_ptr<Path>> made, PathChoice& choice) {
  if (!made.ok()) return made.status();
  choice.path = std::move(made).value();
  return Status::okStatus();
}

// Makes the path `kind` (not kAuto) into `choice`.
Status makePath(RenderPath kind, Device& device, const Package& package,
                const CrowdRendererDesc& desc, CrowdFacts& facts, PathChoice& choice) {
  switch (kind) {
    case RenderPath::kInstanced:
      return take(InstancedCrowdPath::create(device, package, desc, facts), choice);
    case RenderPath::kMerged:
    case RenderPath::kPerCharacter:
      return take(
          MergedCrowdPath::create(device, package, desc, kind == RenderPath::kPerCharacter, facts),
          choice);
    case RenderPath::kGpu:
      return take(GpuDrivenPath::create(device, package, desc, facts), choice);
    case RenderPath::kAuto:
      break;  // never asked for: the choice names a path first
  }
  return Status(
      ErrorCode::kInvalidArgument,
      fmt::format("crowd renderer: render path {} does not exist", static_cast<int>(kind)));
}

// kAuto's first try: the GPU-driven path when the device has compute and the crowd needs
// nothing it lacks. True when it was made; a failure other than a limit or a missing feature
// ends the choice (in choice.status).
bool tryGpu(Device& device, const Package& package, const CrowdRendererDesc& desc,
            CrowdFacts& facts, const std::string& es, PathChoice& choice) {
  const Caps& caps = device.caps();
  Result<std::unique_ptr<GpuDrivenPath>> gpu = GpuDrivenPath::create(device, package, desc, facts);
  if (!gpu.ok()) {
    const ErrorCode code = gpu.status().code();
    if (code != ErrorCode::kLimitExceeded && code != ErrorCode::kUnsupported)
      choice.status = gpu.status();
    return false;
  }
  choice.kind = RenderPath::kGpu;
  choice.reason = fmt::format(
      "{} with compute shaders ({} storage buffers per compute shader, {} per vertex "
      "shader, blocks up to {} MB): the GPU simulates, plays back, culls and picks LODs; "
      "the {}x{} animation texture fits GL_MAX_TEXTURE_SIZE {}",
      es, caps.max_compute_shader_storage_blocks, caps.max_vertex_shader_storage_blocks,
      caps.max_shader_storage_block_size >> 20, (*gpu)->renderer().textureWidth(),
      (*gpu)->renderer().textureHeight(), caps.max_texture_size);
  choice.path = std::move(gpu).value();
  return true;
}

// kAuto on an ES 3 device with what the instanced path needs: instanced, or the merged path when
// the texture is too large (then false, with the path to make in choice.kind).
bool tryInstanced(Device& device, const Package& package, const CrowdRendererDesc& desc,
                  CrowdFacts& facts, const std::string& es, const char* not_gpu,
                  PathChoice& choice) {
  const Caps& caps = device.caps();
  Result<std::unique_ptr<InstancedCrowdPath>> instanced =
      InstancedCrowdPath::create(device, package, desc, facts);
  if (instanced.ok()) {
    choice.kind = RenderPath::kInstanced;
    choice.reason = fmt::format(
        "{} with instancing, float textures and vertex texture fetch{}; the {}x{} animation "
        "texture fits GL_MAX_TEXTURE_SIZE {}",
        es, not_gpu, (*instanced)->renderer().textureWidth(),
        (*instanced)->renderer().textureHeight(), caps.max_texture_size);
    choice.path = std::move(instanced).value();
    return true;
  }
  if (instanced.status().code() != ErrorCode::kLimitExceeded) {
    choice.status = instanced.status();
    return false;
  }
  choice.kind = RenderPath::kMerged;
  choice.reason = fmt::format("the animation texture is too large for this {} device ({})", es,
                              instanced.status().message());
  return false;
}

// kAuto's last resort on a device without what the instanced path needs.
void chooseWithoutInstancing(const Caps& caps, const std::string& es, bool float_textures,
                             bool vertex_textures, PathChoice& choice) {
  if (caps.gles_major == 2) {
    choice.kind = RenderPath::kMerged;
    choice.reason = fmt::format("{}: no instancing or texelFetch, palettes go in uniforms", es);
    return;
  }
  choice.kind = RenderPath::kPerCharacter;
  std::string missing;
  if (!caps.instancing) missing += "instancing";
  if (!float_textures) missing += std::string(missing.empty() ? "" : ", ") + "float textures";
  if (!vertex_textures)
    missing += std::string(missing.empty() ? "" : ", ") + "vertex texture fetch";
  choice.reason = fmt::format("{} without {}", es, missing);
}

}  // namespace

PathChoice chooseCrowdPath(Device& device, const Package& package, const CrowdRendererDesc& desc,
                           CrowdFacts& facts) {
  PathChoice choice;
  choice.kind = desc.path;
  if (desc.path != RenderPath::kAuto) {
    choice.reason = "asked for";
    choice.status = makePath(desc.path, device, package, desc, facts, choice);
    return choice;
  }
  const Caps& caps = device.caps();
  const std::string es = fmt::format("OpenGL ES {}.{}", caps.gles_major, caps.gles_minor);
  const bool es3 = caps.gles_major >= 3;
  const bool float_textures = caps.float_textures || caps.half_float_textures;
  const bool vertex_textures = caps.max_vertex_texture_image_units > 0;
  const bool compute = caps.compute &&
                       caps.max_compute_shader_storage_blocks >= kGpuCrowdStorageBlocks &&
                       caps.max_compute_image_uniforms >= 1;
  // The gpu path draws whatever the options ask (material variants, events gathered on the GPU,
  // blob and mapped shadows): only the device decides.
  const bool instancing = es3 && caps.instancing && float_textures && vertex_textures;
  if (instancing && compute) {
    if (tryGpu(device, package, desc, facts, es, choice) || !choice.status.ok()) return choice;
  }
  if (instancing) {
    const char* not_gpu = !caps.compute ? " (no ES 3.1 compute: the CPU feeds the instances)" : "";
    if (tryInstanced(device, package, desc, facts, es, not_gpu, choice) || !choice.status.ok())
      return choice;
  } else {
    chooseWithoutInstancing(caps, es, float_textures, vertex_textures, choice);
  }
  choice.status = makePath(choice.kind, device, package, desc, facts, choice);
  return choice;
}

}  // namespace throng::render
