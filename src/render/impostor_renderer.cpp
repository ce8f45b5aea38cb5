// The impostor's atlases on the GPU and its quads, drawn from the instanced path's records.
#include "render/impostor_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include <GLES3/gl31.h>
#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"
#include "render/instance_record_attributes.h"
#include "render/merged_batch_renderer.h"
#include "render/shader_assembly.h"
#include "render/test_hooks.h"

namespace throng::render {
namespace {

enum ImpostorAttribute : GLuint {
  kCorner = 0,
  kRecord0 = kRecordAttribute0,  // the instance record's first three words (as instanced.vert)
  kRecord1 = kRecordAttribute1,
  kRecord2 = kRecordAttribute2,
  kAgent = 4,  // drawIndirect's program: the agent index replaces the records
};
// The GPU-driven path's per-agent texture, on instanced.vert's unit (shader_assembly.cpp).
[[maybe_unused]] constexpr int kInstancesTextureUnit = 7;

// The quad: two counter-clockwise triangles as a strip, x left to right, y bottom to top.
constexpr float kCorners[] = {-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f};
constexpr GLsizei kCornerCount = 4;
// Alpha below this is cut (no blending: depth is written, draw order does not matter).
constexpr float kAlphaCut = 0.5f;

float srgbToLinear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}
float linearToSrgb(float c) {
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}
uint8_t unorm(float v) {
  return static_cast<uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

// The atlases as uploaded: colour premultiplied in linear light and sRGB-encoded again (so that
// the sRGB texture's filtering blends premultiplied colours), normals with empty texels as the
// zero vector (128, 128, 128: filtering fades them out with the coverage). `encoded_premultiplied`
// (ES 2.0, no sRGB textures): the sRGB-encoded colour times alpha instead, which plain filtering
// weighs by coverage and the shader divides by alpha and decodes (impostor_surface.glsl).
void prepareAtlases(const Impostor& impostor, bool encoded_premultiplied,
                    std::vector<uint8_t>& color, std::vector<uint8_t>& normals) {
  float to_linear[256];
  for (int i = 0; i < 256; ++i) to_linear[i] = srgbToLinear(static_cast<float>(i) / 255.0f);
  const size_t texels = impostor.color.size() / kImpostorColorBytes;
  color.resize(texels * 4);
  normals.resize(texels * 3);
  for (size_t t = 0; t < texels; ++t) {
    const uint8_t* c = &impostor.color[t * kImpostorColorBytes];
    const float a = static_cast<float>(c[3]) / 255.0f;
    for (int k = 0; k < 3; ++k) {
      color[t * 4 + k] = encoded_premultiplied ? unorm(static_cast<float>(c[k]) / 255.0f * a)
                                               : unorm(linearToSrgb(to_linear[c[k]] * a));
    }
    color[t * 4 + 3] = c[3];
    const uint8_t* n = &impostor.normals[t * kImpostorNormalBytes];
    for (int k = 0; k < 3; ++k) normals[t * 3 + k] = c[3] == 0 ? uint8_t{128} : n[k];
  }
}

// One 2x2 box-filter halving (mip level 1) of a `channels`-byte image; odd sides round down.
// Colour is averaged in its encoding: close enough for the one level the rare large atlas needs.
void halve(std::vector<uint8_t>& image, int& width, int& height, int channels) {
  const int w = std::max(width / 2, 1);
  const int h = std::max(height / 2, 1);
  std::vector<uint8_t> out(static_cast<size_t>(w) * h * channels);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int k = 0; k < channels; ++k) {
        int sum = 0;
        for (int dy = 0; dy < 2; ++dy) {
          for (int dx = 0; dx < 2; ++dx) {
            const int sx = std::min(2 * x + dx, width - 1);
            const int sy = std::min(2 * y + dy, height - 1);
            sum += image[(static_cast<size_t>(sy) * width + sx) * channels + k];
          }
        }
        out[(static_cast<size_t>(y) * w + x) * channels + k] = static_cast<uint8_t>((sum + 2) / 4);
      }
    }
  }
  image = std::move(out);
  width = w;
  height = h;
}

GLuint makeTexture(GLenum internal_format, GLenum format, int width, int height,
                   const std::vector<uint8_t>& texels) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal_format), width, height, 0, format,
               GL_UNSIGNED_BYTE, texels.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  return texture;
}

