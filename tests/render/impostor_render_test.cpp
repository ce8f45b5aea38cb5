// The impostor at run time against its CPU references, on a synthetic impostor whose every tile
// has a colour of its own (so a wrong view or frame shows): the vertex shader's view and frame
// pick against impostorBlend (transform feedback), and the drawn picture against a CPU
// composition of the atlas tiles by impostorBlend (ray cast through each pixel onto the quad).
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/impostor_renderer.h"
#include "render_test_support.h"
#include "throng/core/impostor.h"
#include "throng/crowd/lod_pick.h"
#include "throng/crowd/lod_select.h"
#include "throng/crowd/playback.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace impostor_render_test {
namespace {

// The pick's weights: the shader's and the CPU's float arithmetic (atan, asin, division) in a
// different order.
constexpr float kWeightTolerance = 2e-3f;
// The picture against the CPU composition: sRGB round trips and 8-bit texels filtered in float
// on both sides; pixels whose coverage the two round apart (the alpha cut at an edge) may differ
// more, at most this share of the covered pixels.
constexpr int kChannelTolerance = 6;
constexpr double kMaxEdgeShare = 0.08;

// World -> model: the heading's turn undone (placementMatrix turns model to world).
glm::vec3 toModel(glm::vec3 d, float heading) {
  const float c = std::cos(heading), s = std::sin(heading);
  return glm::vec3(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
}

// A time of `clip` whose frame blend the record stores exactly (k + m / 255 frame steps).
float exactTime(const BakedClip& clip, uint32_t k, uint32_t m) {
  return (static_cast<float>(k) + static_cast<float>(m) / 255.0f) / clip.fps;
}

// Weight by index, summed over repeats (a clamped elevation repeats its row with weight 0).
std::map<uint32_t, float> weights(const uint32_t* index, const float* weight, int n) {
  std::map<uint32_t, float> out;
  for (int i = 0; i < n; ++i) out[index[i]] += weight[i];
  return out;
}
float largestDifference(const std::map<uint32_t, float>& a, const std::map<uint32_t, float>& b) {
  float worst = 0.0f;
  for (const auto& [k, w] : a) worst = std::max(worst, std::abs(w - (b.count(k) ? b.at(k) : 0.0f)));
  for (const auto& [k, w] : b) worst = std::max(worst, std::abs(w - (a.count(k) ? a.at(k) : 0.0f)));
  return worst;
}

TEST(ImpostorRender, PickMatchesImpostorBlendAtManyHeadingsPitchesAndTimes) {
  const Package package = test::sampleWithSyntheticImpostor();
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  Result<std::unique_ptr<ImpostorRenderer>> renderer =
      ImpostorRenderer::create(*device, package, static_cast<int>(package.lods.size()), nullptr);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();

  std::mt19937 rng(23);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const uint32_t last_frame = package.animation.frame_count - 1;
  for (int camera = 0; camera < 6; ++camera) {
    // Pitches from below the horizon to nearly straight down.
    const float pitch = -0.2f + 1.65f * static_cast<float>(camera) / 5.0f;
    const glm::vec3 eye(20.0f * std::cos(pitch), 20.0f * std::sin(pitch) + 1.0f, 3.0f);
    const FrameView view = lookAtView(eye, glm::vec3(0.0f), 0.8f, 1.0f, 0.1f, 100.0f);
    std::vector<InstanceRecord> records;
    std::vector<ImpostorBlend> expected;
    for (int a = 0; a < 200; ++a) {
      Instance in;
      in.placement.position = glm::vec3(unit(rng) * 8.0f - 4.0f, 0.0f, unit(rng) * 8.0f - 4.0f);
      in.placement.heading = unit(rng) * 6.2831853f - 3.1415926f;
      const uint32_t clip = static_cast<uint32_t>(a) % package.clips.size();
      const BakedClip& c = package.clips[clip];
      const uint32_t k = c.frame_count > 2 ? static_cast<uint32_t>(rng() % (c.frame_count - 1)) : 0;
      const float time = exactTime(c, k, static_cast<uint32_t>(rng() % 255));
      in.frames.primary = sampleFrames(c, time);
      in.frames.secondary = in.frames.primary;
      records.push_back(encodeInstanceRecord(in, last_frame));
      // The direction the record says: its heading as the GPU decodes it.
      const Instance decoded = decodeInstanceRecord(records.back());
      expected.push_back(impostorBlend(
          package.impostor, toModel(eye - in.placement.position, decoded.placement.heading), clip,
          time, c.duration, c.loop));
    }
    std::vector<ImpostorPick> picks(records.size());
    ASSERT_TRUE((*renderer)->capturePicks(view, records, picks).ok());
    float worst_view = 0.0f, worst_frame = 0.0f;
    for (size_t i = 0; i < records.size(); ++i) {
      worst_view = std::max(
          worst_view, largestDifference(weights(picks[i].views, picks[i].view_weights, 4),
                                        weights(expected[i].views, expected[i].view_weights, 4)));
      const float gpu_frames[2] = {1.0f - picks[i].frame_weight, picks[i].frame_weight};
      const float cpu_frames[2] = {1.0f - expected[i].frame_weight, expected[i].frame_weight};
      worst_frame =
          std::max(worst_frame, largestDifference(weights(picks[i].frames, gpu_frames, 2),
                                                  weights(expected[i].frames, cpu_frames, 2)));
    }
    EXPECT_LE(worst_view, kWeightTolerance) << "pitch " << pitch;
    EXPECT_LE(worst_frame, kWeightTolerance) << "pitch " << pitch;
  }
}

// The CPU composition: impostorBlend's tiles, each sampled bilinearly (premultiplied, linear
// light) where the pixel's ray meets the quad, blended by their weights, cut at alpha one half;
// unlit (the user shader below returns the base colour).
float srgbToLinear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}
float linearToSrgb(float c) {
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}
glm::vec4 texel(const Impostor& m, int x, int y) {
  const int w = static_cast<int>(m.atlasWidth());
  const uint8_t* px = &m.color[(static_cast<size_t>(y) * w + x) * 4];
  const float a = px[3] / 255.0f;
  return glm::vec4(srgbToLinear(px[0] / 255.0f) * a, srgbToLinear(px[1] / 255.0f) * a,
                   srgbToLinear(px[2] / 255.0f) * a, a);
}
glm::vec4 sampleTile(const Impostor& m, uint32_t view, uint32_t frame, glm::vec2 st) {
  const glm::vec2 half(0.5f / m.tile_width, 0.5f / m.tile_height);
  st = glm::clamp(st, half, 1.0f - half);
  const float fx = (static_cast<float>(frame) + st.x) * m.tile_width - 0.5f;
  const float fy = (static_cast<float>(view) + st.y) * m.tile_height - 0.5f;
  const int x0 = static_cast<int>(std::floor(fx)), y0 = static_cast<int>(std::floor(fy));
  const float wx = fx - x0, wy = fy - y0;
  return glm::mix(glm::mix(texel(m, x0, y0), texel(m, x0 + 1, y0), wx),
                  glm::mix(texel(m, x0, y0 + 1), texel(m, x0 + 1, y0 + 1), wx), wy);
}

Image compose(const Impostor& m, const FrameView& view, int size, glm::vec3 position, float heading,
              const ImpostorBlend& blend, bool& any) {
  Image image{size, size, std::vector<uint8_t>(static_cast<size_t>(size) * size * 4, 0)};
  const glm::mat4 inverse = glm::inverse(view.view_projection);
  const glm::vec3 d = glm::normalize(toModel(view.eye - position, heading));
  const glm::vec3 right = glm::normalize(glm::vec3(d.z, 0.0f, -d.x));
  const glm::vec3 up = glm::cross(d, right);
  const float c = std::cos(heading), s = std::sin(heading);
  const auto turn = [&](glm::vec3 v) {
    return glm::vec3(c * v.x + s * v.z, v.y, c * v.z - s * v.x);
  };
  const glm::vec3 r_world = turn(right), u_world = turn(up), n_world = turn(d);
  const glm::vec2 centre(glm::dot(m.center, right), glm::dot(m.center, up));
  any = false;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      // Rows top first; NDC +y up.
      const glm::vec2 ndc((x + 0.5f) / size * 2.0f - 1.0f, 1.0f - (y + 0.5f) / size * 2.0f);
      glm::vec4 a = inverse * glm::vec4(ndc, -1.0f, 1.0f);
      glm::vec4 b = inverse * glm::vec4(ndc, 1.0f, 1.0f);
      const glm::vec3 from = glm::vec3(a) / a.w, to = glm::vec3(b) / b.w;
      const glm::vec3 dir = to - from;
      const float t = glm::dot(position - from, n_world) / glm::dot(dir, n_world);
      const glm::vec3 hit = from + t * dir - position;
      const glm::vec2 q(glm::dot(hit, r_world), glm::dot(hit, u_world));
      const glm::vec2 st((q.x - centre.x) / m.size.x + 0.5f, 0.5f - (q.y - centre.y) / m.size.y);
      if (st.x < 0.0f || st.x > 1.0f || st.y < 0.0f || st.y > 1.0f) continue;
      glm::vec4 sum(0.0f);
      for (int v = 0; v < 4; ++v) {
        for (int f = 0; f < 2; ++f) {
          const float w =
              blend.view_weights[v] * (f == 0 ? 1.0f - blend.frame_weight : blend.frame_weight);
          if (w > 0.0f) sum += w * sampleTile(m, blend.views[v], blend.frames[f], st);
        }
      }
      if (sum.a < 0.5f) continue;
      any = true;
      uint8_t* px = &image.rgba[(static_cast<size_t>(y) * size + x) * 4];
      for (int k = 0; k < 3; ++k)
        px[k] = static_cast<uint8_t>(linearToSrgb(std::clamp(sum[k] / sum.a, 0.0f, 1.0f)) * 255.0f +
                                     0.5f);
      px[3] = 255;
    }
  }
  return image;
}

