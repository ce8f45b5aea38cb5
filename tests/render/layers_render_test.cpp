// Layers on the render paths (docs/props_and_layers.md): the instanced path's vertices
// (transform feedback) against LayerPaletteJob + SkinJob at weight 1 and between 0 and 1, and
// every path's picture against the CPU reference image posed by LayerPaletteJob.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "offline/prop_fixture.h"
#include "render/cpu_reference.h"
#include "render/instanced_renderer.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/core/attachment.h"
#include "throng/crowd/batch_palette.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/layer_palette.h"
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/mixed_crowd_renderer.h"

namespace throng {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace layers_render_test {

using render::CrowdFrame;
using render::CrowdRenderer;
using render::CrowdRendererDesc;
using render::RenderPath;

// The shader's inverse, quaternion fit and blend against the CPU's in float: what is left is
// the order of float operations (relative to the character's size, as the other captures).
constexpr float kPositionTolerance = 1e-4f;
// As reference_image_test.
constexpr int kTolerance = 4;
constexpr double kMaxBadPixelShare = 0.001;
constexpr int kFrameSize = 256;
// Layer weights tried: whole, and two between 0 and 1.
constexpr float kWeights[] = {1.0f, 0.5f, 0.3f};

// The sample character with two masks: "upper" (spine_01's subtree: re-rooted on the hips) and
// "all" (the root's subtree: no parent to re-root on).
Package layeredSample() {
  Character c = makeSampleCharacter();
  EXPECT_TRUE(addJointMask(c, {"upper", "spine_01"}, "sample").ok());
  EXPECT_TRUE(addJointMask(c, {"all", c.skeleton.names()[0]}, "sample").ok());
  BakeOptions bake;
  bake.threads = 1;
  Result<Package> p = bakeCharacter(c, bake);
  EXPECT_TRUE(p.ok()) << p.status().toString();
  return p.ok() ? std::move(p).value() : Package{};
}

std::vector<JointRange> maskRanges(const Package& package) {
  std::vector<JointRange> ranges;
  for (const JointMask& m : package.masks) ranges.push_back(jointRange(package.skeleton, m.root));
  return ranges;
}

// Agent i's layer: another clip than its base, mask i % 2, weight kWeights[i % 3].
AgentLayer layerOf(const Package& package, size_t i) {
  AgentLayer layer;
  layer.active = true;
  layer.clip = static_cast<uint16_t>((i + 1) % package.clips.size());
  layer.mask = static_cast<uint8_t>(i % package.masks.size());
  layer.time = 0.37f * static_cast<float>(i);
  layer.weight = kWeights[i % 3];
  layer.level = 1.0f;
  return layer;
}

TEST(LayersRender, InstancedVerticesMatchLayerPaletteJobAtFullAndPartialWeight) {
  const Package package = layeredSample();
  ASSERT_EQ(package.masks.size(), 2u);
  const std::vector<JointRange> ranges = maskRanges(package);
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  const std::vector<render::Instance> plain = test::randomInstances(package, 12, 21);
  std::vector<render::Instance> layered = plain;
  for (size_t i = 0; i < layered.size(); ++i)
    layered[i].layer = layerSample(package.clips, ranges, layerOf(package, i));
  // The palette pass blends no layers: forced on, such frames still fetch directly.
  for (const render::PalettePassMode mode :
       {render::PalettePassMode::kOff, render::PalettePassMode::kOn}) {
    render::InstancedRendererOptions options;
    options.palette_pass = mode;
    auto renderer = render::InstancedRenderer::create(*device, package, options);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    ASSERT_TRUE((*renderer)->drawsLayers());
    const test::SkinningError e = test::compareWithCpu(**renderer, package, layered);
    std::printf("  palette pass %s: position error %.3g, normal error %.3g\n",
                mode == render::PalettePassMode::kOn ? "on" : "off",
                static_cast<double>(e.position), static_cast<double>(e.normal));
    EXPECT_LT(e.position, kPositionTolerance);
    EXPECT_LT(e.normal, 1e-3f);
    if (mode == render::PalettePassMode::kOn) {
      // The pass's own palettes (once per agent and joint) against LayerPaletteJob's.
      const size_t joints = package.skeleton.jointCount();
      std::vector<JointRows> gpu(layered.size() * joints), cpu(joints);
      ASSERT_TRUE((*renderer)->capturePalettes(layered, gpu).ok());
      const std::vector<glm::vec3> pivots = jointPivots(package.skeleton);
      float worst = 0.0f;
      for (size_t i = 0; i < layered.size(); ++i) {
        const render::Instance in = render::decodeInstanceRecord(
            render::encodeInstanceRecord(layered[i], package.animation.frame_count - 1));
        LayerPaletteJob job{&package.animation, in.frames, in.layer, pivots, cpu};
        ASSERT_TRUE(job.run());
        for (size_t j = 0; j < joints; ++j) {
          for (int r = 0; r < 3; ++r) {
            const glm::vec4 d = gpu[i * joints + j].rows[r] - cpu[j].rows[r];
            worst = std::max({worst, std::abs(d.x), std::abs(d.y), std::abs(d.z), std::abs(d.w)});
          }
        }
      }
      std::printf("  palette pass: largest palette difference %.3g\n", static_cast<double>(worst));
      EXPECT_LT(worst, 1e-4f);
    }
    // The layer must move the vertices (else a shader ignoring it would match a reference that
    // ignores it too): every weight tried, far past the tolerance.
    const size_t n = (*renderer)->vertexCount(0);
    std::vector<glm::vec3> with(n * plain.size()), without(with.size()), normals(with.size());
    ASSERT_TRUE((*renderer)->captureSkinnedVertices(layered, 0, with, normals).ok());
    ASSERT_TRUE((*renderer)->captureSkinnedVertices(plain, 0, without, normals).ok());
    for (size_t i = 0; i < plain.size(); ++i) {
      float moved = 0.0f;
      for (size_t v = 0; v < n; ++v)
        moved = std::max(moved, glm::distance(with[i * n + v], without[i * n + v]));
      EXPECT_GT(moved, 0.01f * plain[i].placement.scale) << "instance " << i;
    }
  }
}

// The CPU reference's characters: each agent posed by LayerPaletteJob (its base frames and
// layerSample of its layer; an empty `layers`: none) and placed.
std::vector<test::ReferenceCharacter> layeredReference(const Package& package,
                                                       std::span<const Placement> placements,
                                                       std::span<const AgentPlayback> playback,
                                                       std::span<const AgentLayer> layers) {
  const std::vector<JointRange> ranges = maskRanges(package);
  const std::vector<glm::vec3> pivots = jointPivots(package.skeleton);
  std::vector<test::ReferenceCharacter> out;
  for (size_t a = 0; a < placements.size(); ++a) {
    const InstanceFrames frames =
        agentFrames(std::span<const BakedClip>(package.clips), playback[a]);
    std::vector<JointRows> palette(package.skeleton.jointCount());
    const LayerSample layer =
        layers.empty() ? LayerSample{} : layerSample(package.clips, ranges, layers[a]);
    LayerPaletteJob job{&package.animation, frames, layer, pivots, palette};
    EXPECT_TRUE(job.run());
    test::ReferenceCharacter c;
    c.mesh = &package.lods[0].mesh;
    c.materials = package.materials;
    const glm::mat4 place = placementMatrix(placements[a]);
    for (const JointRows& rows : palette) c.palette.push_back(placeRows(place, rows));
    out.push_back(std::move(c));
  }
  return out;
}

// With THRONG_TEST_IMAGE_DIR set, the images compared are written there to be looked at.
void keepImage(const render::Image& image, const std::string& name) {
  if (const char* dir = std::getenv("THRONG_TEST_IMAGE_DIR")) {
    EXPECT_TRUE(render::writePng(image, std::string(dir) + "/layers_" + name + ".png").ok());
  }
}

TEST(LayersRender, EveryPathDrawsTheLayeredPictureOfTheCpuReference) {
  std::string missing;
  std::unique_ptr<render::Device> device = test::makeEs31Device(&missing, kFrameSize, kFrameSize);
  THRONG_REQUIRE(device != nullptr, missing);  // the gpu path needs ES 3.1 compute
  const Package package = layeredSample();
  ASSERT_EQ(package.masks.size(), 2u);

  // A 3 x 3 crowd on whole baked frames, each with a layer (weights 1, 0.5, 0.3; both masks).
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<AgentLayer> layers;
  std::vector<test::ReferenceCharacter> unlayered;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position =
        glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3) * 1.2f);
    p.heading = 0.4f * static_cast<float>(i % 3 - 1);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % package.clips.size());
    const BakedClip& baked = package.clips[a.clip];
    a.time = static_cast<float>((5 * i) % baked.frame_count) / baked.fps;
    playback.push_back(a);
    AgentLayer layer = layerOf(package, static_cast<size_t>(i));
    const BakedClip& layer_clip = package.clips[layer.clip];
    layer.time = static_cast<float>((3 * i + 1) % layer_clip.frame_count) / layer_clip.fps;
    layers.push_back(layer);

    const InstanceFrames frames = agentFrames(std::span<const BakedClip>(package.clips), a);
    std::vector<JointRows> palette(package.skeleton.jointCount());
    FramePaletteJob base_job{&package.animation, frames, palette};
    ASSERT_TRUE(base_job.run());
    test::ReferenceCharacter c;
    c.mesh = &package.lods[0].mesh;
    c.materials = package.materials;
    const glm::mat4 place = placementMatrix(p);
    for (const JointRows& rows : palette) c.palette.push_back(placeRows(place, rows));
    unlayered.push_back(std::move(c));
  }
  const std::vector<test::ReferenceCharacter> reference =
      layeredReference(package, placements, playback, layers);
  const Bounds bounds{glm::vec3(-2.5f, 0.0f, -3.5f), glm::vec3(2.5f, 2.0f, 1.0f)};
  const render::FrameView view = render::framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  Result<render::Image> expected =
      test::drawCpuReference(*device, reference, view.view_projection, clear);
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  Result<render::Image> base =
      test::drawCpuReference(*device, unlayered, view.view_projection, clear);
  ASSERT_TRUE(base.ok());
  keepImage(*expected, "reference");
  // The layers must change the picture well past what a path may get wrong.
  const int64_t moved = render::compareImages(*expected, *base, kTolerance).bad_pixels;
  std::printf("  the layers move %lld pixels\n", static_cast<long long>(moved));
  EXPECT_GT(moved, 10 * kMaxBadPixelShare * kFrameSize * kFrameSize);

  for (const RenderPath path :
       {RenderPath::kPerCharacter, RenderPath::kMerged, RenderPath::kInstanced, RenderPath::kGpu}) {
    SCOPED_TRACE(render::renderPathName(path));
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 0;
    desc.tint = false;
    CrowdRenderer renderer(*device, package, desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    ASSERT_EQ(renderer.path(), path) << renderer.pathReason();
    device->beginFrame(clear);
    CrowdFrame frame{placements, playback};
    frame.layers = layers;
    ASSERT_TRUE(renderer.draw(view, frame).ok());
    device->finish();
    Result<render::Image> image = device->readPixels();
    ASSERT_TRUE(image.ok());
    keepImage(*image, render::renderPathName(path));
    const render::ImageDifference d = render::compareImages(*image, *expected, kTolerance);
    std::printf("  %s: %lld pixels differ from the reference by more than %d (largest %d)\n",
                render::renderPathName(path), static_cast<long long>(d.bad_pixels), kTolerance,
                d.max_channel_difference);
    EXPECT_LE(static_cast<double>(d.bad_pixels) / (kFrameSize * kFrameSize), kMaxBadPixelShare);
  }
}

