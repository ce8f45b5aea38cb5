// Shadows where a CPU ray cast says: one agent under a known light, the ground's pixels inside
// and outside the shadow the test predicts by casting rays from the ground towards the light
// through the CPU-skinned mesh (shadow map, every path), and the blob shadow's disc under the
// agent where blobs are drawn. None of the library's shading code computes the expectations.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/cpu_reference.h"
#include "render/ground_reference.h"
#include "render/world_mesh.h"
#include "render_test_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace shadow_test {

constexpr int kSize = 96;
const glm::vec4 kClear(0.1f, 0.1f, 0.4f, 1.0f);
// 8-bit rounding and the GPU's float arithmetic, per channel of the ground's colour.
constexpr int kTolerance = 3;
// World units around a ground point that must all be lit, or all shadowed, for its pixel to be
// checked: the PCF filter (1.5 texels of a 512 map fitted to the view up to kShadowDistance), the
// map's normal offset and depth bias, and the pixel's own footprint on the ground (~0.1 units).
constexpr double kShadowMargin = 0.2;
constexpr int kShadowMapSize = 512;
constexpr float kShadowDistance = 14.0f;
constexpr int kFrame = 6;  // a whole baked frame of the bend

struct Scene {
  Character character = test::makeChainCharacter();
  Package package;
  Placement placement{glm::vec3(0.3f, 0.0f, -0.2f), 0.5f, 1.0f};
  FrameView view =
      lookAtView(glm::vec3(0.5f, 5.0f, 5.5f), glm::vec3(1.6f, 0.0f, 0.4f), 0.9f, 1.0f, 0.5f, 40.0f);
  test::WorldMesh mesh;

  Scene() {
    // The chain's tube, four times as wide: a shadow many pixels across.
    for (glm::vec3& p : character.mesh.positions) p *= glm::vec3(4.0f, 1.0f, 4.0f);
    package = test::bakeForTest(character, 12.0f);
    // Light travelling to +x and +z, down: the shadow falls to the agent's right, towards the eye.
    view.light_direction = glm::normalize(glm::vec3(1.0f, -0.8f, 0.4f));
    const float time = static_cast<float>(kFrame) / package.clips[0].fps;
    const std::vector<JointRows> palette =
        test::referencePalette(package.skeleton, &character.clips[0], time, placement.position,
                               placement.heading, placement.scale);
    mesh = test::skinToWorld(package.lods[0].mesh, palette);
  }
  float time() const { return static_cast<float>(kFrame) / package.clips[0].fps; }
};

const Scene& scene() {
  static const Scene s;
  return s;
}

GroundDesc plainGround() {
  GroundDesc g;
  g.grid = true;
  g.line_strength = 0.0f;  // a plain plane: every ground pixel one colour before shadows
  g.extent = 30.0f;
  g.shadow_radius = 1.1f;
  g.shadow_opacity = 0.6f;
  return g;
}

// How each pixel of the frame is classified by the CPU.
enum class Ground : uint8_t { kNone, kLit, kShadowed, kEdge };
struct GroundPixel {
  Ground kind = Ground::kNone;
  glm::dvec3 point{0.0};  // where the pixel's ray meets the ground
};

// The agent's shadow on the ground, exactly: the triangles that face the light (the depth pass
// culls back faces of single-sided materials, docs/shaders.md) projected along the light onto
// the ground plane y = 0. A ground point is in shadow exactly when it lies in one of them.
struct GroundTriangle {
  glm::dvec2 p[3];  // world (x, z)
};

std::vector<GroundTriangle> shadowTriangles(const glm::dvec3& light_direction) {
  const test::WorldMesh& m = scene().mesh;
  const glm::dvec3 l = glm::normalize(light_direction);
  std::vector<GroundTriangle> out;
  for (size_t t = 0; t + 2 < m.mesh->indices.size(); t += 3) {
    glm::dvec3 c[3];
    for (int k = 0; k < 3; ++k) c[k] = m.positions[m.mesh->indices[t + k]];
    if (glm::dot(glm::cross(c[1] - c[0], c[2] - c[0]), -l) <= 0.0) continue;  // back face
    GroundTriangle g;
    for (int k = 0; k < 3; ++k) {
      const glm::dvec3 q = c[k] + (-c[k].y / l.y) * l;
      g.p[k] = {q.x, q.z};
    }
    out.push_back(g);
  }
  return out;
}

double cross2(const glm::dvec2& a, const glm::dvec2& b) {
  return a.x * b.y - a.y * b.x;
}

bool inside(const GroundTriangle& t, const glm::dvec2& q) {
  const double d0 = cross2(t.p[1] - t.p[0], q - t.p[0]), d1 = cross2(t.p[2] - t.p[1], q - t.p[1]),
               d2 = cross2(t.p[0] - t.p[2], q - t.p[2]);
  return (d0 >= 0 && d1 >= 0 && d2 >= 0) || (d0 <= 0 && d1 <= 0 && d2 <= 0);
}

