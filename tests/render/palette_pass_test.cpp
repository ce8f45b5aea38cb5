// Tests of the palette pass: its texture read back against FramePaletteJob (RGBA32F and RGBA32UI
// targets, several rows), skinning from it against the CPU skinner (transform feedback), images
// against direct fetching, the kAuto threshold and the fallbacks to direct fetching.
#include "render/palette_pass.h"
#include "render/test_hooks.h"

#include <gtest/gtest.h>

#include "render/instanced_renderer.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/crowd/frame_palette.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"
#include "throng/render/frame_view.h"

namespace throng::render {
namespace {

// The pass does FramePaletteJob's arithmetic in float (fused multiply-adds may differ).
constexpr float kPaletteTolerance = 1e-5f;  // relative to 1 + |entry|

std::unique_ptr<InstancedRenderer> makeRenderer(Device& device, const Package& package,
                                                PalettePassMode mode) {
  InstancedRendererOptions options;
  options.palette_pass = mode;
  Result<std::unique_ptr<InstancedRenderer>> renderer =
      InstancedRenderer::create(device, package, options);
  EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
  return renderer.ok() ? std::move(renderer).value() : nullptr;
}

// Largest |gpu - cpu| / (1 + |cpu|) over every palette entry of every instance.
float paletteError(InstancedRenderer& renderer, const Package& package,
                   const std::vector<Instance>& instances) {
  const size_t joints = package.skeleton.jointCount();
  std::vector<JointRows> gpu(instances.size() * joints);
  const Status status = renderer.capturePalettes(instances, gpu);
  EXPECT_TRUE(status.ok()) << status.toString();
  if (!status.ok()) return 1e9f;
  float worst = 0.0f;
  std::vector<JointRows> cpu(joints);
  for (size_t i = 0; i < instances.size(); ++i) {
    // The frames as the 32-byte record carries them (blends and fade in 1/255 steps).
    const InstanceFrames frames =
        decodeInstanceRecord(encodeInstanceRecord(instances[i], package.animation.frame_count - 1))
            .frames;
    FramePaletteJob job{&package.animation, frames, cpu};
    EXPECT_TRUE(job.run());
    for (size_t j = 0; j < joints; ++j)
      for (size_t r = 0; r < kVec4PerJoint; ++r)
        for (int c = 0; c < 4; ++c) {
          const float want = cpu[j].rows[r][c];
          const float got = gpu[i * joints + j].rows[r][c];
          worst = std::max(worst, std::abs(got - want) / (1.0f + std::abs(want)));
        }
  }
  return worst;
}

TEST(PalettePass, ModeNamesRoundTrip) {
  for (PalettePassMode mode : {PalettePassMode::kAuto, PalettePassMode::kOn, PalettePassMode::kOff})
    EXPECT_EQ(palettePassModeFromName(palettePassModeName(mode)), mode);
  EXPECT_FALSE(palettePassModeFromName("yes").has_value());
}

TEST(PalettePass, FloatTargetMatchesFramePaletteJob) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  ASSERT_TRUE(device->caps().color_buffer_float) << "Mesa offers ES 3.2: RGBA32F renders";
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package, PalettePassMode::kOn);
  ASSERT_NE(renderer, nullptr);
  const auto instances = test::randomInstances(package, 300, 21);  // a third cross-fading
  EXPECT_LT(paletteError(*renderer, package, instances), kPaletteTolerance);
  ASSERT_NE(renderer->palettePass(), nullptr);
  EXPECT_EQ(renderer->palettePass()->format(), static_cast<GLenum>(GL_RGBA32F));
}

TEST(PalettePass, BitsTargetWithoutColorBufferFloatMatchesFramePaletteJob) {
  // An ES 3.0 device without EXT_color_buffer_float: RGBA32UI holding the floats' bits.
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.disable_color_buffer_float = true;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  const Package package =
      test::bakeForTest(test::makeChainWithTwoClips(), 30.0f, TexelFormat::kRgba16F);
  auto renderer = makeRenderer(*device, package, PalettePassMode::kOn);
  ASSERT_NE(renderer, nullptr);
  const auto instances = test::randomInstances(package, 300, 22);
  EXPECT_LT(paletteError(*renderer, package, instances), kPaletteTolerance);
  ASSERT_NE(renderer->palettePass(), nullptr);
  EXPECT_TRUE(renderer->palettePass()->bits());
  EXPECT_EQ(renderer->palettePass()->format(), static_cast<GLenum>(GL_RGBA32UI));
}

TEST(PalettePass, PalettesWrapOntoSeveralRowsOfASmallTexture) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.max_texture_size = 64;  // 9 texels per instance: 7 instances per row
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package, PalettePassMode::kOn);
  ASSERT_NE(renderer, nullptr);
  const auto instances = test::randomInstances(package, 50, 23);
  EXPECT_LT(paletteError(*renderer, package, instances), kPaletteTolerance);
  EXPECT_EQ(renderer->palettePass()->instancesPerRow(), 7);
  // Skinning reads the instance's palette where the pass wrote it.
  const test::SkinningError error = test::compareWithCpu(*renderer, package, instances);
  EXPECT_LT(error.position, test::kSkinPositionTolerance);
  EXPECT_LT(error.normal, test::kSkinNormalTolerance);
}