// A Crowd's props and layers (setAttachments, playLayer) reach the renderers: draw(view, crowd)
// equals the spans given by hand and differs from the crowd drawn without them; a mixed crowd
// (its agents gathered per character) draws the same picture.
TEST(LayersRender, ACrowdsPropsAndLayersReachTheRenderers) {
  constexpr int kSize = 128;
  auto device = test::makeTestDevice(render::DeviceDesc{.width = kSize, .height = kSize});
  ASSERT_NE(device, nullptr);
  const std::filesystem::path dir = test::makeTempDir("layers-crowd");
  const float red[4] = {0.9f, 0.05f, 0.05f, 1.0f};
  Result<Character> box = importGltf(test::writePropBox(dir, "box.gltf", red));
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(box.ok());
  Character c = makeSampleCharacter();
  ASSERT_TRUE(attachProp(c, "hand.R", *box, {glm::vec3(0.0f), glm::vec3(0.0f), 2.0f}, "box",
                         "box.gltf", "sample")
                  .ok());
  ASSERT_TRUE(addJointMask(c, {"upper", "spine_01"}, "sample").ok());
  BakeOptions bake;
  bake.threads = 1;
  const Package package = bakeCharacter(c, bake).value();
  const ClipSet clips = clipSetByName(package.clips).value();
  // The same agents, props and layers in a crowd of one character and in one of two (all of the
  // first).
  auto populate = [&](Crowd& crowd) {
    for (int i = 0; i < 6; ++i) {
      Placement p;
      p.position =
          glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3));
      crowd.addAgent(p, 0.1f * static_cast<float>(i));
    }
    crowd.setAttachments(0, 0u);
    crowd.setAttachments(3, 0u);
    for (uint32_t a : {1u, 2u, 4u}) {
      EXPECT_TRUE(crowd.playLayer(a, static_cast<uint16_t>(a % package.clips.size()), 0,
                                  a == 2 ? 0.5f : 1.0f, 0.0f));
    }
    crowd.update(0.2f);
  };
  Crowd crowd(package.clips, clips, {}, package.masks.size());
  populate(crowd);
  const CrowdCharacter characters[] = {{package.clips, clips, package.masks.size()},
                                       {package.clips, clips, package.masks.size()}};
  Crowd two(characters);
  populate(two);
  const render::FrameView view =
      render::framingView(Bounds{glm::vec3(-2.0f, 0.0f, -2.0f), glm::vec3(2.0f, 2.0f, 1.0f)}, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  desc.tint = false;
  desc.fixed_lod = 0;
  CrowdRenderer renderer(*device, package, desc);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  auto draw = [&](const auto& what) {
    device->beginFrame(clear);
    EXPECT_TRUE(renderer.draw(view, what).ok());
    device->finish();
    return device->readPixels().value();
  };
  const render::Image from_crowd = draw(crowd);
  CrowdFrame spans{crowd.placements(), crowd.playback()};
  const render::Image plain = draw(spans);
  spans.attachments = crowd.attachments();
  spans.layers = crowd.layers();
  const render::Image from_spans = draw(spans);
  EXPECT_EQ(render::compareImages(from_crowd, from_spans, 0).bad_pixels, 0);
  const int64_t changed = render::compareImages(from_crowd, plain, kTolerance).bad_pixels;
  std::printf("  the crowd's props and layers change %lld pixels\n",
              static_cast<long long>(changed));
  EXPECT_GT(changed, 10 * kMaxBadPixelShare * kSize * kSize);

  const Package* packages[] = {&package, &package};
  auto mixed = render::MixedCrowdRenderer::create(*device, packages, desc);
  ASSERT_TRUE(mixed.ok()) << mixed.status().toString();
  device->beginFrame(clear);
  ASSERT_TRUE((*mixed)->draw(view, two).ok());
  device->finish();
  const render::ImageDifference d =
      render::compareImages(device->readPixels().value(), from_crowd, kTolerance);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kSize * kSize), kMaxBadPixelShare);
}

