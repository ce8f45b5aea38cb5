// own_context: throng inside a program that owns its GL context, as a game engine does. The
// program creates an EGL context and a framebuffer object itself, throng draws a crowd into them,
// and the program reads the pixels back with glReadPixels and checks them. Exit 0 when they pass.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "surfaceless_context.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 200;
constexpr unsigned char kClear[4] = {51, 77, 102, 255};  // the engine's background, as bytes

// What the engine owns: display, context and the framebuffer it wants the crowd in.
struct Engine {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  GLuint framebuffer = 0;
  GLuint color = 0;
  GLuint depth = 0;
};

// The engine's context (surfaceless_context.h) and a framebuffer object with colour and depth.
bool createEngine(Engine& engine) {
  if (!createSurfacelessContext(engine.display, engine.context)) return false;
  return createFrameTarget(kWidth, kHeight, engine.framebuffer, engine.color, engine.depth);
}

void destroyEngine(Engine& engine) {
  if (engine.context != EGL_NO_CONTEXT) {
    glDeleteRenderbuffers(1, &engine.color);
    glDeleteRenderbuffers(1, &engine.depth);
    glDeleteFramebuffers(1, &engine.framebuffer);
    eglMakeCurrent(engine.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(engine.display, engine.context);
  }
  if (engine.display != EGL_NO_DISPLAY) eglTerminate(engine.display);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "own_context: %s\n", message.c_str());
  return 1;
}

bool isClear(const unsigned char* pixel) {
  return std::memcmp(pixel, kClear, 4) == 0;
}

// Draws three characters into the engine's framebuffer and checks the pixels it reads back:
// every corner shows the background, each character's chest does not. 0 when all pass.
int drawAndCheck(const Engine& engine) {
  const throng::Character hero = throng::makeSampleCharacter();
  throng::Result<throng::Package> package = throng::bakeCharacter(hero, {});
  if (!package.ok()) return fail(package.status().toString());

  // throng over the engine's context, drawing into the engine's framebuffer.
  auto device = throng::render::Device::createForCurrentContext(
      {.width = kWidth, .height = kHeight, .framebuffer = engine.framebuffer});
  if (!device.ok()) return fail(device.status().toString());
  // Every character at LOD 0, as the first clip's first frame poses it.
  throng::render::CrowdRenderer renderer(**device, *package, {.fixed_lod = 0});
  if (!renderer.ok()) return fail(renderer.status().toString());

  const float size = hero.size();
  std::vector<throng::Placement> placements;
  for (int i = -1; i <= 1; ++i) placements.push_back({glm::vec3(1.2f * size * i, 0.0f, 0.0f)});
  const std::vector<throng::AgentPlayback> playback(placements.size());
  throng::render::FrameView view;
  const throng::Bounds crowd{glm::vec3(-2.0f * size, 0.0f, -0.5f * size),
                             glm::vec3(2.0f * size, size, 0.5f * size)};
  view.view_projection =
      throng::render::framingViewProjection(crowd, float(kWidth) / kHeight, {.fit_corners = true});
  (*device)->beginFrame(glm::vec4(kClear[0], kClear[1], kClear[2], kClear[3]) / 255.0f);
  if (throng::Status s = renderer.draw(view, throng::render::CrowdFrame{placements, playback});
      !s.ok())
    return fail(s.toString());

  // The engine reads its own framebuffer (rows bottom first, as GL stores them).
  std::vector<unsigned char> pixels(size_t(kWidth) * kHeight * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, engine.framebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) return fail("glReadPixels failed");
  const auto at = [&](int x, int y) { return &pixels[(size_t(y) * kWidth + x) * 4]; };

  int failures = 0;
  const int corners[4][2] = {{0, 0}, {kWidth - 1, 0}, {0, kHeight - 1}, {kWidth - 1, kHeight - 1}};
  for (const auto& c : corners) {
    if (!isClear(at(c[0], c[1]))) {
      failures += fail("corner (" + std::to_string(c[0]) + ", " + std::to_string(c[1]) +
                       ") is not the background");
    }
  }
  for (const throng::Placement& placement : placements) {
    const glm::vec4 chest =
        view.view_projection * glm::vec4(placement.position + glm::vec3(0, 0.6f * size, 0), 1);
    const int x = int((chest.x / chest.w * 0.5f + 0.5f) * kWidth);
    const int y = int((chest.y / chest.w * 0.5f + 0.5f) * kHeight);
    if (x < 0 || x >= kWidth || y < 0 || y >= kHeight || isClear(at(x, y))) {
      failures +=
          fail("no character at pixel (" + std::to_string(x) + ", " + std::to_string(y) + ")");
    }
  }
  size_t drawn = 0;
  for (size_t p = 0; p < pixels.size(); p += 4) drawn += isClear(&pixels[p]) ? 0 : 1;
  std::printf("own_context: %s, %zu of %d pixels drawn, %u draw calls, %d failed checks\n",
              (*device)->caps().version.c_str(), drawn, kWidth * kHeight,
              renderer.stats().draw_calls, failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main() {
  Engine engine;
  if (!createEngine(engine)) {
    std::fprintf(stderr, "own_context: cannot create an OpenGL ES 3 context (EGL error 0x%04x)\n",
                 eglGetError());
    destroyEngine(engine);
    return 1;
  }
  const int result = drawAndCheck(engine);  // throng's objects are gone before the context
  destroyEngine(engine);
  return result;
}
