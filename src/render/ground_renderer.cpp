// GroundRenderer: the ground square and the blob shadows (instanced on ES 3, expanded on ES 2).
#include "render/ground_renderer.h"

#include <algorithm>
#include <cmath>

#ifndef __EMSCRIPTEN__
#include <GLES3/gl31.h>
#endif

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "fog_uniforms.h"
#include "render/gl_check.h"
#include "render/shader_assembly.h"

namespace throng::render {
namespace {

constexpr GLuint kCornerLocation = 0;
constexpr GLuint kBlobLocation = 1;
#ifndef __EMSCRIPTEN__                // drawListedShadows (WebGL has no indirect draws)
constexpr GLuint kAgentLocation = 1;  // the listed agent's index
// The texture unit of the GPU-driven path's records while its shadows draw (as drawIndirect's).
constexpr int kListedRecordsUnit = 2;
#endif
// Every 10th grid line is a major one.
constexpr float kMajorCells = 10.0f;
// Without fog, the ground reaches this many cells from the eye.
constexpr float kGroundCellsWithoutFog = 200.0f;
// Shadows are pulled towards the eye by this much (glPolygonOffset factor, units) so that they
// win the depth test against the ground they lie on.
constexpr float kShadowOffsetFactor = -1.0f;
constexpr float kShadowOffsetUnits = -4.0f;

const float kCorners[4][2] = {{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}};

Result<Program> buildGroundProgram(const char* name, const char* vertex_path,
                                   const char* fragment_path, std::vector<AttributeBinding> attrs,
                                   const GlFaults& faults) {
  Result<std::string> vertex = embeddedShader(vertex_path);
  if (!vertex.ok()) return vertex.status();
  Result<std::string> fragment = embeddedShader(fragment_path);
  if (!fragment.ok()) return fragment.status();
  ProgramDesc desc;
  desc.name = name;
  desc.vertex_source = std::move(vertex).value();
  desc.fragment_source = std::move(fragment).value();
  desc.attributes = std::move(attrs);
  return buildProgram(desc, faults);
}

}  // namespace

Result<std::unique_ptr<GroundRenderer>> GroundRenderer::create(Device& device) {
  if (Status s = device.makeCurrent(); !s.ok()) return s;
  std::unique_ptr<GroundRenderer> r(new GroundRenderer());
  r->device_ = &device;
  r->instancing_ = device.caps().instancing;
  Result<Program> ground =
      buildGroundProgram("gles2/ground", "gles2/ground.vert", "gles2/ground.frag",
                         {{"a_corner", kCornerLocation}}, deviceFaults(device));
  if (!ground.ok()) return ground.status();
  r->ground_ = std::move(ground).value();
  bindCrowdSamplers(r->ground_);  // the shadow map's unit
  r->ground_shading_ = ShadingUniforms::of(r->ground_);
  Result<Program> shadow = buildGroundProgram(
      "gles2/blob_shadow", "gles2/blob_shadow.vert", "gles2/blob_shadow.frag",
      {{"a_corner", kCornerLocation}, {"a_blob", kBlobLocation}}, deviceFaults(device));
  if (!shadow.ok()) return shadow.status();
  r->shadow_ = std::move(shadow).value();

  glGenBuffers(1, &r->quad_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, r->quad_buffer_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kCorners), kCorners, GL_STATIC_DRAW);
  // Instanced: one quad's corners and indices. ES 2.0: kMaxShadowsPerDraw quads of them.
  const uint32_t quads = r->instancing_ ? 1 : kMaxShadowsPerDraw;
  std::vector<float> corners(static_cast<size_t>(quads) * 8);
  std::vector<uint16_t> indices(static_cast<size_t>(quads) * 6);
  for (uint32_t q = 0; q < quads; ++q) {
    for (int c = 0; c < 4; ++c) {
      corners[q * 8 + c * 2] = kCorners[c][0];
      corners[q * 8 + c * 2 + 1] = kCorners[c][1];
    }
    const uint16_t base = static_cast<uint16_t>(q * 4);
    const uint16_t quad[6] = {
        base, static_cast<uint16_t>(base + 1), static_cast<uint16_t>(base + 2),
        base, static_cast<uint16_t>(base + 2), static_cast<uint16_t>(base + 3)};
    std::copy(quad, quad + 6, indices.begin() + q * 6);
  }
  glGenBuffers(1, &r->corner_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, r->corner_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(corners.size() * sizeof(float)),
               corners.data(), GL_STATIC_DRAW);
  glGenBuffers(1, &r->index_buffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->index_buffer_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint16_t)),
               indices.data(), GL_STATIC_DRAW);
  glGenBuffers(1, &r->shadow_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  if (Status s = checkGlUpload("ground renderer: buffers", deviceFaults(device)); !s.ok()) return s;
  return r;
}

