// Rows of impostor tiles drawn headless (impostor_rows.h).
#include "impostor/impostor_rows.h"

#include <string>
#include <vector>

#include <fmt/core.h>

#include "throng/impostor/impostor_views.h"

namespace throng::impostor {

const char* const kImpostorColorShader =
    "vec4 throngShade(ThrongSurface s) { return s.base_color; }\n";
// Written through throng's sRGB encoding, so decoded first.
const char* const kImpostorNormalShader =
    "vec4 throngShade(ThrongSurface s) {\n"
    "  return vec4(throngSrgbToLinear(s.shading_normal * 0.5 + 0.5), 1.0);\n"
    "}\n";

Result<std::unique_ptr<render::Device>> makeImpostorDevice(const Impostor& m) {
  render::DeviceDesc desc;
  desc.width = static_cast<int>(m.atlasWidth());
  desc.height = static_cast<int>(m.tile_height);
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  if (device.ok()) return device;
  desc.gles_major = 2;  // a process that asked Mesa for ES 2.0 only (MESA_GLES_VERSION_OVERRIDE)
  Result<std::unique_ptr<render::Device>> es2 = render::Device::createHeadless(desc);
  if (es2.ok()) return es2;
  return Status(ErrorCode::kGlError,
                fmt::format("impostor bake: no headless device of {}x{}: {}", desc.width,
                            desc.height, device.status().message()));
}

Result<std::unique_ptr<render::CrowdRenderer>> makeImpostorRenderer(render::Device& device,
                                                                    const Package& package, int lod,
                                                                    const char* shader_name,
                                                                    const char* shader_text) {
  render::CrowdRendererDesc desc;
  desc.path =
      device.caps().gles_major >= 3 ? render::RenderPath::kInstanced : render::RenderPath::kMerged;
  desc.fixed_lod = lod;
  desc.tint = false;
  desc.shader = std::make_shared<render::ShaderSource>(
      render::ShaderSource{shader_name, std::string(shader_text)});
  auto renderer = std::make_unique<render::CrowdRenderer>(device, package, desc);
  if (!renderer->ok()) return renderer->status();
  return renderer;
}

Result<render::Image> drawImpostorRow(render::Device& device, render::CrowdRenderer& renderer,
                                      const Impostor& m, glm::vec3 toward,
                                      std::span<const AgentPlayback> columns) {
  std::vector<Placement> placements(columns.size());
  for (uint32_t column = 0; column < columns.size(); ++column) {
    placements[column].position = impostorAgentPosition(m, toward, column);
  }
  render::CrowdFrame frame;
  frame.placements = placements;
  frame.playback = columns;
  device.beginFrame(glm::vec4(0.0f));
  if (Status s = renderer.draw(impostorRowView(m, toward), frame); !s.ok()) return s;
  device.finish();
  return device.readPixels();
}

}  // namespace throng::impostor