// Every path draws impostors: the instanced and gpu paths from their records (ES 3.0, 3.1), the
// merged path batched on an ES 2.0 context, the per-character path one quad per draw.
constexpr test::PathOnEs kImpostorPaths[] = {{RenderPath::kInstanced, 3},
                                             {RenderPath::kGpu, 3},
                                             {RenderPath::kMerged, 2},
                                             {RenderPath::kPerCharacter, 3}};

// Every path's picture against the CPU composition, and the paths' pictures against each other
// (the path tolerance of render_test_support.h).
TEST(ImpostorRender, EveryPathsPictureMatchesTheCpuCompositionOfTheAtlasTiles) {
  const Package package = test::sampleWithSyntheticImpostor();
  constexpr int kSize = 128;
  constexpr int kShots = 4;
  std::vector<Image> first_path;
  for (const auto [path, gles_major] : kImpostorPaths) {
    SCOPED_TRACE(test::pathOnEsName(path, gles_major));
    auto device = test::makeTestDevice(gles_major, kSize);
    ASSERT_NE(device, nullptr);
    ASSERT_EQ(device->caps().gles_major, gles_major);
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = static_cast<int>(package.lods.size());
    desc.shader = std::make_shared<ShaderSource>(
        ShaderSource{"unlit.glsl", "vec4 throngShade(ThrongSurface s) { return s.base_color; }\n"});
    CrowdRenderer renderer(*device, package, desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    ASSERT_EQ(renderer.path(), path);
    ASSERT_EQ(renderer.impostorLod(), static_cast<int>(package.lods.size()))
        << renderer.impostorReason();

    int checked = 0;
    for (int shot = 0; shot < kShots; ++shot) {
      const glm::vec3 eye(3.0f * std::sin(0.9f * shot), 1.0f + 0.8f * shot,
                          3.0f * std::cos(0.9f * shot));
      const FrameView view = lookAtView(eye, glm::vec3(0.0f, 0.9f, 0.0f), 0.9f, 1.0f, 0.1f, 50.0f);
      const Placement placement{glm::vec3(0.1f, 0.0f, -0.2f), 0.7f + 0.6f * shot, 1.0f};
      const uint32_t clip = static_cast<uint32_t>(shot) % package.clips.size();
      const BakedClip& c = package.clips[clip];
      const float time = exactTime(c, 1, 100);
      AgentPlayback playback;
      playback.clip = static_cast<uint16_t>(clip);
      playback.time = time;
      playback.previous_clip = playback.clip;
      const CrowdFrame frame{std::span<const Placement>(&placement, 1),
                             std::span<const AgentPlayback>(&playback, 1)};
      device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      ASSERT_TRUE(renderer.draw(view, frame).ok());
      Result<Image> drawn = device->readPixels();
      ASSERT_TRUE(drawn.ok());
      const Instance decoded = decodeInstanceRecord(encodeInstanceRecord(
          Instance{placement, {}, glm::vec4(1.0f)}, package.animation.frame_count - 1));
      const ImpostorBlend blend = impostorBlend(
          package.impostor, toModel(eye - placement.position, decoded.placement.heading), clip,
          time, c.duration, c.loop);
      bool any = false;
      const Image reference = compose(package.impostor, view, kSize, placement.position,
                                      decoded.placement.heading, blend, any);
      ASSERT_TRUE(any) << "shot " << shot << ": the impostor is off screen";
      int covered = 0, bad = 0;
      for (size_t p = 0; p < reference.rgba.size() / 4; ++p) {
        const uint8_t* r = &reference.rgba[p * 4];
        const uint8_t* g = &drawn->rgba[p * 4];
        const bool in_r = r[3] > 0, in_g = g[0] > 0 || g[1] > 0 || g[2] > 0;
        if (!in_r && !in_g) continue;
        ++covered;
        int diff = 0;
        for (int k = 0; k < 3; ++k) diff = std::max(diff, std::abs(int(r[k]) - int(g[k])));
        if (diff > kChannelTolerance) ++bad;
      }
      EXPECT_GT(covered, 200) << "shot " << shot;
      EXPECT_LE(bad, kMaxEdgeShare * covered)
          << "shot " << shot << ": " << bad << " of " << covered;
      if (::testing::Test::HasFailure()) {
        (void)writePng(*drawn, "impostor_drawn_" + test::pathOnEsName(path, gles_major) + "_" +
                                   std::to_string(shot) + ".png");
        (void)writePng(reference, "impostor_reference_" + std::to_string(shot) + ".png");
      }
      if (path == kImpostorPaths[0].path) {
        first_path.push_back(*drawn);
      } else {
        const ImageDifference d =
            compareImages(first_path[shot], *drawn, test::kPathChannelTolerance);
        EXPECT_LE(static_cast<double>(d.bad_pixels), test::kPathMaxBadPixelShare * kSize * kSize)
            << "shot " << shot << " against " << renderPathName(kImpostorPaths[0].path);
      }
      ++checked;
    }
    EXPECT_EQ(checked, kShots);
  }
}

TEST(ImpostorRender, TheLodRulePicksTheImpostorPastTheLastMeshLodOnlyWhenOn) {
  const Package package = test::sampleWithSyntheticImpostor();
  const int impostor = static_cast<int>(package.lods.size());
  // One agent at the eye's feet, one past the impostor's switch distance (its error 0.5 model
  // units covers a pixel at about 55 units through a 64-pixel, 0.9-radian view).
  const Placement placements[2] = {{glm::vec3(0.0f, 0.0f, -3.0f), 0.0f, 1.0f},
                                   {glm::vec3(0.0f, 0.0f, -120.0f), 0.0f, 1.0f}};
  const AgentPlayback playback[2] = {};
  const CrowdFrame frame{placements, playback};
  const FrameView view = lookAtView(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 1.0f, -10.0f),
                                    0.9f, 1.0f, 0.1f, 500.0f);
  // The CPU-fed paths: the instanced one, the merged one on ES 2.0, the per-character one.
  for (const auto [path, gles_major] : kImpostorPaths) {
    if (path == RenderPath::kGpu) continue;  // below
    SCOPED_TRACE(test::pathOnEsName(path, gles_major));
    auto es = test::makeTestDevice(gles_major, 64);
    ASSERT_NE(es, nullptr);
    for (const bool on : {true, false}) {
      CrowdRendererDesc desc;
      desc.path = path;
      desc.impostors = on;
      CrowdRenderer renderer(*es, package, desc);
      ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
      ASSERT_EQ(renderer.path(), path);
      EXPECT_EQ(renderer.lodCount(), impostor + (on ? 1 : 0));
      EXPECT_EQ(renderer.impostorLod(), on ? impostor : -1) << renderer.impostorReason();
      es->beginFrame(glm::vec4(0.0f));
      ASSERT_TRUE(renderer.draw(view, frame).ok());
      EXPECT_LT(renderer.agentDrawInfo(0).lod, impostor - 1);
      EXPECT_EQ(renderer.agentDrawInfo(1).lod, on ? impostor : impostor - 1);
      if (on) {
        EXPECT_EQ(renderer.stats().agents_per_lod[impostor], 1u);
        EXPECT_EQ(renderer.lodInfo(impostor).triangles, 2u);
        // The far agent is a quad: 2 of the frame's triangles.
        EXPECT_EQ(renderer.stats().triangles,
                  renderer.lodInfo(renderer.agentDrawInfo(0).lod).triangles + 2u);
      }
    }
  }
  auto device = test::makeTestDevice(3, 64);
  ASSERT_NE(device, nullptr);
  // The gpu path's compute pass picks alike (its counts, read back after the frame).
  CrowdRendererDesc desc;
  desc.path = RenderPath::kGpu;
  CrowdRenderer gpu(*device, package, desc);
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  EXPECT_EQ(gpu.impostorLod(), impostor) << gpu.impostorReason();
  device->beginFrame(glm::vec4(0.0f));
  ASSERT_TRUE(gpu.draw(view, frame).ok());
  device->finish();
  ASSERT_EQ(gpu.stats().agents_per_lod.size(), static_cast<size_t>(impostor + 1));
  EXPECT_EQ(gpu.stats().agents_per_lod[impostor], 1u);
  EXPECT_EQ(gpu.stats().visible, 2u);
}

