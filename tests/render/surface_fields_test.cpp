// Every ThrongSurface field a user shader reads (docs/shaders.md, "The contract"), written as
// colour and checked at chosen pixels on every path against a CPU reference of the test's own: the
// package's LOD mesh skinned on the CPU by palettes from the core's pose jobs, a ray cast through
// each pixel's centre, and the hit triangle's vertex values interpolated there.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/cpu_reference.h"
#include "render/pbr_reference.h"
#include "render/world_mesh.h"
#include "render_test_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

constexpr int kSize = 112;
const glm::vec4 kClear(0.0f, 0.0f, 0.0f, 1.0f);
// Of a channel's linear 0..1 value, read back through the 8-bit sRGB frame: rounding (under 0.005
// at mid grey), quantised vertex streams and the GPU's float interpolation.
constexpr double kFieldTolerance = 0.02;
// The LOD every agent is drawn with (a copy of LOD 0): the surface's `lod` is not its default 0.
constexpr int kDrawnLod = 1;

// One field (or a few) per frame, chosen by the file's own uniform, mapped into 0..1.
const char* const kSurfaceFieldsShader = R"(uniform float field;
vec4 throngShade(ThrongSurface s) {
  vec3 c = vec3(0.0);
  if (field < 0.5) c = 0.5 + 0.2 * (s.position - vec3(0.0, 1.0, 0.0));
  else if (field < 1.5) c = 0.5 + 0.5 * s.normal;
  else if (field < 2.5) c = 0.5 + 0.5 * s.tangent.xyz;
  else if (field < 3.5) c = vec3(0.5 + 0.5 * s.tangent.w, s.uv0);
  else if (field < 4.5) c = vec3(s.uv1, s.lod / 4.0);
  else if (field < 5.5) c = s.color.rgb;
  else if (field < 6.5) c = vec3(s.color.a, s.base_color.a, s.agent / 16.0);
  else if (field < 7.5) c = s.base_color.rgb;
  else c = vec3(s.state / 8.0, 0.5 + 0.5 * s.view.xy);
  return vec4(c, 1.0);
}
)";
constexpr int kFields = 9;
const char* const kFieldNames[kFields] = {"position",
                                          "normal",
                                          "tangent.xyz",
                                          "tangent.w, uv0",
                                          "uv1, lod",
                                          "color.rgb",
                                          "color.a, base_color.a, agent",
                                          "base_color.rgb",
                                          "state, view.xy"};

// The base colour texture: two texels side by side, nearest (u < 0.5 the first), sRGB-encoded.
constexpr uint8_t kTexels[2][4] = {{230, 150, 90, 255}, {120, 200, 250, 180}};
const glm::vec4 kFactor(0.9f, 0.85f, 0.95f, 1.0f);

// The chain character (three joints bending a square tube), widened, with every vertex stream a
// surface can read: uv0, uv1, colours and tangents (handedness +1 on sides 0-1, -1 on sides 2-3),
// one material: a base colour factor times the two-texel texture (and a white occlusion texture
// reading uv1, so that the set is kept).
Character fieldsCharacter() {
  Character c = test::makeChainCharacter();
  SkinnedMesh& m = c.mesh;
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    const int ring = static_cast<int>(v / 4), side = static_cast<int>(v % 4);
    m.positions[v].x *= 3.0f;
    m.positions[v].z *= 3.0f;
    const float a = static_cast<float>(side) * 1.5707964f;
    m.uvs1.emplace_back(0.2f + 0.15f * static_cast<float>(ring), 0.9f - 0.2f * side);
    m.colors.emplace_back(0.2f + 0.2f * side, 0.3f + 0.15f * ring, 0.8f - 0.15f * ring,
                          0.4f + 0.15f * side);
    m.tangents.emplace_back(std::sin(a), 0.0f, -std::cos(a), side < 2 ? 1.0f : -1.0f);
  }
  m.tangent_source = TangentSource::kFile;
  SourceImage texture;
  texture.name = "two texels";
  texture.pixels.width = 2;
  texture.pixels.height = 1;
  for (const auto& texel : kTexels)
    texture.pixels.rgba.insert(texture.pixels.rgba.end(), texel, texel + 4);
  SourceImage white;
  white.name = "white";
  white.pixels.width = white.pixels.height = 1;
  white.pixels.rgba = {255, 255, 255, 255};
  c.images = {texture, white};
  Material look;
  look.name = "fields";
  look.base_color = kFactor;
  look.metallic_factor = 0.0f;
  look.base_color_texture.image = 0;
  look.base_color_texture.sampler.mag_filter = TextureFilter::kNearest;
  look.base_color_texture.sampler.min_filter = TextureFilter::kNearest;
  look.base_color_texture.sampler.wrap_s = TextureWrap::kClampToEdge;
  look.base_color_texture.sampler.wrap_t = TextureWrap::kClampToEdge;
  look.occlusion_texture.image = 1;
  look.occlusion_texture.uv_set = 1;
  c.materials = {look};
  return c;
}

