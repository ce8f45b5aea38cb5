// engine_shading: a game engine's own shadow map and shading around throng's crowd. The engine
// owns the EGL context; it renders its shadow map with throng's depth pass (drawDepth) inside
// it, then draws its ground and the crowd with its own shader (docs/shaders.md) and light, reads
// the pixels back and checks them. Exit 0 when they pass.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "surfaceless_context.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/shading.h"

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr int kShadowSize = 1024;  // the engine's shadow map, texels a side
const glm::vec3 kLightDirection = glm::normalize(glm::vec3(-1.0f, -1.0f, 0.0f));

// The engine's crowd shader: its own shadow map, two bands of light, a magenta tone.
const char* const kCrowdShader = R"(uniform sampler2D engine_shadow_map;
uniform mat4 engine_shadow_matrix;
vec4 throngShade(ThrongSurface s) {
  vec4 at = engine_shadow_matrix * vec4(s.position + s.normal * 0.02, 1.0);
  float shadow = at.z - 0.002 > throngTexture(engine_shadow_map, at.xy).r ? 0.0 : 1.0;
  float lit = max(dot(s.normal, -throng_light_direction), 0.0) * shadow;
  return vec4(vec3(0.9, 0.2, 0.6) * (lit > 0.3 ? 1.0 : 0.45), 1.0);
}
)";

// The engine's ground: grey, darkened where its shadow map says the light is blocked.
const char* const kGroundVertex = R"(#version 300 es
uniform mat4 view_projection;
in vec3 position;
out vec3 world;
void main() { world = position; gl_Position = view_projection * vec4(position, 1.0); }
)";
const char* const kGroundFragment = R"(#version 300 es
precision highp float;
uniform sampler2D shadow_map;
uniform mat4 shadow_matrix;
in vec3 world;
out vec4 color;
void main() {
  vec4 at = shadow_matrix * vec4(world, 1.0);
  bool inside = all(greaterThan(at.xyz, vec3(0.0))) && all(lessThan(at.xyz, vec3(1.0)));
  float lit = inside && at.z - 0.002 > texture(shadow_map, at.xy).r ? 0.35 : 1.0;
  color = vec4(vec3(0.6) * lit, 1.0);
}
)";

struct Engine {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  GLuint framebuffer = 0, color = 0, depth = 0;   // the frame
  GLuint shadow_framebuffer = 0, shadow_map = 0;  // the shadow map (depth texture)
  GLuint ground_program = 0, ground_buffer = 0;   // the ground
};

int fail(const std::string& message) {
  std::fprintf(stderr, "engine_shading: %s\n", message.c_str());
  return 1;
}

GLuint compile(GLenum stage, const char* text) {
  const GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  return shader;
}