// Distance from q to triangle t (0 inside).
double distanceTo(const GroundTriangle& t, const glm::dvec2& q) {
  if (inside(t, q)) return 0.0;
  double best = 1e30;
  for (int k = 0; k < 3; ++k) {
    const glm::dvec2 a = t.p[k], b = t.p[(k + 1) % 3];
    const double len2 = glm::dot(b - a, b - a);
    const double s = len2 > 0.0 ? std::clamp(glm::dot(q - a, b - a) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, glm::length(q - (a + s * (b - a))));
  }
  return best;
}

std::vector<GroundPixel> classifyGround(const glm::vec3& light_direction) {
  const Scene& s = scene();
  const std::vector<GroundTriangle> shadow = shadowTriangles(glm::dvec3(light_direction));
  const test::WorldMesh meshes[] = {s.mesh};
  std::vector<GroundPixel> out(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      // Pixels that show the agent (or next to it) are not ground.
      bool agent = false;
      for (int dy = -1; dy <= 1 && !agent; ++dy) {
        for (int dx = -1; dx <= 1 && !agent; ++dx) {
          const test::PixelRay r =
              test::pixelRay(s.view.view_projection, x + dx, y + dy, kSize, kSize);
          agent = test::castRay(meshes, r.origin, r.direction, true).has_value();
        }
      }
      const test::PixelRay ray = test::pixelRay(s.view.view_projection, x, y, kSize, kSize);
      if (agent || ray.direction.y >= 0.0) continue;
      GroundPixel& g = out[y * kSize + x];
      g.point = ray.origin + (-ray.origin.y / ray.direction.y) * ray.direction;
      const glm::dvec2 q(g.point.x, g.point.z);
      // Lit: no shadow within the margin. Shadowed: every point of a fine grid over the margin's
      // disc lies in the shadow. Anything else is an edge.
      double nearest = 1e30;
      for (const GroundTriangle& t : shadow) nearest = std::min(nearest, distanceTo(t, q));
      if (nearest > kShadowMargin) {
        g.kind = Ground::kLit;
        continue;
      }
      bool covered = true;
      constexpr int kSteps = 8;
      for (int i = -kSteps; i <= kSteps && covered; ++i) {
        for (int j = -kSteps; j <= kSteps && covered; ++j) {
          const glm::dvec2 d = glm::dvec2(i, j) * (kShadowMargin / kSteps);
          if (glm::length(d) > kShadowMargin) continue;
          covered = std::any_of(shadow.begin(), shadow.end(),
                                [&](const GroundTriangle& t) { return inside(t, q + d); });
        }
      }
      g.kind = covered ? Ground::kShadowed : Ground::kEdge;
    }
  }
  return out;
}

// The case's device (a real ES 2.0 context for gles_major 2; ES 3.1 with compute for gpu).
void makeDevice(RenderPath path, int gles_major, std::unique_ptr<Device>& device) {
  DeviceDesc desc;
  desc.width = desc.height = kSize;
  desc.gles_major = gles_major;
  if (path == RenderPath::kGpu) desc.gles_minor = 1;
  device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  if (path == RenderPath::kGpu) {
    THRONG_REQUIRE(device->caps().compute, "no ES 3.1 compute on " + device->caps().version);
  }
}

Image drawFrame(Device& device, CrowdRenderer& renderer) {
  const Scene& s = scene();
  const Placement placements[] = {s.placement};
  AgentPlayback playback[1];
  playback[0].time = s.time();
  device.beginFrame(kClear);
  const Status drawn = renderer.draw(s.view, CrowdFrame{placements, playback});
  EXPECT_TRUE(drawn.ok()) << drawn.toString();
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok());
  return image.ok() ? std::move(image).value() : Image{};
}

int channelDifference(const uint8_t* a, const glm::dvec3& b) {
  int worst = 0;
  for (int c = 0; c < 3; ++c)
    worst = std::max(worst, std::abs(a[c] - static_cast<int>(std::lround(b[c]))));
  return worst;
}

using PathCase = test::PathOnEs;

class Shadows : public ::testing::TestWithParam<PathCase> {};

