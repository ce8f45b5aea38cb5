// Tests of the headless GL device: contexts, caps and overrides, frames, read-back, PNG, programs.
#include "throng/render/device.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "render/gl_check.h"
#include "render/program.h"
#include "render/test_hooks.h"
#include "support/test_support.h"
#include "throng/render/capture.h"

namespace throng::render {
namespace {

// CI has Mesa: a device that cannot be created is a failure, never a skip.
std::unique_ptr<Device> makeDevice(const DeviceDesc& desc) {
  test::useGlesVersion(desc.gles_major);
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  EXPECT_TRUE(device.ok()) << device.status().toString();
  return device.ok() ? std::move(device).value() : nullptr;
}

TEST(Device, Es3ContextReportsItsCaps) {
  auto device = makeDevice({});
  ASSERT_NE(device, nullptr);
  const Caps& caps = device->caps();
  EXPECT_GE(caps.gles_major, 3);
  EXPECT_FALSE(caps.renderer.empty());
  EXPECT_NE(caps.version.find("OpenGL ES"), std::string::npos);
  EXPECT_GE(caps.max_texture_size, 2048);  // ES 3.0 minimum
  EXPECT_GE(caps.max_vertex_uniform_vectors, 256);
  EXPECT_TRUE(caps.instancing);
  EXPECT_TRUE(caps.float_textures);
  EXPECT_TRUE(caps.half_float_textures);
  EXPECT_TRUE(caps.transform_feedback);
  EXPECT_EQ(device->width(), 256);
  EXPECT_TRUE(device->headless());
}

TEST(Device, Es2RequestGivesARealEs2Context) {
  // No other device is alive here, so the display is initialised with the ES2 override (which
  // makeDevice puts in the environment: the library does not).
  const char* user = std::getenv("MESA_GLES_VERSION_OVERRIDE");
  THRONG_REQUIRE(!user || user[0] == '2', std::string("the user's MESA_GLES_VERSION_OVERRIDE=") +
                                              (user ? user : "") + " decides the version");
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  auto device = makeDevice(desc);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->caps().gles_major, 2) << device->caps().version;
  EXPECT_FALSE(device->caps().instancing);
  EXPECT_FALSE(device->caps().transform_feedback);
  device->beginFrame({0, 0, 1, 1});
  device->finish();
  Result<Image> image = device->readPixels();
  ASSERT_TRUE(image.ok()) << image.status().toString();
  EXPECT_EQ(image->rgba[2], 255);
}

TEST(Device, TheLibraryLeavesTheEnvironmentAlone) {
  test::useGlesVersion(3);  // removes an override an earlier test set
  THRONG_REQUIRE(!std::getenv("MESA_GLES_VERSION_OVERRIDE"),
                 "the user's MESA_GLES_VERSION_OVERRIDE is set");
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  ASSERT_TRUE(device.ok()) << device.status().toString();
  EXPECT_EQ(std::getenv("MESA_GLES_VERSION_OVERRIDE"), nullptr);
  EXPECT_GE((*device)->caps().gles_major, 2);
}

TEST(Device, Es3AfterEs2DevicesAreGoneIsEs3Again) {
  {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    desc.gles_major = 2;
    auto es2 = makeDevice(desc);
    ASSERT_NE(es2, nullptr);
  }
  auto es3 = makeDevice({});
  ASSERT_NE(es3, nullptr);
  EXPECT_GE(es3->caps().gles_major, 3);
}

TEST(Device, OverridesOnlyLowerLimits) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.max_vertex_uniform_vectors = 128;
  hooks.caps.max_texture_size = 1 << 30;  // larger than the device: ignored
  hooks.caps.max_vertex_texture_image_units = 0;
  hooks.caps.disable_half_float_textures = true;
  auto device = makeDevice(desc);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->caps().max_vertex_uniform_vectors, 128);
  EXPECT_LT(device->caps().max_texture_size, 1 << 30);
  EXPECT_EQ(device->caps().max_vertex_texture_image_units, 0);
  EXPECT_FALSE(device->caps().half_float_textures);
  EXPECT_TRUE(device->caps().float_textures);
}

TEST(Device, BadDescriptionsAreRefused) {
  test::useGlesVersion(3);
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 4;
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), ErrorCode::kInvalidArgument);
  desc = {};
  hooks = {};
  desc.test_hooks = &hooks;
  desc.gles_major = 3;
  desc.gles_minor = 3;  // ES 3.3 does not exist
  device = Device::createHeadless(desc);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(device.status().message(),
            "device: OpenGL ES 3.3 asked for; 2.0 and 3.0 to 3.2 are supported");
  desc = {};
  hooks = {};
  desc.test_hooks = &hooks;
  desc.width = 0;
  device = Device::createHeadless(desc);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), ErrorCode::kInvalidArgument);
  desc = {};
  hooks = {};
  desc.test_hooks = &hooks;
  desc.width = 1 << 20;  // far over any GL_MAX_RENDERBUFFER_SIZE
  device = Device::createHeadless(desc);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), ErrorCode::kGlError);
  EXPECT_NE(device.status().message().find("GL_MAX_RENDERBUFFER_SIZE"), std::string::npos);
}

