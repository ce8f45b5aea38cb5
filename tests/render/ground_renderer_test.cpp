// Tests of the ground and blob shadows: every pixel against the CPU formula (lighting, fog,
// shadow falloff), the grid's lines, the two shadow paths (instanced, expanded) agreeing, and
// GroundDesc{} drawing nothing.
#include "render/ground_renderer.h"
#include "render/test_hooks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "render/ground_reference.h"
#include "render_test_support.h"
#include "throng/render/capture.h"

namespace throng::render {
namespace {

constexpr int kGroundFrameSize = 96;
const glm::vec4 kGroundClear(0.1f, 0.1f, 0.4f, 1.0f);
// 8-bit rounding of the frame plus float differences between the GPU and this CPU formula.
constexpr int kGroundTolerance = 3;

FrameView groundView() {
  FrameView view =
      lookAtView(glm::vec3(1.0f, 6.0f, 8.0f), glm::vec3(0.0f), 0.9f, 1.0f, 0.1f, 100.0f);
  view.fog.color = glm::vec3(0.7f, 0.6f, 0.5f);
  view.fog.start = 8.0f;
  view.fog.end = 16.0f;
  return view;
}

GroundDesc plainGround() {
  GroundDesc desc;
  desc.grid = true;
  desc.line_strength = 0.0f;  // no lines: every pixel follows the plain formula
  desc.extent = 40.0f;
  desc.shadow_opacity = 0.6f;
  return desc;
}

Image draw(Device& device, GroundRenderer& ground, const FrameView& view, const GroundDesc& desc,
           std::span<const BlobShadow> shadows) {
  device.beginFrame(kGroundClear);
  const Status s = ground.draw(view, desc, shadows);
  EXPECT_TRUE(s.ok()) << s.toString();
  device.finish();
  Result<Image> image = device.readPixels();
  EXPECT_TRUE(image.ok());
  return image.ok() ? std::move(image).value() : Image{};
}

// Where the ray through the centre of pixel (x, y) (top row first) meets the plane y = height.
std::optional<glm::vec3> groundUnder(const FrameView& view, int x, int y, float height) {
  const glm::vec2 ndc(2.0f * (static_cast<float>(x) + 0.5f) / kGroundFrameSize - 1.0f,
                      1.0f - 2.0f * (static_cast<float>(y) + 0.5f) / kGroundFrameSize);
  const Ray ray = viewRay(view, ndc);
  if (!(ray.direction.y < 0.0f)) return std::nullopt;
  const float t = (height - ray.origin.y) / ray.direction.y;
  return ray.origin + t * ray.direction;
}

// The CPU formula of ground.frag and blob_shadow.frag (without grid lines, test::groundColour
// and test::blobShadowKept), faded into the fog; the shadows fade with it.
glm::vec3 expectedColor(const FrameView& view, const GroundDesc& desc, const glm::vec3& point,
                        std::span<const BlobShadow> shadows) {
  const glm::vec3 lit = test::groundColour(view, desc.color);
  const float fog = fogAmount(view.fog, glm::distance(point, view.eye));
  glm::vec3 color = lit * (1.0f - fog) + view.fog.color * fog;
  for (const BlobShadow& s : shadows) {
    const float r =
        glm::distance(glm::vec2(point.x, point.z), glm::vec2(s.center.x, s.center.z)) / s.radius;
    color *= 1.0f - (1.0f - test::blobShadowKept(r, desc.shadow_opacity)) * (1.0f - fog);
  }
  return color;
}

struct Mismatches {
  int checked = 0;
  int bad = 0;
  int worst = 0;
};

Mismatches compareWithCpu(const Image& image, const FrameView& view, const GroundDesc& desc,
                          std::span<const BlobShadow> shadows) {
  Mismatches m;
  for (int y = 0; y < kGroundFrameSize; ++y) {
    for (int x = 0; x < kGroundFrameSize; ++x) {
      const std::optional<glm::vec3> point = groundUnder(view, x, y, desc.height);
      if (!point) continue;
      // Pixels near the square's edge may belong to either side.
      const glm::vec2 from_center =
          glm::abs(glm::vec2(point->x - view.eye.x, point->z - view.eye.z));
      if (std::max(from_center.x, from_center.y) > 0.95f * desc.extent) continue;
      const glm::vec3 want = expectedColor(view, desc, *point, shadows);
      const uint8_t* px = &image.rgba[(static_cast<size_t>(y) * kGroundFrameSize + x) * 4];
      int worst = 0;
      for (int c = 0; c < 3; ++c) {
        worst = std::max(worst, std::abs(px[c] - static_cast<int>(std::lround(want[c] * 255.0f))));
      }
      worst = std::max(worst, 255 - px[3]);  // shadows darken the colour, the frame stays opaque
      ++m.checked;
      m.bad += worst > kGroundTolerance;
      m.worst = std::max(m.worst, worst);
    }
  }
  return m;
}

TEST(GroundRenderer, TheDefaultDescDrawsNothing) {
  auto device = test::makeTestDevice(3, kGroundFrameSize);
  ASSERT_NE(device, nullptr);
  auto ground = GroundRenderer::create(*device);
  ASSERT_TRUE(ground.ok()) << ground.status().toString();
  // No grid and no blob shadows (the front end passes none unless CrowdRendererDesc::shadows is
  // kBlob).
  const Image image = draw(*device, **ground, groundView(), GroundDesc{}, {});
  EXPECT_EQ((*ground)->drawCalls(), 0u);
  for (size_t i = 0; i < image.rgba.size(); i += 4) {
    ASSERT_EQ(image.rgba[i + 2], static_cast<int>(std::lround(kGroundClear.b * 255.0f))) << i;
  }
}

// Every ground pixel is the lit ground colour faded into the fog by its distance from the eye,
// darkened under each shadow by the falloff: the CPU formula, pixel by pixel, on ES 3 and ES 2.
TEST(GroundRenderer, EveryPixelIsTheLitFoggedGroundUnderItsShadows) {
  const FrameView view = groundView();
  const GroundDesc desc = plainGround();
  const std::vector<BlobShadow> shadows = {{glm::vec3(0.0f), 1.5f},
                                           {glm::vec3(2.0f, 0.0f, -3.0f), 1.0f},
                                           {glm::vec3(-4.0f, 0.0f, -9.0f), 2.0f}};
  for (int gles : {3, 2}) {
    auto device = test::makeTestDevice(gles, kGroundFrameSize);
    ASSERT_NE(device, nullptr);
    auto ground = GroundRenderer::create(*device);
    ASSERT_TRUE(ground.ok()) << ground.status().toString();
    const GroundDesc& with_shadows = desc;  // blob shadows: drawn when given
    const Image image = draw(*device, **ground, view, with_shadows, shadows);
    EXPECT_EQ((*ground)->drawCalls(), 2u) << "ground and one batch of shadows";
    const Mismatches m = compareWithCpu(image, view, with_shadows, shadows);
    std::printf("  ES %d: %d pixels checked, %d off by more than %d (worst %d)\n", gles, m.checked,
                m.bad, kGroundTolerance, m.worst);
    EXPECT_GT(m.checked, kGroundFrameSize * kGroundFrameSize / 2);
    EXPECT_EQ(m.bad, 0) << "ES " << gles;
    // The fog reaches its colour far away and the shadows darken: the formula is not trivial.
    const glm::vec3 shadowed = expectedColor(view, with_shadows, glm::vec3(0.0f), shadows);
    const glm::vec3 bare = expectedColor(view, with_shadows, glm::vec3(0.0f), {});
    EXPECT_LT(shadowed.r, 0.7f * bare.r);
    const glm::vec3 far = expectedColor(view, with_shadows, glm::vec3(0.0f, 0.0f, -20.0f), {});
    EXPECT_NEAR(far.r, view.fog.color.r, 1e-5f);
    EXPECT_GT(std::abs(bare.r - far.r), 0.1f);
  }
}

TEST(GroundRenderer, FogCoversTheFarGroundInItsColour) {
  auto device = test::makeTestDevice(3, kGroundFrameSize);
  ASSERT_NE(device, nullptr);
  auto ground = GroundRenderer::create(*device);
  ASSERT_TRUE(ground.ok());
  FrameView view = groundView();
  view.fog.start = 1.0f;
  view.fog.end = 2.0f;  // everything on screen is past the end
  const Image image = draw(*device, **ground, view, plainGround(), {});
  const glm::ivec3 fog = glm::ivec3(glm::round(view.fog.color * 255.0f));
  const uint8_t* centre =
      &image.rgba[(kGroundFrameSize / 2 * kGroundFrameSize + kGroundFrameSize / 2) * 4];
  EXPECT_NEAR(centre[0], fog.r, 1);
  EXPECT_NEAR(centre[1], fog.g, 1);
  EXPECT_NEAR(centre[2], fog.b, 1);
}

TEST(GroundRenderer, GridLinesShowWhereCellsAreLargeEnough) {
  auto device = test::makeTestDevice(3, kGroundFrameSize);
  ASSERT_NE(device, nullptr);
  auto ground = GroundRenderer::create(*device);
  ASSERT_TRUE(ground.ok());
  FrameView view = groundView();
  view.fog = Fog{};
  GroundDesc plain = plainGround();
  GroundDesc grid = plain;
  grid.line_strength = 1.0f;
  grid.line_color = glm::vec3(1.0f);
  grid.cell = 1.0f;
  const Image without = draw(*device, **ground, view, plain, {});
  const Image with = draw(*device, **ground, view, grid, {});
  int brighter = 0, darker = 0;
  for (size_t i = 0; i < with.rgba.size(); i += 4) {
    brighter += with.rgba[i] > without.rgba[i] + 8;
    darker += with.rgba[i] + 1 < without.rgba[i];
  }
  // Lines about a pixel wide every cell: a visible share of the frame, but far from all of it.
  EXPECT_GT(brighter, kGroundFrameSize * kGroundFrameSize / 50);
  EXPECT_LT(brighter, kGroundFrameSize * kGroundFrameSize / 2);
  EXPECT_EQ(darker, 0) << "lines only blend towards their colour";
}

// ES 3 draws the shadows instanced, ES 2.0 (or a device without instancing) expands them into
// batches of quads; the pictures are the same.
TEST(GroundRenderer, InstancedAndExpandedShadowsAgree) {
  const FrameView view = groundView();
  GroundDesc desc = plainGround();
  std::vector<BlobShadow> shadows;
  for (int i = 0; i < 40; ++i) {
    shadows.push_back(
        {glm::vec3(static_cast<float>(i % 8) - 4.0f, 0.0f, -1.5f * static_cast<float>(i / 8)),
         0.5f + 0.05f * static_cast<float>(i % 5)});
  }
  auto es3 = test::makeTestDevice(3, kGroundFrameSize);
  ASSERT_NE(es3, nullptr);
  auto instanced = GroundRenderer::create(*es3);
  ASSERT_TRUE(instanced.ok());
  const Image reference = draw(*es3, **instanced, view, desc, shadows);
  instanced->reset();
  es3.reset();
  CapsOverride no_instancing;
  no_instancing.disable_instancing = true;
  auto expanded_device = test::makeTestDevice(3, kGroundFrameSize, no_instancing);
  ASSERT_NE(expanded_device, nullptr);
  auto expanded = GroundRenderer::create(*expanded_device);
  ASSERT_TRUE(expanded.ok());
  const Image image = draw(*expanded_device, **expanded, view, desc, shadows);
  const ImageDifference d = compareImages(reference, image, 1);
  EXPECT_EQ(d.bad_pixels, 0) << "largest difference " << d.max_channel_difference;
}

// More shadows than one ES 2.0 batch holds are drawn in several.
TEST(GroundRenderer, ExpandedShadowsComeInBatchesOfSixteenThousand) {
  auto device = test::makeTestDevice(2, kGroundFrameSize);
  ASSERT_NE(device, nullptr);
  auto ground = GroundRenderer::create(*device);
  ASSERT_TRUE(ground.ok());
  GroundDesc desc;
  std::vector<BlobShadow> shadows(GroundRenderer::kMaxShadowsPerDraw + 1,
                                  BlobShadow{glm::vec3(0.0f), 0.5f});
  const Image image = draw(*device, **ground, groundView(), desc, shadows);
  EXPECT_EQ((*ground)->drawCalls(), 2u);
  const uint8_t* centre =
      &image.rgba[(kGroundFrameSize / 2 * kGroundFrameSize + kGroundFrameSize / 2) * 4];
  EXPECT_LT(centre[2], static_cast<int>(kGroundClear.b * 255.0f) - 20)
      << "the stacked shadows darken";
}

}  // namespace
}  // namespace throng::render
