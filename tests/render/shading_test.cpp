// The user shader contract on every path: the file's uniforms and the surface's agent and state
// reach throngShade; a broken file fails the renderer naming the file and its line.
#include "throng/render/shading.h"

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/pbr_reference.h"
#include "render_test_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

constexpr int kShadingFrameSize = 160;
constexpr uint32_t kShadingAgents = 6;
const glm::vec4 kShadingClear(0.0f, 0.0f, 0.0f, 1.0f);

// Red: the file's uniform; green: the agent's index / 64; blue: its state / 8.
const char* const kFieldsShader = R"(uniform vec3 paint;
vec4 throngShade(ThrongSurface s) {
  return vec4(paint.r, s.agent / 64.0, s.state / 8.0, 1.0);
}
)";

// Line 3 uses a name nobody declared.
const char* const kBrokenShader = R"(vec4 throngShade(ThrongSurface s) {
  vec3 c = s.base_color.rgb;
  return vec4(c * undefined_thing, 1.0);
}
)";

std::shared_ptr<const ShaderSource> shader(const char* name, const char* text) {
  return std::make_shared<const ShaderSource>(ShaderSource{name, text});
}

class ShadingPaths : public ::testing::TestWithParam<RenderPath> {
 protected:
  void SetUp() override {
    DeviceDesc desc;
    desc.width = desc.height = kShadingFrameSize;
    desc.gles_major = 3;
    if (GetParam() == RenderPath::kGpu) desc.gles_minor = 1;
    device_ = test::makeTestDevice(desc);
    ASSERT_NE(device_, nullptr);
    if (GetParam() == RenderPath::kGpu) {
      THRONG_REQUIRE(device_->caps().compute, "no ES 3.1 compute on " + device_->caps().version);
    }
  }
  CrowdRendererDesc desc(const char* name, const char* text) const {
    CrowdRendererDesc d;
    d.path = GetParam();
    d.fixed_lod = 0;
    d.shader = shader(name, text);
    return d;
  }
  std::unique_ptr<Device> device_;
};

// The encoded byte throng writes for linear `value` (pbr_reference: clamp, sRGB, round).
int encoded(double value) {
  return test::encodedColour(glm::dvec3(value)).x;
}

TEST_P(ShadingPaths, UniformsAgentAndStateReachThrongShade) {
  const Package package = test::bakeForTest(test::makeChainCharacter(), 24.0f);
  CrowdRenderer renderer(*device_, package, desc("fields.glsl", kFieldsShader));
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const Status paint = renderer.setShaderUniform("paint", glm::vec3(0.25f, 0.0f, 0.0f));
  ASSERT_TRUE(paint.ok()) << paint.toString();
  // A uniform the file lacks, and one of the wrong shape, name the file and the uniform.
  const Status missing = renderer.setShaderUniform("nothing_here", 1.0f);
  EXPECT_EQ(missing.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("fields.glsl"), std::string::npos) << missing.message();
  EXPECT_NE(missing.message().find("nothing_here"), std::string::npos) << missing.message();
  EXPECT_EQ(renderer.setShaderUniform("paint", glm::mat4(1.0f)).code(),
            ErrorCode::kInvalidArgument);
  const int two[] = {1, 2};
  const Status ints = renderer.setShaderUniformInts("paint", two);
  EXPECT_EQ(ints.code(), ErrorCode::kInvalidArgument);
  const Status not_sampler = renderer.setShaderTexture("paint", 0);
  EXPECT_NE(not_sampler.message().find("not a sampler2D"), std::string::npos)
      << not_sampler.message();
  const Status no_sampler = renderer.setShaderTexture("map", 0);
  EXPECT_NE(no_sampler.message().find("has no active sampler 'map'"), std::string::npos)
      << no_sampler.message();

  // Agents in a row, their indices 10 + 7 i given by the frame, their states i % 6.
  std::vector<Placement> placements(kShadingAgents);
  std::vector<AgentPlayback> playback(kShadingAgents);
  std::vector<AgentState> states(kShadingAgents);
  std::vector<uint32_t> ids(kShadingAgents);
  for (uint32_t i = 0; i < kShadingAgents; ++i) {
    placements[i].position = glm::vec3(1.6f * (static_cast<float>(i) - 2.5f), 0.0f, 0.0f);
    playback[i].time = 0.1f * static_cast<float>(i);
    states[i] = static_cast<AgentState>(i % 6);
    ids[i] = 10 + 7 * i;
  }
  CrowdFrame frame;
  frame.placements = placements;
  frame.playback = playback;
  frame.states = states;
  frame.agent_ids = ids;
  const FrameView view = lookAtView(glm::vec3(0.0f, 1.5f, 9.0f), glm::vec3(0.0f, 1.0f, 0.0f),
                                    glm::radians(50.0f), 1.0f, 0.1f, 50.0f);
  device_->beginFrame(kShadingClear);
  ASSERT_TRUE(renderer.draw(view, frame).ok()) << renderer.status().toString();
  device_->finish();
  Result<Image> image = device_->readPixels();
  ASSERT_TRUE(image.ok());

  // Every covered pixel: red the uniform's, green one agent's index, blue that agent's state.
  std::set<uint32_t> seen;
  int covered = 0, wrong = 0;
  for (size_t p = 0; p < image->rgba.size(); p += 4) {
    const uint8_t* px = &image->rgba[p];
    if (px[0] == 0 && px[1] == 0 && px[2] == 0) continue;
    ++covered;
    bool found = false;
    for (uint32_t i = 0; i < kShadingAgents; ++i) {
      if (std::abs(px[1] - encoded(ids[i] / 64.0)) > 1) continue;
      found = std::abs(px[0] - encoded(0.25)) <= 1 &&
              std::abs(px[2] - encoded(static_cast<double>(states[i]) / 8.0)) <= 1;
      if (found) seen.insert(i);
      break;
    }
    wrong += found ? 0 : 1;
  }
  EXPECT_GT(covered, 200);
  EXPECT_EQ(wrong, 0) << "of " << covered << " covered pixels";
  EXPECT_EQ(seen.size(), kShadingAgents);
}