struct Agent {
  Placement placement;
  int frame = 0;  // a whole baked frame, so that no path blends two
  glm::vec4 tint{1.0f};
  AgentState state = AgentState::kIdle;
  uint32_t id = 0;
};

const std::vector<Agent>& agents() {
  static const std::vector<Agent> list = [] {
    std::vector<Agent> a(3);
    a[0].placement = {glm::vec3(-1.7f, 0.0f, 0.0f), 0.3f, 1.0f};
    a[0].frame = 4;
    a[0].tint = glm::vec4(1.0f, 0.8f, 0.6f, 1.0f);
    a[0].state = AgentState::kWalk;
    a[0].id = 5;
    // Turned about: its sides 2-3 (handedness -1) face the camera.
    a[1].placement = {glm::vec3(0.0f, 0.0f, -0.6f), 3.1f, 1.0f};
    a[1].frame = 9;
    a[1].tint = glm::vec4(0.7f, 1.0f, 0.9f, 0.9f);
    a[1].state = AgentState::kAttack;
    a[1].id = 11;
    a[2].placement = {glm::vec3(1.7f, 0.0f, 0.2f), -0.7f, 0.9f};
    a[2].frame = 0;
    a[2].tint = glm::vec4(0.9f, 0.9f, 1.0f, 0.8f);
    a[2].state = AgentState::kDead;
    a[2].id = 14;
    return a;
  }();
  return list;
}

struct Fixture {
  Character character = fieldsCharacter();
  Package package;
  FrameView view =
      lookAtView(glm::vec3(0.0f, 1.6f, 6.5f), glm::vec3(0.0f, 1.0f, 0.0f), 0.8f, 1.0f, 0.5f, 30.0f);
  std::vector<test::WorldMesh> meshes;  // one per agent