// The fade tests' scene: the sample's synthetic impostor given an error past the last mesh LOD's,
// seen from kFadeEye with kFadeThreshold pixels allowed: the switch falls where the character is
// some 40 pixels tall in a kFadeSize-pixel frame.
constexpr int kFadeSize = 128;
constexpr float kFadeThreshold = 8.0f;
constexpr float kFadeFov = 0.9f;
const glm::vec3 kFadeEye(0.0f, 1.0f, 0.0f);

struct FadeScene {
  Package package;
  int impostor = 0;  // the impostor's LOD
  float end = 0.0f;  // the distance from kFadeEye of the switch to it (where the fade band ends)
};

FadeScene fadeScene() {
  FadeScene scene{test::sampleWithSyntheticImpostor()};
  Package& package = scene.package;
  package.impostor.max_error = 1.5f * package.lods.back().max_error;
  scene.impostor = static_cast<int>(package.lods.size());
  std::vector<MeshLod> chain;
  for (const MeshLod& lod : package.lods) {
    chain.emplace_back();
    chain.back().max_error = lod.max_error;
  }
  chain.emplace_back();
  chain.back().max_error = package.impostor.max_error;
  LodView lod_view{kFadeEye, kFadeFov, static_cast<float>(kFadeSize), kFadeThreshold,
                   lodReach(package.lods)};
  scene.end = std::sqrt(LodRule(chain, lod_view).pickDistanceSq(scene.impostor));
  return scene;
}

