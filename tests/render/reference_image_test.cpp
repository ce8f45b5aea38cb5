// Every render path of the front end against the independent reference image (SkinJob's vertices
// shaded by the test's own shaders, written from docs/formats.md "Shading"): per-character,
// merged, instanced and gpu, each compared with the reference directly, not with another path.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/cpu_reference.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

// Every path skins on the GPU (float rounding differs from SkinJob's), and the merged path
// packs joints as quaternion + translation + scale within 0.1% of the character's height: edges
// land on other pixels. At most 0.1% of the pixels may differ by more than 4 (of 255) in a
// channel (the tolerance of the other cross-path tests: test::kPathChannelTolerance,
// test::kPathMaxBadPixelShare).
constexpr int kReferenceFrameSize = 256;

// With THRONG_TEST_IMAGE_DIR set, the images compared are written there to be looked at.
void keepImage(const Image& image, const std::string& name) {
  const char* dir = std::getenv("THRONG_TEST_IMAGE_DIR");
  if (dir != nullptr) {
    EXPECT_TRUE(writePng(image, std::string(dir) + "/" + name + ".png").ok());
  }
}

TEST(ReferenceImage, EveryPathDrawsTheDocumentedPicture) {
  std::string missing;
  std::unique_ptr<Device> device =
      test::makeEs31Device(&missing, kReferenceFrameSize, kReferenceFrameSize);
  THRONG_REQUIRE(device != nullptr, missing);  // the gpu path needs ES 3.1 compute
  const Character character = makeSampleCharacter();
  BakeOptions bake;
  bake.threads = 1;
  Result<Package> package = bakeCharacter(character, bake);
  ASSERT_TRUE(package.ok()) << package.status().toString();

  // A 3 x 3 crowd on whole baked frames (the texture's pose is the clip's pose at that time).
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<test::ReferenceCharacter> reference;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position =
        glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3) * 1.2f);
    p.heading = 0.7f * static_cast<float>(i);
    p.scale = 0.9f + 0.05f * static_cast<float>(i % 4);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % package->clips.size());
    const BakedClip& baked = package->clips[a.clip];
    a.time = static_cast<float>((5 * i) % baked.frame_count) / baked.fps;
    playback.push_back(a);
    const Clip& clip = character.clips[a.clip];
    test::ReferenceCharacter c;
    c.mesh = &package->lods[0].mesh;
    c.materials = character.materials;
    c.palette = test::referencePalette(character.skeleton, &clip, clip.start_time + a.time,
                                       p.position, p.heading, p.scale);
    reference.push_back(std::move(c));
  }
  const Bounds bounds{glm::vec3(-2.5f, 0.0f, -3.5f), glm::vec3(2.5f, 2.0f, 1.0f)};
  // framingView fills the eye too: the built-in look's specular light depends on it (the
  // reference finds the eye from the projection alone).
  const FrameView view = framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  Result<Image> expected = test::drawCpuReference(*device, reference, view.view_projection, clear);
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  int lit = 0;
  for (size_t px = 0; px < expected->rgba.size(); px += 4) lit += expected->rgba[px] > 60;
  EXPECT_GT(lit, 2000) << "the reference shows the crowd";
  keepImage(*expected, "reference");

  for (RenderPath path :
       {RenderPath::kPerCharacter, RenderPath::kMerged, RenderPath::kInstanced, RenderPath::kGpu}) {
    SCOPED_TRACE(renderPathName(path));
    CrowdRendererDesc desc;
    desc.path = path;
    desc.fixed_lod = 0;  // the reference's mesh
    desc.tint = false;   // materials as authored, as the reference draws them
    CrowdRenderer renderer(*device, *package, desc);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    ASSERT_EQ(renderer.path(), path) << renderer.pathReason();
    device->beginFrame(clear);
    ASSERT_TRUE(renderer.draw(view, CrowdFrame{placements, playback}).ok());
    device->finish();
    EXPECT_EQ(renderer.stats().visible, 9u);
    Result<Image> image = device->readPixels();
    ASSERT_TRUE(image.ok()) << image.status().toString();
    keepImage(*image, renderPathName(path));
    const ImageDifference d = compareImages(*image, *expected, test::kPathChannelTolerance);
    const double share = static_cast<double>(d.bad_pixels) /
                         static_cast<double>(kReferenceFrameSize * kReferenceFrameSize);
    std::printf("  %s: %lld pixels differ from the reference by more than %d (largest %d)\n",
                renderPathName(path), static_cast<long long>(d.bad_pixels),
                test::kPathChannelTolerance, d.max_channel_difference);
    EXPECT_LE(share, test::kPathMaxBadPixelShare)
        << d.bad_pixels << " pixels differ by more than " << test::kPathChannelTolerance
        << " (largest " << d.max_channel_difference << ")";
  }
}

}  // namespace
}  // namespace throng::render
