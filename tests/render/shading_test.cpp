// The user shader contract on every path: the file's uniforms and the surface's agent and state
// reach throngShade; a broken file fails the renderer naming the file and its line; the file's
// samplers get the texture units the path leaves free, and one more is a clear error.
#include "throng/render/shading.h"

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <GLES3/gl3.h>
#include <gtest/gtest.h>

#include "render/pbr_reference.h"
#include "render/test_hooks.h"
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

// ---- samplers: the units a path leaves to the file ----

// docs/shaders.md: "a sampler beyond the free texture units (2 on the merged paths, 6 on the
// others) is kLimitExceeded" (the merged paths: merged and per-character).
int documentedFreeUnits(RenderPath path) {
  return path == RenderPath::kMerged || path == RenderPath::kPerCharacter ? 2 : 6;
}

// A file of `count` samplers map0.., the one `pick` names shown unlit at uv (0.5, 0.5).
std::string samplersShader(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "uniform sampler2D map" + std::to_string(i) + ";\n";
  text += "uniform float pick;\nvec4 throngShade(ThrongSurface s) {\n  vec4 c = vec4(0.0);\n";
  for (int i = 0; i < count; ++i) {
    text += "  if (pick > " + std::to_string(i) + ".5 - 1.0 && pick < " + std::to_string(i) +
            ".5) c = throngTexture(map" + std::to_string(i) + ", vec2(0.5));\n";
  }
  return text + "  return vec4(c.rgb, 1.0);\n}\n";
}

// Sampler i's 1x1 texture: a colour of its own (RGBA8, read as linear by the file).
glm::u8vec4 samplerTexel(int i) {
  return {static_cast<uint8_t>(40 + 25 * i), static_cast<uint8_t>(220 - 20 * i),
          static_cast<uint8_t>(i % 2 ? 200 : 70), 255};
}

using SamplerCase = test::PathOnEs;

class SamplerUnits : public ::testing::TestWithParam<SamplerCase> {
 protected:
  void SetUp() override {
    device_ = makeDevice();
    ASSERT_NE(device_, nullptr);
    if (GetParam().path == RenderPath::kGpu) {
      THRONG_REQUIRE(device_->caps().compute, "no ES 3.1 compute on " + device_->caps().version);
    }
  }
  // A device for the case (ES 3.1 for the gpu path) with `hooks`' caps and faults where given.
  std::unique_ptr<Device> makeDevice(const DeviceTestHooks* hooks = nullptr) {
    DeviceDesc dd;
    dd.width = dd.height = 48;
    dd.gles_major = GetParam().gles_major;
    if (GetParam().path == RenderPath::kGpu) dd.gles_minor = 1;
    dd.test_hooks = hooks;
    return test::makeTestDevice(dd);
  }
  // The path's renderer with the shadow map (its unit in use) and a file of `samplers` samplers.
  CrowdRendererDesc desc(int samplers) {
    CrowdRendererDesc d;
    d.path = GetParam().path;
    d.fixed_lod = 0;
    d.shadows = ShadowMode::kMap;
    d.shadow_map_size = 128;
    text_ = samplersShader(samplers);
    d.shader = shader("samplers.glsl", text_.c_str());
    return d;
  }
  std::unique_ptr<Device> device_;
  const Package package_ = test::bakeForTest(test::makeChainCharacter(), 24.0f);
  std::string text_;
};

// As many samplers as the path leaves free: each binds and reads its own texture while the
// crowd's material textures and shadow map are in use.
TEST_P(SamplerUnits, EachFreeUnitReadsItsOwnTexture) {
  const RenderPath path = GetParam().path;
  const int free_units = documentedFreeUnits(path);
  CrowdRenderer renderer(*device_, package_, desc(free_units));
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.path(), path);
  Device* device = device_.get();

  std::vector<GLuint> textures(free_units);
  glGenTextures(static_cast<GLsizei>(textures.size()), textures.data());
  for (size_t i = 0; i < textures.size(); ++i) {
    const glm::u8vec4 texel = samplerTexel(static_cast<int>(i));
    glBindTexture(GL_TEXTURE_2D, textures[i]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, &texel[0]);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  for (int i = 0; i < free_units; ++i) {
    const std::string name = "map" + std::to_string(i);
    const Status set = renderer.setShaderTexture(name, textures[i]);
    EXPECT_TRUE(set.ok()) << name << " of " << free_units << " free: " << set.toString();
  }
  // Setting a sampler again re-binds it on its own unit.
  EXPECT_TRUE(renderer.setShaderTexture("map0", textures[0]).ok());

  const Placement placements[] = {Placement{}};
  const AgentPlayback playback[1];
  const FrameView view = lookAtView(glm::vec3(0.0f, 1.0f, 4.0f), glm::vec3(0.0f, 1.0f, 0.0f),
                                    glm::radians(50.0f), 1.0f, 0.1f, 20.0f);
  for (int i = 0; i < free_units; ++i) {
    ASSERT_TRUE(renderer.setShaderUniform("pick", static_cast<float>(i)).ok());
    device->beginFrame(kShadingClear);
    ASSERT_TRUE(renderer.draw(view, CrowdFrame{placements, playback}).ok())
        << renderer.status().toString();
    device->finish();
    Result<Image> image = device->readPixels();
    ASSERT_TRUE(image.ok());
    const glm::u8vec4 texel = samplerTexel(i);
    const glm::ivec3 want = test::encodedColour(glm::dvec3(texel.r, texel.g, texel.b) / 255.0);
    int covered = 0, wrong = 0;
    for (size_t p = 0; p < image->rgba.size(); p += 4) {
      const uint8_t* px = &image->rgba[p];
      if (px[0] == 0 && px[1] == 0 && px[2] == 0) continue;
      ++covered;
      wrong += std::abs(px[0] - want.r) > 1 || std::abs(px[1] - want.g) > 1 ||
               std::abs(px[2] - want.b) > 1;
    }
    EXPECT_GT(covered, 30) << "sampler " << i;
    EXPECT_EQ(wrong, 0) << "sampler " << i << " of " << covered << " covered pixels";
  }
  glDeleteTextures(static_cast<GLsizei>(textures.size()), textures.data());
}

