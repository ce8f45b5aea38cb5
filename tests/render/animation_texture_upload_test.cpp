// Animation textures on the GPU: several characters' frames stacked in one shared texture draw
// the same mixed crowd as separate textures with one bind instead of one per character; stacks
// that do not fit the size limit are refused with the size they need.
#include "throng/render/animation_texture_upload.h"

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render_test_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/crowd/playback.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/frame_view.h"

namespace throng::render {
namespace {

constexpr int kUploadFrameSize = 192;
constexpr int kAgentsPerCharacter = 12;

// Character c's agents (of test::sampleAndChainPackages()): a row each, at different clip times.
CrowdFrame agentsOf(size_t c, std::vector<Placement>& placements,
                    std::vector<AgentPlayback>& playback) {
  placements.assign(kAgentsPerCharacter, {});
  playback.assign(kAgentsPerCharacter, {});
  for (int i = 0; i < kAgentsPerCharacter; ++i) {
    placements[i].position = glm::vec3(1.2f * (i - kAgentsPerCharacter / 2), 0.0f, -3.0f * c);
    placements[i].heading = 0.3f * i;
    playback[i].clip = static_cast<uint16_t>(i % test::sampleAndChainPackages()[c].clips.size());
    playback[i].time = 0.137f * i;
  }
  return CrowdFrame{placements, playback};
}

struct MixedFrame {
  Image image;
  uint32_t binds = 0;
  uint32_t draw_calls = 0;
};

// Draws both characters' agents, each with its own renderer on `path`, their animation textures
// shared when `shared` is given.
MixedFrame drawMixed(Device& device, RenderPath path,
                     const std::shared_ptr<const SharedAnimationTexture>& shared) {
  MixedFrame out;
  std::vector<std::unique_ptr<CrowdRenderer>> renderers;
  for (size_t c = 0; c < test::sampleAndChainPackages().size(); ++c) {
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 0;
    desc.animation_texture = shared;
    desc.animation_texture_slot = c;
    renderers.push_back(
        std::make_unique<CrowdRenderer>(device, test::sampleAndChainPackages()[c], desc));
    EXPECT_TRUE(renderers.back()->ok()) << renderers.back()->status().toString();
    if (!renderers.back()->ok()) return out;
  }
  const FrameView view = lookAtView(glm::vec3(0.0f, 5.0f, 9.0f), glm::vec3(0.0f, 0.8f, -1.5f),
                                    glm::radians(60.0f), 1.0f, 0.1f, 100.0f);
  device.beginFrame(glm::vec4(0.1f, 0.1f, 0.12f, 1.0f));
  for (size_t c = 0; c < test::sampleAndChainPackages().size(); ++c) {
    std::vector<Placement> placements;
    std::vector<AgentPlayback> playback;
    const Status s = renderers[c]->draw(view, agentsOf(c, placements, playback));
    EXPECT_TRUE(s.ok()) << s.toString();
    out.binds += renderers[c]->stats().animation_texture_binds;
    out.draw_calls += renderers[c]->stats().draw_calls;
  }
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok());
  if (image.ok()) out.image = std::move(image).value();
  return out;
}

class SharedTexture : public ::testing::TestWithParam<RenderPath> {};

TEST_P(SharedTexture, AMixedCrowdDrawsTheSameWithOneBind) {
  DeviceDesc desc;
  desc.width = kUploadFrameSize;
  desc.height = kUploadFrameSize;
  desc.gles_major = 3;
  std::unique_ptr<Device> device;
  if (GetParam() == RenderPath::kGpu) {
    desc.gles_minor = 1;
    test::useGlesVersion(3);
    Result<std::unique_ptr<Device>> made = Device::createHeadless(desc);
    THRONG_REQUIRE(made.ok(), "no ES 3.1 context: " + made.status().toString());
    device = std::move(made).value();
    THRONG_REQUIRE(device->caps().compute, "no ES 3.1 compute on " + device->caps().version);
  } else {
    device = test::makeTestDevice(desc);
  }
  ASSERT_NE(device, nullptr);

  const AnimationTexture* textures[] = {&test::sampleAndChainPackages()[0].animation,
                                        &test::sampleAndChainPackages()[1].animation};
  Result<std::shared_ptr<SharedAnimationTexture>> shared =
      SharedAnimationTexture::create(*device, textures);
  ASSERT_TRUE(shared.ok()) << shared.status().toString();
  const SharedAnimationTexture& t = **shared;
  ASSERT_EQ(t.slotCount(), 2u);
  EXPECT_EQ(t.slot(0).base_row, 0u);
  EXPECT_EQ(t.slot(1).base_row, t.slot(0).height);  // rows appended
  EXPECT_EQ(t.height(), t.slot(0).height + t.slot(1).height);
  EXPECT_EQ(t.width(), std::max(t.slot(0).width, t.slot(1).width));
  EXPECT_NE(t.slot(0).joint_count, t.slot(1).joint_count);

  const MixedFrame separate = drawMixed(*device, GetParam(), nullptr);
  const MixedFrame together = drawMixed(*device, GetParam(), *shared);
  ASSERT_EQ(separate.image.width, kUploadFrameSize);
  ASSERT_EQ(together.image.width, kUploadFrameSize);
  EXPECT_EQ(separate.binds, 2u) << "one animation texture per character";
  EXPECT_EQ(together.binds, 1u) << "the second character finds the shared texture bound";
  EXPECT_EQ(together.draw_calls, separate.draw_calls);
  // The frame shows both characters (not a blank image equal to a blank image).
  int64_t lit = 0;
  for (size_t p = 0; p < separate.image.rgba.size(); p += 4) {
    lit += std::abs(separate.image.rgba[p] - 26) > test::kPathChannelTolerance;
  }
  EXPECT_GT(lit, kUploadFrameSize * kUploadFrameSize / 50);
  const ImageDifference d =
      compareImages(separate.image, together.image, test::kPathChannelTolerance);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kUploadFrameSize * kUploadFrameSize),
            test::kPathMaxBadPixelShare)
      << d.bad_pixels << " pixels differ by more than " << test::kPathChannelTolerance
      << " (max difference " << d.max_channel_difference << ")";

  // A slot that is not the package's texture fails the renderer.
  CrowdRendererDesc wrong;
  wrong.path = GetParam();
  wrong.animation_texture = *shared;
  wrong.animation_texture_slot = 1;
  const CrowdRenderer renderer(*device, test::sampleAndChainPackages()[0], wrong);
  EXPECT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Paths, SharedTexture,
                         ::testing::Values(RenderPath::kInstanced, RenderPath::kGpu),
                         [](const ::testing::TestParamInfo<RenderPath>& param) {
                           return std::string(renderPathName(param.param));
                         });

