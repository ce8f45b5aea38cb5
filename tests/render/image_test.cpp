// Image test: a small crowd rendered headless equals the stored reference within a tolerance.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/instanced_renderer.h"

namespace throng::render {
namespace {

// llvmpipe is deterministic, but another LLVM version or SIMD width may round edges differently:
// a channel may differ by kChannelTolerance, and at most kMaxBadPixels pixels may differ more.
constexpr int kChannelTolerance = 3;
constexpr int64_t kMaxBadPixels = 40;  // of 160 * 120 = 19,200 (0.2%)
constexpr int kWidth = 160;
constexpr int kHeight = 120;
constexpr int kGridSide = 4;

const char* kReference = "tests/render/data/chain_crowd.png";

// A 4x4 grid of chain characters at fixed times, turned and tinted one by one, two of them in
// the middle of a cross-fade.
Result<Image> renderChainCrowd() {
  auto device = test::makeTestDevice({.width = kWidth, .height = kHeight});
  if (!device) return Status(ErrorCode::kGlError, "no device");
  Character character = test::makeChainCharacter();
  character.clips.push_back(test::makeChainTwistClip());
  const Package package = test::bakeForTest(character);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, package);
  if (!renderer.ok()) return renderer.status();

  std::vector<AgentPlayback> agents(kGridSide * kGridSide);
  std::vector<Instance> instances(agents.size());
  for (int i = 0; i < kGridSide * kGridSide; ++i) {
    const int row = i / kGridSide, column = i % kGridSide;
    agents[i].clip = static_cast<uint16_t>(i % 2);
    agents[i].time = 0.07f * static_cast<float>(i);
    agents[i].previous_clip = static_cast<uint16_t>(1 - i % 2);
    agents[i].previous_time = 0.3f;
    agents[i].fade = i == 5 || i == 10 ? 0.5f : 0.0f;
    instances[i].placement.position =
        glm::vec3(static_cast<float>(column) - 1.5f, 0.0f, static_cast<float>(row) - 1.5f);
    instances[i].placement.heading = 0.4f * static_cast<float>(i);
    instances[i].tint = glm::vec4(0.4f + 0.15f * static_cast<float>(column),
                                  0.4f + 0.15f * static_cast<float>(row), 0.9f, 1.0f);
  }
  std::vector<InstanceFrames> frames(agents.size());
  PlaybackJob job{package.clips, agents, frames};
  if (!job.run()) return Status(ErrorCode::kInvalidData, "playback job refused its input");
  for (size_t i = 0; i < instances.size(); ++i) instances[i].frames = frames[i];

  const Bounds crowd{{-2.0f, 0.0f, -2.0f}, {2.0f, 2.2f, 2.0f}};
  FrameView view;
  view.view_projection = framingViewProjection(crowd, static_cast<float>(kWidth) / kHeight);
  device->beginFrame({0.1f, 0.1f, 0.12f, 1.0f});
  if (Status status = (*renderer)->draw(view, instances); !status.ok()) return status;
  device->finish();
  return device->readPixels();
}

TEST(RenderImage, ChainCrowdMatchesTheReference) {
  Result<Image> image = renderChainCrowd();
  ASSERT_TRUE(image.ok()) << image.status().toString();
  const std::filesystem::path reference = std::filesystem::path(THRONG_SOURCE_DIR) / kReference;
  if (std::getenv("THRONG_UPDATE_REFERENCE_IMAGES")) {
    ASSERT_TRUE(writePng(*image, reference.string()).ok());
  }
  Result<Image> expected = readPng(reference.string());
  ASSERT_TRUE(expected.ok()) << expected.status().toString()
                             << " (THRONG_UPDATE_REFERENCE_IMAGES=1 writes it)";
  ASSERT_EQ(expected->width, image->width);
  ASSERT_EQ(expected->height, image->height);
  const ImageDifference difference = compareImages(*image, *expected, kChannelTolerance);
  if (difference.bad_pixels > kMaxBadPixels) {
    const auto dir = test::makeTempDir("render-image");
    const std::string actual = (dir / "chain_crowd.actual.png").string();
    ASSERT_TRUE(writePng(*image, actual).ok());
    ADD_FAILURE() << difference.bad_pixels << " pixels differ by more than " << kChannelTolerance
                  << " (largest difference " << difference.max_channel_difference
                  << "); the image rendered now is " << actual;
  }
  // The picture is not empty: the crowd covers a fair share of the frame.
  int64_t lit = 0;
  for (size_t p = 0; p < image->rgba.size(); p += 4)
    if (image->rgba[p] > 40 || image->rgba[p + 1] > 40) ++lit;
  EXPECT_GT(lit, kWidth * kHeight / 50);
}

}  // namespace
}  // namespace throng::render