// A file whose throngShade reads more samplers than the path leaves free can never have them all
// bound: the renderer refuses it when made (kLimitExceeded naming the file and the first sampler
// without a unit). Today it is made, and the sampler that finds no unit silently reads unit 0
// (on the instanced and gpu paths the animation texture: the agents show its (1, 0, 0) row; on
// the merged ones nothing: black); on an ES 2.0 device with the 8 fragment units GLSL ES 1.00
// guarantees, the merged program (6 samplers of throng's + 3) would not even link.
TEST_P(SamplerUnits, AFileReadingMoreSamplersThanFreeUnitsIsRefusedWhenMade) {
  const int free_units = documentedFreeUnits(GetParam().path);
  CrowdRenderer renderer(*device_, package_, desc(free_units + 1));
  EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded) << renderer.status().toString();
  const std::string& message = renderer.status().message();
  EXPECT_NE(message.find("samplers.glsl"), std::string::npos) << message;
  EXPECT_NE(message.find("'map" + std::to_string(free_units) + "'"), std::string::npos) << message;
}

// A device with fewer fragment texture units (GL_MAX_TEXTURE_IMAGE_UNITS 8, GLSL ES 1.00's
// minimum, under the merged paths; 12 under the others) leaves a file units 0 and 7 (10 and 11):
// one reading 3 samplers is refused before any program links, which on a real such device fails
// before the linked program could be read (here the link is made to fail: GlFaults::program_link),
// with the same kLimitExceeded message as when the renderer reads the linked program.
TEST_P(SamplerUnits, MoreSamplersThanTheDevicesUnitsLeaveAreRefusedBeforeLinking) {
  const RenderPath path = GetParam().path;
  const bool merged = documentedFreeUnits(path) == 2;
  DeviceTestHooks hooks;
  hooks.caps.max_texture_image_units = merged ? 8 : 12;
  hooks.faults.program_link = true;
  std::unique_ptr<Device> device = makeDevice(&hooks);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->caps().max_texture_image_units, merged ? 8 : 12);
  constexpr int kFreeUnits = 2;
  CrowdRenderer renderer(*device, package_, desc(kFreeUnits + 1));
  EXPECT_EQ(renderer.status().code(), ErrorCode::kLimitExceeded) << renderer.status().toString();
  const std::string& message = renderer.status().message();
  EXPECT_NE(message.find("shader 'samplers.glsl' reads 3 samplers ('map0', 'map1', 'map2'); this "
                         "path leaves 2 texture units free"),
            std::string::npos)
      << message;
}

// The count before linking reads the file's active lines: samplers in a branch the stage does not
// compile (#if 0, #ifdef THRONG_VERTEX in the fragment stage of a file without a vertex hook) are
// not counted, so a file of 2 live samplers is made on the same devices.
TEST_P(SamplerUnits, SamplersInInactiveBranchesAreNotCounted) {
  const RenderPath path = GetParam().path;
  const bool merged = documentedFreeUnits(path) == 2;
  DeviceTestHooks hooks;
  hooks.caps.max_texture_image_units = merged ? 8 : 12;
  std::unique_ptr<Device> device = makeDevice(&hooks);
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc d = desc(0);
  // Each declaration spans its branches, so a count of the raw text would find 5 or more.
  const std::string text =
      "uniform sampler2D\n#if 0\n  off0, off1,\n#endif\n  live0;\n"
      "uniform sampler2D\n#ifdef THRONG_VERTEX\n  off2,\n#endif\n  live1; /* off3, */\n"
      "vec4 throngShade(ThrongSurface s) {\n"
      "  return vec4(throngTexture(live0, vec2(0.5)).rgb + throngTexture(live1, vec2(0.5)).rgb, "
      "1.0);\n}\n";
  d.shader = shader("branches.glsl", text.c_str());
  CrowdRenderer renderer(*device, package_, d);
  EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
}

INSTANTIATE_TEST_SUITE_P(Paths, SamplerUnits,
                         ::testing::Values(SamplerCase{RenderPath::kMerged, 2},
                                           SamplerCase{RenderPath::kInstanced, 3},
                                           SamplerCase{RenderPath::kPerCharacter, 3},
                                           SamplerCase{RenderPath::kGpu, 3}),
                         test::pathOnEsParamName);

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
