// Render-test helpers: devices, random instances and the CPU skinning oracle for captures.
#include "render_test_support.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <system_error>

#include <gtest/gtest.h>

#include "support/material_character.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_morph.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/layer_palette.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"

namespace throng::test {

render::Image readTestPng(const std::filesystem::path& png) {
  Result<render::Image> image = render::readPng(png.string());
  EXPECT_TRUE(image.ok()) << image.status().toString();
  return image.ok() ? std::move(image).value() : render::Image{};
}

double pathBadShare(const render::Image& a, const render::Image& b) {
  if (a.width != b.width || a.height != b.height || a.rgba.empty()) return 1.0;
  const render::ImageDifference d = render::compareImages(a, b, kPathChannelTolerance);
  return static_cast<double>(d.bad_pixels) / static_cast<double>(a.width * a.height);
}

// ctest runs every test in a process of its own, and baking the sample and building its LOD chain
// is most of a test's time in CI's sanitizer tree (14 s of CPU under ASan + UBSan, per process):
// the first process writes the package into the build tree and the others read it back (the round
// trip is lossless: Package.RoundTripsEveryField). A cache older than this test program (relinked
// whenever a library changes) or unreadable is baked again.
const Package& sampleWithLods() {
  static const Package package = [] {
    const std::filesystem::path cache =
        std::filesystem::path(THRONG_TEST_CACHE_DIR) / "sample_with_lods.throng";
    std::error_code cache_error, program_error;
    const auto cache_time = std::filesystem::last_write_time(cache, cache_error);
    const auto program_time = std::filesystem::last_write_time("/proc/self/exe", program_error);
    if (!cache_error && !program_error && cache_time >= program_time) {
      Result<Package> cached = readPackage(cache.string());
      if (cached.ok()) return std::move(cached).value();
    }
    const Character character = makeSampleCharacter();
    BakeOptions bake;
    bake.threads = 1;
    Package p = bakeCharacter(character, bake).value();
    p.lods = buildLodChain(character, defaultLodChainOptions()).value();
    // Atomic (writePackage): a process reading meanwhile sees the whole old file or the new one.
    const Status written = writePackage(p, cache.string());
    EXPECT_TRUE(written.ok()) << written.toString();
    return p;
  }();
  return package;
}

namespace synthetic_impostor {

constexpr uint32_t kSyntheticAzimuths = 8;
constexpr uint32_t kSyntheticElevations = 3;
constexpr uint32_t kSyntheticTileWidth = 12;
constexpr uint32_t kSyntheticTileHeight = 16;
constexpr uint32_t kSyntheticFramesPerClip = 4;

// The colour of tile (view, frame): every tile its own, alpha 255 inside an inset rectangle.
glm::u8vec3 syntheticTileColor(uint32_t view, uint32_t frame) {
  return glm::u8vec3(30 + 25 * (view % kSyntheticAzimuths), 40 + 70 * (view / kSyntheticAzimuths),
                     30 + 50 * (frame % 4));
}
bool syntheticTileCovered(uint32_t x, uint32_t y) {
  return x >= 2 && x < kSyntheticTileWidth - 2 && y >= 1 && y < kSyntheticTileHeight - 2;
}

}  // namespace synthetic_impostor

Package sampleWithSyntheticImpostor() {
  using namespace synthetic_impostor;
  Package p = sampleWithLods();
  Impostor& m = p.impostor;
  m.azimuths = kSyntheticAzimuths;
  m.elevations = kSyntheticElevations;
  m.tile_width = kSyntheticTileWidth;
  m.tile_height = kSyntheticTileHeight;
  m.center = glm::vec3(0.0f, 0.9f, 0.0f);
  m.size = glm::vec2(1.2f, 1.9f);
  m.fps = 10.0f;
  m.clip_frames.assign(p.clips.size(), kSyntheticFramesPerClip);
  m.max_error = 0.5f;
  const uint32_t w = m.atlasWidth();
  const uint32_t h = m.atlasHeight();
  m.color.assign(size_t{w} * h * kImpostorColorBytes, 0);
  m.normals.assign(size_t{w} * h * kImpostorNormalBytes, 0);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      if (!syntheticTileCovered(x % kSyntheticTileWidth, y % kSyntheticTileHeight)) continue;
      const glm::u8vec3 c = syntheticTileColor(y / kSyntheticTileHeight, x / kSyntheticTileWidth);
      uint8_t* px = &m.color[(size_t{y} * w + x) * kImpostorColorBytes];
      px[0] = c.r;
      px[1] = c.g;
      px[2] = c.b;
      px[3] = 255;
      uint8_t* n = &m.normals[(size_t{y} * w + x) * kImpostorNormalBytes];
      n[0] = 128;
      n[1] = 128;
      n[2] = 255;
    }
  }
  return p;
}

