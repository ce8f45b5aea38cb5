// Image tests: small crowds rendered headless equal stored references within a tolerance.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "render/instanced_renderer.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"

namespace throng::render {
namespace {

// llvmpipe is deterministic, but another LLVM version or SIMD width may round edges differently:
// a channel may differ by kChannelTolerance, and at most kCompareMaxBadPixelShare of the pixels
// more.
constexpr int kChannelTolerance = 3;
constexpr double kCompareMaxBadPixelShare = 0.002;

struct CrowdScene {
  int width = 160;
  int height = 120;
  int side = 4;          // agents per grid row and column
  float spacing = 1.0f;  // model units between agents
  Bounds framed;         // world box the camera frames
};

// A grid of `character`s at fixed times, turned and tinted one by one, two of them in the
// middle of a cross-fade between their first two clips.
Result<Image> renderCrowd(const Character& character, const CrowdScene& scene) {
  auto device = test::makeTestDevice({.width = scene.width, .height = scene.height});
  if (!device) return Status(ErrorCode::kGlError, "no device");
  const Package package = test::bakeForTest(character);
  Result<std::unique_ptr<InstancedRenderer>> renderer = InstancedRenderer::create(*device, package);
  if (!renderer.ok()) return renderer.status();

  const int count = scene.side * scene.side;
  const uint16_t clips = static_cast<uint16_t>(package.clips.size());
  std::vector<AgentPlayback> agents(count);
  std::vector<Instance> instances(count);
  const float half = 0.5f * scene.spacing * static_cast<float>(scene.side - 1);
  for (int i = 0; i < count; ++i) {
    const int row = i / scene.side, column = i % scene.side;
    agents[i].clip = static_cast<uint16_t>(i % clips);
    agents[i].time = 0.07f * static_cast<float>(i);
    agents[i].previous_clip = static_cast<uint16_t>((i + 1) % clips);
    agents[i].previous_time = 0.3f;
    agents[i].fade = i == 5 || i == 10 ? 0.5f : 0.0f;
    instances[i].placement.position =
        glm::vec3(scene.spacing * static_cast<float>(column) - half, 0.0f,
                  scene.spacing * static_cast<float>(row) - half);
    instances[i].placement.heading = 0.4f * static_cast<float>(i);
    instances[i].tint = glm::vec4(0.4f + 0.6f * static_cast<float>(column) / scene.side,
                                  0.4f + 0.6f * static_cast<float>(row) / scene.side, 0.9f, 1.0f);
  }
  std::vector<InstanceFrames> frames(count);
  PlaybackJob job{package.clips, agents, frames};
  if (!job.run()) return Status(ErrorCode::kInvalidData, "playback job refused its input");
  for (int i = 0; i < count; ++i) instances[i].frames = frames[i];

  const FrameView view = framingView(scene.framed, static_cast<float>(scene.width) / scene.height);
  device->beginFrame({0.1f, 0.1f, 0.12f, 1.0f});
  if (Status status = (*renderer)->draw(view, instances); !status.ok()) return status;
  device->finish();
  return device->readPixels();
}

// Compares with tests/render/data/<name>.png (THRONG_UPDATE_REFERENCE_IMAGES=1 rewrites it);
// on failure the image rendered now is written to a temp folder and named in the message.
void expectMatchesReference(const Image& image, const std::string& name) {
  const std::filesystem::path reference =
      std::filesystem::path(THRONG_SOURCE_DIR) / "tests/render/data" / (name + ".png");
  if (std::getenv("THRONG_UPDATE_REFERENCE_IMAGES")) {
    ASSERT_TRUE(writePng(image, reference.string()).ok());
  }
  Result<Image> expected = readPng(reference.string());
  ASSERT_TRUE(expected.ok()) << expected.status().toString()
                             << " (THRONG_UPDATE_REFERENCE_IMAGES=1 writes it)";
  ASSERT_EQ(expected->width, image.width);
  ASSERT_EQ(expected->height, image.height);
  const ImageDifference difference = compareImages(image, *expected, kChannelTolerance);
  const auto max_bad = static_cast<int64_t>(kCompareMaxBadPixelShare * image.width * image.height);
  if (difference.bad_pixels > max_bad) {
    const auto dir = test::makeTempDir("render-image");
    const std::string actual = (dir / (name + ".actual.png")).string();
    ASSERT_TRUE(writePng(image, actual).ok());
    ADD_FAILURE() << name << ": " << difference.bad_pixels << " pixels (at most " << max_bad
                  << " allowed) differ by more than " << kChannelTolerance
                  << " (largest difference " << difference.max_channel_difference
                  << "); the image rendered now is " << actual;
  }
  // Not an empty picture: the crowd covers a fair share of the frame.
  int64_t lit = 0;
  for (size_t p = 0; p < image.rgba.size(); p += 4)
    if (image.rgba[p] > 40 || image.rgba[p + 1] > 40) ++lit;
  EXPECT_GT(lit, image.width * image.height / 50) << name;
}

TEST(RenderImage, ChainCrowdMatchesTheReference) {
  Character character = test::makeChainCharacter();
  character.clips.push_back(test::makeChainTwistClip());
  CrowdScene scene;
  scene.framed = {{-2.0f, 0.0f, -2.0f}, {2.0f, 2.2f, 2.0f}};
  Result<Image> image = renderCrowd(character, scene);
  ASSERT_TRUE(image.ok()) << image.status().toString();
  expectMatchesReference(*image, "chain_crowd");
}

TEST(RenderImage, SampleCharacterCrowdMatchesTheReference) {
  CrowdScene scene;
  scene.width = 240;
  scene.height = 160;
  scene.side = 3;
  scene.spacing = 1.2f;
  scene.framed = {{-1.6f, 0.0f, -1.6f}, {1.6f, 1.8f, 1.6f}};
  Result<Image> image = renderCrowd(makeSampleCharacter(), scene);
  ASSERT_TRUE(image.ok()) << image.status().toString();
  expectMatchesReference(*image, "sample_crowd");
}

}  // namespace
}  // namespace throng::render