// The shadow map: ground pixels the CPU says are shadowed show the ground without the direct
// light (test::groundColour), lit ones the unshadowed frame's colour.
TEST_P(Shadows, TheMapShadowsTheGroundWhereARayToTheLightMeetsTheAgent) {
  std::unique_ptr<Device> device;
  makeDevice(GetParam().path, GetParam().gles_major, device);
  if (HasFatalFailure() || IsSkipped()) return;
  const Scene& s = scene();
  CrowdRendererDesc rd;
  rd.path = GetParam().path;
  rd.fixed_lod = 0;
  rd.ground = plainGround();
  rd.shadows = ShadowMode::kMap;
  rd.shadow_map_size = kShadowMapSize;
  rd.shadow_distance = kShadowDistance;
  CrowdRenderer renderer(*device, s.package, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.shadows(), ShadowMode::kMap) << renderer.shadowReason();
  const Image mapped = drawFrame(*device, renderer);
  renderer.setShadows(ShadowMode::kOff);
  const Image bare = drawFrame(*device, renderer);

  // The ground in the shadow keeps the share shadowed / lit of its unshadowed colour.
  const glm::vec3 kept = test::groundColour(s.view, rd.ground.color, 0.0f) /
                         test::groundColour(s.view, rd.ground.color, 1.0f);
  const std::vector<GroundPixel> ground = classifyGround(s.view.light_direction);
  int lit = 0, shadowed = 0, lit_bad = 0, shadowed_bad = 0, lit_worst = 0, shadowed_worst = 0;
  for (size_t p = 0; p < ground.size(); ++p) {
    const uint8_t* got = &mapped.rgba[p * 4];
    const uint8_t* off = &bare.rgba[p * 4];
    if (ground[p].kind == Ground::kLit) {
      const int d = channelDifference(got, glm::dvec3(off[0], off[1], off[2]));
      ++lit;
      lit_bad += d > kTolerance;
      lit_worst = std::max(lit_worst, d);
    } else if (ground[p].kind == Ground::kShadowed) {
      glm::dvec3 want;
      for (int c = 0; c < 3; ++c) want[c] = off[c] * kept[c];
      const int d = channelDifference(got, want);
      ++shadowed;
      shadowed_bad += d > kTolerance;
      shadowed_worst = std::max(shadowed_worst, d);
    }
  }
  std::printf("  %d lit pixels (worst %d), %d shadowed (worst %d)\n", lit, lit_worst, shadowed,
              shadowed_worst);
  EXPECT_GT(lit, 1500);
  EXPECT_GT(shadowed, 60);
  EXPECT_EQ(lit_bad, 0) << "lit ground pixels off the unshadowed frame by more than " << kTolerance;
  EXPECT_EQ(shadowed_bad, 0) << "shadowed ground pixels off the ambient-only colour by more than "
                             << kTolerance;
}

// Blob shadows: a disc under the agent of GroundDesc::shadow_radius x scale, keeping
// test::blobShadowKept of the ground's colour r radii from the agent's position (the gpu path
// draws it from its compute pass's lists).
TEST_P(Shadows, ABlobDarkensADiscUnderTheAgent) {
  std::unique_ptr<Device> device;
  makeDevice(GetParam().path, GetParam().gles_major, device);
  if (HasFatalFailure() || IsSkipped()) return;
  const Scene& s = scene();
  CrowdRendererDesc rd;
  rd.path = GetParam().path;
  rd.fixed_lod = 0;
  rd.ground = plainGround();
  rd.shadows = ShadowMode::kBlob;
  CrowdRenderer renderer(*device, s.package, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.shadows(), ShadowMode::kBlob) << renderer.shadowReason();
  const Image blob = drawFrame(*device, renderer);
  renderer.setShadows(ShadowMode::kOff);
  const Image bare = drawFrame(*device, renderer);
  const std::vector<GroundPixel> ground = classifyGround(s.view.light_direction);
  const double radius = rd.ground.shadow_radius * s.placement.scale;
  int inside = 0, outside = 0, bad = 0, worst = 0;
  for (size_t p = 0; p < ground.size(); ++p) {
    if (ground[p].kind == Ground::kNone) continue;
    const double r = glm::length(glm::dvec2(ground[p].point.x - s.placement.position.x,
                                            ground[p].point.z - s.placement.position.z)) /
                     radius;
    // The pixel's footprint (~0.1 units) straddles the disc's rim: not checked.
    if (std::abs(r - 1.0) < 0.15) continue;
    const uint8_t* off = &bare.rgba[p * 4];
    const glm::dvec3 want =
        glm::dvec3(off[0], off[1], off[2]) *
        static_cast<double>(test::blobShadowKept(static_cast<float>(r), rd.ground.shadow_opacity));
    const int d = channelDifference(&blob.rgba[p * 4], want);
    (r < 1.0 ? inside : outside) += 1;
    bad += d > kTolerance;
    worst = std::max(worst, d);
  }
  std::printf("  %d pixels inside the disc, %d outside, worst %d\n", inside, outside, worst);
  EXPECT_GT(inside, 60);
  EXPECT_GT(outside, 1500);
  EXPECT_EQ(bad, 0) << "ground pixels off the blob's formula by more than " << kTolerance;
}

INSTANTIATE_TEST_SUITE_P(Paths, Shadows,
                         ::testing::Values(PathCase{RenderPath::kMerged, 2},
                                           PathCase{RenderPath::kInstanced, 3},
                                           PathCase{RenderPath::kPerCharacter, 3},
                                           PathCase{RenderPath::kGpu, 3}),
                         test::pathOnEsParamName);

}  // namespace shadow_test
}  // namespace throng::render