std::string variantName(unsigned variant) {
  std::string name = "gles3/impostor";
  if (variant & 4) name += " (gpu)";
  if (variant & 1) name += " (depth)";
  if (variant & 2) name += " (capture)";
  return name;
}

}  // namespace

Result<std::unique_ptr<ImpostorRenderer>> ImpostorRenderer::create(const Device& device,
                                                                   const Package& package, int lod,
                                                                   const ShaderSource* user) {
  if (package.clips.size() > kMaxImpostorClips) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("impostor: {} clips, more than the {} its shader tells apart",
                              package.clips.size(), kMaxImpostorClips));
  }
  Result<std::unique_ptr<ImpostorRenderer>> made = prepare(device, package, lod, user);
  if (!made.ok()) return made;
  std::unique_ptr<ImpostorRenderer> r = std::move(made).value();
  if (Status s = r->upload(device, package.impostor); !s.ok()) return s;
  // The colour program now: a user's file that does not compile fails the renderer here.
  if (Result<ProgramSet*> set = r->programFor(0); !set.ok()) return set.status();
  return r;
}

Result<std::unique_ptr<ImpostorRenderer>> ImpostorRenderer::createBatched(
    const Device& device, const Package& package, int lod, const ShaderSource* user,
    const ImpostorBatching& batching) {
  Result<std::unique_ptr<ImpostorRenderer>> made = prepare(device, package, lod, user);
  if (!made.ok()) return made;
  std::unique_ptr<ImpostorRenderer> r = std::move(made).value();
  r->copies_ = 1;  // batched from here on: the upload's formats, the programs' version
  if (Status s = r->upload(device, package.impostor); !s.ok()) return s;
  if (Status s = r->sizeBatches(batching); !s.ok()) return s;
  return r;
}

Result<std::unique_ptr<ImpostorRenderer>> ImpostorRenderer::prepare(const Device& device,
                                                                    const Package& package, int lod,
                                                                    const ShaderSource* user) {
  const Impostor& impostor = package.impostor;
  std::unique_ptr<ImpostorRenderer> r(new ImpostorRenderer());
  r->device_ = &device;
  r->user_ = user;
  r->lod_ = lod;
  r->grid_ =
      glm::vec4(static_cast<float>(impostor.azimuths), static_cast<float>(impostor.elevations),
                static_cast<float>(lod), static_cast<float>(package.clips.size()));
  r->center_ = impostor.center;
  r->frames_.azimuths = impostor.azimuths;
  r->frames_.elevations = impostor.elevations;
  r->frames_.clip_frames = impostor.clip_frames;
  r->clip_timing_ = package.clips;
  r->size_ = impostor.size;
  if (!package.materials.empty()) {
    r->metallic_roughness_ =
        glm::vec2(package.materials[0].metallic_factor, package.materials[0].roughness_factor);
  }
  for (size_t c = 0; c < package.clips.size(); ++c) {
    const BakedClip& clip = package.clips[c];
    const float last = clip.frame_count > 0 ? static_cast<float>(clip.frame_count - 1) : 0.0f;
    const bool still = clip.frame_count <= 1 || !(clip.duration > 0.0f) || !(clip.fps > 0.0f);
    r->clips_.emplace_back(static_cast<float>(clip.first_frame), last, still ? 0.0f : clip.fps,
                           clip.duration);
    r->clips_.emplace_back(static_cast<float>(impostor.firstFrame(static_cast<uint32_t>(c))),
                           static_cast<float>(impostor.clip_frames[c]), clip.loop ? 1.0f : 0.0f,
                           clip.duration * clip.fps);
  }
  return r;
}

ImpostorRenderer::~ImpostorRenderer() {
  glDeleteTextures(1, &color_texture_);
  glDeleteTextures(1, &normal_texture_);
  glDeleteBuffers(1, &corner_buffer_);
  glDeleteBuffers(1, &batch_indices_);
  if (vertex_array_ != 0) glDeleteVertexArrays(1, &vertex_array_);
  if (indirect_vertex_array_ != 0) glDeleteVertexArrays(1, &indirect_vertex_array_);
}