TEST_P(ShadingPaths, ABrokenFileFailsTheRendererNamingItsLine) {
  const Package package = test::bakeForTest(test::makeChainCharacter(), 24.0f);
  CrowdRenderer renderer(*device_, package, desc("shaders/broken.glsl", kBrokenShader));
  ASSERT_FALSE(renderer.ok());
  EXPECT_EQ(renderer.status().code(), ErrorCode::kInvalidArgument);
  const std::string& message = renderer.status().message();
  EXPECT_NE(message.find("shaders/broken.glsl:3"), std::string::npos) << message;
  EXPECT_NE(message.find("undefined_thing"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(Paths, ShadingPaths, ::testing::ValuesIn(test::kEveryPath),
                         test::pathParamName);

TEST(Shading, AVersionLineAndAnUnreadableFileAreRefused) {
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const Package package = test::bakeForTest(test::makeChainCharacter(), 24.0f);
  CrowdRendererDesc d;
  d.shader = shader("v.glsl",
                    "#version 300 es\nvec4 throngShade(ThrongSurface s) { return "
                    "vec4(1.0); }\n");
  CrowdRenderer renderer(*device, package, d);
  EXPECT_EQ(renderer.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(renderer.status().message().find("v.glsl:1"), std::string::npos)
      << renderer.status().message();
  EXPECT_EQ(readShaderFile("/nonexistent/toon.glsl").status().code(), ErrorCode::kIoError);

  // A file without throngShade compiles alone but fails where throng calls it.
  d.shader = shader("none.glsl", "vec4 otherShade(ThrongSurface s) { return vec4(1.0); }\n");
  CrowdRenderer uncalled(*device, package, d);
  EXPECT_EQ(uncalled.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(uncalled.status().message().find("none.glsl: the fragment stage fails where throng "
                                             "calls the file"),
            std::string::npos)
      << uncalled.status().message();

  // Empty and oversized files are refused as they are read.
  const auto dir = test::makeTempDir("shading-files");
  const std::string empty = (dir / "empty.glsl").string();
  const std::string huge = (dir / "huge.glsl").string();
  test::writeFile(empty, "");
  test::writeFile(huge, std::string(kMaxShaderBytes + 1, ' '));
  Result<ShaderSource> read_empty = readShaderFile(empty);
  ASSERT_FALSE(read_empty.ok());
  EXPECT_EQ(read_empty.status().message(), empty + ": the shading file is empty");
  Result<ShaderSource> read_huge = readShaderFile(huge);
  ASSERT_FALSE(read_huge.ok());
  EXPECT_NE(read_huge.status().message().find("bytes of GLSL"), std::string::npos)
      << read_huge.status().message();
}

}  // namespace
}  // namespace throng::render
