// The impostor bake: one draw per view and atlas, every frame of every clip side by side, then
// the error of the blended picture measured against the mesh.
#include "throng/impostor/impostor_bake.h"

#include <cstring>
#include <memory>

#include "impostor/impostor_rows.h"
#include "throng/impostor/impostor_views.h"

namespace throng::impostor {
namespace {

// One pass over every view into `atlas` (`channels` of each RGBA pixel kept).
Status drawAtlas(render::Device& device, const Package& package, const Impostor& m, int lod,
                 const char* shader_name, const char* shader_text, uint32_t channels,
                 std::vector<uint8_t>& atlas) {
  Result<std::unique_ptr<render::CrowdRenderer>> renderer =
      makeImpostorRenderer(device, package, lod, shader_name, shader_text);
  if (!renderer.ok()) return renderer.status();
  std::vector<AgentPlayback> playback(m.frameCount());
  for (uint32_t clip = 0, column = 0; clip < m.clip_frames.size(); ++clip) {
    const BakedClip& c = package.clips[clip];
    for (uint32_t k = 0; k < m.clip_frames[clip]; ++k, ++column) {
      AgentPlayback& a = playback[column];
      a.clip = static_cast<uint16_t>(clip);
      a.time = impostorFrameTime(k, m.clip_frames[clip], c.duration, c.loop);
      a.previous_clip = a.clip;
      a.previous_time = a.time;
    }
  }
  const size_t row_bytes = static_cast<size_t>(m.atlasWidth()) * channels;
  for (uint32_t view = 0; view < m.viewCount(); ++view) {
    const glm::vec3 toward =
        impostorViewDirection(m.azimuths, m.elevations, view / m.azimuths, view % m.azimuths);
    Result<render::Image> image = drawImpostorRow(device, **renderer, m, toward, playback);
    if (!image.ok()) return image.status();
    for (uint32_t y = 0; y < m.tile_height; ++y) {
      uint8_t* out = atlas.data() + (static_cast<size_t>(view) * m.tile_height + y) * row_bytes;
      const uint8_t* in = image->rgba.data() + static_cast<size_t>(y) * m.atlasWidth() * 4;
      for (uint32_t x = 0; x < m.atlasWidth(); ++x) {
        std::memcpy(out + x * channels, in + x * 4, channels);
      }
    }
  }
  return Status();
}

}  // namespace

Result<Impostor> bakeImpostors(const Package& package, const ImpostorBakeOptions& options,
                               ImpostorPlan* plan_out, ImpostorError* error_out) {
  Result<ImpostorPlan> plan = planImpostor(package, options);
  if (!plan.ok()) return plan.status();
  if (plan_out != nullptr) *plan_out = *plan;
  Impostor m = std::move(plan->layout);
  const int lod = plan->lod;
  {
    Result<std::unique_ptr<render::Device>> device = makeImpostorDevice(m);
    if (!device.ok()) return device.status();
    const size_t texels = static_cast<size_t>(m.atlasWidth()) * m.atlasHeight();
    m.color.resize(texels * kImpostorColorBytes);
    m.normals.resize(texels * kImpostorNormalBytes);
    if (Status s = drawAtlas(**device, package, m, lod, "impostor colour", kImpostorColorShader,
                             kImpostorColorBytes, m.color);
        !s.ok()) {
      return s;
    }
    if (Status s = drawAtlas(**device, package, m, lod, "impostor normals", kImpostorNormalShader,
                             kImpostorNormalBytes, m.normals);
        !s.ok()) {
      return s;
    }
  }
  ImpostorErrorOptions error_options;
  error_options.max_samples = options.error_samples;
  Result<ImpostorError> error = measureImpostorError(package, m, error_options);
  if (!error.ok()) return error.status();
  m.max_error = error->total();
  if (error_out != nullptr) *error_out = *error;
  return m;
}

}  // namespace throng::impostor