// The frame's and the shadow map's framebuffers, the ground's program and quad.
bool createTargets(Engine& engine) {
  if (!createFrameTarget(kWidth, kHeight, engine.framebuffer, engine.color, engine.depth))
    return false;

  glGenTextures(1, &engine.shadow_map);
  glBindTexture(GL_TEXTURE_2D, engine.shadow_map);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, kShadowSize, kShadowSize, 0,
               GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glGenFramebuffers(1, &engine.shadow_framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, engine.shadow_framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, engine.shadow_map, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return false;

  engine.ground_program = glCreateProgram();
  glAttachShader(engine.ground_program, compile(GL_VERTEX_SHADER, kGroundVertex));
  glAttachShader(engine.ground_program, compile(GL_FRAGMENT_SHADER, kGroundFragment));
  glBindAttribLocation(engine.ground_program, 0, "position");
  glLinkProgram(engine.ground_program);
  GLint linked = GL_FALSE;
  glGetProgramiv(engine.ground_program, GL_LINK_STATUS, &linked);
  const float quad[] = {-20, 0, -20, 20, 0, -20, -20, 0, 20, 20, 0, 20};
  glGenBuffers(1, &engine.ground_buffer);
  glBindBuffer(GL_ARRAY_BUFFER, engine.ground_buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return linked == GL_TRUE;
}

void destroyEngine(Engine& engine) {
  if (engine.context != EGL_NO_CONTEXT) {
    glDeleteProgram(engine.ground_program);
    glDeleteBuffers(1, &engine.ground_buffer);
    glDeleteTextures(1, &engine.shadow_map);
    glDeleteFramebuffers(1, &engine.shadow_framebuffer);
    glDeleteRenderbuffers(1, &engine.color);
    glDeleteRenderbuffers(1, &engine.depth);
    glDeleteFramebuffers(1, &engine.framebuffer);
    eglMakeCurrent(engine.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(engine.display, engine.context);
  }
  if (engine.display != EGL_NO_DISPLAY) eglTerminate(engine.display);
}

void drawGround(const Engine& engine, const glm::mat4& view_projection,
                const glm::mat4& shadow_matrix) {
  glUseProgram(engine.ground_program);
  glBindVertexArray(0);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glUniformMatrix4fv(glGetUniformLocation(engine.ground_program, "view_projection"), 1, GL_FALSE,
                     glm::value_ptr(view_projection));
  glUniformMatrix4fv(glGetUniformLocation(engine.ground_program, "shadow_matrix"), 1, GL_FALSE,
                     glm::value_ptr(shadow_matrix));
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, engine.shadow_map);
  glUniform1i(glGetUniformLocation(engine.ground_program, "shadow_map"), 0);
  glBindBuffer(GL_ARRAY_BUFFER, engine.ground_buffer);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnable(GL_DEPTH_TEST);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glDisableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

// The pixel of world point `p` in the frame (rows bottom first).
glm::ivec2 pixelOf(const glm::mat4& view_projection, const glm::vec3& p) {
  const glm::vec4 c = view_projection * glm::vec4(p, 1.0f);
  return {int((c.x / c.w * 0.5f + 0.5f) * kWidth), int((c.y / c.w * 0.5f + 0.5f) * kHeight)};
}

// Checks the frame: every character's chest in the shader's magenta; the ground in each
// character's shadow darker than the lit ground beside it. The number of failed checks.
int checkPixels(const Engine& engine, const glm::mat4& view_projection,
                const std::vector<throng::Placement>& placements, float size) {
  std::vector<unsigned char> pixels(size_t(kWidth) * kHeight * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, engine.framebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  const auto at = [&](glm::ivec2 p) -> const unsigned char* {
    if (p.x < 0 || p.x >= kWidth || p.y < 0 || p.y >= kHeight) return nullptr;
    return &pixels[(size_t(p.y) * kWidth + p.x) * 4];
  };
  int failures = 0;
  for (const throng::Placement& placement : placements) {
    const glm::vec3 chest = placement.position + glm::vec3(0.0f, 0.6f * size, 0.0f);
    const unsigned char* c = at(pixelOf(view_projection, chest));
    if (c == nullptr || !(c[0] > c[1] + 40 && c[2] > c[1] + 20)) {
      failures += fail("a character's chest is not in the engine shader's magenta");
    }
    // Where the light's ray through the chest meets the ground, and a lit point beside it.
    const glm::vec3 shadow = chest - kLightDirection * (chest.y / kLightDirection.y);
    const unsigned char* dark = at(pixelOf(view_projection, shadow));
    const unsigned char* lit = at(pixelOf(view_projection, shadow + glm::vec3(0, 0, 0.8f * size)));
    if (dark == nullptr || lit == nullptr || !(dark[0] + 40 < lit[0])) {
      failures += fail("the ground in a character's shadow is not darker than beside it");
    }
  }
  return failures;
}

int drawAndCheck(const Engine& engine) {
  const throng::Character hero = throng::makeSampleCharacter();
  throng::Result<throng::Package> package = throng::bakeCharacter(hero, {});
  if (!package.ok()) return fail(package.status().toString());
  auto device = throng::render::Device::createForCurrentContext(
      {.width = kWidth, .height = kHeight, .framebuffer = engine.framebuffer});
  if (!device.ok()) return fail(device.status().toString());
  throng::render::CrowdRendererDesc desc;
  desc.fixed_lod = 0;
  desc.shader = std::make_shared<const throng::render::ShaderSource>(
      throng::render::ShaderSource{"engine_crowd.glsl", kCrowdShader});
  throng::render::CrowdRenderer renderer(**device, *package, desc);
  if (!renderer.ok()) return fail(renderer.status().toString());

  const float size = hero.size();
  std::vector<throng::Placement> placements;
  for (int i = -1; i <= 1; ++i) placements.push_back({glm::vec3(2.0f * size * i, 0.0f, 0.0f)});
  const std::vector<throng::AgentPlayback> playback(placements.size());
  throng::render::CrowdFrame frame;
  frame.placements = placements;
  frame.playback = playback;

  // The engine's light view (orthographic, around the crowd) and its shadow map, drawn by throng.
  const glm::vec3 center(0.0f, 0.5f * size, 0.0f);
  throng::render::FrameView light;
  light.eye = center - kLightDirection * 4.0f * size;
  light.view_projection =
      glm::ortho(-3.0f * size, 3.0f * size, -3.0f * size, 3.0f * size, 0.1f, 8.0f * size) *
      glm::lookAt(light.eye, center, glm::vec3(0, 0, 1));
  light.viewport_height = kShadowSize;
  glBindFramebuffer(GL_FRAMEBUFFER, engine.shadow_framebuffer);
  glViewport(0, 0, kShadowSize, kShadowSize);
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_TRUE);
  glClear(GL_DEPTH_BUFFER_BIT);
  if (throng::Status s = renderer.drawDepth(light, frame); !s.ok()) return fail(s.toString());
  const uint32_t depth_draws = renderer.stats().shadow_draw_calls;
  // World -> the map's texture coordinates and depth (0..1).
  const glm::mat4 to_map = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) *
                           glm::scale(glm::mat4(1.0f), glm::vec3(0.5f)) * light.view_projection;

  // The frame: the engine's ground, then the crowd with the engine's shader, light and map.
  throng::render::FrameView view = throng::render::lookAtView(
      glm::vec3(0.0f, 3.0f * size, 3.5f * size), glm::vec3(0.0f, 0.3f * size, 0.0f),
      glm::radians(60.0f), float(kWidth) / kHeight, 0.1f, 50.0f * size);
  view.light_direction = kLightDirection;
  (*device)->beginFrame(glm::vec4(0.2f, 0.3f, 0.4f, 1.0f));
  drawGround(engine, view.view_projection, to_map);
  if (throng::Status s = renderer.setShaderTexture("engine_shadow_map", engine.shadow_map); !s.ok())
    return fail(s.toString());
  if (throng::Status s = renderer.setShaderUniform("engine_shadow_matrix", to_map); !s.ok())
    return fail(s.toString());
  if (throng::Status s = renderer.draw(view, frame); !s.ok()) return fail(s.toString());

  const int failures = checkPixels(engine, view.view_projection, placements, size);
  std::printf("engine_shading: %s, %u depth draw calls, %u draw calls, %d failed checks\n",
              (*device)->caps().version.c_str(), depth_draws, renderer.stats().draw_calls,
              failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main() {
  Engine engine;
  if (!createSurfacelessContext(engine.display, engine.context) || !createTargets(engine)) {
    std::fprintf(stderr, "engine_shading: cannot set up an OpenGL ES 3 context (EGL 0x%04x)\n",
                 eglGetError());
    destroyEngine(engine);
    return 1;
  }
  const int result = drawAndCheck(engine);  // throng's objects are gone before the context
  destroyEngine(engine);
  return result;
}