// The gpu path advances a mirrored Crowd's layers (Crowd::advanceLayers in its update): after N
// updates its picture is the CPU reference of the same crowd updated N times on the CPU
// (LayerPaletteJob of each agent's layerSample), not that of the layers held at their start.
TEST(LayersRender, TheGpuPathAdvancesACrowdsLayers) {
  std::string missing;
  std::unique_ptr<render::Device> device = test::makeEs31Device(&missing, kFrameSize, kFrameSize);
  THRONG_REQUIRE(device != nullptr, missing);  // the gpu path needs ES 3.1 compute
  const Package package = layeredSample();
  ASSERT_EQ(package.masks.size(), 2u);
  const Result<ClipSet> clips = clipSetByName(package.clips);
  ASSERT_TRUE(clips.ok()) << clips.status().toString();
  // Six idle agents, each with a looped layer on either mask; some fade in over longer than
  // the run (their weight still rising), agent 5 plays its layer once.
  auto populate = [&](Crowd& crowd) {
    for (int i = 0; i < 6; ++i) {
      Placement p;
      p.position =
          glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3) * 1.2f);
      p.heading = 0.4f * static_cast<float>(i % 3 - 1);
      crowd.addAgent(p, 0.1f * static_cast<float>(i));
      const uint16_t clip = static_cast<uint16_t>((i + 1) % package.clips.size());
      EXPECT_TRUE(crowd.playLayer(static_cast<uint32_t>(i), clip, static_cast<uint8_t>(i % 2),
                                  i % 3 == 2 ? 0.5f : 1.0f, i < 3 ? 0.0f : 0.8f,
                                  i == 5 ? LayerLoop::kOnce : LayerLoop::kLoop));
    }
  };
  Crowd on_gpu(package.clips, *clips, {}, package.masks.size());
  Crowd on_cpu(package.clips, *clips, {}, package.masks.size());
  populate(on_gpu);
  populate(on_cpu);
  const std::vector<AgentLayer> at_start(on_cpu.layers().begin(), on_cpu.layers().end());

  CrowdRendererDesc desc;
  desc.path = RenderPath::kGpu;
  desc.fixed_lod = 0;
  desc.tint = false;
  CrowdRenderer renderer(*device, package, desc);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  ASSERT_EQ(renderer.path(), RenderPath::kGpu) << renderer.pathReason();
  const Bounds bounds{glm::vec3(-2.5f, 0.0f, -2.5f), glm::vec3(2.5f, 2.0f, 1.0f)};
  const render::FrameView view = render::framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  constexpr int kUpdates = 12;
  constexpr float kDt = 1.0f / 30.0f;
  for (int i = 0; i < kUpdates; ++i) {
    renderer.update(on_gpu, kDt);
    on_cpu.update(kDt);
    device->beginFrame(clear);
    ASSERT_TRUE(renderer.draw(view, on_gpu).ok());
  }
  device->finish();
  Result<render::Image> image = device->readPixels();
  ASSERT_TRUE(image.ok());
  keepImage(*image, "gpu_crowd_advanced");
  // The layers themselves: as the CPU's update left them.
  for (uint32_t a = 0; a < 6; ++a) {
    EXPECT_EQ(on_gpu.layers()[a].time, on_cpu.layers()[a].time) << "agent " << a;
    EXPECT_EQ(on_gpu.layers()[a].level, on_cpu.layers()[a].level) << "agent " << a;
    EXPECT_NE(on_gpu.layers()[a].time, at_start[a].time) << "agent " << a;
  }

  // The base poses: the CPU crowd's (the GPU's agents agree within docs/gpu_driven.md's
  // tolerances).
  Result<render::Image> expected = test::drawCpuReference(
      *device, layeredReference(package, on_cpu.placements(), on_cpu.playback(), on_cpu.layers()),
      view.view_projection, clear);
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  Result<render::Image> frozen = test::drawCpuReference(
      *device, layeredReference(package, on_cpu.placements(), on_cpu.playback(), at_start),
      view.view_projection, clear);
  ASSERT_TRUE(frozen.ok()) << frozen.status().toString();
  keepImage(*expected, "gpu_crowd_reference");
  keepImage(*frozen, "gpu_crowd_frozen");
  const int64_t moved = render::compareImages(*expected, *frozen, kTolerance).bad_pixels;
  std::printf("  the layers' advance moves %lld pixels\n", static_cast<long long>(moved));
  EXPECT_GT(moved, 10 * kMaxBadPixelShare * kFrameSize * kFrameSize);
  const render::ImageDifference d = render::compareImages(*image, *expected, kTolerance);
  std::printf("  gpu: %lld pixels differ from the reference by more than %d (largest %d)\n",
              static_cast<long long>(d.bad_pixels), kTolerance, d.max_channel_difference);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kFrameSize * kFrameSize), kMaxBadPixelShare);
}

}  // namespace layers_render_test
}  // namespace throng