TEST(Device, ReadPixelsReturnsTopRowFirst) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.width = 8;
  desc.height = 4;
  auto device = makeDevice(desc);
  ASSERT_NE(device, nullptr);
  device->beginFrame({1, 0, 0, 1});
  // GL's y axis points up: the scissor box [2, 4) is the top half of the frame.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 2, 8, 2);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  EXPECT_GE(device->finish(), 0.0);
  Result<Image> image = device->readPixels();
  ASSERT_TRUE(image.ok()) << image.status().toString();
  ASSERT_EQ(image->rgba.size(), 8u * 4u * 4u);
  EXPECT_EQ(image->rgba[0], 0);  // top-left: green
  EXPECT_EQ(image->rgba[1], 255);
  const size_t bottom_left = 3 * 8 * 4;
  EXPECT_EQ(image->rgba[bottom_left + 0], 255);  // bottom-left: red
  EXPECT_EQ(image->rgba[bottom_left + 1], 0);
}

TEST(Device, ResizeChangesTheFrameAndRefusesBadSizes) {
  auto device = makeDevice({});
  ASSERT_NE(device, nullptr);
  ASSERT_TRUE(device->resize(40, 30).ok());
  EXPECT_EQ(device->width(), 40);
  EXPECT_EQ(device->height(), 30);
  device->beginFrame({1, 0, 0, 1});
  device->finish();
  Result<Image> image = device->readPixels();
  ASSERT_TRUE(image.ok()) << image.status().toString();
  EXPECT_EQ(image->width, 40);
  EXPECT_EQ(image->height, 30);
  EXPECT_EQ(image->rgba[(40 * 30 - 1) * 4], 255) << "the last pixel is drawn too";
  EXPECT_EQ(device->resize(0, 30).code(), ErrorCode::kInvalidArgument);
  const int too_large = device->caps().max_renderbuffer_size + 1;
  EXPECT_EQ(device->resize(too_large, 30).code(), ErrorCode::kGlError);
  EXPECT_EQ(device->width(), 40) << "a refused size leaves the frame as it was";
}

// An engine's own framebuffer object in its own context: the borrowed device clears, draws and
// reads back there, and leaves the framebuffer the context's owner uses alone.
TEST(Device, BorrowedContextDrawsIntoTheCallersFramebuffer) {
  DeviceDesc host_desc;
  host_desc.width = host_desc.height = 8;
  auto host = makeDevice(host_desc);  // stands in for the engine's context (current now)
  ASSERT_NE(host, nullptr);
  host->beginFrame({0, 0, 1, 1});  // the host's own framebuffer: blue
  host->finish();

  GLuint framebuffer = 0, color = 0, depth = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 6, 5);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glGenRenderbuffers(1, &depth);
  glBindRenderbuffer(GL_RENDERBUFFER, depth);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 6, 5);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
  ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));

  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.width = 6;
  desc.height = 5;
  desc.framebuffer = framebuffer;
  Result<std::unique_ptr<Device>> borrowed = Device::createForCurrentContext(desc);
  ASSERT_TRUE(borrowed.ok()) << borrowed.status().toString();
  EXPECT_FALSE((*borrowed)->headless());
  EXPECT_EQ((*borrowed)->caps().gles_major, host->caps().gles_major);
  (*borrowed)->beginFrame({0, 1, 0, 1});
  (*borrowed)->finish();
  Result<Image> image = (*borrowed)->readPixels();
  ASSERT_TRUE(image.ok()) << image.status().toString();
  ASSERT_EQ(image->width, 6);
  ASSERT_EQ(image->rgba.size(), 6u * 5u * 4u);
  for (size_t p = 0; p < image->rgba.size(); p += 4) {
    ASSERT_EQ(image->rgba[p + 0], 0) << "pixel " << p / 4;
    ASSERT_EQ(image->rgba[p + 1], 255) << "pixel " << p / 4;
  }
  Result<Image> host_image = host->readPixels();
  ASSERT_TRUE(host_image.ok());
  EXPECT_EQ(host_image->rgba[2], 255);  // still blue
  EXPECT_EQ(host_image->rgba[1], 0);
  borrowed->reset();  // owns nothing: the framebuffer outlives it
  EXPECT_TRUE(glIsFramebuffer(framebuffer));

  desc.framebuffer = framebuffer + 1000;
  EXPECT_EQ(Device::createForCurrentContext(desc).status().code(), ErrorCode::kInvalidArgument);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 0);
  desc.framebuffer = framebuffer;  // no attachments at all: incomplete
  EXPECT_EQ(Device::createForCurrentContext(desc).status().code(), ErrorCode::kGlError);
  glDeleteRenderbuffers(1, &color);
  glDeleteRenderbuffers(1, &depth);
  glDeleteFramebuffers(1, &framebuffer);
  DeviceDesc headless;
  headless.framebuffer = 1;
  EXPECT_EQ(Device::createHeadless(headless).status().code(), ErrorCode::kInvalidArgument);
}

