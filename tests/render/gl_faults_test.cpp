// GL faults injected through the device seam on real EGL/llvmpipe: each ends in a failed device or
// renderer with a clear one-line message, never a crash, and the next device or renderer works.
#include "render/test_hooks.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "render/gl_check.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace throng::render {
namespace {

constexpr int kFaultFrameSize = 64;
constexpr RenderPath kPaths[] = {RenderPath::kInstanced, RenderPath::kMerged,
                                 RenderPath::kPerCharacter};

// Nine agents in front of the camera, every one visible.
struct FaultScene {
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  FrameView view = lookAtView(glm::vec3(0.0f, 2.0f, 8.0f), glm::vec3(0.0f, 0.9f, 0.0f), 0.9f, 1.0f,
                              0.1f, 100.0f);
  FaultScene() {
    for (int i = 0; i < 9; ++i) {
      Placement p;
      p.position = glm::vec3(static_cast<float>(i % 3 - 1), 0.0f, -static_cast<float>(i / 3));
      placements.push_back(p);
      AgentPlayback a;
      a.clip = static_cast<uint16_t>(i % test::sampleWithLods().clips.size());
      a.time = 0.1f * static_cast<float>(i);
      playback.push_back(a);
    }
  }
  CrowdFrame frame() const { return {placements, playback, {}}; }
};

std::unique_ptr<Device> device(int gles_major, const GlFaults& faults = {}) {
  test::useGlesVersion(gles_major);
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = gles_major;
  desc.width = desc.height = kFaultFrameSize;
  hooks.faults = faults;
  return test::makeTestDevice(desc);
}

int glesOf(RenderPath path) {
  return path == RenderPath::kInstanced ? 3 : 2;
}

bool oneLine(const std::string& message) {
  return message.find('\n') == std::string::npos && !message.empty();
}

// Draws `scene` and reports whether anything but the clear colour was drawn.
bool drawsSomething(Device& d, CrowdRenderer& renderer, const FaultScene& scene) {
  d.beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  const Status s = renderer.draw(scene.view, scene.frame());
  EXPECT_TRUE(s.ok()) << s.toString();
  d.finish();
  Result<Image> image = d.readPixels();
  if (!image.ok()) return false;
  for (size_t i = 0; i + 3 < image->rgba.size(); i += 4) {
    if (image->rgba[i] != 0 || image->rgba[i + 1] != 0 || image->rgba[i + 2] != 0) return true;
  }
  return false;
}

// A renderer made with `faults` on `path` fails with kGlError and a message holding `needle`,
// draws nothing and keeps failing; a renderer made after the faults are gone draws the crowd.
void expectFailedThenRecovered(RenderPath path, const GlFaults& faults, const std::string& needle) {
  SCOPED_TRACE(renderPathName(path));
  auto d = device(glesOf(path));
  ASSERT_NE(d, nullptr);
  setDeviceFaults(*d, faults);
  CrowdRendererDesc desc;
  desc.path = path;
  CrowdRenderer failed(*d, test::sampleWithLods(), desc);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kGlError);
  EXPECT_NE(failed.status().message().find(needle), std::string::npos) << failed.status().message();
  EXPECT_TRUE(oneLine(failed.status().message())) << failed.status().message();
  const FaultScene scene;
  d->beginFrame(glm::vec4(0.0f));
  EXPECT_EQ(failed.draw(scene.view, scene.frame()).message(), failed.status().message());
  EXPECT_EQ(failed.lodInfo(0).joints, 0);
  EXPECT_TRUE(checkGl("after the failed renderer").ok());

  setDeviceFaults(*d, GlFaults{});
  CrowdRenderer working(*d, test::sampleWithLods(), desc);
  ASSERT_TRUE(working.ok()) << working.status().toString();
  EXPECT_TRUE(drawsSomething(*d, working, scene));
}

TEST(GlFaults, ARefusedContextIsAGlErrorAndTheNextDeviceWorks) {
  for (int gles : {3, 2}) {
    test::useGlesVersion(gles);
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    desc.gles_major = gles;
    hooks.faults.refuse_context = true;
    Result<std::unique_ptr<Device>> refused = Device::createHeadless(desc);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), ErrorCode::kGlError);
    const std::string& message = refused.status().message();
    EXPECT_NE(message.find("EGL: eglCreateContext(OpenGL ES 9, an injected fault) failed: EGL_"),
              std::string::npos)
        << message;
    EXPECT_TRUE(oneLine(message));
    // The refused device gave its share of the display back: the next one is made afresh, of
    // the version asked for (Mesa reads the ES 2 override only when the display is initialised).
    auto next = device(gles);
    ASSERT_NE(next, nullptr);
    if (gles == 2) {
      EXPECT_EQ(next->caps().gles_major, 2);
    } else {
      EXPECT_GE(next->caps().gles_major, 3);
    }
  }
}

TEST(GlFaults, AnIncompleteFramebufferIsAGlErrorNamingItsStatus) {
  for (int gles : {3, 2}) {
    test::useGlesVersion(gles);
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    desc.gles_major = gles;
    hooks.faults.incomplete_framebuffer = true;
    Result<std::unique_ptr<Device>> refused = Device::createHeadless(desc);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), ErrorCode::kGlError);
    EXPECT_NE(refused.status().message().find("device: framebuffer 256x256 incomplete (status 0x"),
              std::string::npos)
        << refused.status().message();
    ASSERT_NE(device(gles), nullptr);
  }
}

