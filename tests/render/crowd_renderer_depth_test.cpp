// CrowdRenderer::drawDepth on every path: the depth it writes for a light's orthographic view,
// read back through its packed RGBA8 colour, against a CPU depth raster of the CPU-skinned mesh.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/gl_check.h"
#include "render_test_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/batch_palette.h"
#include "throng/crowd/playback.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

constexpr int kMapSize = 96;
constexpr float kDepthTolerance = 2e-3f;       // of the 0..1 window depth (20 world units deep)
constexpr double kMaxCoverageMismatch = 0.01;  // edge pixels rasterisation keeps or drops

struct Scene {
  Character character = test::makeChainCharacter();
  Package package = test::bakeForTest(character, 24.0f);
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  FrameView light;

  Scene() {
    for (int i = 0; i < 2; ++i) {
      Placement p;
      p.position = glm::vec3(0.9f * (static_cast<float>(i) - 0.5f), 0.0f, -0.4f * i);
      p.heading = 0.7f * static_cast<float>(i);
      placements.push_back(p);
      AgentPlayback a;
      a.time = static_cast<float>(3 + 5 * i) / package.clips[0].fps;  // whole baked frames
      playback.push_back(a);
    }
    // A light from the front, above and to the side, looking at the pair: orthographic.
    const glm::vec3 eye(3.0f, 4.0f, 8.0f);
    const glm::mat4 look = glm::lookAt(eye, glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0, 1, 0));
    light.view_projection = glm::ortho(-2.0f, 2.0f, -2.0f, 2.0f, 1.0f, 21.0f) * look;
    light.eye = eye;
    light.fov_y = 0.0f;
    light.viewport_height = kMapSize;
  }
  CrowdFrame frame() const { return {placements, playback}; }
};

// Window depth (0..1) per pixel of the skinned agents, nearest surface; > 1 where nothing is.
// `displace` (optional) moves each skinned world position, as a user's vertex hook does.
std::vector<float> cpuDepth(const Scene& s,
                            const std::function<glm::vec3(const glm::vec3&)>& displace = {}) {
  std::vector<float> depth(kMapSize * kMapSize, 2.0f);
  const SkinnedMesh& mesh = s.package.lods[0].mesh;
  std::vector<glm::vec3> positions(mesh.vertexCount()), normals(mesh.vertexCount());
  std::vector<glm::vec3> window(mesh.vertexCount());
  PoseScratch pose;
  for (size_t a = 0; a < s.placements.size(); ++a) {
    std::vector<JointRows> palette(s.character.skeleton.jointCount());
    const Clip& clip = s.character.clips[0];
    treePalette(s.character.skeleton, &clip, clipTime(clip, s.playback[a].time, true),
                placementMatrix(s.placements[a]), {}, pose, palette);
    EXPECT_TRUE((SkinJob{mesh.positions, mesh.normals, mesh.joints, mesh.weights, palette,
                         positions, normals}
                     .run()));
    for (size_t v = 0; v < positions.size(); ++v) {
      if (displace) positions[v] = displace(positions[v]);
      const glm::vec4 clip_pos = s.light.view_projection * glm::vec4(positions[v], 1.0f);
      const glm::vec3 ndc = glm::vec3(clip_pos) / clip_pos.w;
      window[v] = glm::vec3((ndc.x + 1.0f) * 0.5f * kMapSize, (ndc.y + 1.0f) * 0.5f * kMapSize,
                            (ndc.z + 1.0f) * 0.5f);
    }
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      const glm::vec3 p0 = window[mesh.indices[t]], p1 = window[mesh.indices[t + 1]],
                      p2 = window[mesh.indices[t + 2]];
      const float area = (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y);
      // Back faces (clockwise in the window) are culled: the material is single-sided.
      if (area <= 0.0f) continue;
      const int x0 = std::max(0, static_cast<int>(std::min({p0.x, p1.x, p2.x})));
      const int x1 = std::min(kMapSize - 1, static_cast<int>(std::max({p0.x, p1.x, p2.x})));
      const int y0 = std::max(0, static_cast<int>(std::min({p0.y, p1.y, p2.y})));
      const int y1 = std::min(kMapSize - 1, static_cast<int>(std::max({p0.y, p1.y, p2.y})));
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
          const glm::vec2 c(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
          const float w0 = ((p1.x - c.x) * (p2.y - c.y) - (p2.x - c.x) * (p1.y - c.y)) / area;
          const float w1 = ((p2.x - c.x) * (p0.y - c.y) - (p0.x - c.x) * (p2.y - c.y)) / area;
          const float w2 = 1.0f - w0 - w1;
          if (w0 < 0.0f || w1 < 0.0f || w2 < 0.0f) continue;
          float& d = depth[static_cast<size_t>(y) * kMapSize + x];
          d = std::min(d, w0 * p0.z + w1 * p1.z + w2 * p2.z);
        }
      }
    }
  }
  return depth;
}

struct DepthComparison {
  int both = 0;        // pixels both rasters cover
  int mismatched = 0;  // pixels one covers and the other does not
  int far = 0;         // covered by both, depths beyond kDepthTolerance apart
  float worst = 0.0f;
};