Status ImpostorRenderer::upload(const Device& device, const Impostor& impostor) {
  std::vector<uint8_t> color;
  std::vector<uint8_t> normals;
  prepareAtlases(impostor, batched(), color, normals);
  int width = static_cast<int>(impostor.atlasWidth());
  int height = static_cast<int>(impostor.atlasHeight());
  float tile_width = static_cast<float>(impostor.tile_width);
  float tile_height = static_cast<float>(impostor.tile_height);
  const int max_side = std::max(device.caps().max_texture_size, 1);
  if (std::max(width, height) > max_side) {
    int normal_width = width;
    int normal_height = height;
    halve(color, width, height, 4);
    halve(normals, normal_width, normal_height, 3);
    tile_width *= 0.5f;
    tile_height *= 0.5f;
    if (std::max(width, height) > max_side) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("impostor: atlases of {}x{} texels, more than twice "
                                "GL_MAX_TEXTURE_SIZE {} even at mip level 1",
                                impostor.atlasWidth(), impostor.atlasHeight(), max_side));
    }
  }
  atlas_width_ = width;
  atlas_height_ = height;
  atlas_ = glm::vec4(static_cast<float>(impostor.frameCount()),
                     static_cast<float>(impostor.viewCount()), tile_width, tile_height);
  if (batched()) {
    // ES 2.0: unsized formats, no sRGB (impostor_surface.glsl decodes), no vertex arrays.
    color_texture_ = makeTexture(GL_RGBA, GL_RGBA, width, height, color);
    normal_texture_ = makeTexture(GL_RGB, GL_RGB, width, height, normals);
    return checkGlUpload("impostor: uploading the atlases", deviceFaults(device));
  }
  color_texture_ = makeTexture(GL_SRGB8_ALPHA8, GL_RGBA, width, height, color);
  normal_texture_ = makeTexture(GL_RGB8, GL_RGB, width, height, normals);
  glGenVertexArrays(1, &vertex_array_);
  glBindVertexArray(vertex_array_);
  glGenBuffers(1, &corner_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kCorners), kCorners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(kCorner);
  glVertexAttribPointer(kCorner, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  enableRecordAttributes(3);
  glGenVertexArrays(1, &indirect_vertex_array_);
  glBindVertexArray(indirect_vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glEnableVertexAttribArray(kCorner);
  glVertexAttribPointer(kCorner, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(kAgent);
  glVertexAttribDivisor(kAgent, 1);
  glBindVertexArray(0);
  return checkGlUpload("impostor: uploading the atlases", deviceFaults(device));
}

Result<ImpostorRenderer::ProgramSet*> ImpostorRenderer::programFor(unsigned variant) {
  std::unique_ptr<ProgramSet>& slot = programs_[variant];
  if (slot) return slot.get();
  const bool depth = (variant & kDepthVariant) != 0;
  const bool capture = (variant & kCaptureVariant) != 0;
  const bool gpu = (variant & kGpuVariant) != 0;
  CrowdProgramSource source;
  source.surface_path = "common/impostor_surface.glsl";
  if (batched()) {
    source.name = fmt::format("gles2/impostor ({} per draw){}", copies_, depth ? " (depth)" : "");
    source.version = GlslVersion::kEs100;
    source.vertex_path = "gles2/impostor.vert";
    source.defines.push_back(fmt::format("COPIES {}", copies_));
    source.defines.push_back(fmt::format("IMPOSTOR_AGENT_VECTORS {}", kImpostorAgentVectors));
  } else {
    source.name = variantName(variant);
    source.version = GlslVersion::kEs300;
    source.vertex_path = "gles3/impostor.vert";
    source.defines.push_back(fmt::format("IMPOSTOR_CLIPS {}", clips_.size() / 2));
  }
  source.defines.push_back("IMPOSTOR_FADE");
  if (gpu) source.defines.push_back("GPU_INSTANCES");
  source.pass = depth ? CrowdPass::kDepth : CrowdPass::kColor;
  source.user = depth || capture ? nullptr : user_;
  Result<ProgramDesc> desc = assembleCrowdProgram(source);
  if (!desc.ok()) return desc.status();
  if (batched()) {
    desc->attributes = {{"a_corner", kCorner}};
  } else if (gpu) {
    desc->attributes = {{"a_corner", kCorner}, {"i_agent", kAgent}};
  } else {
    desc->attributes = {{"a_corner", kCorner},
                        {"i_record0", kRecord0},
                        {"i_record1", kRecord1},
                        {"i_record2", kRecord2}};
  }
  if (capture)
    desc->feedback_varyings = {"v_views", "v_view_weights", "v_frames", "v_frame_weight"};
  Result<Program> program = buildProgram(*desc, deviceFaults(*device_));
  if (!program.ok()) return program.status();
  auto set = std::make_unique<ProgramSet>();
  set->program = std::move(program).value();
  set->shading = ShadingUniforms::of(set->program);
  set->camera = set->program.uniform("u_impostor_camera");
  set->material = set->program.uniform("u_material[0]");
  const Program& p = set->program;
  bindCrowdSamplers(p);  // leaves the program in use
  glUniform4fv(p.uniform("u_impostor_grid"), 1, glm::value_ptr(grid_));
  glUniform4fv(p.uniform("u_impostor_atlas"), 1, glm::value_ptr(atlas_));
  glUniform3fv(p.uniform("u_impostor_center"), 1, glm::value_ptr(center_));
  glUniform2fv(p.uniform("u_impostor_size"), 1, glm::value_ptr(size_));
  if (!batched()) {
    glUniform4fv(p.uniform("u_impostor_clips[0]"), static_cast<GLsizei>(clips_.size()),
                 glm::value_ptr(clips_[0]));
  }
  // material.glsl's layout: the cut (above -1) also makes the output opaque.
  const glm::vec4 material[3] = {glm::vec4(1.0f), glm::vec4(metallic_roughness_, 0.0f, 1.0f),
                                 glm::vec4(0.0f, 0.0f, 0.0f, kAlphaCut)};
  glUniform4fv(set->material, 3, glm::value_ptr(material[0]));
  slot = std::move(set);
  return slot.get();
}

Status ImpostorRenderer::sizeBatches(const ImpostorBatching& batching) {
  // A one-quad program first: what it takes besides the agents' array sets K.
  Result<ProgramSet*> probe = programFor(0);
  if (!probe.ok()) return probe.status();
  constexpr std::string_view kAgents[] = {"u_impostor_agents", "u_impostor_agents[0]"};
  const int other = otherUniformVectors((*probe)->program.id(), kAgents);
  const int budget = batching.max_vertex_uniform_vectors > 0
                         ? batching.max_vertex_uniform_vectors
                         : device_->caps().max_vertex_uniform_vectors;
  int copies = std::min((budget - other) / kImpostorAgentVectors, kMaxImpostorsPerDraw);
  if (batching.max_agents_per_draw > 0) copies = std::min(copies, batching.max_agents_per_draw);
  if (copies < 1) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("impostor: {} vertex uniform vectors, not even one agent's {} past "
                              "the program's other {}",
                              budget, kImpostorAgentVectors, other));
  }
  copies_ = copies;
  programs_[0].reset();
  if (Result<ProgramSet*> set = programFor(0); !set.ok()) return set.status();
  // K quads: corners (x, y, copy) and two triangles each.
  std::vector<float> corners;
  std::vector<uint16_t> indices;
  for (int k = 0; k < copies_; ++k) {
    for (int v = 0; v < kCornerCount; ++v) {
      corners.insert(corners.end(), {kCorners[2 * v], kCorners[2 * v + 1], static_cast<float>(k)});
    }
    const auto first = static_cast<uint16_t>(k * kCornerCount);
    for (const int i : {0, 1, 2, 2, 1, 3}) indices.push_back(static_cast<uint16_t>(first + i));
  }
  glGenBuffers(1, &corner_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(corners.size() * sizeof(float)),
               corners.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glGenBuffers(1, &batch_indices_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, batch_indices_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint16_t)),
               indices.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  return checkGlUpload("impostor: the batched quads", deviceFaults(*device_));
}

