// Draws Dear ImGui's draw lists with OpenGL ES 2.0 calls and GLSL ES 1.00, so the panels show on
// the ES 2.0 context of --es2 as on ES 3.
//
// Why not Debian's imgui_impl_opengl3 (compiled into libimgui.a): it is built for desktop GL; its
// loader dlopens libGL.so.1 and refuses an ES 2.0 context ("Failed to initialize OpenGL
// loader!"), and on ES 3 it queries desktop-only state (GL_POLYGON_MODE), leaving
// GL_INVALID_ENUM errors that the library's own GL checks would then report as its failures.
#pragma once

#include <memory>

#include "throng/core/status.h"
#include "throng/render/program.h"

struct ImDrawData;

namespace throng::viewer {

class ImGuiGlesRenderer {
 public:
  // Needs the context current and ImGui's context made; uploads the font atlas.
  // `gles_major` is the context's version (3: vertex array 0 is bound before drawing).
  static Result<std::unique_ptr<ImGuiGlesRenderer>> create(int gles_major);
  ~ImGuiGlesRenderer();
  ImGuiGlesRenderer(const ImGuiGlesRenderer&) = delete;
  ImGuiGlesRenderer& operator=(const ImGuiGlesRenderer&) = delete;

  // Draws `data` over framebuffer 0 (blending, scissors; depth testing off), then leaves
  // blending and scissoring off and depth testing on, as Device::beginFrame expects.
  Status draw(const ImDrawData* data);

 private:
  ImGuiGlesRenderer() = default;

  int gles_major_ = 2;
  render::Program program_;
  unsigned font_texture_ = 0;
  unsigned vertex_buffer_ = 0;
  unsigned index_buffer_ = 0;
  int projection_location_ = -1;
  int texture_location_ = -1;
};

}  // namespace throng::viewer