GroundRenderer::~GroundRenderer() {
  const GLuint buffers[] = {quad_buffer_, corner_buffer_, index_buffer_, shadow_buffer_,
                            listed_commands_};
  for (GLuint b : buffers) {
    if (b != 0) glDeleteBuffers(1, &b);
  }
  if (listed_vertex_array_ != 0) glDeleteVertexArrays(1, &listed_vertex_array_);
}

Status GroundRenderer::draw(const FrameView& view, const GroundDesc& desc,
                            std::span<const BlobShadow> shadows, const FrameShading& shading) {
  draw_calls_ = 0;
  if (!desc.grid && shadows.empty()) return Status::okStatus();
  // Client-side attribute state lives in vertex array 0 on ES 3.
  if (device_->caps().gles_major >= 3) glBindVertexArray(0);
  glDisable(GL_CULL_FACE);  // the ground is seen from above, and from below by a low camera
  if (desc.grid) {
    if (Status s = drawGround(view, desc, shading); !s.ok()) return s;
  }
  if (!shadows.empty()) {
    if (Status s = drawShadows(view, desc, shadows); !s.ok()) return s;
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  return checkGl("ground renderer: draw");
}

Status GroundRenderer::drawGround(const FrameView& view, const GroundDesc& desc,
                                  const FrameShading& shading) {
  const float cell = desc.cell > 0.0f ? desc.cell : 1.0f;
  const float extent = desc.extent > 0.0f   ? desc.extent
                       : view.fog.enabled() ? view.fog.end
                                            : kGroundCellsWithoutFog * cell;
  const float viewport_height = view.viewport_height > 0.0f
                                    ? view.viewport_height
                                    : static_cast<float>(std::max(device_->height(), 1));
  const float pixel_angle = 2.0f * std::tan(0.5f * view.fov_y) / viewport_height;
  const GLuint program = ground_.id();
  glUseProgram(program);
  // The camera, the light and the shadow map as the crowd has them (not the user's uniforms).
  applyShading(ground_shading_, view, FrameShading{shading.shadow, nullptr});
  glUniform4f(ground_.uniform("u_ground"), view.eye.x, view.eye.z, extent, desc.height);
  glUniform3f(ground_.uniform("u_color"), desc.color.r, desc.color.g, desc.color.b);
  glUniform4f(ground_.uniform("u_line"), desc.line_color.r, desc.line_color.g, desc.line_color.b,
              std::clamp(desc.line_strength, 0.0f, 1.0f));
  glUniform2f(ground_.uniform("u_cell"), cell, kMajorCells * cell);
  glUniform1f(ground_.uniform("u_pixel_angle"), pixel_angle);
  detail::setFogUniforms(ground_.uniform("u_fog_eye"), ground_.uniform("u_fog_color"), view);
  glBindBuffer(GL_ARRAY_BUFFER, quad_buffer_);
  glEnableVertexAttribArray(kCornerLocation);
  glVertexAttribPointer(kCornerLocation, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glDisableVertexAttribArray(kCornerLocation);
  ++draw_calls_;
  return Status::okStatus();
}

void GroundRenderer::beginShadows(const Program& program, const FrameView& view,
                                  const GroundDesc& desc) {
  glUseProgram(program.id());
  glUniformMatrix4fv(program.uniform("u_view_projection"), 1, GL_FALSE,
                     glm::value_ptr(view.view_projection));
  glUniform1f(program.uniform("u_opacity"), std::clamp(desc.shadow_opacity, 0.0f, 1.0f));
  detail::setFogUniforms(program.uniform("u_fog_eye"), program.uniform("u_fog_color"), view);
  glDisable(GL_CULL_FACE);  // the ground is seen from above, and from below by a low camera
  glEnable(GL_BLEND);
  // Colour darkens by the shadow's alpha; the frame's alpha stays (an opaque picture, not one
  // with holes where the shadows are).
  glBlendFuncSeparate(GL_ZERO, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glDepthMask(GL_FALSE);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(kShadowOffsetFactor, kShadowOffsetUnits);
}

void GroundRenderer::endShadows() {
  glDisable(GL_POLYGON_OFFSET_FILL);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

Status GroundRenderer::drawShadows(const FrameView& view, const GroundDesc& desc,
                                   std::span<const BlobShadow> shadows) {
  beginShadows(shadow_, view, desc);
  glEnableVertexAttribArray(kCornerLocation);
  glEnableVertexAttribArray(kBlobLocation);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);

  const size_t copies = instancing_ ? 1 : 4;
  const size_t bytes = shadows.size() * copies * sizeof(BlobShadow);
  glBindBuffer(GL_ARRAY_BUFFER, shadow_buffer_);
  if (bytes > shadow_buffer_bytes_) {
    shadow_buffer_bytes_ = std::max(bytes, 2 * shadow_buffer_bytes_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(shadow_buffer_bytes_), nullptr,
                 GL_STREAM_DRAW);
  }
  if (instancing_) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), shadows.data());
    glVertexAttribPointer(kBlobLocation, 4, GL_FLOAT, GL_FALSE, sizeof(BlobShadow), nullptr);
    glVertexAttribDivisor(kBlobLocation, 1);
    glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
    glVertexAttribPointer(kCornerLocation, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glDrawElementsInstanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, nullptr,
                            static_cast<GLsizei>(shadows.size()));
    glVertexAttribDivisor(kBlobLocation, 0);
    ++draw_calls_;
  } else {
    // Every shadow four times, one per corner of its quad.
    expanded_.resize(shadows.size() * 4);
    for (size_t i = 0; i < shadows.size(); ++i) {
      std::fill_n(expanded_.begin() + static_cast<std::ptrdiff_t>(i * 4), 4, shadows[i]);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), expanded_.data());
    for (size_t first = 0; first < shadows.size(); first += kMaxShadowsPerDraw) {
      const size_t count = std::min<size_t>(kMaxShadowsPerDraw, shadows.size() - first);
      glBindBuffer(GL_ARRAY_BUFFER, shadow_buffer_);
      glVertexAttribPointer(kBlobLocation, 4, GL_FLOAT, GL_FALSE, sizeof(BlobShadow),
                            byteOffset(first * 4 * sizeof(BlobShadow)));
      glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
      glVertexAttribPointer(kCornerLocation, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count * 6), GL_UNSIGNED_SHORT, nullptr);
      ++draw_calls_;
    }
  }
  glDisableVertexAttribArray(kCornerLocation);
  glDisableVertexAttribArray(kBlobLocation);
  endShadows();
  return Status::okStatus();
}