TEST(GlFaults, AShaderThatFailsToCompileFailsEveryPathWithTheCompilersLog) {
  GlFaults faults;
  faults.shader_compile = true;
  for (RenderPath path : kPaths) {
    expectFailedThenRecovered(path, faults, "vertex shader failed to compile:");
    expectFailedThenRecovered(path, faults, "injected fault: shader compile");  // the GL log
  }
}

TEST(GlFaults, AProgramThatFailsToLinkFailsEveryPathWithTheLinkersLog) {
  GlFaults faults;
  faults.program_link = true;
  for (RenderPath path : kPaths) expectFailedThenRecovered(path, faults, "program failed to link:");
}

TEST(GlFaults, OutOfMemoryOnUploadFailsTheRendererBeingMade) {
  GlFaults faults;
  faults.out_of_memory_on_upload = true;
  expectFailedThenRecovered(RenderPath::kInstanced, faults, "instanced renderer: uploading the ");
  expectFailedThenRecovered(RenderPath::kInstanced, faults, "GL_OUT_OF_MEMORY (0x0505)");
  expectFailedThenRecovered(RenderPath::kMerged, faults, "merged batch: buffers of LOD 0: GL_OUT");
  expectFailedThenRecovered(RenderPath::kPerCharacter, faults, "GL_OUT_OF_MEMORY (0x0505)");
}

TEST(GlFaults, OutOfMemoryWhileDrawingStopsTheRendererForGood) {
  auto d = device(3);
  ASSERT_NE(d, nullptr);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;  // auto picks the gpu path on ES 3.1; this checks instances
  CrowdRenderer renderer(*d, test::sampleWithLods(), desc);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.path(), RenderPath::kInstanced);
  const FaultScene scene;
  EXPECT_TRUE(drawsSomething(*d, renderer, scene));

  GlFaults faults;
  faults.out_of_memory_on_upload = true;  // the instance records of the next frame
  setDeviceFaults(*d, faults);
  d->beginFrame(glm::vec4(0.0f));
  const Status failed = renderer.draw(scene.view, scene.frame());
  EXPECT_EQ(failed.code(), ErrorCode::kGlError);
  EXPECT_EQ(failed.message(),
            "instanced renderer: instance upload: GL_OUT_OF_MEMORY (0x0505), an injected fault");
  EXPECT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().message(), failed.message());

  // Failed for good: even with the driver well again it draws nothing and says why.
  setDeviceFaults(*d, GlFaults{});
  d->beginFrame(glm::vec4(0.0f));
  EXPECT_EQ(renderer.draw(scene.view, scene.frame()).message(), failed.message());
  EXPECT_EQ(renderer.stats().draw_calls, 0u);
  CrowdRenderer again(*d, test::sampleWithLods());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(drawsSomething(*d, again, scene));
}

TEST(GlFaults, AUniformBudgetTooSmallForOneCharacterIsALimitNamingTheBudget) {
  // Through the device seam: an ES 2.0 device that has only 16 vertex uniform vectors.
  test::useGlesVersion(2);
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  desc.width = desc.height = kFaultFrameSize;
  hooks.caps.max_vertex_uniform_vectors = 16;  // not even the 10-joint LOD fits
  auto small = test::makeTestDevice(desc);
  ASSERT_NE(small, nullptr);
  for (RenderPath path : {RenderPath::kAuto, RenderPath::kMerged, RenderPath::kPerCharacter}) {
    CrowdRendererDesc renderer_desc;
    renderer_desc.path = path;
    CrowdRenderer renderer(*small, test::sampleWithLods(), renderer_desc);
    ASSERT_FALSE(renderer.ok()) << renderPathName(path);
    EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_NE(renderer.status().message().find("of GL_MAX_VERTEX_UNIFORM_VECTORS = 16 are left"),
              std::string::npos)
        << renderer.status().message();
    const FaultScene scene;
    small->beginFrame(glm::vec4(0.0f));
    EXPECT_EQ(renderer.draw(scene.view, scene.frame()).code(), ErrorCode::kLimitExceeded);
  }
}

TEST(GlFaults, ATextureLargerThanTheDeviceAllowsIsRefusedBeforeUpload) {
  // Through the device seam: GL_MAX_TEXTURE_SIZE 16, too small for one frame of the sample.
  test::useGlesVersion(3);
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.width = desc.height = kFaultFrameSize;
  hooks.caps.max_texture_size = 16;
  auto small = test::makeTestDevice(desc);
  ASSERT_NE(small, nullptr);
  CrowdRendererDesc instanced;
  instanced.path = RenderPath::kInstanced;
  CrowdRenderer refused(*small, test::sampleWithLods(), instanced);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(refused.status().message().find("over the device's GL_MAX_TEXTURE_SIZE 16"),
            std::string::npos)
      << refused.status().message();
  // The front end falls back to the merged path, which keeps palettes on the CPU.
  CrowdRenderer automatic(*small, test::sampleWithLods());
  ASSERT_TRUE(automatic.ok()) << automatic.status().toString();
  EXPECT_EQ(automatic.path(), RenderPath::kMerged);
  EXPECT_TRUE(drawsSomething(*small, automatic, FaultScene()));
}

}  // namespace
}  // namespace throng::render