const Package& materialCharacterPackage() {
  static const Package package = [] {
    BakeOptions bake;
    bake.threads = 1;
    return bakeCharacter(makeMaterialCharacter(), bake).value();
  }();
  return package;
}

const std::vector<Package>& sampleAndChainPackages() {
  static const std::vector<Package> packages = {bakeForTest(makeSampleCharacter()),
                                                bakeForTest(makeChainCharacter(), 24.0f)};
  return packages;
}

std::string pathParamName(const ::testing::TestParamInfo<render::RenderPath>& info) {
  std::string name = render::renderPathName(info.param);
  std::erase(name, '-');
  return name;
}

std::string pathOnEsName(render::RenderPath path, int gles_major) {
  std::string name = render::renderPathName(path);
  std::erase(name, '-');
  return name + "Es" + std::to_string(gles_major);
}

std::unique_ptr<render::Device> makeTestDevice(const render::DeviceDesc& desc) {
  useGlesVersion(desc.gles_major);
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  EXPECT_TRUE(device.ok()) << "headless EGL device: " << device.status().toString();
  return device.ok() ? std::move(device).value() : nullptr;
}

std::unique_ptr<render::Device> makeTestDevice(int gles_major, int size,
                                               render::CapsOverride caps) {
  render::DeviceDesc desc;
  render::DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = gles_major;
  desc.width = desc.height = size;
  hooks.caps = caps;
  return makeTestDevice(desc);
}

std::vector<render::Instance> randomInstances(const Package& package, int count, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> clip_index(0, static_cast<int>(package.clips.size()) - 1);
  std::vector<AgentPlayback> agents(count);
  std::vector<render::Instance> instances(count);
  for (int i = 0; i < count; ++i) {
    AgentPlayback& a = agents[i];
    a.clip = static_cast<uint16_t>(clip_index(random));
    a.previous_clip = static_cast<uint16_t>(clip_index(random));
    const float duration = std::max(package.clips[a.clip].duration, 0.1f);
    a.time = (unit(random) * 4.0f - 1.0f) * duration;
    a.previous_time = unit(random) * 3.0f * std::max(package.clips[a.previous_clip].duration, 0.1f);
    const int fade_kind = i % 3;
    a.fade = fade_kind == 0 ? 0.0f : fade_kind == 1 ? unit(random) : 1.0f;
    render::Instance& instance = instances[i];
    instance.placement.position =
        glm::vec3(unit(random), unit(random), unit(random)) * 20.0f - glm::vec3(10.0f);
    instance.placement.heading = (unit(random) * 2.0f - 1.0f) * 3.14159265f;
    instance.placement.scale = 0.5f + 1.5f * unit(random);
    instance.tint = glm::vec4(unit(random), unit(random), unit(random), 1.0f);
  }
  std::vector<InstanceFrames> frames(count);
  PlaybackJob job{package.clips, agents, frames};
  EXPECT_TRUE(job.run());
  for (int i = 0; i < count; ++i) instances[i].frames = frames[i];
  return instances;
}