TEST(ImpostorRender, CrossFadesByAScreenDoorBeforeTheSwitch) {
  const FadeScene scene = fadeScene();
  const Package& package = scene.package;
  const int impostor = scene.impostor;
  const float end = scene.end;
  const glm::vec3 eye = kFadeEye;
  // Halfway through the band: half the pixels each way.
  const float distance = end * (1.0f - 0.5f * kImpostorFadeBand);
  const Placement placement{eye + glm::vec3(0.0f, -1.0f, -distance), 0.3f, 1.0f};
  const AgentPlayback playback{};
  const CrowdFrame frame{std::span<const Placement>(&placement, 1),
                         std::span<const AgentPlayback>(&playback, 1)};
  const FrameView view = lookAtView(eye, placement.position + glm::vec3(0.0f, 0.9f, 0.0f), kFadeFov,
                                    1.0f, 0.1f, 10.0f * end);
  for (const auto [path, gles_major] : kImpostorPaths) {
    SCOPED_TRACE(test::pathOnEsName(path, gles_major));
    auto device = test::makeTestDevice(gles_major, kFadeSize);
    ASSERT_NE(device, nullptr);
    Image pictures[3];  // faded, mesh LOD only, impostor only
    for (int which = 0; which < 3; ++which) {
      CrowdRendererDesc desc;
      desc.path = path;
      desc.lod_threshold_pixels = kFadeThreshold;
      desc.impostors = which != 1;
      if (which == 2) desc.fixed_lod = impostor;
      CrowdRenderer renderer(*device, package, desc);
      ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
      device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      ASSERT_TRUE(renderer.draw(view, frame).ok());
      if (path != RenderPath::kGpu) {  // the gpu path's lists stay on the GPU
        EXPECT_EQ(renderer.agentDrawInfo(0).lod, which == 2 ? impostor : impostor - 1);
      }
      pictures[which] = device->readPixels().value();
    }
    // Each covered pixel of the faded picture is the mesh's or the impostor's: the impostor's
    // exactly where the screen door's hash (common/fade.glsl, gl_FragCoord from the bottom row) is
    // below the agent's weight. Float rounding of the hash near the weight may flip a few.
    const auto hash = [](int x, int y) {
      const float d = static_cast<float>(x) * 0.06711056f + static_cast<float>(y) * 0.00583715f;
      const float f = 52.9829189f * (d - std::floor(d));
      return f - std::floor(f);
    };
    // The agent's weight in the band [0.9 end, end) (the last mesh LOD's own switch lies before
    // it).
    const float start = end * (1.0f - kImpostorFadeBand);
    const float weight = (glm::length(placement.position - eye) - start) / (end - start);
    ASSERT_GT(weight, 0.2f);
    ASSERT_LT(weight, 0.8f);
    int from_mesh = 0, from_impostor = 0, neither = 0, wrong_side = 0;
    for (int row = 0; row < kFadeSize; ++row) {
      for (int x = 0; x < kFadeSize; ++x) {
        const size_t p = (static_cast<size_t>(row) * kFadeSize + x) * 4;
        const auto same = [&](int other) {
          for (int k = 0; k < 3; ++k) {
            if (std::abs(pictures[0].rgba[p + k] - pictures[other].rgba[p + k]) > kChannelTolerance)
              return false;
          }
          return true;
        };
        const bool mesh = same(1), quad = same(2);
        if (mesh && quad) continue;
        from_mesh += mesh && !quad;
        from_impostor += quad && !mesh;
        neither += !mesh && !quad;
        const bool door = hash(x, kFadeSize - 1 - row) < weight;
        wrong_side += (quad && !mesh && !door) || (mesh && !quad && door);
      }
    }
    const int differing = from_mesh + from_impostor + neither;
    ASSERT_GT(differing, 100);
    EXPECT_LE(neither, differing / 20);
    EXPECT_LE(wrong_side, differing / 20);
    EXPECT_GE(from_mesh, differing / 4);
    EXPECT_GE(from_impostor, differing / 4);
    std::printf(
        "%s fade: %d pixels from the mesh, %d from the impostor, %d neither, %d on the wrong "
        "side of the door\n",
        test::pathOnEsName(path, gles_major).c_str(), from_mesh, from_impostor, neither,
        wrong_side);
  }
}