  Fixture() {
    BakeOptions bake;
    bake.threads = 1;
    package = bakeCharacter(character, bake).value();
    package.lods.push_back(package.lods[0]);  // LOD 1: the same mesh
    const MeshLod& lod = package.lods[kDrawnLod];
    for (const Agent& a : agents()) {
      const float time = static_cast<float>(a.frame) / package.clips[0].fps;
      const std::vector<JointRows> palette = test::referencePalette(
          package.skeleton, &character.clips[0], character.clips[0].start_time + time,
          a.placement.position, a.placement.heading, a.placement.scale, lod.palette_joints);
      meshes.push_back(test::skinToWorld(lod.mesh, palette));
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

glm::dvec4 widened(const glm::vec2& v) {
  return {v.x, v.y, 0.0, 0.0};
}
glm::dvec4 widened(const glm::vec4& v) {
  return glm::dvec4(v);
}

// A vertex stream of the hit mesh interpolated at `hit`, as four doubles.
template <class V>
glm::dvec4 interpolated(const test::SurfaceHit& hit, const test::WorldMesh& m,
                        const std::vector<V>& values) {
  const glm::uvec3 c = hit.corners(m);
  return widened(values[c.x]) * hit.weights.x + widened(values[c.y]) * hit.weights.y +
         widened(values[c.z]) * hit.weights.z;
}

// What the shader above writes for `field` at `hit` on agent `a`, from the reference alone.
glm::dvec3 expectedField(int field, const test::SurfaceHit& hit, const test::WorldMesh& m,
                         const Agent& a, const glm::dvec3& eye) {
  const SkinnedMesh& mesh = *m.mesh;
  auto stream = [&](const auto& values) { return interpolated(hit, m, values); };
  const glm::dvec4 color = stream(mesh.colors);
  const glm::dvec4 uv0 = stream(mesh.uvs);
  // base_color: factor x texture (sRGB decoded; texel 0 left of u = 0.5) x vertex colour x tint.
  const uint8_t* texel = kTexels[uv0.x < 0.5 ? 0 : 1];
  const glm::dvec4 decoded(test::srgbToLinear(texel[0] / 255.0),
                           test::srgbToLinear(texel[1] / 255.0),
                           test::srgbToLinear(texel[2] / 255.0), texel[3] / 255.0);
  const glm::dvec4 base = glm::dvec4(kFactor) * decoded * color * glm::dvec4(a.tint);
  switch (field) {
    case 0:
      return 0.5 + 0.2 * (hit.point - glm::dvec3(0.0, 1.0, 0.0));
    case 1:
      return 0.5 + 0.5 * glm::normalize(hit.at(m, m.normals));
    case 2:
      return 0.5 + 0.5 * glm::normalize(glm::dvec3(hit.at(m, m.tangents)));
    case 3:
      return {0.5 + 0.5 * hit.at(m, m.tangents).w, uv0.x, uv0.y};
    case 4: {
      const glm::dvec4 uv1 = stream(mesh.uvs1);
      return {uv1.x, uv1.y, kDrawnLod / 4.0};
    }
    case 5:
      return glm::dvec3(color);
    case 6:
      return {color.a, base.a, a.id / 16.0};
    case 7:
      return glm::dvec3(base);
    default: {
      const glm::dvec3 view = glm::normalize(eye - hit.point);
      return {static_cast<double>(a.state) / 8.0, 0.5 + 0.5 * view.x, 0.5 + 0.5 * view.y};
    }
  }
}

// A pixel worth checking: the ray through its centre and those of its 8 neighbours hit the same
// agent's surface without a jump in depth (no silhouette, where rasterisation may pick either
// side), on a triangle of one handedness, away from the texture's texel boundary (u = 0.5).
struct Chosen {
  int x = 0, y = 0;
  size_t agent = 0;
  test::SurfaceHit hit;
};

std::vector<Chosen> choosePixels(const Fixture& f) {
  std::vector<std::optional<test::SurfaceHit>> hits(kSize * kSize);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const test::PixelRay ray = test::pixelRay(f.view.view_projection, x, y, kSize, kSize);
      hits[y * kSize + x] = test::castRay(f.meshes, ray.origin, ray.direction, true);
    }
  }
  std::vector<Chosen> chosen;
  for (int y = 1; y + 1 < kSize; ++y) {
    for (int x = 1; x + 1 < kSize; ++x) {
      const std::optional<test::SurfaceHit>& h = hits[y * kSize + x];
      if (!h) continue;
      bool smooth = true;
      for (int dy = -1; dy <= 1 && smooth; ++dy) {
        for (int dx = -1; dx <= 1 && smooth; ++dx) {
          const std::optional<test::SurfaceHit>& n = hits[(y + dy) * kSize + x + dx];
          smooth = n && n->mesh == h->mesh && std::abs(n->distance - h->distance) < 0.15;
        }
      }
      if (!smooth) continue;
      const test::WorldMesh& m = f.meshes[h->mesh];
      const glm::uvec3 c = h->corners(m);
      if (m.tangents[c.x].w != m.tangents[c.y].w || m.tangents[c.x].w != m.tangents[c.z].w)
        continue;
      const double u = interpolated(*h, m, m.mesh->uvs).x;
      if (std::abs(u - 0.5) < 0.03) continue;
      chosen.push_back({x, y, h->mesh, *h});
    }
  }
  return chosen;
}

const std::vector<Chosen>& chosenPixels() {
  static const std::vector<Chosen> chosen = choosePixels(fixture());
  return chosen;
}

using PathCase = test::PathOnEs;

class SurfaceFields : public ::testing::TestWithParam<PathCase> {};

TEST_P(SurfaceFields, EveryFieldMatchesTheCpuReferenceAtChosenPixels) {
  DeviceDesc desc;
  desc.width = desc.height = kSize;
  desc.gles_major = GetParam().gles_major;
  if (GetParam().path == RenderPath::kGpu) desc.gles_minor = 1;
  std::unique_ptr<Device> device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  if (GetParam().path == RenderPath::kGpu) {
    THRONG_REQUIRE(device->caps().compute, "no ES 3.1 compute on " + device->caps().version);
  }
  ASSERT_EQ(device->caps().gles_major, GetParam().gles_major);
  const Fixture& f = fixture();
  CrowdRendererDesc rd;
  rd.path = GetParam().path;
  rd.fixed_lod = kDrawnLod;
  rd.shader =
      std::make_shared<const ShaderSource>(ShaderSource{"fields.glsl", kSurfaceFieldsShader});
  CrowdRenderer renderer(*device, f.package, rd);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.path(), GetParam().path);

  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<glm::vec4> tints;
  std::vector<AgentState> states;
  std::vector<uint32_t> ids;
  for (const Agent& a : agents()) {
    placements.push_back(a.placement);
    AgentPlayback p;
    p.time = static_cast<float>(a.frame) / f.package.clips[0].fps;
    playback.push_back(p);
    tints.push_back(a.tint);
    states.push_back(a.state);
    ids.push_back(a.id);
  }
  CrowdFrame frame{placements, playback, tints, states};
  frame.agent_ids = ids;

