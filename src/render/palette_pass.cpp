// PalettePass: renders every instance's blended palette (3 texels per joint) into a texture.
#include "render/palette_pass.h"

#include <algorithm>
#include <cassert>
#include <vector>

#include <fmt/core.h>

#include "render/gl_check.h"

namespace throng::render {
namespace {

// Texels per palette entry: the 3 rows of a joint's 3x4 matrix (kVec4PerJoint).
constexpr int kTexelsPerJoint = static_cast<int>(kVec4PerJoint);
// RGBA32F and RGBA32UI texels alike.
constexpr size_t kBytesPerTexel = 16;

// State the pass changes and restores, so that it can run between a caller's beginFrame and
// its draws, or inside a depth pass (whose colour writes are masked off).
struct SavedState {
  GLint draw_framebuffer = 0;
  GLint read_framebuffer = 0;
  GLint viewport[4] = {};
  GLboolean scissor = GL_FALSE;
  GLboolean cull = GL_FALSE;
  GLboolean blend = GL_FALSE;
  GLboolean depth = GL_FALSE;
  GLboolean color_mask[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE};

  SavedState() {
    glGetBooleanv(GL_COLOR_WRITEMASK, color_mask);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    scissor = glIsEnabled(GL_SCISSOR_TEST);
    cull = glIsEnabled(GL_CULL_FACE);
    blend = glIsEnabled(GL_BLEND);
    depth = glIsEnabled(GL_DEPTH_TEST);
  }
  void restore() const {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_framebuffer));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_framebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    const auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    set(GL_SCISSOR_TEST, scissor);
    set(GL_CULL_FACE, cull);
    set(GL_BLEND, blend);
    set(GL_DEPTH_TEST, depth);
    glColorMask(color_mask[0], color_mask[1], color_mask[2], color_mask[3]);
  }
};

}  // namespace

Result<std::unique_ptr<PalettePass>> PalettePass::create(const Device& device, int joint_count,
                                                         std::vector<AttributeBinding> attributes,
                                                         std::span<const glm::vec3> pivots) {
  assert(joint_count > 0);
  const Caps& caps = device.caps();
  GLint viewport_dims[2] = {0, 0};
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport_dims);
  const int max_size = std::min(
      {caps.max_texture_size, caps.max_renderbuffer_size, viewport_dims[0], viewport_dims[1]});
  const int texels = kTexelsPerJoint * joint_count;
  if (texels > max_size)
    return Status(ErrorCode::kUnsupported,
                  fmt::format("palette pass: one instance's palette ({} joints, {} texels) is "
                              "wider than the device's largest render target ({} texels)",
                              joint_count, texels, max_size));
  std::unique_ptr<PalettePass> pass(new PalettePass());
  pass->device_ = &device;
  pass->bits_ = !caps.color_buffer_float;
  pass->joint_count_ = joint_count;
  pass->max_size_ = max_size;
  pass->instances_per_row_ = max_size / texels;

  Result<std::string> vertex = embeddedShader("gles3/palette.vert");
  if (!vertex.ok()) return vertex.status();
  Result<std::string> fragment = embeddedShader("gles3/palette.frag");
  if (!fragment.ok()) return fragment.status();
  ProgramDesc desc;
  desc.name = pass->bits_ ? "gles3/palette (bits)" : "gles3/palette";
  desc.vertex_source = std::move(vertex).value();
  desc.fragment_source = std::move(fragment).value();
  std::vector<std::string> defines;
  if (pass->bits_) defines.push_back("PALETTE_BITS");
  if (!pivots.empty()) {
    defines.push_back("LAYERS");
    defines.push_back(fmt::format("LAYER_JOINTS {}", pivots.size()));
    desc.vertex_source = injectDefines(desc.vertex_source, defines);
  }
  if (!defines.empty()) desc.fragment_source = injectDefines(desc.fragment_source, defines);
  desc.attributes = std::move(attributes);
  Result<Program> program = buildProgram(desc, deviceFaults(device));
  if (!program.ok()) return program.status();
  pass->program_ = std::move(program).value();
  if (!pivots.empty()) {
    glUseProgram(pass->program_.id());
    glUniform3fv(pass->program_.uniform("u_pivots[0]"), static_cast<GLsizei>(pivots.size()),
                 &pivots[0].x);
  }
  glGenFramebuffers(1, &pass->framebuffer_);
  if (Status status = checkGl("palette pass: creating the framebuffer"); !status.ok())
    return status;
  return pass;
}

PalettePass::~PalettePass() {
  if (texture_) glDeleteTextures(1, &texture_);
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
}

bool PalettePass::fits(size_t instances) const {
  const size_t per_row = static_cast<size_t>(instances_per_row_);
  const size_t rows = (instances + per_row - 1) / per_row;
  const size_t bytes =
      instances * static_cast<size_t>(kTexelsPerJoint * joint_count_) * kBytesPerTexel;
  return rows <= static_cast<size_t>(max_size_) && bytes <= kMaxPaletteBytes;
}

