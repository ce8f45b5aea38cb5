// The impostor bake: one draw per view and atlas, every frame of every clip side by side.
#include "throng/impostor/impostor_bake.h"

#include <cstring>
#include <memory>

#include <fmt/core.h>

#include "throng/impostor/impostor_views.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::impostor {
namespace {

// The colour atlas: what the material gives, before light, tint and fog (sRGB-encoded by throng
// on the way out, as the atlas stores it).
constexpr const char* kColorShader = "vec4 throngShade(ThrongSurface s) { return s.base_color; }\n";
// The normal atlas: 0.5 n + 0.5, written through throng's sRGB encoding, so decoded first. The
// agents stand at heading 0: world normals are model normals.
constexpr const char* kNormalShader =
    "vec4 throngShade(ThrongSurface s) {\n"
    "  return vec4(throngSrgbToLinear(s.shading_normal * 0.5 + 0.5), 1.0);\n"
    "}\n";

Result<std::unique_ptr<render::Device>> makeDevice(int width, int height) {
  render::DeviceDesc desc;
  desc.width = width;
  desc.height = height;
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  if (device.ok()) return device;
  desc.gles_major = 2;  // a process that asked Mesa for ES 2.0 only (MESA_GLES_VERSION_OVERRIDE)
  Result<std::unique_ptr<render::Device>> es2 = render::Device::createHeadless(desc);
  if (es2.ok()) return es2;
  return Status(ErrorCode::kGlError, fmt::format("impostor bake: no headless device of {}x{}: {}",
                                                 width, height, device.status().message()));
}

// One pass over every view into `atlas` (`channels` of each RGBA pixel kept).
Status drawAtlas(render::Device& device, const Package& package, const Impostor& m, int lod,
                 const char* shader_name, const char* shader_text, uint32_t channels,
                 std::vector<uint8_t>& atlas) {
  render::CrowdRendererDesc desc;
  desc.path =
      device.caps().gles_major >= 3 ? render::RenderPath::kInstanced : render::RenderPath::kMerged;
  desc.fixed_lod = lod;
  desc.tint = false;
  desc.shader = std::make_shared<render::ShaderSource>(
      render::ShaderSource{shader_name, std::string(shader_text)});
  render::CrowdRenderer renderer(device, package, desc);
  if (!renderer.ok()) return renderer.status();

  const uint32_t columns = m.frameCount();
  std::vector<Placement> placements(columns);
  std::vector<AgentPlayback> playback(columns);
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
    for (uint32_t column = 0; column < columns; ++column) {
      placements[column].position = impostorAgentPosition(m, view, column);
    }
    render::CrowdFrame frame;
    frame.placements = placements;
    frame.playback = playback;
    device.beginFrame(glm::vec4(0.0f));
    if (Status s = renderer.draw(impostorRowView(m, view), frame); !s.ok()) return s;
    device.finish();
    Result<render::Image> image = device.readPixels();
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
                               ImpostorPlan* plan_out) {
  Result<ImpostorPlan> plan = planImpostor(package, options);
  if (!plan.ok()) return plan.status();
  if (plan_out != nullptr) *plan_out = *plan;
  Impostor m = std::move(plan->layout);
  const int lod = plan->lod;
  Result<std::unique_ptr<render::Device>> device =
      makeDevice(static_cast<int>(m.atlasWidth()), static_cast<int>(m.tile_height));
  if (!device.ok()) return device.status();
  const size_t texels = static_cast<size_t>(m.atlasWidth()) * m.atlasHeight();
  m.color.resize(texels * kImpostorColorBytes);
  m.normals.resize(texels * kImpostorNormalBytes);
  if (Status s = drawAtlas(**device, package, m, lod, "impostor colour", kColorShader,
                           kImpostorColorBytes, m.color);
      !s.ok()) {
    return s;
  }
  if (Status s = drawAtlas(**device, package, m, lod, "impostor normals", kNormalShader,
                           kImpostorNormalBytes, m.normals);
      !s.ok()) {
    return s;
  }
  return m;
}

}  // namespace throng::impostor