// Agents in the cross-fade band are drawn twice (the mesh and the impostor, each screen-doored)
// but count once: the gpu path's counters (visible, agents_per_lod, triangles), drawOrder and
// agentDrawInfo equal the instanced path's for the same frame, the band's agents in the last mesh
// LOD.
TEST(ImpostorRender, TheFadeBandsAgentsCountOnceOnTheGpuPathAsOnTheInstanced) {
  const FadeScene scene = fadeScene();
  const Package& package = scene.package;
  const int impostor = scene.impostor;
  const float end = scene.end;
  const glm::vec3 eye = kFadeEye;
  // Three agents in the band, two nearer (mesh LODs), two past the switch (impostors), side by
  // side along the view.
  const float distances[] = {0.3f * end,
                             0.6f * end,
                             end * (1.0f - 0.8f * kImpostorFadeBand),
                             end * (1.0f - 0.5f * kImpostorFadeBand),
                             end * (1.0f - 0.2f * kImpostorFadeBand),
                             1.3f * end,
                             1.6f * end};
  std::vector<Placement> placements;
  for (size_t i = 0; i < std::size(distances); ++i) {
    const float side = (static_cast<float>(i) - 3.0f) * 0.02f * distances[i];
    placements.push_back({eye + glm::vec3(side, -1.0f, -distances[i]), 0.3f, 1.0f});
  }
  const std::vector<AgentPlayback> playback(placements.size());
  const CrowdFrame frame{placements, playback};
  const FrameView view =
      lookAtView(eye, eye + glm::vec3(0.0f, -0.1f, -10.0f), kFadeFov, 1.0f, 0.1f, 10.0f * end);
  auto device = test::makeTestDevice(3, kFadeSize);
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc desc;
  desc.lod_threshold_pixels = kFadeThreshold;
  desc.path = RenderPath::kInstanced;
  CrowdRenderer instanced(*device, package, desc);
  desc.path = RenderPath::kGpu;
  CrowdRenderer gpu(*device, package, desc);
  ASSERT_TRUE(instanced.ok()) << instanced.status().toString();
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  ASSERT_EQ(gpu.impostorLod(), impostor) << gpu.impostorReason();
  for (CrowdRenderer* renderer : {&instanced, &gpu}) {
    device->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    ASSERT_TRUE(renderer->draw(view, frame).ok());
    device->finish();
  }
  const CrowdFrameStats& c = instanced.stats();
  const CrowdFrameStats& g = gpu.stats();
  EXPECT_EQ(g.counts_lag, 0u);
  EXPECT_EQ(c.visible, placements.size());
  EXPECT_EQ(g.visible, c.visible);
  EXPECT_EQ(g.agents_per_lod, c.agents_per_lod);
  EXPECT_EQ(g.triangles, c.triangles);
  ASSERT_EQ(c.agents_per_lod.size(), static_cast<size_t>(impostor + 1));
  EXPECT_EQ(c.agents_per_lod[impostor], 2u) << "the two past the switch";
  const std::vector<uint32_t> order(instanced.drawOrder().begin(), instanced.drawOrder().end());
  const std::span<const uint32_t> gpu_order = gpu.drawOrder();
  EXPECT_TRUE(std::equal(order.begin(), order.end(), gpu_order.begin(), gpu_order.end()))
      << order.size() << " agents in the instanced path's order, " << gpu_order.size()
      << " in the gpu path's";
  for (uint32_t a = 0; a < placements.size(); ++a) {
    const AgentDrawInfo gi = gpu.agentDrawInfo(a);
    const AgentDrawInfo ci = instanced.agentDrawInfo(a);
    EXPECT_EQ(std::tie(gi.visible, gi.lod, gi.draw_call, gi.slot),
              std::tie(ci.visible, ci.lod, ci.draw_call, ci.slot))
        << "agent " << a;
  }
  for (uint32_t a = 2; a <= 4; ++a)
    EXPECT_EQ(instanced.agentDrawInfo(a).lod, impostor - 1) << "agent " << a << " in the band";
}