// The packed depth the renderer wrote (RGBA8, docs/shaders.md) against `expected`.
DepthComparison compareDepth(const std::vector<uint8_t>& rgba, const std::vector<float>& expected) {
  DepthComparison d;
  for (size_t p = 0; p < expected.size(); ++p) {
    // docs/shaders.md: z = dot(rgba, (1, 1/255, 1/255^2, 1/255^3)), channels 0..1.
    const uint8_t* c = &rgba[p * 4];
    const float z = c[0] / 255.0f + c[1] / 65025.0f + c[2] / 16581375.0f + c[3] / 4228250625.0f;
    const bool gpu_covered = !(c[0] == 255 && c[1] == 255 && c[2] == 255 && c[3] == 255);
    const bool cpu_covered = expected[p] <= 1.0f;
    if (gpu_covered != cpu_covered) {
      ++d.mismatched;
      continue;
    }
    if (!gpu_covered) continue;
    ++d.both;
    d.worst = std::max(d.worst, std::abs(z - expected[p]));
    d.far += std::abs(z - expected[p]) > kDepthTolerance ? 1 : 0;
  }
  std::printf("  %d pixels covered by both, %d by one only, worst depth difference %.2e\n", d.both,
              d.mismatched, static_cast<double>(d.worst));
  return d;
}

class DepthPaths : public ::testing::TestWithParam<RenderPath> {
 protected:
  void SetUp() override {
    DeviceDesc desc;
    desc.width = desc.height = 64;
    desc.gles_major = 3;
    if (GetParam() == RenderPath::kGpu) desc.gles_minor = 1;
    device_ = test::makeTestDevice(desc);
    ASSERT_NE(device_, nullptr);
    if (GetParam() == RenderPath::kGpu) {
      THRONG_REQUIRE(device_->caps().compute, "no ES 3.1 compute on " + device_->caps().version);
    }
  }

  // drawDepth into a kMapSize RGBA8 + depth target of the test's own; the colour read back.
  std::vector<uint8_t> drawDepth(CrowdRenderer& renderer, const Scene& scene) {
    // The caller's target: RGBA8 colour (the packed depth) and a depth buffer.
    GLuint color = 0, depth = 0, framebuffer = 0;
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kMapSize, kMapSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, kMapSize, kMapSize);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    EXPECT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum{GL_FRAMEBUFFER_COMPLETE});
    glViewport(0, 0, kMapSize, kMapSize);
    glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    glClearDepthf(1.0f);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const Status drawn = renderer.drawDepth(scene.light, scene.frame());
    EXPECT_TRUE(drawn.ok()) << drawn.toString();
    EXPECT_GT(renderer.stats().shadow_draw_calls, 0u);
    std::vector<uint8_t> rgba(static_cast<size_t>(kMapSize) * kMapSize * 4);
    glReadPixels(0, 0, kMapSize, kMapSize, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteRenderbuffers(1, &depth);
    glDeleteTextures(1, &color);
    return rgba;
  }

  std::unique_ptr<Device> device_;
};

TEST_P(DepthPaths, DrawDepthMatchesACpuRasterOfTheSkinnedMesh) {
  const Scene scene;
  CrowdRendererDesc rd;
  rd.path = GetParam();
  rd.fixed_lod = 0;
  CrowdRenderer renderer(*device_, scene.package, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const DepthComparison d = compareDepth(drawDepth(renderer, scene), cpuDepth(scene));
  EXPECT_GT(d.both, 150);
  EXPECT_LE(d.mismatched, kMaxCoverageMismatch * d.both);
  EXPECT_LE(d.far, d.both / 100) << "pixels beyond " << kDepthTolerance;
}

// A user file's vertex hook (docs/shaders.md, "The vertex hook") moves the skinned vertex in the
// depth pass too: a shear along x by the world height and a lift by the agent's index, against
// the CPU raster of the mesh moved the same way (and not the unmoved one).
const char* const kShearShader = R"(void throngVertex(inout ThrongVertex v) {
  v.position.x += 0.35 * v.position.y;
  v.position.y += 0.25 * v.agent;
}
vec4 throngShade(ThrongSurface s) {
  return s.base_color;
}
)";

TEST_P(DepthPaths, DrawDepthAppliesTheUserVertexHook) {
  const Scene scene;
  CrowdRendererDesc rd;
  rd.path = GetParam();
  rd.fixed_lod = 0;
  rd.shader = std::make_shared<const ShaderSource>(ShaderSource{"shear.glsl", kShearShader});
  CrowdRenderer renderer(*device_, scene.package, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const std::vector<uint8_t> rgba = drawDepth(renderer, scene);
  // Agent a's vertices: the hook's shear, then lifted by 0.25 a (the frame's own agent order).
  std::vector<float> expected(rgba.size() / 4, 2.0f);
  for (size_t a = 0; a < scene.placements.size(); ++a) {
    Scene one = scene;
    one.placements = {scene.placements[a]};
    one.playback = {scene.playback[a]};
    const float lift = 0.25f * static_cast<float>(a);
    const std::vector<float> depth = cpuDepth(
        one, [lift](const glm::vec3& p) { return glm::vec3(p.x + 0.35f * p.y, p.y + lift, p.z); });
    for (size_t p = 0; p < expected.size(); ++p) expected[p] = std::min(expected[p], depth[p]);
  }
  const DepthComparison d = compareDepth(rgba, expected);
  EXPECT_GT(d.both, 150);
  EXPECT_LE(d.mismatched, kMaxCoverageMismatch * d.both);
  EXPECT_LE(d.far, d.both / 100) << "pixels beyond " << kDepthTolerance;
  // Without the hook's move the rasters disagree: the test sees the displacement.
  const DepthComparison unmoved = compareDepth(rgba, cpuDepth(scene));
  EXPECT_GT(unmoved.mismatched + unmoved.far, d.both / 4);
}

INSTANTIATE_TEST_SUITE_P(Paths, DepthPaths, ::testing::ValuesIn(test::kEveryPath),
                         test::pathParamName);

}  // namespace
}  // namespace throng::render
