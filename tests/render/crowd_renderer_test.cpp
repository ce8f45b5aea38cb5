// Tests of the crowd front end: the path it picks and why, its failed state, its counters, and
// that every path draws the same picture of the same frame.
#include "throng/render/crowd_renderer.h"
#include "render/test_hooks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <set>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"

namespace throng::render {
namespace {

constexpr int kCrowdFrameSize = 256;
const glm::vec4 kCrowdClear(0.12f, 0.13f, 0.16f, 1.0f);

// A grid of agents on several clips, some in mid cross-fade, all tinted; the camera low and near
// so that the front rows are near (LOD 0) and the back rows far (coarser LODs).
struct RendererScene {
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<glm::vec4> tints;
  FrameView view;

  explicit RendererScene(int side) {
    const Package& package = test::sampleWithLods();
    // Rows 5 units apart: the sample (1.8 units tall) changes LOD at 18 units by distance.
    const float spacing = 2.0f, row_spacing = 5.0f;
    for (int i = 0; i < side * side; ++i) {
      Placement p;
      p.position = glm::vec3(spacing * static_cast<float>(i % side - side / 2), 0.0f,
                             -row_spacing * static_cast<float>(i / side));
      p.heading = 0.7f * static_cast<float>(i);
      placements.push_back(p);
      AgentPlayback a;
      a.clip = static_cast<uint16_t>(i % package.clips.size());
      a.time = 0.137f * static_cast<float>(i);
      if (i % 3 == 1) {
        a.previous_clip = static_cast<uint16_t>((i + 2) % package.clips.size());
        a.previous_time = 0.2f;
        a.fade = 0.4f;
      }
      playback.push_back(a);
      tints.push_back(glm::vec4(0.5f + 0.5f * static_cast<float>(i % 2),
                                0.5f + 0.25f * static_cast<float>(i % 3), 0.9f, 1.0f));
    }
    view = lookAtView(glm::vec3(0.0f, 2.5f, 5.0f), glm::vec3(0.0f, 0.8f, -6.0f), 0.9f, 1.0f, 0.1f,
                      200.0f);
  }
  CrowdFrame frame() const { return {placements, playback, tints}; }
};

Image drawOnce(Device& device, CrowdRenderer& renderer, const RendererScene& scene) {
  device.beginFrame(kCrowdClear);
  const Status s = renderer.draw(scene.view, scene.frame());
  EXPECT_TRUE(s.ok()) << s.toString();
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok());
  return image.ok() ? std::move(image).value() : Image{};
}

double badShare(const Image& a, const Image& b, const char* what) {
  const ImageDifference d = compareImages(a, b, test::kPathChannelTolerance);
  std::printf("  %s: %lld pixels differ by more than %d (largest difference %d)\n", what,
              static_cast<long long>(d.bad_pixels), test::kPathChannelTolerance,
              d.max_channel_difference);
  return static_cast<double>(d.bad_pixels) / static_cast<double>(a.width * a.height);
}

TEST(CrowdRenderer, PathNamesReadBack) {
  for (int i = 0; i < kRenderPathCount; ++i) {
    const RenderPath path = static_cast<RenderPath>(i);
    EXPECT_EQ(renderPathFromName(renderPathName(path)), path);
  }
  EXPECT_EQ(renderPathName(RenderPath::kPerCharacter), std::string("per-character"));
  EXPECT_FALSE(renderPathFromName("warp").has_value());
}

TEST(CrowdRenderer, AutoChoosesGpuWithComputeAndInstancedOnEs30AndSaysWhy) {
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRenderer renderer(*device, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  // Mesa answers an ES 3.0 request with 3.2: compute is there, and auto takes the gpu path.
  if (device->caps().compute) {
    EXPECT_EQ(renderer.path(), RenderPath::kGpu);
    EXPECT_NE(renderer.pathReason().find("compute"), std::string::npos) << renderer.pathReason();
  } else {
    EXPECT_EQ(renderer.path(), RenderPath::kInstanced);
  }
  EXPECT_NE(renderer.pathReason().find("GL_MAX_TEXTURE_SIZE"), std::string::npos);
  EXPECT_EQ(renderer.lodInfo(0).characters_per_draw, 0);  // all of a LOD in one draw

  // An ES 3.0 device (or WebGL2): no compute, the CPU feeds the instanced path.
  CapsOverride es30;
  es30.disable_compute = true;
  auto device30 = test::makeTestDevice(3, kCrowdFrameSize, es30);
  ASSERT_NE(device30, nullptr);
  CrowdRenderer instanced(*device30, test::sampleWithLods());
  ASSERT_TRUE(instanced.ok()) << instanced.status().toString();
  EXPECT_EQ(instanced.path(), RenderPath::kInstanced);
  EXPECT_NE(instanced.pathReason().find("instancing"), std::string::npos) << instanced.pathReason();
  EXPECT_NE(instanced.pathReason().find("no ES 3.1 compute"), std::string::npos)
      << instanced.pathReason();
  EXPECT_EQ(instanced.lodInfo(0).characters_per_draw, 0);
}

TEST(CrowdRenderer, AutoChoosesMergedOnEs2) {
  auto device = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  ASSERT_EQ(device->caps().gles_major, 2);
  CrowdRenderer renderer(*device, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  EXPECT_EQ(renderer.path(), RenderPath::kMerged);
  EXPECT_NE(renderer.pathReason().find("OpenGL ES 2.0"), std::string::npos)
      << renderer.pathReason();
  EXPECT_GT(renderer.lodInfo(0).characters_per_draw, 1);
}

TEST(CrowdRenderer, AutoChoosesMergedWhenTheTextureDoesNotFit) {
  // 23 joints need 69 texels per frame: a 64-texel limit cannot hold one frame in a row.
  CapsOverride small;
  small.max_texture_size = 64;
  auto device = test::makeTestDevice(3, kCrowdFrameSize, small);
  ASSERT_NE(device, nullptr);
  CrowdRenderer renderer(*device, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  EXPECT_EQ(renderer.path(), RenderPath::kMerged);
  EXPECT_NE(renderer.pathReason().find("too large"), std::string::npos) << renderer.pathReason();
  EXPECT_NE(renderer.pathReason().find("64"), std::string::npos) << renderer.pathReason();
}

TEST(CrowdRenderer, AutoChoosesPerCharacterOnEs3WithoutInstancingOrVertexTextures) {
  CapsOverride no_instancing;
  no_instancing.disable_instancing = true;
  CapsOverride no_vertex_textures;
  no_vertex_textures.max_vertex_texture_image_units = 0;
  for (const CapsOverride& caps : {no_instancing, no_vertex_textures}) {
    auto device = test::makeTestDevice(3, kCrowdFrameSize, caps);
    ASSERT_NE(device, nullptr);
    CrowdRenderer renderer(*device, test::sampleWithLods());
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    EXPECT_EQ(renderer.path(), RenderPath::kPerCharacter);
    EXPECT_NE(
        renderer.pathReason().find(caps.disable_instancing ? "instancing" : "vertex texture fetch"),
        std::string::npos)
        << renderer.pathReason();
    EXPECT_EQ(renderer.lodInfo(0).characters_per_draw, 1);
  }
}

TEST(CrowdRenderer, AFailedRendererSaysWhyAndDrawsNothing) {
  auto device = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  CrowdRenderer es2(*device, test::sampleWithLods(), desc);
  EXPECT_FALSE(es2.ok());
  EXPECT_EQ(es2.status().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(es2.path(), RenderPath::kInstanced);
  const RendererScene scene(2);
  EXPECT_EQ(es2.draw(scene.view, scene.frame()).code(), ErrorCode::kUnsupported);
  EXPECT_EQ(es2.lodInfo(0).joints, 0);

  CrowdRendererDesc lod;
  lod.fixed_lod = 9;
  CrowdRenderer bad_lod(*device, test::sampleWithLods(), lod);
  EXPECT_EQ(bad_lod.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(bad_lod.status().message().find("LODs 0..3"), std::string::npos)
      << bad_lod.status().message();

  Package empty;
  empty.source = "empty.throng";
  CrowdRenderer nothing(*device, empty);
  EXPECT_EQ(nothing.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(nothing.status().message().find("empty.throng"), std::string::npos);
  // More LODs than a LOD index's byte can hold (refused before any mesh is read).
  Package crowded;
  crowded.source = "crowded.throng";
  crowded.clips = test::sampleWithLods().clips;
  crowded.lods.resize(kMaxLodLevels + 1);
  CrowdRenderer too_many(*device, crowded);
  EXPECT_EQ(too_many.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(too_many.status().message(),
            "crowded.throng: 257 LODs, more than the 255 a crowd can pick from");

  CrowdRendererDesc unknown;
  unknown.path = static_cast<RenderPath>(42);
  CrowdRenderer no_path(*device, test::sampleWithLods(), unknown);
  EXPECT_EQ(no_path.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(no_path.status().message(), "crowd renderer: render path 42 does not exist");

  CrowdRendererDesc budget;
  budget.path = RenderPath::kMerged;
  budget.max_vertex_uniform_vectors = 16;  // not even the 10-joint LOD fits
  CrowdRenderer tiny(*device, test::sampleWithLods(), budget);
  EXPECT_EQ(tiny.status().code(), ErrorCode::kLimitExceeded);
}

TEST(CrowdRenderer, RejectsFramesWhoseSpansDisagree) {
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRenderer renderer(*device, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok());
  RendererScene scene(2);
  CrowdFrame frame = scene.frame();
  frame.playback = frame.playback.first(3);
  EXPECT_EQ(renderer.draw(scene.view, frame).code(), ErrorCode::kInvalidArgument);
  scene.playback[1].clip = 200;
  EXPECT_EQ(renderer.draw(scene.view, scene.frame()).code(), ErrorCode::kInvalidArgument);
  // The CPU-fed paths check the clips themselves (the renderer above is on the gpu path).
  CrowdRendererDesc instanced_desc;
  instanced_desc.path = RenderPath::kInstanced;
  CrowdRenderer instanced(*device, test::sampleWithLods(), instanced_desc);
  ASSERT_TRUE(instanced.ok()) << instanced.status().toString();
  const Status bad_clip = instanced.draw(scene.view, scene.frame());
  EXPECT_EQ(bad_clip.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_clip.message(), "crowd renderer: an agent plays a clip the package lacks (it has " +
                                    std::to_string(test::sampleWithLods().clips.size()) +
                                    " clips)");
  // A mixed crowd is drawn each character's agents by their own renderer (CharacterGatherJob).
  const ClipSet clip_set = clipSetByName(test::sampleWithLods().clips).value();
  const CrowdCharacter characters[2] = {{test::sampleWithLods().clips, clip_set},
                                        {test::sampleWithLods().clips, clip_set}};
  Crowd mixed(characters);
  mixed.addAgent({}, 0.0f, 0);
  mixed.addAgent({}, 0.0f, 1);
  const Status refused = renderer.draw(scene.view, mixed);
  EXPECT_EQ(refused.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(refused.message(),
            "a mixed crowd: draw each character's agents with its own renderer "
            "(MixedCrowdRenderer)");
}

// The frame's counters follow from the path: one draw per LOD in use (instanced), one per K
// characters of a LOD (merged), one per character (per-character); triangles from the LODs.
TEST(CrowdRenderer, CountsDrawsTrianglesAndAgentsPerLod) {
  const RendererScene scene(6);
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged, RenderPath::kPerCharacter}) {
    auto device = test::makeTestDevice(path == RenderPath::kInstanced ? 3 : 2, kCrowdFrameSize);
    ASSERT_NE(device, nullptr);
    CrowdRendererDesc desc;
    desc.path = path;
    CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    drawOnce(*device, renderer, scene);
    const CrowdFrameStats& stats = renderer.stats();
    EXPECT_EQ(stats.agents, 36u);
    EXPECT_GT(stats.visible, 0u);
    EXPECT_LT(stats.visible, 36u) << "the camera sees only part of the grid";
    uint32_t expected_draws = 0;
    uint64_t expected_triangles = 0;
    int lods_in_use = 0;
    for (int l = 0; l < renderer.lodCount(); ++l) {
      const uint32_t n = stats.agents_per_lod[l];
      const LodDrawInfo info = renderer.lodInfo(l);
      lods_in_use += n > 0;
      expected_triangles += n * info.triangles;
      // One draw per material of each instanced draw or batch.
      EXPECT_EQ(info.materials, 3) << "the sample's clothes, skin and shoes";
      if (info.characters_per_draw == 0) {
        expected_draws += (n > 0) * info.materials;
      } else {
        expected_draws +=
            (n + info.characters_per_draw - 1) / info.characters_per_draw * info.materials;
      }
    }
    EXPECT_GE(lods_in_use, 2) << renderPathName(path);
    EXPECT_EQ(std::accumulate(stats.agents_per_lod.begin(), stats.agents_per_lod.end(), 0u),
              stats.visible);
    EXPECT_EQ(stats.draw_calls, expected_draws) << renderPathName(path);
    EXPECT_EQ(stats.triangles, expected_triangles) << renderPathName(path);
    if (path == RenderPath::kPerCharacter) {
      EXPECT_EQ(stats.draw_calls, 3 * stats.visible);
    }
    EXPECT_GE(stats.cpu_ms.submit, 0.0);
  }
}

TEST(CrowdRenderer, ThePalettePassOptionReachesTheInstancedPathAndDrawsTheSameImage) {
  // Several LODs (bone-reduced ones included) and cross-fades, with and without the pass.
  const RendererScene scene(6);
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  Image images[2];
  for (bool on : {false, true}) {
    CrowdRendererDesc desc;
    desc.path = RenderPath::kInstanced;
    desc.palette_pass = on ? PalettePassMode::kOn : PalettePassMode::kOff;
    CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    images[on] = drawOnce(*device, renderer, scene);
    EXPECT_EQ(renderer.stats().palette_pass, on);
    EXPECT_GE(
        std::count_if(renderer.stats().agents_per_lod.begin(),
                      renderer.stats().agents_per_lod.end(), [](uint32_t n) { return n > 0; }),
        2);
  }
  EXPECT_LE(badShare(images[0], images[1], "palette pass vs direct fetching"),
            test::kPathMaxBadPixelShare);
}

TEST(CrowdRenderer, AFixedLodDrawsEveryAgentWithIt) {
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc desc;
  desc.fixed_lod = 3;
  CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
  ASSERT_TRUE(renderer.ok());
  const RendererScene scene(4);
  drawOnce(*device, renderer, scene);
  EXPECT_EQ(renderer.stats().agents_per_lod[3], renderer.stats().visible);
  EXPECT_EQ(renderer.stats().draw_calls, 3u);  // one per material
}

TEST(CrowdRenderer, UpdateTimesTheCrowdIntoTheNextFrame) {
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRenderer renderer(*device, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok());
  const Package& package = test::sampleWithLods();
  Crowd crowd(package.clips, clipSetByName(package.clips).value());
  for (int i = 0; i < 4; ++i) crowd.addAgent({glm::vec3(static_cast<float>(i), 0.0f, -3.0f)});
  const float before = crowd.playback()[0].time;
  renderer.update(crowd, 0.5f);
  // The gpu path advances the crowd on the GPU: bring it back (CPU paths: current already).
  const Result<bool> back = renderer.readBack(crowd, true);
  ASSERT_TRUE(back.ok() && *back) << back.status().toString();
  EXPECT_FLOAT_EQ(crowd.playback()[0].time, before + 0.5f);
  const RendererScene scene(1);
  device->beginFrame(kCrowdClear);
  ASSERT_TRUE(renderer.draw(scene.view, crowd).ok());
  EXPECT_EQ(renderer.stats().agents, 4u);
  EXPECT_GE(renderer.stats().cpu_ms.update, 0.0);
}

// The scenery the tools draw: ground, shadows and fog reaching into the back rows.
void addScenery(RendererScene& scene, CrowdRendererDesc& desc) {
  desc.ground.grid = true;
  desc.shadows = ShadowMode::kBlob;
  scene.view.fog.color = glm::vec3(kCrowdClear);
  scene.view.fog.start = 8.0f;
  scene.view.fog.end = 30.0f;
}

// The point of the front end: the same frame looks the same on every path and device, with or
// without the ground, the shadows and the fog.
void expectEveryPathDrawsTheSameImage(bool scenery) {
  RendererScene scene(6);
  CrowdRendererDesc base;
  if (scenery) addScenery(scene, base);
  Image reference;
  {
    auto es3 = test::makeTestDevice(3, kCrowdFrameSize);
    ASSERT_NE(es3, nullptr);
    CrowdRendererDesc desc = base;
    desc.path = RenderPath::kInstanced;
    CrowdRenderer instanced(*es3, test::sampleWithLods(), desc);
    ASSERT_TRUE(instanced.ok()) << instanced.status().toString();
    reference = drawOnce(*es3, instanced, scene);
    // The ES 2.0 shaders on the ES 3 device.
    for (RenderPath path : {RenderPath::kMerged, RenderPath::kPerCharacter}) {
      desc.path = path;
      CrowdRenderer renderer(*es3, test::sampleWithLods(), desc);
      ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
      const Image image = drawOnce(*es3, renderer, scene);
      EXPECT_LE(badShare(reference, image, renderPathName(path)), test::kPathMaxBadPixelShare)
          << renderPathName(path) << " on ES 3";
    }
  }
  int lit = 0;
  for (size_t px = 0; px < reference.rgba.size(); px += 4) {
    lit += std::abs(reference.rgba[px] - static_cast<int>(kCrowdClear.r * 255.0f)) >
           test::kPathChannelTolerance;
  }
  EXPECT_GT(lit, kCrowdFrameSize * kCrowdFrameSize / 20) << "the crowd must cover the frame";
  auto es2 = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(es2, nullptr);
  ASSERT_EQ(es2->caps().gles_major, 2);
  for (RenderPath path : {RenderPath::kMerged, RenderPath::kPerCharacter}) {
    CrowdRendererDesc desc = base;
    desc.path = path;
    CrowdRenderer renderer(*es2, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    const Image image = drawOnce(*es2, renderer, scene);
    EXPECT_LE(badShare(reference, image, renderPathName(path)), test::kPathMaxBadPixelShare)
        << renderPathName(path) << " on ES 2.0";
  }
}

// The job system's chunks change nothing: the same draw order, LODs and pixels (bytes) with no
// job system, 1, 2 or 3 threads. 4,900 agents: two chunks of kMinAgentsPerChunk or more.
TEST(CrowdRenderer, TheSameFrameWhateverTheThreadCount) {
  const RendererScene scene(70);
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged}) {
    auto device = test::makeTestDevice(3, kCrowdFrameSize);
    ASSERT_NE(device, nullptr);
    CrowdRendererDesc desc;
    desc.path = path;
    CrowdRenderer alone(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(alone.ok()) << alone.status().toString();
    const Image expected = drawOnce(*device, alone, scene);
    const std::vector<uint32_t> order(alone.drawOrder().begin(), alone.drawOrder().end());
    const std::vector<uint32_t> per_lod = alone.stats().agents_per_lod;
    // The instanced path's records as the GPU got them, byte for byte.
    std::vector<InstanceRecord> records;
    const bool instanced = path == RenderPath::kInstanced;
    if (instanced) {
      ASSERT_TRUE(readInstanceRecords(alone, records).ok());
    } else {
      EXPECT_EQ(readInstanceRecords(alone, records).code(), ErrorCode::kUnsupported);
    }
    EXPECT_GT(alone.stats().visible, 500u);
    EXPECT_LT(alone.stats().visible, 4900u);
    EXPECT_TRUE(std::is_sorted(order.begin(), order.begin() + per_lod[0]));
    for (int threads : {1, 2, 3}) {
      JobSystem jobs(threads);
      desc.jobs = &jobs;
      CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
      ASSERT_TRUE(renderer.ok());
      const Image image = drawOnce(*device, renderer, scene);
      SCOPED_TRACE(testing::Message() << renderPathName(path) << ", " << threads << " threads");
      EXPECT_EQ(renderer.stats().agents_per_lod, per_lod);
      ASSERT_EQ(renderer.drawOrder().size(), order.size());
      EXPECT_TRUE(std::equal(order.begin(), order.end(), renderer.drawOrder().begin()));
      EXPECT_EQ(image.rgba, expected.rgba);
      if (instanced) {
        std::vector<InstanceRecord> got;
        ASSERT_TRUE(readInstanceRecords(renderer, got).ok());
        ASSERT_EQ(got.size(), records.size());
        EXPECT_EQ(std::memcmp(got.data(), records.data(), records.size() * sizeof(InstanceRecord)),
                  0);
      }
    }
  }
}

TEST(CrowdRenderer, EveryPathDrawsTheSameImage) {
  expectEveryPathDrawsTheSameImage(false);
}

TEST(CrowdRenderer, EveryPathDrawsTheSameGroundShadowsAndFog) {
  expectEveryPathDrawsTheSameImage(true);
}

// Characters past the fog's end are drawn in the fog's colour on every path, and ones before
// its start are untouched (the image without fog).
TEST(CrowdRenderer, FogHidesFarCharactersOnEveryPath) {
  RendererScene scene(3);
  const glm::vec3 fog_color(0.9f, 0.2f, 0.6f);
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged, RenderPath::kPerCharacter}) {
    auto device = test::makeTestDevice(path == RenderPath::kInstanced ? 3 : 2, kCrowdFrameSize);
    ASSERT_NE(device, nullptr);
    CrowdRendererDesc desc;
    desc.path = path;
    CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    scene.view.fog = Fog{};
    const Image clear = drawOnce(*device, renderer, scene);
    scene.view.fog = Fog{fog_color, 1000.0f, 2000.0f};  // starts past everything
    EXPECT_EQ(compareImages(clear, drawOnce(*device, renderer, scene), 1).bad_pixels, 0)
        << renderPathName(path);
    scene.view.fog = Fog{fog_color, 0.0f, 0.5f};  // everything is past its end
    const Image fogged = drawOnce(*device, renderer, scene);
    int characters = 0, off = 0;
    for (size_t px = 0; px < fogged.rgba.size(); px += 4) {
      if (std::abs(clear.rgba[px + 2] - static_cast<int>(std::lround(kCrowdClear.b * 255.0f))) <=
          1) {
        continue;  // background
      }
      ++characters;
      for (int c = 0; c < 3; ++c) {
        off += std::abs(fogged.rgba[px + c] -
                        static_cast<int>(std::lround(fog_color[c] * 255.0f))) > 1;
      }
    }
    EXPECT_GT(characters, 200) << renderPathName(path);
    EXPECT_EQ(off, 0) << renderPathName(path);
  }
}

// LOD colouring replaces the tints by the LOD's debug colour, on every path alike.
TEST(CrowdRenderer, LodTintColoursEveryAgentByItsLod) {
  RendererScene scene(3);
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged}) {
    auto device = test::makeTestDevice(path == RenderPath::kInstanced ? 3 : 2, kCrowdFrameSize);
    ASSERT_NE(device, nullptr);
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 2;
    desc.lod_tint = true;
    CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    const Image image = drawOnce(*device, renderer, scene);
    const glm::vec4 want = lodDebugColor(2);
    int checked = 0, off = 0;
    // The shaders write sRGB-encoded colours: the lit colour (debug colour x light) is linear.
    auto linear = [](float c) {
      c /= 255.0f;
      return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
    };
    for (size_t px = 0; px < image.rgba.size(); px += 4) {
      const float r = image.rgba[px], g = image.rgba[px + 1];
      if (r < 60.0f) continue;  // background and dark edges
      ++checked;
      off += std::abs(linear(g) / linear(r) - want.g / want.r) > 0.08f;
    }
    EXPECT_GT(checked, 200) << renderPathName(path);
    EXPECT_LT(off, checked / 50) << renderPathName(path);
    renderer.setLodTint(false);
    EXPECT_GT(compareImages(image, drawOnce(*device, renderer, scene), 8).bad_pixels, 200)
        << "the scene's own tints come back";
  }
  EXPECT_NE(lodDebugColor(0), lodDebugColor(1));
  EXPECT_EQ(lodDebugColor(8), lodDebugColor(0));
}

// agentDrawInfo agrees with the frame's counters: each visible agent in one LOD, one draw call
// and one slot, as many per LOD as the stats say; culled agents are not visible.
Image drawMerged(Device& device, const Package& package, const FrameView& view,
                 const CrowdFrame& frame, std::optional<JointEncoding> encoding,
                 std::optional<int> fixed_lod = std::nullopt) {
  CrowdRendererDesc desc;
  desc.path = RenderPath::kMerged;
  desc.joint_encoding = encoding;
  desc.fixed_lod = fixed_lod;
  CrowdRenderer renderer(device, package, desc);
  EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
  if (encoding) {
    EXPECT_EQ(renderer.jointEncoding(), *encoding);
  }
  device.beginFrame(kCrowdClear);
  EXPECT_TRUE(renderer.draw(view, frame).ok());
  device.finish();
  return device.readPixels().value();
}

int litPixels(const Image& image) {
  int lit = 0;
  for (size_t px = 0; px < image.rgba.size(); px += 4) {
    lit += std::abs(image.rgba[px] - static_cast<int>(kCrowdClear.r * 255.0f)) >
           test::kPathChannelTolerance;
  }
  return lit;
}

// A rig the 2-vec4 encoding cannot hold (every skinning matrix stretched 10% along y: non-uniform
// scale) keeps the 3x4 rows by itself and says why; forcing 2 vec4 on it draws a wrong picture.
void expectNonUniformScaleKeepsTheRows() {
  Package package = test::sampleWithLods();
  AnimationTexture& texture = package.animation;
  const glm::mat4 stretch = glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, 1.1f, 1.0f));
  for (uint32_t f = 0; f < texture.frame_count; ++f) {
    for (uint32_t j = 0; j < texture.joint_count; ++j) {
      storeJointRows(texture, f, j, packRows(unpackRows(loadJointRows(texture, f, j)) * stretch));
    }
  }
  const RendererScene scene(4);
  auto es2 = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(es2, nullptr);
  SCOPED_TRACE("stretched rig");
  CrowdRendererDesc desc;
  desc.path = RenderPath::kMerged;
  CrowdRenderer automatic(*es2, package, desc);
  ASSERT_TRUE(automatic.ok());
  EXPECT_EQ(automatic.jointEncoding(), JointEncoding::kRows);
  EXPECT_GT(automatic.quatEncodingError(), kMaxQuatJointError);
  const std::string& reason = automatic.jointEncodingReason();
  EXPECT_EQ(reason.find("3x4 rows (3 vec4): 2 vec4 would be off by"), 0u) << reason;
  EXPECT_NE(reason.find("non-uniform scale, shear or mirroring), over the 0.1% allowed"),
            std::string::npos)
      << reason;
  const Image chosen = drawMerged(*es2, package, scene.view, scene.frame(), std::nullopt);
  const Image rows = drawMerged(*es2, package, scene.view, scene.frame(), JointEncoding::kRows);
  const Image quat =
      drawMerged(*es2, package, scene.view, scene.frame(), JointEncoding::kQuatScale);
  EXPECT_EQ(chosen.rgba, rows.rgba);
  EXPECT_GT(badShare(rows, quat, "2 vec4 forced on a stretched rig"), test::kPathMaxBadPixelShare);
}

// ES 2.0 merged path: the sample's palettes as quaternion + translation + scale (chosen by itself:
// its rig is rigid) draw the 3x4 rows' picture within crowd_bench's tolerance, cross-fades
// included, with at least 1.4x the characters per draw on 256 vectors; a stretched copy keeps
// the rows (one test: the sample's LOD chain is built once per process).
TEST(CrowdRenderer, QuatJointEncodingDrawsTheRowsImageWithFewerDraws) {
  const RendererScene scene(6);
  auto es2 = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(es2, nullptr);
  ASSERT_EQ(es2->caps().gles_major, 2);
  {
    CrowdRendererDesc desc;
    desc.path = RenderPath::kMerged;
    CrowdRenderer automatic(*es2, test::sampleWithLods(), desc);
    ASSERT_TRUE(automatic.ok());
    EXPECT_EQ(automatic.jointEncoding(), JointEncoding::kQuatScale);
    EXPECT_LT(automatic.quatEncodingError(), 1e-5f);
    EXPECT_EQ(automatic.jointEncodingReason().find("quat+translation+scale (2 vec4): error"), 0u)
        << automatic.jointEncodingReason();
  }
  const Image rows =
      drawMerged(*es2, test::sampleWithLods(), scene.view, scene.frame(), JointEncoding::kRows);
  const Image quat = drawMerged(*es2, test::sampleWithLods(), scene.view, scene.frame(),
                                JointEncoding::kQuatScale);
  EXPECT_GT(litPixels(rows), kCrowdFrameSize * kCrowdFrameSize / 20)
      << "the crowd must cover the frame";
  EXPECT_LE(badShare(rows, quat, "2 vec4 against 3 vec4"), test::kPathMaxBadPixelShare);

  // Characters per draw on a phone's 256 vectors, and the frame's draw calls.
  uint32_t draws[2] = {};
  int per_draw[2][kMaxLodLevels] = {};
  for (int e = 0; e < 2; ++e) {
    CrowdRendererDesc desc;
    desc.path = RenderPath::kMerged;
    desc.max_vertex_uniform_vectors = 256;
    desc.joint_encoding = e == 0 ? JointEncoding::kRows : JointEncoding::kQuatScale;
    CrowdRenderer renderer(*es2, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    for (int l = 0; l < renderer.lodCount(); ++l)
      per_draw[e][l] = renderer.lodInfo(l).characters_per_draw;
    es2->beginFrame(kCrowdClear);
    ASSERT_TRUE(renderer.draw(scene.view, scene.frame()).ok());
    draws[e] = renderer.stats().draw_calls;
  }
  for (int l = 0; l < static_cast<int>(test::sampleWithLods().lods.size()); ++l) {
    std::printf("  256 vectors, LOD %d: %d characters per draw (3 vec4), %d (2 vec4)\n", l,
                per_draw[0][l], per_draw[1][l]);
    EXPECT_GE(per_draw[1][l], 1.4 * per_draw[0][l]) << "LOD " << l;
  }
  std::printf("  draw calls for %zu agents: %u (3 vec4), %u (2 vec4)\n", scene.placements.size(),
              draws[0], draws[1]);
  EXPECT_LT(draws[1], draws[0]);
  es2.reset();
  expectNonUniformScaleKeepsTheRows();
}

// Real characters (required: THRONG_REQUIRE_ASSET): rigid rigs, so the 2-vec4 encoding is chosen
// and draws the 3x4 rows' picture, frames blended. Cross-fades are printed, not checked: a 50/50
// fade between clips whose poses differ by a large turn blends the rows linearly, shrinking the
// limbs across the turn (cos(angle / 2)), which no rotation with a uniform scale can hold.
// QuaterniusCharacter's (Idle, Walk, Run, Punch, Death...) differ there in ~2% of the pixels.
TEST(CrowdRenderer, QuatJointEncodingDrawsTheRowsImageOfSharedAssets) {
  const char* const assets[] = {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
                                "QuaterniusCharacter/Character.glb"};
  auto es2 = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(es2, nullptr);
  for (const char* asset : assets) THRONG_REQUIRE_ASSET(asset);
  int checked = 0;
  for (const char* asset : assets) {
    SCOPED_TRACE(asset);
    Result<Character> character = importGltf(test::assetPath(asset).string());
    ASSERT_TRUE(character.ok()) << character.status().toString();
    BakeOptions bake;
    bake.threads = 1;
    const Package package = bakeCharacter(*character, bake).value();
    const float size = character->size();
    for (const bool fades : {false, true}) {
      std::vector<Placement> placements;
      std::vector<AgentPlayback> playback;
      for (int i = 0; i < 9; ++i) {
        Placement p;
        p.position = glm::vec3(0.6f * size * static_cast<float>(i % 3 - 1), 0.0f,
                               -0.8f * size * static_cast<float>(i / 3));
        p.heading = 0.5f * static_cast<float>(i % 3 - 1);
        placements.push_back(p);
        AgentPlayback a;
        a.clip = static_cast<uint16_t>(i % package.clips.size());
        a.time = 0.23f * static_cast<float>(i);
        if (i % 3 == 1 && package.clips.size() > 1 && fades) {
          a.previous_clip = static_cast<uint16_t>((i + 1) % package.clips.size());
          a.previous_time = 0.3f;
          a.fade = 0.5f;
        }
        playback.push_back(a);
      }
      const glm::vec3 centre = 0.5f * (package.clips[0].bounds.min + package.clips[0].bounds.max);
      const FrameView view = lookAtView(glm::vec3(0.0f, centre.y, 2.2f * size),
                                        glm::vec3(0.0f, centre.y, -0.8f * size), 0.9f, 1.0f,
                                        0.01f * size, 20.0f * size);
      const CrowdFrame frame{placements, playback, {}};
      CrowdRendererDesc desc;
      desc.path = RenderPath::kMerged;
      CrowdRenderer automatic(*es2, package, desc);
      ASSERT_TRUE(automatic.ok());
      EXPECT_EQ(automatic.jointEncoding(), JointEncoding::kQuatScale)
          << automatic.jointEncodingReason();
      std::printf("  %s: %s\n", asset, automatic.jointEncodingReason().c_str());
      const Image rows = drawMerged(*es2, package, view, frame, JointEncoding::kRows, 0);
      const Image quat = drawMerged(*es2, package, view, frame, JointEncoding::kQuatScale, 0);
      EXPECT_GT(litPixels(rows), kCrowdFrameSize * kCrowdFrameSize / 20);
      const double share = badShare(rows, quat, fades ? "(with cross-fades)" : asset);
      if (!fades) {
        EXPECT_LE(share, test::kPathMaxBadPixelShare);
      }
      if (package.clips.size() == 1) break;
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(std::size(assets)));
}

TEST(CrowdRenderer, AgentDrawInfoSaysHowEachAgentWasDrawn) {
  const RendererScene scene(6);
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged, RenderPath::kPerCharacter}) {
    auto device = test::makeTestDevice(path == RenderPath::kInstanced ? 3 : 2, kCrowdFrameSize);
    ASSERT_NE(device, nullptr);
    CrowdRendererDesc desc;
    desc.path = path;
    CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    EXPECT_FALSE(renderer.agentDrawInfo(0).visible) << "nothing drawn yet";
    drawOnce(*device, renderer, scene);
    const CrowdFrameStats& stats = renderer.stats();
    std::vector<uint32_t> per_lod(renderer.lodCount(), 0);
    std::set<std::pair<int, int>> slots;
    uint32_t visible = 0;
    for (uint32_t a = 0; a < stats.agents; ++a) {
      const AgentDrawInfo info = renderer.agentDrawInfo(a);
      if (!info.visible) {
        EXPECT_EQ(info.lod, -1);
        continue;
      }
      ++visible;
      ASSERT_GE(info.lod, 0);
      ASSERT_LT(info.lod, renderer.lodCount());
      ++per_lod[info.lod];
      EXPECT_EQ(info.drawn_lod, renderer.lodInfo(info.lod).drawn_lod);
      EXPECT_GE(info.draw_call, 0);
      EXPECT_LT(info.draw_call, static_cast<int>(stats.draw_calls)) << renderPathName(path);
      EXPECT_TRUE(slots.insert({info.draw_call, info.slot}).second) << "one agent per slot";
      if (path == RenderPath::kPerCharacter) {
        EXPECT_EQ(info.slot, 0);
      }
    }
    EXPECT_EQ(visible, stats.visible) << renderPathName(path);
    EXPECT_LT(visible, stats.agents) << "some agents are culled";
    EXPECT_EQ(per_lod, stats.agents_per_lod) << renderPathName(path);
    EXPECT_FALSE(renderer.agentDrawInfo(stats.agents).visible) << "out of range";
  }
}

TEST(CrowdRenderer, GroundAndShadowsAreCountedApartFromTheCrowd) {
  RendererScene scene(4);
  auto device = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(device, nullptr);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;  // one blob draw (the gpu path: one per LOD)
  CrowdRenderer renderer(*device, test::sampleWithLods(), desc);
  ASSERT_TRUE(renderer.ok());
  drawOnce(*device, renderer, scene);
  const uint32_t crowd_draws = renderer.stats().draw_calls;
  EXPECT_EQ(renderer.stats().ground_draw_calls, 0u);
  EXPECT_EQ(renderer.stats().cpu_ms.ground, 0.0);
  GroundDesc ground;
  ground.grid = true;
  renderer.setGround(ground);
  renderer.setShadows(ShadowMode::kBlob);
  const Image with_ground = drawOnce(*device, renderer, scene);
  EXPECT_EQ(renderer.stats().draw_calls, crowd_draws);
  EXPECT_EQ(renderer.stats().ground_draw_calls, 2u) << "the ground, and the shadows instanced";
  EXPECT_GT(renderer.stats().cpu_ms.ground, 0.0);
  // The ground covers the lower half of the frame (the camera looks down at it).
  const uint8_t* bottom = &with_ground.rgba[((kCrowdFrameSize - 2) * kCrowdFrameSize + 3) * 4];
  EXPECT_GT(std::abs(bottom[2] - static_cast<int>(std::lround(kCrowdClear.b * 255.0f))), 10);
  renderer.setLodThresholdPixels(-1.0f);
  EXPECT_EQ(renderer.lodThresholdPixels(), kDefaultLodThresholdPx);
  renderer.setLodThresholdPixels(4.0f);
  EXPECT_EQ(renderer.lodThresholdPixels(), 4.0f);
}

// A textured character (CesiumMan: one material with a 1024x1024 base-colour texture): every
// path's image equals the per-character baseline's within crowd_bench's tolerance.
TEST(CrowdRenderer, EveryPathDrawsTheSameTexturedCharacter) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  Result<Character> character = importGltf(test::assetPath("CesiumMan/CesiumMan.glb").string());
  ASSERT_TRUE(character.ok()) << character.status().toString();
  ASSERT_FALSE(character->images.empty());
  BakeOptions bake;
  bake.threads = 1;
  const Package package = bakeCharacter(*character, bake).value();
  // A 3 x 3 grid, tinted, seen from the front at the height of their chests.
  const float size = character->size();
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<glm::vec4> tints;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position = glm::vec3(0.6f * size * static_cast<float>(i % 3 - 1), 0.0f,
                           -0.8f * size * static_cast<float>(i / 3));
    p.heading = 0.4f * static_cast<float>(i % 3 - 1);
    placements.push_back(p);
    AgentPlayback a;
    a.time = 0.21f * static_cast<float>(i);
    playback.push_back(a);
    tints.push_back(glm::vec4(1.0f, 0.6f + 0.2f * static_cast<float>(i % 3), 1.0f, 1.0f));
  }
  const glm::vec3 centre = 0.5f * (package.clips[0].bounds.min + package.clips[0].bounds.max);
  const FrameView view =
      lookAtView(glm::vec3(0.0f, centre.y, 2.2f * size), glm::vec3(0.0f, centre.y, -0.8f * size),
                 0.9f, 1.0f, 0.01f * size, 20.0f * size);
  const CrowdFrame frame{placements, playback, tints};
  auto draw = [&](Device& device, RenderPath path) {
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 0;
    CrowdRenderer renderer(device, package, desc);
    EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
    device.beginFrame(kCrowdClear);
    EXPECT_TRUE(renderer.draw(view, frame).ok());
    device.finish();
    return device.readPixels().value();
  };
  auto es3 = test::makeTestDevice(3, kCrowdFrameSize);
  ASSERT_NE(es3, nullptr);
  const Image baseline = draw(*es3, RenderPath::kPerCharacter);
  // The texture shows: many distinct colours, and the crowd covers the frame.
  std::set<uint32_t> colours;
  int lit = 0;
  for (size_t px = 0; px < baseline.rgba.size(); px += 4) {
    colours.insert(static_cast<uint32_t>(baseline.rgba[px]) << 16 |
                   static_cast<uint32_t>(baseline.rgba[px + 1]) << 8 | baseline.rgba[px + 2]);
    lit += std::abs(baseline.rgba[px] - static_cast<int>(kCrowdClear.r * 255.0f)) >
           test::kPathChannelTolerance;
  }
  EXPECT_GT(lit, kCrowdFrameSize * kCrowdFrameSize / 10);
  EXPECT_GT(colours.size(), 500u) << "a textured crowd has many colours";
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kMerged}) {
    EXPECT_LE(badShare(baseline, draw(*es3, path), renderPathName(path)),
              test::kPathMaxBadPixelShare)
        << renderPathName(path) << " on ES 3";
  }
  es3.reset();
  auto es2 = test::makeTestDevice(2, kCrowdFrameSize);
  ASSERT_NE(es2, nullptr);
  for (RenderPath path : {RenderPath::kMerged, RenderPath::kPerCharacter}) {
    EXPECT_LE(badShare(baseline, draw(*es2, path), renderPathName(path)),
              test::kPathMaxBadPixelShare)
        << renderPathName(path) << " on ES 2.0";
  }
}