TEST(Device, TwoDevicesSwitchContexts) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.width = desc.height = 4;
  auto a = makeDevice(desc);
  auto b = makeDevice(desc);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(a->makeCurrent().ok());
  a->beginFrame({1, 0, 0, 1});
  a->finish();
  ASSERT_TRUE(b->makeCurrent().ok());
  b->beginFrame({0, 0, 1, 1});
  b->finish();
  ASSERT_TRUE(a->makeCurrent().ok());
  Result<Image> image = a->readPixels();
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(image->rgba[0], 255);
  EXPECT_EQ(image->rgba[2], 0);
}

TEST(Capture, PngRoundTripsAndLeavesNoTempFile) {
  Image image;
  image.width = 3;
  image.height = 2;
  for (int i = 0; i < 6; ++i)
    image.rgba.insert(image.rgba.end(), {uint8_t(i * 40), uint8_t(255 - i), 7, 255});
  const auto dir = test::makeTempDir("png");
  const std::string path = (dir / "out.png").string();
  ASSERT_TRUE(writePng(image, path).ok());
  Result<Image> back = readPng(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->width, 3);
  EXPECT_EQ(back->height, 2);
  EXPECT_EQ(back->rgba, image.rgba);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
}

TEST(Capture, UnwritableAndUnreadablePathsAreErrors) {
  Image image;
  image.width = image.height = 1;
  image.rgba = {1, 2, 3, 4};
  Status status = writePng(image, "/nonexistent-folder/x.png");
  EXPECT_EQ(status.code(), ErrorCode::kIoError);
  EXPECT_NE(status.message().find("/nonexistent-folder/x.png"), std::string::npos);
  EXPECT_EQ(readPng("/nonexistent-folder/x.png").status().code(), ErrorCode::kIoError);
  const auto dir = test::makeTempDir("png-bad");
  test::writeFile(dir / "bad.png", "not a png at all");
  EXPECT_EQ(readPng((dir / "bad.png").string()).status().code(), ErrorCode::kParseError);
  std::filesystem::remove_all(dir);
}

TEST(Capture, CompareCountsPixelsOverTolerance) {
  Image a, b;
  a.width = b.width = 2;
  a.height = b.height = 1;
  a.rgba = {10, 10, 10, 255, 10, 10, 10, 255};
  b.rgba = {12, 10, 10, 255, 10, 40, 10, 255};
  const ImageDifference difference = compareImages(a, b, 2);
  EXPECT_EQ(difference.max_channel_difference, 30);
  EXPECT_EQ(difference.bad_pixels, 1);
}

TEST(Program, CompileFailureReportsNameStageAndLog) {
  auto device = makeDevice({});
  ASSERT_NE(device, nullptr);
  ProgramDesc desc;
  desc.name = "broken-test-shader";
  desc.vertex_source = "#version 300 es\nvoid main() { gl_Position = undefined_thing; }\n";
  desc.fragment_source =
      "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1); }\n";
  Result<Program> program = buildProgram(desc);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), ErrorCode::kGlError);
  const std::string& message = program.status().message();
  EXPECT_NE(message.find("broken-test-shader"), std::string::npos) << message;
  EXPECT_NE(message.find("vertex"), std::string::npos) << message;
  EXPECT_NE(message.find("undefined_thing"), std::string::npos) << message;  // the GL log
  EXPECT_TRUE(checkGl("after a failed build").ok());
}

TEST(Program, LinkFailureReportsTheLog) {
  auto device = makeDevice({});
  ASSERT_NE(device, nullptr);
  ProgramDesc desc;
  desc.name = "mismatched";
  desc.vertex_source =
      "#version 300 es\nout vec3 v_a;\nvoid main() { v_a = vec3(1); gl_Position = vec4(0); }\n";
  desc.fragment_source =
      "#version 300 es\nprecision mediump float;\nin vec4 v_a;\nout vec4 c;\n"
      "void main() { c = v_a; }\n";
  Result<Program> program = buildProgram(desc);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("link"), std::string::npos);
}

TEST(Program, DefinesGoAfterTheVersionLine) {
  const std::string defines[] = {"A", "B 2"};
  EXPECT_EQ(injectDefines("#version 300 es\nvoid main(){}\n", defines),
            "#version 300 es\n#define A\n#define B 2\nvoid main(){}\n");
  EXPECT_EQ(injectDefines("void main(){}\n", defines), "#define A\n#define B 2\nvoid main(){}\n");
}

TEST(Program, UnknownEmbeddedShaderIsAnError) {
  Result<std::string> source = embeddedShader("gles3/does-not-exist.vert");
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace throng::render
