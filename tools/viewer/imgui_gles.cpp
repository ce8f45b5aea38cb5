// ImGuiGlesRenderer: one small GLSL ES 1.00 program, the font atlas as an RGBA texture, and one
// glDrawElements per ImGui draw command.
#include "imgui_gles.h"

#include <cstddef>
#include <string>

#include <GLES3/gl3.h>
#include <fmt/core.h>
#include <imgui.h>

#include "throng/render/gl_check.h"
#include "throng/render/program.h"

namespace throng::viewer {
namespace {

constexpr GLuint kPosition = 0;
constexpr GLuint kUv = 1;
constexpr GLuint kColor = 2;

const char* const kVertexShader = R"(#version 100
uniform mat4 u_projection;
attribute vec2 a_position;
attribute vec2 a_uv;
attribute vec4 a_color;
varying vec2 v_uv;
varying vec4 v_color;
void main() {
  v_uv = a_uv;
  v_color = a_color;
  gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}
)";

const char* const kFragmentShader = R"(#version 100
precision mediump float;
uniform sampler2D u_texture;
varying vec2 v_uv;
varying vec4 v_color;
void main() {
  gl_FragColor = v_color * texture2D(u_texture, v_uv);
}
)";

}  // namespace

Result<std::unique_ptr<ImGuiGlesRenderer>> ImGuiGlesRenderer::create(int gles_major) {
  std::unique_ptr<ImGuiGlesRenderer> r(new ImGuiGlesRenderer());
  r->gles_major_ = gles_major;
  render::ProgramDesc desc;
  desc.name = "viewer/imgui";
  desc.vertex_source = kVertexShader;
  desc.fragment_source = kFragmentShader;
  desc.attributes = {{"a_position", kPosition}, {"a_uv", kUv}, {"a_color", kColor}};
  Result<render::Program> program = render::buildProgram(desc);
  if (!program.ok()) return program.status();
  r->program_ = std::move(program).value();
  r->projection_location_ = r->program_.uniform("u_projection");
  r->texture_location_ = r->program_.uniform("u_texture");

  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "throng-viewer gles";
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  glGenTextures(1, &r->font_texture_);
  glBindTexture(GL_TEXTURE_2D, r->font_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  glBindTexture(GL_TEXTURE_2D, 0);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<uintptr_t>(r->font_texture_)));
  glGenBuffers(1, &r->vertex_buffer_);
  glGenBuffers(1, &r->index_buffer_);
  if (Status s = render::checkGl("viewer: ImGui renderer"); !s.ok()) return s;
  return r;
}

ImGuiGlesRenderer::~ImGuiGlesRenderer() {
  if (vertex_buffer_) glDeleteBuffers(1, &vertex_buffer_);
  if (index_buffer_) glDeleteBuffers(1, &index_buffer_);
  if (font_texture_) glDeleteTextures(1, &font_texture_);
}

Status ImGuiGlesRenderer::draw(const ImDrawData* data) {
  const int fb_width = static_cast<int>(data->DisplaySize.x * data->FramebufferScale.x);
  const int fb_height = static_cast<int>(data->DisplaySize.y * data->FramebufferScale.y);
  if (fb_width <= 0 || fb_height <= 0) return Status::okStatus();
  if (gles_major_ >= 3) glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb_width, fb_height);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_SCISSOR_TEST);
  glUseProgram(program_.id());
  // Orthographic projection of ImGui's display rectangle onto clip space (y down).
  const float l = data->DisplayPos.x, r = data->DisplayPos.x + data->DisplaySize.x;
  const float t = data->DisplayPos.y, b = data->DisplayPos.y + data->DisplaySize.y;
  const float projection[16] = {2.0f / (r - l),    0.0f, 0.0f, 0.0f, 0.0f, 2.0f / (t - b), 0.0f,
                                0.0f,              0.0f, 0.0f, -1.0f, 0.0f, (r + l) / (l - r),
                                (t + b) / (b - t), 0.0f, 1.0f};
  glUniformMatrix4fv(projection_location_, 1, GL_FALSE, projection);
  glUniform1i(texture_location_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
  glEnableVertexAttribArray(kPosition);
  glEnableVertexAttribArray(kUv);
  glEnableVertexAttribArray(kColor);
  const GLsizei stride = sizeof(ImDrawVert);
  glVertexAttribPointer(kPosition, 2, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(kUv, 2, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(kColor, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                        reinterpret_cast<const void*>(offsetof(ImDrawVert, col)));
  const ImVec2 clip_offset = data->DisplayPos;
  const ImVec2 clip_scale = data->FramebufferScale;
  for (int n = 0; n < data->CmdListsCount; ++n) {
    const ImDrawList* list = data->CmdLists[n];
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list->VtxBuffer.Size * sizeof(ImDrawVert)),
                 list->VtxBuffer.Data, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(list->IdxBuffer.Size * sizeof(ImDrawIdx)),
                 list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (int c = 0; c < list->CmdBuffer.Size; ++c) {
      const ImDrawCmd& cmd = list->CmdBuffer[c];
      if (cmd.UserCallback) {
        cmd.UserCallback(list, &cmd);
        continue;
      }
      const float x0 = (cmd.ClipRect.x - clip_offset.x) * clip_scale.x;
      const float y0 = (cmd.ClipRect.y - clip_offset.y) * clip_scale.y;
      const float x1 = (cmd.ClipRect.z - clip_offset.x) * clip_scale.x;
      const float y1 = (cmd.ClipRect.w - clip_offset.y) * clip_scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      // GL's scissor origin is the bottom left corner.
      glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_height - y1),
                static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<uintptr_t>(cmd.GetTexID())));
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<const void*>(cmd.IdxOffset * sizeof(ImDrawIdx)));
    }
  }
  glDisableVertexAttribArray(kPosition);
  glDisableVertexAttribArray(kUv);
  glDisableVertexAttribArray(kColor);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  return render::checkGl("viewer: drawing the panels");
}

}  // namespace throng::viewer
