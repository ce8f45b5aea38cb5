// What CI's driver (Mesa llvmpipe) provides, asserted by using it: the capabilities every render
// path's tests take for granted. A driver that lost one fails here by name, not as a skip or a
// fallback somewhere else (tests/support/require.h).
#include <cstring>
#include <string>

#include <GLES3/gl31.h>
#include <gtest/gtest.h>

#include "render/gl_check.h"
#include "render/gpu_crowd.h"
#include "support/gpu_support.h"
#include "support/test_support.h"

namespace throng::render {
namespace {

// Compiles and links one compute shader; 0 and a gtest failure with its log otherwise.
GLuint computeProgram(const char* source) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  char log[1024] = {};
  if (!ok) {
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    ADD_FAILURE() << "compute shader: " << log;
    glDeleteShader(shader);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    ADD_FAILURE() << "compute program: " << log;
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

// Whether a framebuffer with `texture` attached at `attachment` is complete.
bool completeWith(GLenum attachment, GLuint texture) {
  GLuint framebuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, attachment, GL_TEXTURE_2D, texture, 0);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  return complete;
}

GLuint texture2D(GLenum internal_format, GLenum format, GLenum type) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal_format), 16, 16, 0, format, type,
               nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return texture;
}

TEST(Caps, CiLlvmpipeHasWhatEveryPathNeeds) {
  std::string missing;
  std::unique_ptr<Device> device = test::makeEs31Device(&missing);
  // CI draws with Mesa's llvmpipe (headless EGL): another driver is another machine's business.
  THRONG_REQUIRE(device != nullptr, missing);
  const Caps& caps = device->caps();
  THRONG_REQUIRE(caps.renderer.find("llvmpipe") != std::string::npos,
                 "the GL renderer is '" + caps.renderer + "', not Mesa's llvmpipe");

  // ES 3.2 (Mesa answers an ES 3 request with its highest version).
  EXPECT_EQ(caps.gles_major, 3) << caps.version;
  EXPECT_EQ(caps.gles_minor, 2) << caps.version;
  // The instanced path and the tests' transform feedback.
  EXPECT_TRUE(caps.instancing);
  EXPECT_TRUE(caps.transform_feedback);
  EXPECT_TRUE(caps.float_textures);
  EXPECT_TRUE(caps.half_float_textures);
  EXPECT_TRUE(caps.element_index_uint);
  EXPECT_GE(caps.max_vertex_texture_image_units, 1);
  // The gpu path: compute with the storage blocks it binds, an image, its work group.
  EXPECT_TRUE(caps.compute);
  EXPECT_GE(caps.max_compute_shader_storage_blocks, kGpuCrowdStorageBlocks);
  EXPECT_GE(caps.max_compute_image_uniforms, 1);
  EXPECT_GE(caps.max_compute_work_group_invocations, static_cast<int>(kGpuAgentsPerWorkGroup));
  EXPECT_GE(caps.max_compute_work_group_size_x, static_cast<int>(kGpuAgentsPerWorkGroup));
  EXPECT_TRUE(caps.rasterizes) << "GALLIUM_NOOP is set: nothing is drawn";

  // Compute runs: one work group reads two storage buffers and writes a third and a fourth (as
  // many blocks as the gpu path binds), and the result comes back.
  static_assert(kGpuCrowdStorageBlocks == 4, "the shader below binds four storage buffers");
  const GLuint program = computeProgram(R"(#version 310 es
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { uint b[]; };
layout(std430, binding = 2) writeonly buffer C { uint c[]; };
layout(std430, binding = 3) buffer D { uint d[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  c[i] = a[i] * 3u + b[i];
  atomicAdd(d[0], 1u);
}
)");
  ASSERT_NE(program, 0u);
  constexpr GLuint kCount = 64;
  GLuint buffers[4] = {};
  glGenBuffers(4, buffers);
  uint32_t a[kCount], b[kCount], c[kCount] = {}, d[kCount] = {};
  for (GLuint i = 0; i < kCount; ++i) {
    a[i] = i;
    b[i] = 1000u + i;
  }
  const uint32_t* inputs[4] = {a, b, c, d};
  for (GLuint k = 0; k < 4; ++k) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, k, buffers[k]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof a, inputs[k], GL_DYNAMIC_COPY);
  }
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[2]);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof c, GL_MAP_READ_BIT);
  ASSERT_NE(mapped, nullptr);
  std::memcpy(c, mapped, sizeof c);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  for (GLuint i = 0; i < kCount; ++i) EXPECT_EQ(c[i], 3u * i + 1000u + i) << "element " << i;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[3]);
  mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof d[0], GL_MAP_READ_BIT);
  ASSERT_NE(mapped, nullptr);
  std::memcpy(d, mapped, sizeof d[0]);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  EXPECT_EQ(d[0], kCount) << "the atomic counter in the fourth buffer";
  glDeleteBuffers(4, buffers);
  glDeleteProgram(program);

  // Float colour buffers (the palette pass renders RGBA32F) and depth textures.
  EXPECT_TRUE(caps.color_buffer_float);
  const GLuint rgba32f = texture2D(GL_RGBA32F, GL_RGBA, GL_FLOAT);
  EXPECT_TRUE(completeWith(GL_COLOR_ATTACHMENT0, rgba32f)) << "an RGBA32F colour attachment";
  const GLuint depth = texture2D(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT);
  EXPECT_TRUE(completeWith(GL_DEPTH_ATTACHMENT, depth)) << "a 24-bit depth texture";
  const GLuint textures[2] = {rgba32f, depth};
  glDeleteTextures(2, textures);
  EXPECT_TRUE(checkGl("capabilities").ok());
}

}  // namespace
}  // namespace throng::render