GLuint ImpostorRenderer::shadingProgram() const {
  return programs_[0] ? programs_[0]->program.id() : 0;
}

// The camera the quads face: the eye, or an orthographic view's direction towards it (the
// depth row of its matrix points away from it).
glm::vec4 impostorCamera(const FrameView& view) {
  const glm::mat4& m = view.view_projection;
  const bool orthographic =
      m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f;
  if (!orthographic) return glm::vec4(view.eye, 1.0f);
  const glm::vec3 depth_row(m[0][2], m[1][2], m[2][2]);
  const float length = glm::length(depth_row);
  return glm::vec4(length > 0.0f ? -depth_row / length : glm::vec3(0.0f, 1.0f, 0.0f), 0.0f);
}

Result<ImpostorRenderer::ProgramSet*> ImpostorRenderer::useProgram(unsigned variant,
                                                                   const FrameView& view,
                                                                   const FrameShading& shading) {
  Result<ProgramSet*> set = programFor(variant);
  if (!set.ok()) return set.status();
  glUseProgram((*set)->program.id());
  applyShading((*set)->shading, view, shading);
  glUniform4fv((*set)->camera, 1, glm::value_ptr(impostorCamera(view)));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, color_texture_);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, normal_texture_);
  glActiveTexture(GL_TEXTURE0);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  glDisable(GL_CULL_FACE);
  return set;
}

