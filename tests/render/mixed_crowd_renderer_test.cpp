// MixedCrowdRenderer: a crowd of two characters drawn through it matches each character's agents
// drawn by a renderer of its own, on every path; its counters, agents and textures; its errors.
#include "throng/render/mixed_crowd_renderer.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

constexpr int kMixedFrameSize = 192;
constexpr uint32_t kMixedAgents = 24;  // agent i of character i % 2
const glm::vec4 kMixedClear(0.1f, 0.1f, 0.12f, 1.0f);

// test::sampleAndChainPackages(), for MixedCrowdRenderer::create.
std::vector<const Package*> packagePointers() {
  std::vector<const Package*> out;
  for (const Package& p : test::sampleAndChainPackages()) out.push_back(&p);
  return out;
}

// The mixed crowd: character c's agents in row c, at different clip times.
Crowd makeCrowd(uint32_t agents = kMixedAgents) {
  std::vector<CrowdCharacter> crowd_characters;
  for (const Package& p : test::sampleAndChainPackages())
    crowd_characters.push_back({p.clips, ClipSet{}});
  Crowd crowd(crowd_characters);
  for (uint32_t i = 0; i < agents; ++i) {
    const uint16_t c = static_cast<uint16_t>(i % 2);
    Placement p;
    p.position = glm::vec3(1.2f * (static_cast<float>(i / 2) - 6.0f), 0.0f, -3.0f * c);
    p.heading = 0.3f * static_cast<float>(i);
    crowd.addAgent(p, 0.137f * static_cast<float>(i), c);
  }
  return crowd;
}

FrameView mixedView() {
  return lookAtView(glm::vec3(0.0f, 5.0f, 9.0f), glm::vec3(0.0f, 0.8f, -1.5f), glm::radians(60.0f),
                    1.0f, 0.1f, 100.0f);
}

Image frameOf(Device& device) {
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok()) << image.status().toString();
  return image.ok() ? std::move(image).value() : Image{};
}

// Character c's agents of `crowd`, as spans a renderer of its own draws.
struct Gathered {
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<uint32_t> agents;  // their crowd indices
};
Gathered gather(const Crowd& crowd, uint16_t c) {
  Gathered g;
  for (uint32_t a = 0; a < crowd.agentCount(); ++a) {
    if (crowd.agentCharacters()[a] != c) continue;
    g.placements.push_back(crowd.placements()[a]);
    g.playback.push_back(crowd.playback()[a]);
    g.agents.push_back(a);
  }
  return g;
}

class MixedCrowdPaths : public ::testing::TestWithParam<RenderPath> {
 protected:
  void SetUp() override {
    DeviceDesc desc;
    desc.width = desc.height = kMixedFrameSize;
    desc.gles_major = 3;
    if (GetParam() == RenderPath::kGpu) {
      // What the gpu path needs of the driver: THRONG_REQUIRE (a failure in CI, whose llvmpipe
      // has it all).
      std::string missing;
      device_ = test::makeEs31Device(&missing, kMixedFrameSize, kMixedFrameSize);
      THRONG_REQUIRE(device_ != nullptr, missing);
    } else {
      device_ = test::makeTestDevice(desc);
    }
    ASSERT_NE(device_, nullptr);
  }
  CrowdRendererDesc desc() const {
    CrowdRendererDesc d;
    d.path = GetParam();
    d.fixed_lod = 0;
    return d;
  }
  std::unique_ptr<Device> device_;
};