// Atlases past the ES 2.0 device's GL_MAX_TEXTURE_SIZE on the merged path: halved once (the
// picture still the impostor's, a tile half as many texels), refused with the reason past twice
// the limit (the last mesh LOD drawn instead).
TEST(ImpostorRender, MergedPathHalvesOrRefusesAtlasesPastTheMaxTextureSize) {
  const Package package = test::sampleWithSyntheticImpostor();
  const int side =
      static_cast<int>(std::max(package.impostor.atlasWidth(), package.impostor.atlasHeight()));
  const int impostor = static_cast<int>(package.lods.size());
  constexpr int kSize = 64;
  const FrameView view =
      lookAtView(glm::vec3(0.0f, 1.0f, 3.0f), glm::vec3(0.0f, 0.9f, 0.0f), 0.9f, 1.0f, 0.1f, 50.0f);
  const Placement placement{};
  const AgentPlayback playback{};
  const CrowdFrame frame{std::span<const Placement>(&placement, 1),
                         std::span<const AgentPlayback>(&playback, 1)};
  for (const bool halved : {true, false}) {
    SCOPED_TRACE(halved ? "halved" : "refused");
    CapsOverride caps;
    // Just under the atlas's side: halved fits; under half of it: even halved does not.
    caps.max_texture_size = halved ? side - 1 : side / 2 - 1;
    auto device = test::makeTestDevice(2, kSize, caps);
    ASSERT_NE(device, nullptr);
    ASSERT_EQ(device->caps().max_texture_size, *caps.max_texture_size);
    CrowdRendererDesc desc;
    desc.path = RenderPath::kMerged;
    desc.shader = std::make_shared<ShaderSource>(
        ShaderSource{"unlit.glsl", "vec4 throngShade(ThrongSurface s) { return s.base_color; }\n"});
    CrowdRenderer renderer(*device, package, desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    if (!halved) {
      EXPECT_EQ(renderer.impostorLod(), -1);
      EXPECT_NE(renderer.impostorReason().find("GL_MAX_TEXTURE_SIZE"), std::string::npos)
          << renderer.impostorReason();
      continue;
    }
    ASSERT_EQ(renderer.impostorLod(), impostor) << renderer.impostorReason();
    // The halved atlases' picture against the full ones' (another ES 2.0 device without the
    // limit): the same tiles' flat colours, edges aside.
    Image pictures[2];
    for (int full = 0; full < 2; ++full) {
      auto on = full ? test::makeTestDevice(2, kSize) : std::move(device);
      ASSERT_NE(on, nullptr);
      CrowdRendererDesc fixed = desc;
      fixed.fixed_lod = impostor;
      CrowdRenderer quads(*on, package, fixed);
      ASSERT_TRUE(quads.ok()) << quads.status().toString();
      on->beginFrame(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      ASSERT_TRUE(quads.draw(view, frame).ok());
      pictures[full] = on->readPixels().value();
    }
    int covered = 0;
    for (size_t p = 0; p < pictures[1].rgba.size() / 4; ++p) {
      const uint8_t* px = &pictures[1].rgba[p * 4];
      covered += px[0] > 0 || px[1] > 0 || px[2] > 0;
    }
    ASSERT_GT(covered, 100);
    const ImageDifference d = compareImages(pictures[1], pictures[0], kChannelTolerance);
    EXPECT_LE(static_cast<double>(d.bad_pixels), kMaxEdgeShare * covered)
        << d.bad_pixels << " of " << covered;
  }
}

}  // namespace
}  // namespace impostor_render_test
}  // namespace throng::render
