// The shadow map: the light's view fitted to the camera's, the depth texture and its framebuffer.
#include "render/passes/shadow_pass.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/gl_check.h"
#include "render/material_draws.h"

namespace throng::render {

ShadowFit fitShadowView(const FrameView& camera, float distance, int map_size) {
  const glm::mat4 inverse = glm::inverse(camera.view_projection);
  glm::vec3 near_corner[4];
  glm::vec3 far_corner[4];
  glm::vec3 far_center(0.0f);
  for (int i = 0; i < 4; ++i) {
    const float x = (i & 1) ? 1.0f : -1.0f;
    const float y = (i & 2) ? 1.0f : -1.0f;
    const glm::vec4 n = inverse * glm::vec4(x, y, -1.0f, 1.0f);
    const glm::vec4 f = inverse * glm::vec4(x, y, 1.0f, 1.0f);
    near_corner[i] = glm::vec3(n) / n.w;
    far_corner[i] = glm::vec3(f) / f.w;
    far_center += 0.25f * far_corner[i];
  }
  // The frustum cut at `distance` along its axis: each edge from near to far, as far as that.
  const glm::vec3 axis = glm::normalize(far_center - camera.eye);
  glm::vec3 points[8];
  glm::vec3 center(0.0f);
  for (int i = 0; i < 4; ++i) {
    const float near_depth = glm::dot(near_corner[i] - camera.eye, axis);
    const float far_depth = glm::dot(far_corner[i] - camera.eye, axis);
    const float t = far_depth > near_depth
                        ? std::clamp((distance - near_depth) / (far_depth - near_depth), 0.0f, 1.0f)
                        : 1.0f;
    points[i] = near_corner[i];
    points[4 + i] = glm::mix(near_corner[i], far_corner[i], t);
  }
  for (const glm::vec3& p : points) center += p / 8.0f;
  float radius = 0.0f;
  for (const glm::vec3& p : points) radius = std::max(radius, glm::length(p - center));
  radius = std::max(radius, 1e-3f);
  const glm::vec3 light = glm::normalize(camera.light_direction);
  const glm::vec3 up = std::abs(light.y) > 0.99f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
  const float back = radius * (1.0f + kShadowCasterMargin);
  ShadowFit fit;
  fit.radius = radius;
  fit.eye = center - light * back;
  const glm::mat4 view = glm::lookAt(fit.eye, center, up);
  glm::mat4 projection = glm::ortho(-radius, radius, -radius, radius, 0.0f, back + radius);
  // Snap the world origin to a texel: the whole map then moves by whole texels.
  const glm::vec4 origin = projection * view * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
  const float half = 0.5f * static_cast<float>(map_size);
  const glm::vec2 texel(origin.x * half, origin.y * half);
  const glm::vec2 offset = (glm::round(texel) - texel) / half;
  projection[3][0] += offset.x;
  projection[3][1] += offset.y;
  fit.view_projection = projection * view;
  return fit;
}

Result<std::unique_ptr<ShadowMapPass>> ShadowMapPass::create(Device& device, int size) {
  const Caps& caps = device.caps();
  if (!caps.depth_textures) {
    return Status(ErrorCode::kUnsupported,
                  fmt::format("shadow map: the device has no depth textures ({}, without "
                              "OES_depth_texture)",
                              caps.version));
  }
  size = std::clamp(size, 1, std::max(caps.max_texture_size, 1));
  std::unique_ptr<ShadowMapPass> pass(new ShadowMapPass());
  pass->size_ = size;
  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  glGenTextures(1, &pass->texture_);
  glActiveTexture(GL_TEXTURE0 + kShadowTextureUnit);
  glBindTexture(GL_TEXTURE_2D, pass->texture_);
  const bool es3 = caps.gles_major >= 3;
  glTexImage2D(GL_TEXTURE_2D, 0, es3 ? GL_DEPTH_COMPONENT24 : GL_DEPTH_COMPONENT, size, size, 0,
               GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glGenFramebuffers(1, &pass->framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, pass->framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, pass->texture_, 0);
  const GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  if (complete != GL_FRAMEBUFFER_COMPLETE) {
    return Status(ErrorCode::kGlError,
                  fmt::format("shadow map: the {}x{} depth framebuffer is incomplete (0x{:x})",
                              size, size, complete));
  }
  if (Status s = checkGl("shadow map: creation"); !s.ok()) return s;
  return pass;
}

ShadowMapPass::~ShadowMapPass() {
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
}

void ShadowMapPass::fit(const FrameView& camera, float distance) {
  fit_ = fitShadowView(camera, distance, size_);
  light_view_ = FrameView{};
  light_view_.view_projection = fit_.view_projection;
  light_view_.eye = fit_.eye;
  light_view_.fov_y = 0.0f;
  light_view_.viewport_height = static_cast<float>(size_);
  light_view_.light_direction = camera.light_direction;
  // Clip space -1..1 to the map's 0..1 texture coordinates and depth.
  const glm::mat4 to_texture = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) *
                               glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
  binding_.texture = texture_;
  binding_.matrix = to_texture * fit_.view_projection;
  const float texel = 1.0f / static_cast<float>(size_);
  const float texel_world = 2.0f * fit_.radius * texel;
  binding_.params = glm::vec4(texel, kShadowDepthBiasTexels * texel,
                              kShadowNormalOffsetTexels * texel_world, 1.0f);
}

void ShadowMapPass::begin() {
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &saved_framebuffer_);
  glGetIntegerv(GL_VIEWPORT, saved_viewport_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, size_, size_);
  glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
  glDepthMask(GL_TRUE);
  glEnable(GL_DEPTH_TEST);
  glClearDepthf(1.0f);
  glClear(GL_DEPTH_BUFFER_BIT);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(kShadowPolygonOffsetFactor, kShadowPolygonOffsetUnits);
}

void ShadowMapPass::end() {
  glDisable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(0.0f, 0.0f);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(saved_framebuffer_));
  glViewport(saved_viewport_[0], saved_viewport_[1], saved_viewport_[2], saved_viewport_[3]);
}

}  // namespace throng::render
