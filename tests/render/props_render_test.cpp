// Props on the render paths (docs/props_and_layers.md): every path draws each agent's visible
// props (the CPU reference image of withVisibleAttachments' meshes), the instanced path's captured
// vertices put hidden props at one point and the rest where the CPU skins them, and props that
// share the character's material add no draw call on the instanced and gpu paths.
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
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"

namespace throng {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace props_render_test {

using render::CrowdFrame;
using render::CrowdRenderer;
using render::CrowdRendererDesc;
using render::RenderPath;

// As reference_image_test: GPU float rounding and the merged path's joint encoding move edges by
// a pixel; at most 0.1% of the pixels may differ by more than 4 (of 255) in a channel.
constexpr int kTolerance = 4;
constexpr double kMaxBadPixelShare = 0.001;
constexpr int kFrameSize = 256;
// Float32 textures and the same arithmetic (render_test_support's compareWithCpu).
constexpr float kPositionTolerance = 1e-4f;

// Prop 0 ("hat", red: a material of its own) on the head; prop 1 ("club", the character's
// "clothes" material: shared) in the right hand, both large enough to cover many pixels.
struct PropCharacter {
  Character character;
  Package package;
};

PropCharacter makePropCharacter(bool with_hat = true) {
  const std::filesystem::path dir = test::makeTempDir("props-render");
  const float red[4] = {0.9f, 0.05f, 0.05f, 1.0f};
  Result<Character> hat = importGltf(test::writePropBox(dir, "hat.gltf", red));
  Result<Character> club = importGltf(test::writePropBox(dir, "club.gltf", red));
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(hat.ok() && club.ok());
  PropCharacter out;
  out.character = makeSampleCharacter();
  if (!hat.ok() || !club.ok()) return out;
  // The club's material made the character's own "clothes": attachProp shares it.
  club->materials.at(0) = out.character.materials[0];
  if (with_hat) {
    EXPECT_TRUE(attachProp(out.character, "head", *hat, {glm::vec3(0.0f, 0.1f, 0.0f), {}, 1.5f},
                           "hat", "hat.gltf", "sample")
                    .ok());
  }
  EXPECT_TRUE(attachProp(out.character, "hand.R", *club,
                         {glm::vec3(0.0f, 0.05f, 0.0f), glm::vec3(0.0f, 0.0f, 90.0f), 1.5f}, "club",
                         "club.gltf", "sample")
                  .ok());
  BakeOptions bake;
  bake.threads = 1;
  Result<Package> package = bakeCharacter(out.character, bake);
  EXPECT_TRUE(package.ok()) << package.status().toString();
  if (package.ok()) out.package = std::move(package).value();
  return out;
}

// With THRONG_TEST_IMAGE_DIR set, the images compared are written there to be looked at.
void keepImage(const render::Image& image, const std::string& name) {
  if (const char* dir = std::getenv("THRONG_TEST_IMAGE_DIR")) {
    EXPECT_TRUE(render::writePng(image, std::string(dir) + "/props_" + name + ".png").ok());
  }
}

int differingPixels(const render::Image& a, const render::Image& b) {
  return static_cast<int>(render::compareImages(a, b, kTolerance).bad_pixels);
}

TEST(PropsRender, EveryPathDrawsEachAgentsVisibleProps) {
  std::string missing;
  std::unique_ptr<render::Device> device = test::makeEs31Device(&missing, kFrameSize, kFrameSize);
  THRONG_REQUIRE(device != nullptr, missing);  // the gpu path needs ES 3.1 compute
  const PropCharacter props = makePropCharacter();
  const Package& package = props.package;
  ASSERT_EQ(package.attachments.size(), 2u);
  ASSERT_FALSE(package.lods[0].mesh.attachments.empty());

  // A 3 x 3 crowd facing the camera, each agent a different subset of the two props.
  const uint32_t masks[9] = {kAllAttachments, 0u, 1u, 2u, 3u, 0u, 2u, 1u, kAllAttachments};
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<uint32_t> attachments(std::begin(masks), std::end(masks));
  std::vector<SkinnedMesh> visible_meshes;
  visible_meshes.reserve(9);
  std::vector<test::ReferenceCharacter> reference, all_props;
  for (int i = 0; i < 9; ++i) {
    Placement p;
    p.position =
        glm::vec3(static_cast<float>(i % 3 - 1) * 1.2f, 0.0f, -static_cast<float>(i / 3) * 1.2f);
    p.heading = 0.3f * static_cast<float>(i % 3 - 1);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % package.clips.size());
    const BakedClip& baked = package.clips[a.clip];
    a.time = static_cast<float>((5 * i) % baked.frame_count) / baked.fps;
    playback.push_back(a);
    const Clip& clip = props.character.clips[a.clip];
    test::ReferenceCharacter c;
    c.materials = package.materials;
    c.palette = test::referencePalette(props.character.skeleton, &clip, clip.start_time + a.time,
                                       p.position, p.heading, p.scale);
    c.mesh = &package.lods[0].mesh;
    all_props.push_back(c);
    visible_meshes.push_back(withVisibleAttachments(package.lods[0].mesh, masks[i]));
    c.mesh = &visible_meshes.back();
    reference.push_back(std::move(c));
  }
  const Bounds bounds{glm::vec3(-2.5f, 0.0f, -3.5f), glm::vec3(2.5f, 2.2f, 1.0f)};
  const render::FrameView view = render::framingView(bounds, 1.0f);
  const glm::vec4 clear(0.1f, 0.1f, 0.15f, 1.0f);
  Result<render::Image> expected =
      test::drawCpuReference(*device, reference, view.view_projection, clear);
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  Result<render::Image> everything =
      test::drawCpuReference(*device, all_props, view.view_projection, clear);
  ASSERT_TRUE(everything.ok());
  keepImage(*expected, "reference");
  // The hidden props must show in the picture, ten times the pixels a path may get wrong (else
  // a path drawing them all would pass).
  const int hidden_pixels = differingPixels(*expected, *everything);
  std::printf("  the hidden props cover %d pixels\n", hidden_pixels);
  EXPECT_GT(hidden_pixels, 10 * kMaxBadPixelShare * kFrameSize * kFrameSize);

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
    ASSERT_TRUE(
        renderer.draw(view, CrowdFrame{placements, playback, {}, {}, {}, {}, attachments}).ok());
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

// The instanced path's vertices (transform feedback), palette pass off and on: with every prop
// shown they are the CPU reference's (FramePaletteJob + SkinJob, props included); with a mask,
// a shown vertex is where it was and a hidden prop's is at the agent's position.
TEST(PropsRender, InstancedVerticesOfHiddenPropsCollapseAndTheRestAreSkinned) {
  const PropCharacter props = makePropCharacter();
  const Package& package = props.package;
  ASSERT_EQ(package.attachments.size(), 2u);
  const std::vector<uint8_t>& groups = package.lods[0].mesh.attachments;
  auto device = test::makeTestDevice();
  ASSERT_NE(device, nullptr);
  std::vector<render::Instance> instances = test::randomInstances(package, 8, 11);
  for (const render::PalettePassMode mode :
       {render::PalettePassMode::kOff, render::PalettePassMode::kOn}) {
    render::InstancedRendererOptions options;
    options.palette_pass = mode;
    auto renderer = render::InstancedRenderer::create(*device, package, options);
    ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
    const test::SkinningError e = test::compareWithCpu(**renderer, package, instances);
    EXPECT_LT(e.position, kPositionTolerance);
    const size_t n = (*renderer)->vertexCount(0);
    ASSERT_EQ(n, groups.size());
    std::vector<glm::vec3> shown(n * instances.size()), normals(shown.size());
    ASSERT_TRUE((*renderer)->captureSkinnedVertices(instances, 0, shown, normals).ok());
    std::vector<render::Instance> masked = instances;
    for (size_t i = 0; i < masked.size(); ++i) masked[i].attachments = static_cast<uint32_t>(i % 4);
    std::vector<glm::vec3> positions(shown.size());
    ASSERT_TRUE((*renderer)->captureSkinnedVertices(masked, 0, positions, normals).ok());
    size_t hidden = 0;
    for (size_t i = 0; i < masked.size(); ++i) {
      // The record's position (what the shader reads).
      const glm::vec3 origin =
          render::decodeInstanceRecord(render::encodeInstanceRecord(masked[i], 0))
              .placement.position;
      for (size_t v = 0; v < n; ++v) {
        const glm::vec3& got = positions[i * n + v];
        if (attachmentVisible(groups[v], masked[i].attachments)) {
          EXPECT_EQ(got, shown[i * n + v]) << "instance " << i << " vertex " << v;
        } else {
          ++hidden;
          EXPECT_EQ(got, origin) << "instance " << i << " vertex " << v;
        }
      }
    }
    EXPECT_GT(hidden, 0u);
  }
}

// Draw calls on the instanced and gpu paths, one LOD drawn: a prop sharing the character's
// material adds none; one with its own material adds one; hiding props changes nothing.
TEST(PropsRender, PropsSharingTheMaterialAddNoDrawCall) {
  std::string missing;
  std::unique_ptr<render::Device> device = test::makeEs31Device(&missing, 64, 64);
  THRONG_REQUIRE(device != nullptr, missing);
  BakeOptions bake;
  bake.threads = 1;
  Result<Package> bare = bakeCharacter(makeSampleCharacter(), bake);
  ASSERT_TRUE(bare.ok());
  const PropCharacter shared = makePropCharacter(false);  // the club only
  const PropCharacter own = makePropCharacter(true);      // the club and the hat
  ASSERT_EQ(shared.package.materials.size(), bare->materials.size());
  ASSERT_EQ(own.package.materials.size(), bare->materials.size() + 1);
  const render::FrameView view =
      render::framingView(Bounds{glm::vec3(-2.0f, 0.0f, -2.0f), glm::vec3(2.0f, 2.0f, 2.0f)}, 1.0f);
  std::vector<Placement> placements(16);
  for (int i = 0; i < 16; ++i) placements[i].position = glm::vec3(i % 4 - 1.5f, 0.0f, i / 4 - 1.5f);
  const std::vector<AgentPlayback> playback(16);
  for (const RenderPath path : {RenderPath::kInstanced, RenderPath::kGpu}) {
    SCOPED_TRACE(render::renderPathName(path));
    auto drawCalls = [&](const Package& package, std::span<const uint32_t> attachments) {
      CrowdRendererDesc desc;
      desc.path = path;
      desc.fixed_lod = 0;
      CrowdRenderer renderer(*device, package, desc);
      EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
      device->beginFrame(glm::vec4(0.0f));
      EXPECT_TRUE(
          renderer.draw(view, CrowdFrame{placements, playback, {}, {}, {}, {}, attachments}).ok());
      device->finish();
      return renderer.stats().draw_calls;
    };
    const uint32_t base = drawCalls(*bare, {});
    EXPECT_GT(base, 0u);
    EXPECT_EQ(drawCalls(shared.package, {}), base);
    EXPECT_EQ(drawCalls(own.package, {}), base + 1);
    const std::vector<uint32_t> some = {0u, 1u, 2u, 3u, 0u, 1u, 2u, 3u,
                                        0u, 1u, 2u, 3u, 0u, 1u, 2u, 3u};
    EXPECT_EQ(drawCalls(own.package, some), base + 1);
  }
}

}  // namespace props_render_test
}  // namespace throng