Status ImpostorRenderer::draw(const FrameView& view, GLuint instance_buffer, size_t first_byte,
                              uint32_t count, const FrameShading& shading, DrawPass pass,
                              const ImpostorFade& fade) {
  if (count == 0) return Status::okStatus();
  Result<ProgramSet*> set =
      useProgram(pass == DrawPass::kDepth ? kDepthVariant : 0u, view, shading);
  if (!set.ok()) return set.status();
  const Program& p = (*set)->program;
  glUniform1i(p.uniform("u_fade_instances"), static_cast<GLint>(fade.instances));
  glUniform3fv(p.uniform("u_fade_eye"), 1, glm::value_ptr(fade.eye));
  glUniform2fv(p.uniform("u_fade_band"), 1, glm::value_ptr(fade.band));
  glBindVertexArray(vertex_array_);
  bindRecordAttributes(instance_buffer, first_byte, 3);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, kCornerCount, static_cast<GLsizei>(count));
  glBindVertexArray(0);
  return checkGl("impostor: draw");
}

Status ImpostorRenderer::drawAgents(const FrameView& view, std::span<const ImpostorAgent> agents,
                                    const FrameShading& shading, DrawPass pass,
                                    uint32_t& draw_calls) {
  if (agents.empty()) return Status::okStatus();
  if (!batched()) return Status(ErrorCode::kUnsupported, "impostor: not a batched renderer");
  Result<ProgramSet*> set =
      useProgram(pass == DrawPass::kDepth ? kDepthVariant : 0u, view, shading);
  if (!set.ok()) return set.status();
  GLint at = (*set)->program.uniform("u_impostor_agents[0]");
  if (at < 0) at = (*set)->program.uniform("u_impostor_agents");
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, batch_indices_);
  glEnableVertexAttribArray(kCorner);
  glVertexAttribPointer(kCorner, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  for (size_t first = 0; first < agents.size(); first += static_cast<size_t>(copies_)) {
    const size_t count = std::min(agents.size() - first, static_cast<size_t>(copies_));
    glUniform4fv(at, static_cast<GLsizei>(count * kImpostorAgentVectors),
                 glm::value_ptr(agents[first].position_scale));
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count * 6), GL_UNSIGNED_SHORT, nullptr);
    ++draw_calls;
  }
  // Vertex array 0 is shared (merged_batch_renderer.cpp): leave no array of ours enabled.
  glDisableVertexAttribArray(kCorner);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return checkGl("impostor: batched draw");
}

ImpostorAgent ImpostorRenderer::agentOf(const Placement& placement, const AgentPlayback& playback,
                                        const glm::vec4& tint, uint32_t agent, uint8_t state,
                                        float fade) const {
  const bool secondary = playback.fade > 0.5f;
  const uint32_t clip = secondary ? playback.previous_clip : playback.clip;
  const float time = secondary ? playback.previous_time : playback.time;
  ImpostorBlend blend;
  if (clip < clip_timing_.size()) {
    const BakedClip& timing = clip_timing_[clip];
    // The frames do not depend on the direction (any non-zero one).
    blend = impostorBlend(frames_, glm::vec3(0.0f, 0.0f, 1.0f), clip, time, timing.duration,
                          timing.loop);
  }
  ImpostorAgent out;
  out.position_scale = glm::vec4(placement.position, placement.scale);
  out.turn_frames =
      glm::vec4(std::cos(placement.heading), std::sin(placement.heading),
                static_cast<float>(blend.frames[0]), static_cast<float>(blend.frames[1]));
  out.tint = tint;
  out.agent =
      glm::vec4(static_cast<float>(agent), static_cast<float>(state), blend.frame_weight, fade);
  return out;
}