TEST(SharedTexture, StacksOverTheSizeLimitAreRefusedWithTheSizeTheyNeed) {
  std::unique_ptr<Device> device = test::makeTestDevice({.width = 8, .height = 8});
  ASSERT_NE(device, nullptr);
  // The chain laid out one frame per row: taller than wide.
  const Package chain =
      test::bakeForTest(test::makeChainCharacter(), 30.0f, TexelFormat::kRgba32F, /*max_width=*/9);
  const AnimationTexture& texture = chain.animation;
  ASSERT_GT(texture.height, texture.width);
  const SharedTextureDesc limit{static_cast<int>(texture.height)};
  const AnimationTexture* one[] = {&texture};
  EXPECT_TRUE(SharedAnimationTexture::create(*device, one, limit).ok());
  const AnimationTexture* two[] = {&texture, &texture};
  Result<std::shared_ptr<SharedAnimationTexture>> stacked =
      SharedAnimationTexture::create(*device, two, limit);
  ASSERT_FALSE(stacked.ok());
  EXPECT_EQ(stacked.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(stacked.status().message().find(
                fmt::format("need {}x{} texels, over GL_MAX_TEXTURE_SIZE {}", texture.width,
                            2 * texture.height, texture.height)),
            std::string::npos)
      << stacked.status().message();
  EXPECT_EQ(SharedAnimationTexture::create(*device, {}).status().code(),
            ErrorCode::kInvalidArgument);
  // A character that fits no texture of that size alone: named by its place in the list.
  const SharedTextureDesc narrow{2};
  Result<std::shared_ptr<SharedAnimationTexture>> alone =
      SharedAnimationTexture::create(*device, one, narrow);
  EXPECT_EQ(alone.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(alone.status().message(),
            "shared animation texture: character 0: animation texture: the device's "
            "GL_MAX_TEXTURE_SIZE 2 cannot hold one joint (3 texels)");
}

}  // namespace
}  // namespace throng::render