#ifdef __EMSCRIPTEN__

Status GroundRenderer::drawListedShadows(const FrameView&, const GroundDesc&, float,
                                         const IndirectInstances&, int) {
  return Status(ErrorCode::kUnsupported, "ground renderer: WebGL has no indirect draws");
}

#else

Status GroundRenderer::drawListedShadows(const FrameView& view, const GroundDesc& desc,
                                         float radius, const IndirectInstances& listed,
                                         int lod_count) {
  if (listed_vertex_array_ == 0) {
    Result<Program> program = buildGroundProgram(
        "gles3/blob_shadow_listed", "gles3/blob_shadow_listed.vert",
        "gles3/blob_shadow_listed.frag",
        {{"a_corner", kCornerLocation}, {"i_agent", kAgentLocation}}, deviceFaults(*device_));
    if (!program.ok()) return program.status();
    listed_shadow_ = std::move(program).value();
    // Indirect draws need a vertex array of their own (ES 3.1: not the default one).
    glGenVertexArrays(1, &listed_vertex_array_);
    glBindVertexArray(listed_vertex_array_);
    glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
    glEnableVertexAttribArray(kCornerLocation);
    glVertexAttribPointer(kCornerLocation, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(kAgentLocation);
    glVertexAttribDivisor(kAgentLocation, 1);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    glGenBuffers(1, &listed_commands_);
    if (Status s = checkGl("ground renderer: listed shadows' program"); !s.ok()) return s;
  }
  if (lod_count <= 0) return Status::okStatus();
  if (lod_count > listed_command_count_) {
    // One quad's command per LOD; its instance count is filled in from the path's each frame.
    std::vector<GLuint> words(static_cast<size_t>(lod_count) * kDrawCommandWords, 0u);
    for (int l = 0; l < lod_count; ++l) words[static_cast<size_t>(l) * kDrawCommandWords] = 6;
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, listed_commands_);
    glBufferData(GL_DRAW_INDIRECT_BUFFER, static_cast<GLsizeiptr>(words.size() * sizeof(GLuint)),
                 words.data(), GL_DYNAMIC_DRAW);
    listed_command_count_ = lod_count;
  }
  const int first = listed.only_lod >= 0 ? listed.only_lod : 0;
  const int end = listed.only_lod >= 0 ? listed.only_lod + 1 : lod_count;
  glBindBuffer(GL_COPY_READ_BUFFER, listed.draw_commands);
  glBindBuffer(GL_COPY_WRITE_BUFFER, listed_commands_);
  for (int l = first; l < end; ++l) {
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
                        static_cast<GLintptr>((l * kDrawCommandWords + 1) * sizeof(GLuint)),
                        static_cast<GLintptr>((l * kDrawCommandWords + 1) * sizeof(GLuint)),
                        sizeof(GLuint));
  }
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  glMemoryBarrier(GL_COMMAND_BARRIER_BIT);

  beginShadows(listed_shadow_, view, desc);
  glUniform2f(listed_shadow_.uniform("u_blob"), desc.height, radius);
  glUniform1i(listed_shadow_.uniform("u_instances_per_row"), listed.instances_per_row);
  glUniform1i(listed_shadow_.uniform("u_instances"), kListedRecordsUnit);
  glActiveTexture(GL_TEXTURE0 + kListedRecordsUnit);
  glBindTexture(GL_TEXTURE_2D, listed.instances);
  glBindVertexArray(listed_vertex_array_);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, listed_commands_);
  glBindBuffer(GL_ARRAY_BUFFER, listed.agent_lists);
  for (int l = first; l < end; ++l) {
    glVertexAttribIPointer(kAgentLocation, 1, GL_UNSIGNED_INT, 0,
                           byteOffset(size_t{listed.list_capacity} * l * sizeof(GLuint)));
    glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_SHORT,
                           byteOffset(size_t{kDrawCommandWords} * l * sizeof(GLuint)));
    ++draw_calls_;
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  endShadows();
  return checkGl("ground renderer: listed shadows");
}

#endif  // __EMSCRIPTEN__

}  // namespace throng::render