Status PalettePass::reserve(size_t instances) {
  const int needed = static_cast<int>((instances + static_cast<size_t>(instances_per_row_) - 1) /
                                      static_cast<size_t>(instances_per_row_));
  if (texture_ && needed <= rows_) return Status::okStatus();
  // Grow by half again so a crowd that creeps up does not reallocate every frame.
  int rows = std::max(needed, rows_ + rows_ / 2);
  const int byte_rows = static_cast<int>(
      kMaxPaletteBytes /
      (static_cast<size_t>(instances_per_row_ * kTexelsPerJoint * joint_count_) * kBytesPerTexel));
  rows = std::min({rows, max_size_, std::max(byte_rows, needed)});
  if (texture_) glDeleteTextures(1, &texture_);
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  const GLsizei width = instances_per_row_ * kTexelsPerJoint * joint_count_;
  glTexStorage2D(GL_TEXTURE_2D, 1, format(), width, rows);
  glBindTexture(GL_TEXTURE_2D, 0);
  rows_ = rows;
  if (Status status = checkGlUpload(
          fmt::format("palette pass: allocating the {}x{} palette texture", width, rows),
          deviceFaults(*device_));
      !status.ok()) {
    glDeleteTextures(1, &texture_);
    texture_ = 0;
    rows_ = 0;
    return status;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  const GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (complete != GL_FRAMEBUFFER_COMPLETE)
    return Status(ErrorCode::kUnsupported,
                  fmt::format("palette pass: the driver refuses a {}x{} {} render target "
                              "(framebuffer status 0x{:04x})",
                              width, rows, bits_ ? "RGBA32UI" : "RGBA32F", complete));
  return Status::okStatus();
}

Status PalettePass::run(GLuint instance_vertex_array, size_t instances,
                        const AnimationTextureBinding& anim) {
  assert(fits(instances));
  if (instances == 0) return Status::okStatus();
  const SavedState saved;
  Status status = reserve(instances);
  if (status.ok()) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    const GLsizei width = instances_per_row_ * kTexelsPerJoint * joint_count_;
    glViewport(0, 0, width, rows_);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glUseProgram(program_.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, anim.texture);
    glUniform1i(program_.uniform("u_animation"), 0);
    glUniform1i(program_.uniform("u_base_row"), anim.base_row);
    glUniform1i(program_.uniform("u_frames_per_row"), anim.frames_per_row);
    glUniform1i(program_.uniform("u_texels_per_frame"), anim.texels_per_frame);
    glUniform1i(program_.uniform("u_rows_per_frame"), anim.rows_per_frame);
    glUniform1i(program_.uniform("u_joints_per_row"), anim.joints_per_row);
    glUniform1i(program_.uniform("u_palette_texels"), kTexelsPerJoint * joint_count_);
    glUniform1i(program_.uniform("u_palette_instances_per_row"), instances_per_row_);
    glUniform2f(program_.uniform("u_palette_size"), static_cast<float>(width),
                static_cast<float>(rows_));
    glBindVertexArray(instance_vertex_array);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(instances));
    glBindVertexArray(0);
    status = checkGl("palette pass: blending palettes");
  }
  saved.restore();
  return status;
}

void PalettePass::bind(const Program& program, int unit) const {
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
  glBindTexture(GL_TEXTURE_2D, texture_);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(program.uniform("u_palette"), unit);
  glUniform1i(program.uniform("u_palette_texels"), kTexelsPerJoint * joint_count_);
  glUniform1i(program.uniform("u_palette_instances_per_row"), instances_per_row_);
}

Status PalettePass::read(size_t instances, std::span<JointRows> palettes) const {
  assert(palettes.size() == instances * static_cast<size_t>(joint_count_));
  if (instances == 0) return Status::okStatus();
  assert(texture_ && instances <= static_cast<size_t>(rows_) * instances_per_row_);
  const SavedState saved;
  const int width = instances_per_row_ * kTexelsPerJoint * joint_count_;
  const int rows = static_cast<int>((instances + static_cast<size_t>(instances_per_row_) - 1) /
                                    static_cast<size_t>(instances_per_row_));
  std::vector<float> texels(static_cast<size_t>(width) * static_cast<size_t>(rows) * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  // RGBA32UI reads as the floats' bits: the same bytes.
  glReadPixels(0, 0, width, rows, bits_ ? GL_RGBA_INTEGER : GL_RGBA,
               bits_ ? GL_UNSIGNED_INT : GL_FLOAT, texels.data());
  Status status = checkGl("palette pass: reading the palettes back");
  saved.restore();
  if (!status.ok()) return status;
  const size_t per_instance = static_cast<size_t>(joint_count_);
  for (size_t i = 0; i < instances; ++i) {
    const size_t row = i / static_cast<size_t>(instances_per_row_);
    const size_t first =
        row * static_cast<size_t>(width) + (i % static_cast<size_t>(instances_per_row_)) *
                                               per_instance * static_cast<size_t>(kTexelsPerJoint);
    for (size_t j = 0; j < per_instance; ++j)
      for (size_t r = 0; r < kVec4PerJoint; ++r) {
        const float* texel = &texels[(first + j * kVec4PerJoint + r) * 4];
        palettes[i * per_instance + j].rows[r] = glm::vec4(texel[0], texel[1], texel[2], texel[3]);
      }
  }
  return Status::okStatus();
}

}  // namespace throng::render