SkinningError compareWithCpu(render::InstancedRenderer& renderer, const Package& package,
                             const std::vector<render::Instance>& instances, int lod) {
  const MeshLod& mesh_lod = package.lods[lod];
  const SkinnedMesh& mesh = mesh_lod.mesh;
  const size_t vertex_count = mesh.vertexCount();
  std::vector<glm::vec3> gpu_positions(instances.size() * vertex_count);
  std::vector<glm::vec3> gpu_normals(gpu_positions.size());
  const Status status = renderer.captureSkinnedVertices(instances, lod, gpu_positions, gpu_normals);
  EXPECT_TRUE(status.ok()) << status.toString();
  if (!status.ok()) return {1e9f, 1e9f};

  const float size = std::max(computeBounds(mesh.positions).largestExtent(), 1e-6f);
  std::vector<JointRows> palette(package.skeleton.jointCount());
  std::vector<JointRows> slots(mesh_lod.palette_joints.empty() ? palette.size()
                                                               : mesh_lod.palette_joints.size());
  std::vector<glm::vec3> cpu_positions(vertex_count), cpu_normals(vertex_count);
  std::vector<glm::vec3> morphed_positions(vertex_count), morphed_normals(vertex_count);
  std::vector<glm::vec3> normals = mesh.normals;
  if (normals.empty()) normals.assign(vertex_count, glm::vec3(0, 1, 0));
  SkinningError error;
  std::vector<glm::vec3> pivots;
  for (size_t i = 0; i < instances.size(); ++i) {
    // What the GPU reads: the instance as its 32-byte record holds it (quantised heading, scale,
    // blends and fade; the record's own error is instance_record_test's).
    const render::Instance instance = render::decodeInstanceRecord(
        render::encodeInstanceRecord(instances[i], package.animation.frame_count - 1));
    if (instance.layer.weight > 0.0f) {
      // With a layer: LayerPaletteJob (crowd/layer_palette.h), the shader's re-rooting and blend.
      if (pivots.empty()) pivots = jointPivots(package.skeleton);
      LayerPaletteJob layered;
      layered.texture = &package.animation;
      layered.base = instance.frames;
      layered.layer = instance.layer;
      layered.pivots = pivots;
      layered.palette = palette;
      EXPECT_TRUE(layered.run());
    } else {
      FramePaletteJob blend;
      blend.texture = &package.animation;
      blend.frames = instance.frames;
      blend.palette = palette;
      EXPECT_TRUE(blend.run());
    }
    for (size_t s = 0; s < slots.size(); ++s)
      slots[s] = mesh_lod.palette_joints.empty() ? palette[s] : palette[mesh_lod.palette_joints[s]];
    // Morph animation first (FrameMorphJob: the VAT's or the target deltas' bind-space
    // vertices), then the skin, as posePackage does.
    if (package.morph.kind != MorphBakeKind::kNone) {
      FrameMorphJob morph;
      morph.package = &package;
      morph.lod = static_cast<uint32_t>(lod);
      morph.frames = instance.frames;
      morph.out_positions = morphed_positions;
      morph.out_normals = morphed_normals;
      EXPECT_TRUE(morph.run());
    }
    const bool morphed = package.morph.kind != MorphBakeKind::kNone;
    SkinJob skin{morphed ? morphed_positions : mesh.positions,
                 morphed ? morphed_normals : normals,
                 mesh.joints,
                 mesh.weights,
                 slots,
                 cpu_positions,
                 cpu_normals};
    EXPECT_TRUE(skin.run());
    const glm::mat4 place = placementMatrix(instance.placement);
    const glm::mat3 turn =
        glm::mat3(placementMatrix({glm::vec3(0.0f), instance.placement.heading, 1.0f}));
    const float scale = size * instance.placement.scale;
    for (size_t v = 0; v < vertex_count; ++v) {
      const glm::vec3 expected = glm::vec3(place * glm::vec4(cpu_positions[v], 1.0f));
      const glm::vec3& got = gpu_positions[i * vertex_count + v];
      error.position = std::max(error.position, glm::length(got - expected) / scale);
      const glm::vec3 gpu_normal = gpu_normals[i * vertex_count + v];
      if (glm::length(gpu_normal) > 1e-3f && glm::length(cpu_normals[v]) > 0.5f) {
        const glm::vec3 expected_normal = glm::normalize(turn * cpu_normals[v]);
        error.normal =
            std::max(error.normal, glm::length(glm::normalize(gpu_normal) - expected_normal));
      }
    }
  }
  return error;
}

}  // namespace throng::test
