// Render-test helpers: headless devices that must exist, random instances, the CPU oracle.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/instanced_renderer.h"
#include "render/test_hooks.h"
#include "throng/core/package.h"
#include "throng/render/capture.h"
#include "throng/render/device.h"
#include "throng/render/render_path.h"

namespace throng::test {

// crowd_bench's agreement rule for two images of one scene drawn on different paths (or a path
// and the reference): they differ only in float rounding of the skinning and in which edge
// pixels rasterisation keeps, so at most 0.1% of the pixels may differ by more than 4 (of 255)
// in a channel.
inline constexpr int kPathChannelTolerance = 4;
inline constexpr double kPathMaxBadPixelShare = 0.001;

// compareWithCpu's tolerances for InstancedRenderer's transform feedback (RGBA32F palettes: GPU
// and CPU do the same float arithmetic in a different order): positions as a fraction of the
// character's size, and unit normals.
inline constexpr float kSkinPositionTolerance = 1e-4f;
inline constexpr float kSkinNormalTolerance = 1e-3f;

// The PNG a test's program wrote at `png`; one that does not read fails the test (an empty image).
render::Image readTestPng(const std::filesystem::path& png);

// The share of the pixels of two images of one scene that differ past kPathChannelTolerance (to
// hold against kPathMaxBadPixelShare); 1 where the sizes differ or `a` is empty.
double pathBadShare(const render::Image& a, const render::Image& b);

// The built-in sample character baked with its default LOD chain (what `throng render sample`
// draws), made once per test process.
const Package& sampleWithLods();

// sampleWithLods() with a synthetic impostor of 8 x 3 views, 4 frames per clip and 12 x 16-texel
// tiles (no mesh of it: each tile a flat colour of its own inside an inset rectangle, so that a
// wrong view or frame shows; normals facing the camera), error 0.5 model units.
Package sampleWithSyntheticImpostor();

// The material character (support/material_character.h: four quads, variants "plain" and
// "all red") baked once per test process.
const Package& materialCharacterPackage();

// Two characters of different skeletons, baked once per test process: the sample character and
// the chain (at 24 frames per second).
const std::vector<Package>& sampleAndChainPackages();

// gtest's name of a render path parameter: its name without '-' ("percharacter").
std::string pathParamName(const ::testing::TestParamInfo<render::RenderPath>& info);

// A render path on a context of one ES major version, for suites run over both.
struct PathOnEs {
  render::RenderPath path;
  int gles_major;
};
// gtest's name of a path on an ES version: "percharacterEs3", "mergedEs2".
std::string pathOnEsName(render::RenderPath path, int gles_major);
inline std::string pathOnEsParamName(const ::testing::TestParamInfo<PathOnEs>& info) {
  return pathOnEsName(info.param.path, info.param.gles_major);
}

// Every render path, for suites instantiated over all of them.
inline constexpr render::RenderPath kEveryPath[] = {
    render::RenderPath::kInstanced, render::RenderPath::kMerged, render::RenderPath::kPerCharacter,
    render::RenderPath::kGpu};

// A headless device (a real ES 2.0 one for gles_major 2: see useGlesVersion); a device that
// cannot be created fails the test (CI has Mesa), never skips.
std::unique_ptr<render::Device> makeTestDevice(const render::DeviceDesc& desc = {});
// The same, of `size` x `size` pixels, for ES `gles_major`, with `caps` overridden (test_hooks.h).
std::unique_ptr<render::Device> makeTestDevice(int gles_major, int size,
                                               render::CapsOverride caps = {});

// `count` random instances over the package's clips: random placements (|position| <= 10,
// scale 0.5..2), times (including negative and past the end), blends and cross-fades (a third
// with none, a third partial, a third full), turned into frames by PlaybackJob.
std::vector<render::Instance> randomInstances(const Package& package, int count, uint32_t seed);

struct SkinningError {
  float position = 0.0f;  // largest world-space distance / (character size * instance scale)
  float normal = 0.0f;    // largest distance between unit normals
};

// Captures the GPU-skinned vertices of `instances` (LOD `lod`) by transform feedback and
// compares them with the CPU oracle: FramePaletteJob (the shader's blend; LayerPaletteJob for an
// instance with a layer) + SkinJob + placementMatrix. Reports gtest failures for GL errors.
SkinningError compareWithCpu(render::InstancedRenderer& renderer, const Package& package,
                             const std::vector<render::Instance>& instances, int lod = 0);

}  // namespace throng::test