TEST_P(MixedCrowdPaths, DrawsEachCharacterAsItsOwnRendererDoes) {
  const Crowd crowd = makeCrowd();
  const FrameView view = mixedView();
  // The reference first: each character's agents with a renderer (and texture) of its own.
  std::vector<std::unique_ptr<CrowdRenderer>> alone;
  std::vector<Gathered> gathered;
  device_->beginFrame(kMixedClear);
  uint32_t draw_calls = 0, visible = 0;
  for (uint16_t c = 0; c < 2; ++c) {
    alone.push_back(
        std::make_unique<CrowdRenderer>(*device_, test::sampleAndChainPackages()[c], desc()));
    ASSERT_TRUE(alone.back()->ok()) << alone.back()->status().toString();
    gathered.push_back(gather(crowd, c));
    ASSERT_TRUE(
        alone[c]->draw(view, CrowdFrame{gathered[c].placements, gathered[c].playback}).ok());
    draw_calls += alone[c]->stats().draw_calls;
    visible += alone[c]->stats().visible;
  }
  const Image separate = frameOf(*device_);

  const std::vector<const Package*> packages = packagePointers();
  Result<std::unique_ptr<MixedCrowdRenderer>> mixed =
      MixedCrowdRenderer::create(*device_, packages, desc());
  ASSERT_TRUE(mixed.ok()) << mixed.status().toString();
  ASSERT_EQ((*mixed)->characterCount(), 2u);
  EXPECT_EQ((*mixed)->path(), GetParam());
  device_->beginFrame(kMixedClear);
  ASSERT_TRUE((*mixed)->draw(view, crowd).ok());
  const Image together = frameOf(*device_);
  const CrowdFrameStats& stats = (*mixed)->stats();

  int64_t lit = 0;
  for (size_t p = 0; p < separate.rgba.size(); p += 4) lit += std::abs(separate.rgba[p] - 26) > 4;
  EXPECT_GT(lit, kMixedFrameSize * kMixedFrameSize / 50) << "both characters show";
  const ImageDifference d = compareImages(separate, together, test::kPathChannelTolerance);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kMixedFrameSize * kMixedFrameSize),
            test::kPathMaxBadPixelShare)
      << d.bad_pixels << " pixels differ by more than " << test::kPathChannelTolerance
      << " (max difference " << d.max_channel_difference << ")";

  // Counters: the characters' summed.
  EXPECT_EQ(stats.agents, kMixedAgents);
  EXPECT_EQ(stats.draw_calls, draw_calls);
  EXPECT_EQ((*mixed)->agentsOf(0), kMixedAgents / 2);
  EXPECT_EQ((*mixed)->agentsOf(1), kMixedAgents / 2);
  if (GetParam() != RenderPath::kGpu) {  // the gpu path's counts arrive late
    EXPECT_EQ(stats.visible, visible);
    // An agent of the second character is drawn as its own renderer drew it.
    const uint32_t agent = gathered[1].agents[3];
    const AgentDrawInfo mine = (*mixed)->agentDrawInfo(crowd, agent);
    const AgentDrawInfo theirs = alone[1]->agentDrawInfo(3);
    EXPECT_TRUE(theirs.visible);
    EXPECT_EQ(mine.visible, theirs.visible);
    EXPECT_EQ(mine.lod, theirs.lod);
    EXPECT_EQ(mine.draw_call, theirs.draw_call);
    EXPECT_EQ(mine.slot, theirs.slot);
  }
  // The instanced and gpu paths share one animation texture: at most one bind a frame between
  // them (none when it is still bound from its upload), never one by the second character.
  if (GetParam() == RenderPath::kInstanced || GetParam() == RenderPath::kGpu) {
    ASSERT_NE((*mixed)->sharedTexture(), nullptr) << (*mixed)->separateTextures();
    EXPECT_EQ((*mixed)->sharedTexture()->slotCount(), 2u);
    EXPECT_LE(stats.animation_texture_binds, 1u);
    EXPECT_EQ((*mixed)->renderer(1).stats().animation_texture_binds, 0u);
    EXPECT_TRUE((*mixed)->separateTextures().empty());
  } else {
    EXPECT_EQ((*mixed)->sharedTexture(), nullptr);
    EXPECT_NE((*mixed)->separateTextures().find("merged paths"), std::string::npos);
  }
}