  const std::vector<Chosen>& chosen = chosenPixels();
  ASSERT_GT(chosen.size(), 600u);
  std::vector<size_t> per_agent(agents().size(), 0);
  for (const Chosen& c : chosen) ++per_agent[c.agent];
  for (size_t a = 0; a < per_agent.size(); ++a) ASSERT_GT(per_agent[a], 100u) << "agent " << a;

  for (int field = 0; field < kFields; ++field) {
    ASSERT_TRUE(renderer.setShaderUniform("field", static_cast<float>(field)).ok());
    device->beginFrame(kClear);
    ASSERT_TRUE(renderer.draw(f.view, frame).ok()) << renderer.status().toString();
    device->finish();
    Result<Image> image = device->readPixels();
    ASSERT_TRUE(image.ok());
    double worst = 0.0;
    int bad = 0;
    std::string first_bad;
    for (const Chosen& c : chosen) {
      const glm::dvec3 want =
          expectedField(field, c.hit, f.meshes[c.agent], agents()[c.agent], glm::dvec3(f.view.eye));
      const uint8_t* px = &image->rgba[(static_cast<size_t>(c.y) * kSize + c.x) * 4];
      double error = 0.0;
      for (int ch = 0; ch < 3; ++ch) {
        const double got = test::srgbToLinear(px[ch] / 255.0);
        error = std::max(error, std::abs(got - std::clamp(want[ch], 0.0, 1.0)));
      }
      worst = std::max(worst, error);
      if (error > kFieldTolerance && bad++ == 0) {
        first_bad = "pixel (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ") agent " +
                    std::to_string(c.agent) + ": got (" + std::to_string(px[0]) + ", " +
                    std::to_string(px[1]) + ", " + std::to_string(px[2]) + "), expected linear (" +
                    std::to_string(want.x) + ", " + std::to_string(want.y) + ", " +
                    std::to_string(want.z) + ")";
      }
    }
    std::printf("  %-30s %zu pixels, worst %.4f\n", kFieldNames[field], chosen.size(), worst);
    EXPECT_EQ(bad, 0) << kFieldNames[field] << ": " << bad << " of " << chosen.size()
                      << " pixels beyond " << kFieldTolerance << "; first " << first_bad;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, SurfaceFields,
                         ::testing::Values(PathCase{RenderPath::kMerged, 2},
                                           PathCase{RenderPath::kInstanced, 3},
                                           PathCase{RenderPath::kPerCharacter, 3},
                                           PathCase{RenderPath::kGpu, 3}),
                         test::pathOnEsParamName);

}  // namespace
}  // namespace throng::render
