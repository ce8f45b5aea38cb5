// One crowd state, three paths: merged batches (ES 2.0, both palette sources), the instanced path
// (ES 3.0) and the CPU reference give the same image within a stated tolerance.
#include <cstdio>

#include <gtest/gtest.h>

#include "render/cpu_reference.h"
#include "render/instanced_renderer.h"
#include "render/merged_path.h"
#include "render/test_hooks.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"

namespace throng::render {
namespace {

// Paths differ only in float rounding of the skinning (GPU vs CPU, uniform vs texel fetch) and in
// which edge pixels rasterisation keeps: test::kPathChannelTolerance, test::kPathMaxBadPixelShare.

double badShare(const Image& a, const Image& b) {
  const ImageDifference d = compareImages(a, b, test::kPathChannelTolerance);
  std::printf("  %lld pixels differ by more than %d (largest difference %d)\n",
              static_cast<long long>(d.bad_pixels), test::kPathChannelTolerance,
              d.max_channel_difference);
  return static_cast<double>(d.bad_pixels) / static_cast<double>(a.width * a.height);
}

TEST(MergedCrossPath, MergedInstancedAndCpuReferenceAgree) {
  const Character character = makeSampleCharacter();
  BakeOptions bake;
  bake.threads = 1;
  Result<Package> package = bakeCharacter(character, bake);
  ASSERT_TRUE(package.ok()) << package.status().toString();
  const std::vector<MeshLod> lods(package->lods.begin(), package->lods.begin() + 1);

  // A 3 x 3 crowd; every agent on a whole baked frame, so the tree source (exact clip time) and
  // the baked frames hold the same pose.
  std::vector<Placement> placements;
  std::vector<AgentPlayback> agents;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position =
        glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3) * 1.2f);
    p.heading = 0.5f * static_cast<float>(i);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % package->clips.size());
    const BakedClip& clip = package->clips[a.clip];
    a.time = static_cast<float>((3 * i) % clip.frame_count) / clip.fps;
    agents.push_back(a);
  }
  std::vector<InstanceFrames> frames(agents.size());
  ASSERT_TRUE((PlaybackJob{package->clips, agents, frames}.run()));
  for (const InstanceFrames& f : frames) ASSERT_LT(f.primary.blend, 1e-4f);
  Bounds bounds{glm::vec3(-2.5f, 0.0f, -3.5f), glm::vec3(2.5f, 2.0f, 1.0f)};
  const int size = 256;
  // framingView fills the eye: the built-in look's specular light depends on it.
  const FrameView view = framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);

  Image instanced;
  {
    DeviceDesc desc;
    DeviceTestHooks hooks;
    desc.test_hooks = &hooks;
    desc.width = desc.height = size;
    test::useGlesVersion(3);
    Result<std::unique_ptr<Device>> es3 = Device::createHeadless(desc);
    ASSERT_TRUE(es3.ok()) << es3.status().toString();
    Result<std::unique_ptr<InstancedRenderer>> renderer =
        InstancedRenderer::create(**es3, *package);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    std::vector<Instance> instances(agents.size());
    for (size_t i = 0; i < agents.size(); ++i) instances[i] = {placements[i], frames[i]};
    (*es3)->beginFrame(clear);
    ASSERT_TRUE((*renderer)->draw(view, instances).ok());
    (*es3)->finish();
    instanced = std::move((*es3)->readPixels().value());
  }

  DeviceDesc desc;
  DeviceTestHooks hooks;
  desc.test_hooks = &hooks;
  desc.gles_major = 2;
  desc.width = desc.height = size;
  hooks.caps.max_vertex_uniform_vectors = 256;
  test::useGlesVersion(2);
  Result<std::unique_ptr<Device>> es2 = Device::createHeadless(desc);
  ASSERT_TRUE(es2.ok()) << es2.status().toString();
  ASSERT_EQ((*es2)->caps().gles_major, 2);
  Result<std::unique_ptr<MergedBatchRenderer>> merged = MergedBatchRenderer::create(
      **es2, lods, character.skeleton.jointCount(), {}, Looks{character.materials, {}});
  ASSERT_TRUE(merged.ok()) << merged.status().toString();
  EXPECT_EQ((*merged)->lodInfo(0).characters_per_batch,
            (256 - (*merged)->lodInfo(0).other_uniform_vectors) / (23 * 3 + 1));

  std::vector<test::ReferenceCharacter> reference(agents.size());
  for (size_t i = 0; i < agents.size(); ++i) {
    reference[i].mesh = &lods[0].mesh;
    reference[i].materials = character.materials;
    const Clip& clip = character.clips[agents[i].clip];
    reference[i].palette =
        test::referencePalette(character.skeleton, &clip,
                               clipTime(clip, agents[i].time, package->clips[agents[i].clip].loop),
                               placements[i].position, placements[i].heading, placements[i].scale);
  }
  Result<Image> cpu = test::drawCpuReference(**es2, reference, view.view_projection, clear);
  ASSERT_TRUE(cpu.ok()) << cpu.status().toString();

  const MergedScene scene{&character.skeleton, character.clips, package->clips, &package->animation,
                          lods};
  for (PaletteSource source : {PaletteSource::kSkeletonTree, PaletteSource::kBakedFrames}) {
    MergedPathScratch scratch;
    (*es2)->beginFrame(clear);
    const MergedFrameStats stats =
        drawMergedCrowd(**merged, scene, source, view, placements, agents, frames, scratch);
    (*es2)->finish();
    EXPECT_EQ(stats.batches, 3);     // 9 characters, K = 3
    EXPECT_EQ(stats.draw_calls, 9);  // one per (batch, material): clothes, skin, shoes
    Result<Image> image = (*es2)->readPixels();
    ASSERT_TRUE(image.ok());
    EXPECT_LE(badShare(*image, *cpu), test::kPathMaxBadPixelShare)
        << "merged vs CPU, source " << static_cast<int>(source);
    EXPECT_LE(badShare(*image, instanced), test::kPathMaxBadPixelShare)
        << "merged vs instanced, source " << static_cast<int>(source);
  }
  EXPECT_LE(badShare(instanced, *cpu), test::kPathMaxBadPixelShare) << "instanced vs CPU";
  int lit = 0;
  for (size_t px = 0; px < cpu->rgba.size(); px += 4) lit += cpu->rgba[px] > 60;
  EXPECT_GT(lit, 2000);
}

}  // namespace
}  // namespace throng::render