TEST_P(MixedCrowdPaths, OneCharacterIsDrawnAsItsRendererDrawsTheCrowd) {
  std::vector<CrowdCharacter> one = {{test::sampleAndChainPackages()[0].clips, ClipSet{}}};
  Crowd crowd(one);
  for (uint32_t i = 0; i < 9; ++i) {
    Placement p;
    p.position = glm::vec3(1.2f * (static_cast<float>(i % 3) - 1.0f), 0.0f, -1.5f * (i / 3));
    crowd.addAgent(p, 0.2f * static_cast<float>(i));
  }
  const FrameView view = mixedView();
  const Package* package = &test::sampleAndChainPackages()[0];
  Result<std::unique_ptr<MixedCrowdRenderer>> mixed =
      MixedCrowdRenderer::create(*device_, std::span(&package, 1), desc());
  ASSERT_TRUE(mixed.ok()) << mixed.status().toString();
  EXPECT_EQ((*mixed)->sharedTexture(), nullptr);
  EXPECT_TRUE((*mixed)->separateTextures().empty());
  device_->beginFrame(kMixedClear);
  ASSERT_TRUE((*mixed)->draw(view, crowd).ok());
  const Image through_mixed = frameOf(*device_);

  CrowdRenderer renderer(*device_, test::sampleAndChainPackages()[0], desc());
  device_->beginFrame(kMixedClear);
  ASSERT_TRUE(renderer.draw(view, crowd).ok());
  const Image direct = frameOf(*device_);
  const ImageDifference d = compareImages(direct, through_mixed, 0);
  EXPECT_EQ(d.bad_pixels, 0) << "max difference " << d.max_channel_difference;
  EXPECT_EQ((*mixed)->agentsOf(0), 9u);
}

INSTANTIATE_TEST_SUITE_P(Paths, MixedCrowdPaths, ::testing::ValuesIn(test::kEveryPath),
                         test::pathParamName);

TEST(MixedCrowdRenderer, BadInputIsAnErrorNamingTheCharacter) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(MixedCrowdRenderer::create(*device, {}).status().code(), ErrorCode::kInvalidArgument);

  // A renderer that cannot be made names its character.
  CrowdRendererDesc desc;
  desc.fixed_lod = 3;  // the chain has one LOD
  const std::vector<const Package*> packages = packagePointers();
  const std::string names[] = {"hero", "chain"};
  Result<std::unique_ptr<MixedCrowdRenderer>> failed =
      MixedCrowdRenderer::create(*device, packages, desc, names);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(failed.status().message().rfind("hero: ", 0), 0u) << failed.status().message();

  // A crowd of another number of characters than the renderer's.
  Result<std::unique_ptr<MixedCrowdRenderer>> mixed = MixedCrowdRenderer::create(*device, packages);
  ASSERT_TRUE(mixed.ok()) << mixed.status().toString();
  std::vector<CrowdCharacter> one = {{test::sampleAndChainPackages()[0].clips, ClipSet{}}};
  Crowd alone(one);
  alone.addAgent(Placement{});
  device->beginFrame(kMixedClear);
  const Status s = (*mixed)->draw(mixedView(), alone);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(s.message().find("the crowd has 1 characters, the renderer 2"), std::string::npos)
      << s.message();
  // Tints must be one per agent.
  const Crowd crowd = makeCrowd();
  const std::vector<glm::vec4> too_few(3, glm::vec4(1.0f));
  EXPECT_EQ((*mixed)->draw(mixedView(), crowd, too_few).code(), ErrorCode::kInvalidArgument);
}

TEST(MixedCrowdRenderer, SettingsReachEveryCharacterAndTheGridOnlyTheFirst) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc desc;
  desc.ground.grid = true;
  desc.shadows = ShadowMode::kBlob;
  Result<std::unique_ptr<MixedCrowdRenderer>> mixed =
      MixedCrowdRenderer::create(*device, packagePointers(), desc);
  ASSERT_TRUE(mixed.ok()) << mixed.status().toString();
  MixedCrowdRenderer& m = **mixed;
  EXPECT_TRUE(m.renderer(0).ground().grid);
  EXPECT_FALSE(m.renderer(1).ground().grid);
  EXPECT_EQ(m.renderer(1).shadows(), ShadowMode::kBlob);
  GroundDesc ground;
  ground.grid = true;
  m.setGround(ground);
  EXPECT_TRUE(m.ground().grid);
  EXPECT_FALSE(m.renderer(1).ground().grid);
  m.setShadows(ShadowMode::kOff);
  EXPECT_EQ(m.renderer(1).shadows(), ShadowMode::kOff);
  m.setLodTint(true);
  m.setLodThresholdPixels(3.0f);
  for (size_t c = 0; c < m.characterCount(); ++c) {
    EXPECT_TRUE(m.renderer(c).lodTint());
    EXPECT_EQ(m.renderer(c).lodThresholdPixels(), 3.0f);
  }
}

}  // namespace
}  // namespace throng::render