TEST(FrameView, FromMatricesRecoversTheEyeAndTheFieldOfView) {
  const glm::vec3 eye(3.0f, 2.0f, 7.0f);
  const glm::mat4 view = glm::lookAt(eye, glm::vec3(0.0f), glm::vec3(0, 1, 0));
  const glm::mat4 projection = glm::perspective(0.8f, 1.5f, 0.1f, 100.0f);
  const FrameView v = frameViewFromMatrices(view, projection);
  EXPECT_NEAR(glm::distance(v.eye, eye), 0.0f, 1e-4f);
  EXPECT_NEAR(v.fov_y, 0.8f, 1e-5f);
  EXPECT_EQ(v.view_projection, projection * view);
  const LodView lod = lodViewOf(v, 480);
  EXPECT_EQ(lod.viewport_height, 480.0f);
  EXPECT_EQ(lod.threshold_pixels, kDefaultLodThresholdPx);
  // A framing view is the framing matrix with its eye.
  const Bounds box{glm::vec3(-1.0f), glm::vec3(1.0f)};
  const FrameView framed = framingView(box, 1.0f);
  EXPECT_EQ(framed.view_projection, framingViewProjection(box, 1.0f));
  EXPECT_GT(glm::length(framed.eye), 1.7f);  // outside the box's sphere
}

}  // namespace
}  // namespace throng::render