Status ImpostorRenderer::drawIndirect(const FrameView& view, const IndirectInstances& in, int lod,
                                      const FrameShading& shading, DrawPass pass,
                                      const ImpostorFade& fade) {
#ifdef __EMSCRIPTEN__
  (void)view;
  (void)in;
  (void)lod;
  (void)shading;
  (void)pass;
  (void)fade;
  return Status(ErrorCode::kUnsupported, "impostor: WebGL has no indirect draws");
#else
  if (in.only_lod >= 0 && in.only_lod != lod) return Status::okStatus();
  Result<ProgramSet*> set =
      useProgram(kGpuVariant | (pass == DrawPass::kDepth ? kDepthVariant : 0u), view, shading);
  if (!set.ok()) return set.status();
  const Program& p = (*set)->program;
  glUniform1i(p.uniform("u_fade_instances"), 0);
  glUniform3fv(p.uniform("u_fade_eye"), 1, glm::value_ptr(fade.eye));
  glUniform2fv(p.uniform("u_fade_band"), 1, glm::value_ptr(fade.band));
  glUniform1i(p.uniform("u_instances_per_row"), in.instances_per_row);
  glActiveTexture(GL_TEXTURE0 + kInstancesTextureUnit);
  glBindTexture(GL_TEXTURE_2D, in.instances);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(indirect_vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, in.agent_lists);
  // No base instance in ES 3.1's record: the LOD's list is the attribute's offset.
  glVertexAttribIPointer(kAgent, 1, GL_UNSIGNED_INT, 0,
                         byteOffset(size_t{in.list_capacity} * lod * sizeof(GLuint)));
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, in.draw_commands);
  glDrawArraysIndirect(GL_TRIANGLE_STRIP,
                       byteOffset(size_t{kDrawCommandWords} * lod * sizeof(GLuint)));
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  glBindVertexArray(0);
  return checkGl("impostor: indirect draw");
#endif
}

Status ImpostorRenderer::capturePicks(const FrameView& view,
                                      std::span<const InstanceRecord> records,
                                      std::span<ImpostorPick> out) {
  if (records.empty()) return Status::okStatus();
  Result<ProgramSet*> set = useProgram(kCaptureVariant, view, FrameShading{});
  if (!set.ok()) return set.status();
  glUniform1i((*set)->program.uniform("u_fade_instances"), 0);
  GLuint buffers[2] = {};
  glGenBuffers(2, buffers);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(records.size_bytes()), records.data(),
               GL_STATIC_DRAW);
  // Interleaved as the varyings are listed: uvec4, vec4, uvec2, float.
  constexpr size_t kPickBytes = 16 + 16 + 8 + 4;
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffers[1]);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(records.size() * kPickBytes),
               nullptr, GL_STATIC_READ);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffers[1]);
  glBindVertexArray(vertex_array_);
  bindRecordAttributes(buffers[0], 0, 3);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArraysInstanced(GL_POINTS, 0, 1, static_cast<GLsizei>(records.size()));
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(0);
  const void* data =
      glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0,
                       static_cast<GLsizeiptr>(records.size() * kPickBytes), GL_MAP_READ_BIT);
  if (data) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < records.size(); ++i) {
      const unsigned char* at = bytes + i * kPickBytes;
      std::memcpy(out[i].views, at, 16);
      std::memcpy(out[i].view_weights, at + 16, 16);
      std::memcpy(out[i].frames, at + 32, 8);
      std::memcpy(&out[i].frame_weight, at + 40, 4);
    }
    glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
  }
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  glDeleteBuffers(2, buffers);
  return checkGl("impostor: capturing the picks");
}

}  // namespace throng::render