TEST(PalettePass, SkinningFromThePaletteMatchesTheCpuSkinner) {
  for (bool bits : {false, true}) {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    hooks.caps.disable_color_buffer_float = bits;
    auto device = test::makeTestDevice(desc);
    ASSERT_NE(device, nullptr);
    const Package package = test::bakeForTest(test::makeChainWithTwoClips());
    auto renderer = makeRenderer(*device, package, PalettePassMode::kOn);
    ASSERT_NE(renderer, nullptr);
    const auto instances = test::randomInstances(package, 64, 24);
    const test::SkinningError error = test::compareWithCpu(*renderer, package, instances);
    EXPECT_LT(error.position, test::kSkinPositionTolerance) << (bits ? "RGBA32UI" : "RGBA32F");
    EXPECT_LT(error.normal, test::kSkinNormalTolerance) << (bits ? "RGBA32UI" : "RGBA32F");
    ASSERT_NE(renderer->palettePass(), nullptr) << "the capture went through the pass";
  }
}

// The sample character (6,054 vertices, 23 joints), baked without LODs.
const Package& samplePackage() {
  static const Package package = [] {
    BakeOptions bake;
    bake.threads = 1;
    return bakeCharacter(makeSampleCharacter(), bake).value();
  }();
  return package;
}

Image drawSample(Device& device, InstancedRenderer& renderer,
                 const std::vector<Instance>& instances, const uint32_t* split) {
  const FrameView view = lookAtView(glm::vec3(0.0f, 7.0f, 13.0f), glm::vec3(0.0f, 0.5f, 0.0f),
                                    glm::radians(45.0f), 1.0f, 0.5f, 100.0f);
  device.beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_TRUE(renderer.draw(view, instances, std::span<const uint32_t>(split, 2)).ok());
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok()) << image.status().toString();
  return image.ok() ? std::move(image).value() : Image{};
}

TEST(PalettePass, ImagesEqualDirectFetching) {
  auto device = test::makeTestDevice({.width = 160, .height = 160});
  ASSERT_NE(device, nullptr);
  ASSERT_TRUE(device->caps().rasterizes) << "needs real rasterisation (not GALLIUM_NOOP)";
  Package package = samplePackage();
  package.lods.push_back(package.lods[0]);  // two LODs: the second draw starts mid-palette
  const auto instances = test::randomInstances(package, 24, 25);
  const uint32_t split[2] = {10, 14};
  auto direct = makeRenderer(*device, package, PalettePassMode::kOff);
  auto pass = makeRenderer(*device, package, PalettePassMode::kOn);
  ASSERT_TRUE(direct && pass);
  const Image expected = drawSample(*device, *direct, instances, split);
  EXPECT_FALSE(direct->stats().palette_pass);
  const Image image = drawSample(*device, *pass, instances, split);
  EXPECT_TRUE(pass->stats().palette_pass);
  ASSERT_EQ(image.rgba.size(), expected.rgba.size());
  int64_t lit = 0;  // pixels off the clear colour: the picture is not blank
  for (size_t p = 0; p < expected.rgba.size(); p += 4)
    lit += expected.rgba[p] + expected.rgba[p + 1] + expected.rgba[p + 2] > 30;
  EXPECT_GT(lit, 1000);
  const ImageDifference d = compareImages(expected, image, test::kPathChannelTolerance);
  EXPECT_LE(static_cast<double>(d.bad_pixels),
            test::kPathMaxBadPixelShare * static_cast<double>(image.width * image.height))
      << d.bad_pixels << " pixels differ, by up to " << d.max_channel_difference;
}

TEST(PalettePass, AutoTurnsOnAtTheThreshold) {
  auto device = test::makeTestDevice({.width = 16, .height = 16});
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package, PalettePassMode::kAuto);
  ASSERT_NE(renderer, nullptr);
  const uint64_t vertices = renderer->vertexCount(0);
  const int below = static_cast<int>((kPalettePassMinVertexInstances - 1) / vertices);
  const FrameView view;
  for (int count : {below, below + 1}) {
    const auto instances = test::randomInstances(package, count, 26);
    ASSERT_TRUE(renderer->draw(view, instances).ok());
    EXPECT_EQ(renderer->stats().palette_pass,
              static_cast<uint64_t>(count) * vertices >= kPalettePassMinVertexInstances)
        << count << " instances of " << vertices << " vertices";
  }
  device->finish();
  EXPECT_NE(renderer->palettePass(), nullptr);
}

TEST(PalettePass, PalettesThatDoNotFitAreDrawnByDirectFetching) {
  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  hooks.caps.max_texture_size = 64;  // 7 instances per row, 64 rows: 448 palettes at most
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainWithTwoClips());
  auto renderer = makeRenderer(*device, package, PalettePassMode::kOn);
  ASSERT_NE(renderer, nullptr);
  const auto instances = test::randomInstances(package, 449, 27);
  ASSERT_TRUE(renderer->draw(FrameView{}, instances).ok());
  EXPECT_FALSE(renderer->stats().palette_pass);
  std::vector<JointRows> palettes(instances.size() * package.skeleton.jointCount());
  const Status status = renderer->capturePalettes(instances, palettes);
  EXPECT_EQ(status.code(), ErrorCode::kUnsupported) << status.toString();
  // The capture (like the draw) falls back to direct fetching: still the CPU skinner's vertices.
  EXPECT_LT(test::compareWithCpu(*renderer, package, instances).position,
            test::kSkinPositionTolerance);
  const std::vector<Instance> fewer(instances.begin(), instances.begin() + 448);
  ASSERT_TRUE(renderer->draw(FrameView{}, fewer).ok());
  EXPECT_TRUE(renderer->stats().palette_pass);
}

TEST(PalettePass, TooManyJointsForOneRowIsUnsupported) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const int joints = device->caps().max_texture_size / 3 + 1;
  Result<std::unique_ptr<PalettePass>> pass = PalettePass::create(*device, joints, {});
  ASSERT_FALSE(pass.ok());
  EXPECT_EQ(pass.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(pass.status().message().find("joints"), std::string::npos);
}

}  // namespace
}  // namespace throng::render
