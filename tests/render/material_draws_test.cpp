// Materials on every render path: indices grouped by material, and the known colours of a small
// character built in code (factor, texture with its sampler and transform, vertex colours, alpha
// mask cut-out, blending after the opaque pass, the tint and turning it off) at known pixels.
#include "render/material_draws.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/pbr_reference.h"
#include "render_test_support.h"
#include "support/material_character.h"
#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

// The test character without its material variants.
Character withoutVariants() {
  Character c = test::makeMaterialCharacter();
  c.variants.clear();
  for (SubMesh& sub : c.mesh.submeshes) sub.variant_materials.clear();
  return c;
}

TEST(GroupIndicesByMaterial, OneRangePerMaterialBlendedOnesLast) {
  const Character c = withoutVariants();
  std::vector<uint32_t> indices;
  std::vector<MaterialRange> ranges = groupIndicesByMaterial(c.mesh, c.materials, indices).value();
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(indices, c.mesh.indices);  // one sub-mesh per material, already in order
  for (uint32_t q = 0; q < 4; ++q) {
    EXPECT_EQ(ranges[q].material, q);
    EXPECT_EQ(ranges[q].first_index, 6 * q);
    EXPECT_EQ(ranges[q].index_count, 6u);
    EXPECT_FALSE(ranges[q].blend);
  }

  // Material 1 blended, and quad 3 drawn with material 0 too: 0 gets quads 0 and 3, 1 goes last.
  Character d = c;
  d.materials[1].alpha_mode = AlphaMode::kBlend;
  d.mesh.submeshes[3].material = 0;
  ranges = groupIndicesByMaterial(d.mesh, d.materials, indices).value();
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].material, 0u);
  EXPECT_EQ(ranges[0].index_count, 12u);
  EXPECT_EQ(ranges[1].material, 2u);
  EXPECT_EQ(ranges[2].material, 1u);
  EXPECT_TRUE(ranges[2].blend);
  ASSERT_EQ(indices.size(), c.mesh.indices.size());
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(indices[i], c.mesh.indices[i]);           // quad 0
    EXPECT_EQ(indices[6 + i], c.mesh.indices[18 + i]);  // quad 3
    EXPECT_EQ(indices[18 + i], c.mesh.indices[6 + i]);  // quad 1, last
  }

  // No sub-meshes: one range of the default material.
  d.mesh.submeshes.clear();
  ranges = groupIndicesByMaterial(d.mesh, {}, indices).value();
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].index_count, c.mesh.indices.size());
  EXPECT_EQ(indices, c.mesh.indices);
}

TEST(GroupIndicesByMaterial, VariantsDrawInTheirMaterialsRanges) {
  // Variants "plain" (quad q: material q) and "all red" (every quad: material 0).
  const Character c = test::makeMaterialCharacter();
  std::vector<uint32_t> indices;
  MaterialLooks looks;
  std::vector<MaterialRange> ranges =
      groupIndicesByMaterial(c.mesh, c.materials, indices, &looks).value();
  ASSERT_EQ(ranges.size(), 4u);  // still one draw per material
  EXPECT_EQ(ranges[0].material, 0u);
  EXPECT_EQ(ranges[0].index_count, 24u);  // every quad may be red
  for (uint32_t q = 1; q < 4; ++q) {
    EXPECT_EQ(ranges[q].material, q);
    EXPECT_EQ(ranges[q].index_count, 6u);
  }
  ASSERT_EQ(looks.appearances, 3u);  // own materials + 2 variants
  // Rows: quad 0 (0, 0, 0), then quad q (q, q, 0); the table padded to kMaxLookEntries.
  ASSERT_EQ(looks.table.size(), kMaxLookEntries);
  const float expected[] = {0, 0, 0, 1, 1, 0, 2, 2, 0, 3, 3, 0};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(looks.table[i], expected[i]) << i;
  ASSERT_EQ(looks.vertex_source.size(), c.mesh.vertexCount());  // no vertex shared by rows
  for (size_t v = 0; v < looks.vertex_row.size(); ++v) {
    EXPECT_EQ(looks.vertex_row[v], static_cast<float>(v / 4)) << v;
  }

  // Quads 0 and 1 sharing their vertices (different rows): quad 1's are copied.
  Character d = c;
  for (int i = 0; i < 6; ++i) d.mesh.indices[6 + i] = d.mesh.indices[i];
  ranges = groupIndicesByMaterial(d.mesh, d.materials, indices, &looks).value();
  ASSERT_EQ(looks.vertex_source.size(), d.mesh.vertexCount() + 4);
  std::vector<uint32_t> copied(looks.vertex_source.begin() + 16, looks.vertex_source.end());
  std::sort(copied.begin(), copied.end());
  EXPECT_EQ(copied, (std::vector<uint32_t>{0, 1, 2, 3}));
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(looks.vertex_row[16 + k], 1.0f);
  // Material 1's range (quad 1 alone) addresses the copies.
  ASSERT_EQ(ranges[1].material, 1u);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_GE(indices[ranges[1].first_index + i], 16u);

  // Too many look rows x appearances for the shaders' table.
  Character e = c;
  for (SubMesh& sub : e.mesh.submeshes) sub.variant_materials.assign(20, 0);
  e.mesh.submeshes[1].variant_materials[19] = 1;
  e.mesh.submeshes[2].variant_materials[19] = 2;
  e.mesh.submeshes[3].variant_materials[19] = 3;
  Result<std::vector<MaterialRange>> too_many =
      groupIndicesByMaterial(e.mesh, e.materials, indices, &looks);
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(too_many.status().message().find("84 table entries"), std::string::npos)
      << too_many.status().message();
}

// ---- known colours at known pixels ----

// The frame: 256 x 64 pixels, 32 per world unit, over x in [-0.5, 7.5] and y in [-0.5, 1.5], seen
// straight down -z (the quads face the camera).
constexpr int kWidth = 256;
constexpr int kHeight = 64;
constexpr float kPixelsPerUnit = 32.0f;
const glm::vec4 kMaterialClear(0.12f, 0.13f, 0.16f, 1.0f);
// Exact colours are computed as the shaders do, in float; the framebuffer rounds to 8 bits.
constexpr int kColourTolerance = 2;

FrameView frontView() {
  FrameView view;
  view.view_projection = glm::ortho(-0.5f, 7.5f, -0.5f, 1.5f, 0.1f, 20.0f) *
                         glm::lookAt(glm::vec3(0, 0, 10), glm::vec3(0), glm::vec3(0, 1, 0));
  view.eye = glm::vec3(0, 0, 10);
  return view;
}

float srgbToLinear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// The 8-bit colour a front-facing quad (normal +z) of base colour `linear` shows at the point
// drawn at (u, v) of quad q (pixelAt's point): the built-in look (test::shadePbr, FrameView's
// default light) of a rough dielectric seen from frontView()'s eye.
// An agent standing `y` units up shows it `y` higher.
glm::ivec3 litColour(glm::vec3 linear, int q = 0, float u = 0.5f, float v = 0.5f, float y = 0.0f) {
  const FrameView view = frontView();
  const glm::vec3 point(2.0f * static_cast<float>(q) + u, y + 1.0f - v, 0.0f);
  test::PbrPoint p;
  p.base_color = glm::dvec3(linear);
  p.normal = glm::dvec3(0.0, 0.0, 1.0);
  p.view = glm::normalize(glm::dvec3(view.eye - point));
  return test::encodedColour(test::shadePbr(p, view));
}
glm::vec3 texelLinear(const uint8_t* rgba) {
  return {srgbToLinear(rgba[0] / 255.0f), srgbToLinear(rgba[1] / 255.0f),
          srgbToLinear(rgba[2] / 255.0f)};
}

// The pixel showing point (u, v) of quad q of an agent at the origin.
glm::ivec3 pixelAt(const Image& image, int q, float u, float v) {
  const int column = static_cast<int>((2.0f * static_cast<float>(q) + u + 0.5f) * kPixelsPerUnit);
  const int row = static_cast<int>((0.5f + v) * kPixelsPerUnit);
  const uint8_t* p = &image.rgba[(static_cast<size_t>(row) * image.width + column) * 4];
  return {p[0], p[1], p[2]};
}

#define EXPECT_COLOUR(actual, expected, what)                                                   \
  do {                                                                                          \
    const glm::ivec3 a_ = (actual), e_ = (expected);                                            \
    const glm::ivec3 d_ = glm::abs(a_ - e_);                                                    \
    EXPECT_LE(std::max({d_.r, d_.g, d_.b}), kColourTolerance)                                   \
        << what << ": got (" << a_.r << ", " << a_.g << ", " << a_.b << "), expected (" << e_.r \
        << ", " << e_.g << ", " << e_.b << ")";                                                 \
  } while (false)

struct PathCase {
  int gles_major;
  RenderPath path;
};
void PrintTo(const PathCase& c, std::ostream* out) {
  *out << "ES " << c.gles_major << " " << renderPathName(c.path);
}

// The paths both suites run on: every path on ES 3, the two that draw on ES 2.
constexpr PathCase kMaterialPathCases[] = {
    {3, RenderPath::kInstanced},    {3, RenderPath::kGpu},    {3, RenderPath::kMerged},
    {3, RenderPath::kPerCharacter}, {2, RenderPath::kMerged}, {2, RenderPath::kPerCharacter}};

// gtest's name of a case: "Es3percharacter".
std::string materialPathCaseName(const ::testing::TestParamInfo<PathCase>& param) {
  std::string name = renderPathName(param.param.path);
  std::erase(name, '-');
  return "Es" + std::to_string(param.param.gles_major) + name;
}

class MaterialColours : public ::testing::TestWithParam<PathCase> {
 protected:
  void SetUp() override {
    DeviceDesc desc;
    desc.gles_major = GetParam().gles_major;
    desc.width = kWidth;
    desc.height = height_;
    if (GetParam().path == RenderPath::kGpu) {
      // The GPU-driven path: an ES 3.1 context with compute (required: test/require.h).
      desc.gles_minor = 1;
      test::useGlesVersion(3);
      Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
      THRONG_REQUIRE(device.ok(), "no ES 3.1 context: " + device.status().toString());
      device_ = std::move(device).value();
      THRONG_REQUIRE(device_->caps().compute, "no ES 3.1 compute on " + device_->caps().version);
    } else {
      device_ = test::makeTestDevice(desc);
    }
    ASSERT_NE(device_, nullptr);
    ASSERT_EQ(device_->caps().gles_major >= 3, GetParam().gles_major >= 3);
  }

  // Draws agents at `positions` (tints: one each, or none) with `package`; the frame and the
  // draw calls.
  Image draw(const Package& package, std::vector<glm::vec3> positions, std::vector<glm::vec4> tints,
             bool tint, uint32_t* draw_calls, const std::vector<uint16_t>& variants = {},
             const FrameView& view = frontView()) {
    CrowdRendererDesc desc;
    desc.path = GetParam().path;
    desc.fixed_lod = 0;
    desc.tint = tint;
    CrowdRenderer renderer(*device_, package, desc);
    EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
    if (!renderer.ok()) return {};
    std::vector<Placement> placements(positions.size());
    std::vector<AgentPlayback> playback(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) placements[i].position = positions[i];
    device_->beginFrame(kMaterialClear);
    const Status s = renderer.draw(view, CrowdFrame{placements, playback, tints, {}, variants});
    EXPECT_TRUE(s.ok()) << s.toString();
    device_->finish();
    *draw_calls = renderer.stats().draw_calls;
    Result<Image> image = device_->readPixels();
    EXPECT_TRUE(image.ok());
    return image.ok() ? std::move(image).value() : Image{};
  }

  int height_ = kHeight;
  std::unique_ptr<Device> device_;
};

TEST_P(MaterialColours, EveryMaterialFeatureAtItsPixels) {
  uint32_t draws = 0;
  const Image image = draw(test::materialCharacterPackage(), {glm::vec3(0.0f)}, {}, true, &draws);
  ASSERT_EQ(image.width, kWidth);
  EXPECT_EQ(draws, 4u) << "one draw per material";
  // Quad 0: the factor.
  EXPECT_COLOUR(pixelAt(image, 0, 0.5f, 0.5f), litColour({1, 0, 0}, 0, 0.5f, 0.5f), "red factor");
  // Quad 1: the checker, nearest: texel (0, 0) is colour 0, texel (1, 0) colour 1.
  EXPECT_COLOUR(pixelAt(image, 1, 0.125f, 0.125f),
                litColour(texelLinear(test::kCheckerColors[0]), 1, 0.125f, 0.125f),
                "checker texel (0, 0)");
  EXPECT_COLOUR(pixelAt(image, 1, 0.375f, 0.125f),
                litColour(texelLinear(test::kCheckerColors[1]), 1, 0.375f, 0.125f),
                "checker texel (1, 0)");
  EXPECT_COLOUR(pixelAt(image, 1, 0.375f, 0.875f),
                litColour(texelLinear(test::kCheckerColors[0]), 1, 0.375f, 0.875f),
                "checker texel (1, 3)");
  // Quad 2: the left half is cut away (the clear colour shows), the right half is green.
  const glm::ivec3 clear = glm::ivec3(glm::round(glm::vec3(kMaterialClear) * 255.0f));
  EXPECT_COLOUR(pixelAt(image, 2, 0.25f, 0.5f), clear, "cut-out half");
  EXPECT_COLOUR(pixelAt(image, 2, 0.75f, 0.5f), litColour({0, 1, 0}, 2, 0.75f, 0.5f), "kept half");
  // Quad 3: vertex colours.
  EXPECT_COLOUR(pixelAt(image, 3, 0.5f, 0.5f),
                litColour({test::kVertexColor[0], test::kVertexColor[1], test::kVertexColor[2]}, 3,
                          0.5f, 0.5f),
                "vertex colour");
  // Between the quads: nothing.
  const int between = static_cast<int>(1.5f * kPixelsPerUnit + 0.5f * kPixelsPerUnit);
  const uint8_t* p = &image.rgba[(static_cast<size_t>(kHeight / 2) * kWidth + between) * 4];
  EXPECT_COLOUR(glm::ivec3(p[0], p[1], p[2]), clear, "between quads 0 and 1");
}

TEST_P(MaterialColours, TintTransformAndBlendingAfterTheOpaquePass) {
  Package package = test::materialCharacterPackage();
  // The checker shifted a quarter to the left: uv (0.125, v) samples texel 1.
  package.materials[1].base_color_texture.transform.offset = glm::vec2(0.25f, 0.0f);
  // Quad 3 half transparent, in front of a second agent's red quad 0 (one unit behind).
  package.materials[3].alpha_mode = AlphaMode::kBlend;
  package.materials[3].base_color.a = 0.5f;
  const std::vector<glm::vec3> positions = {glm::vec3(0.0f), glm::vec3(6.0f, 0.0f, -1.0f)};
  const std::vector<glm::vec4> tints = {glm::vec4(0.5f, 1.0f, 1.0f, 1.0f), glm::vec4(1.0f)};
  const glm::ivec3 painted =
      litColour({test::kVertexColor[0], test::kVertexColor[1], test::kVertexColor[2]}, 3);
  // Agent 1's red quad 0 (at x = 6, one unit behind) shows behind agent 0's quad 3.
  const FrameView view = frontView();
  test::PbrPoint behind;
  behind.base_color = glm::dvec3(1.0, 0.0, 0.0);
  behind.view = glm::normalize(glm::dvec3(view.eye - glm::vec3(6.5f, 0.5f, -1.0f)));
  const glm::ivec3 red_behind = test::encodedColour(test::shadePbr(behind, view));
  const glm::ivec3 blended = (painted + red_behind + 1) / 2;
  for (const bool tint : {true, false}) {
    SCOPED_TRACE(tint ? "tint on" : "tint off");
    uint32_t draws = 0;
    const Image image = draw(package, positions, tints, tint, &draws);
    ASSERT_EQ(image.width, kWidth);
    EXPECT_EQ(draws, GetParam().path == RenderPath::kPerCharacter ? 8u : 4u);
    // The tint (sRGB 8-bit 128 -> 0.5 after quantisation) multiplies the factor.
    const float half = std::round(0.5f * 255.0f) / 255.0f;
    EXPECT_COLOUR(pixelAt(image, 0, 0.5f, 0.5f), litColour({tint ? half : 1.0f, 0, 0}),
                  "tinted red factor");
    EXPECT_COLOUR(pixelAt(image, 1, 0.125f, 0.125f),
                  litColour(texelLinear(test::kCheckerColors[1]), 1, 0.125f, 0.125f),
                  "transformed checker");
    // Agent 0's quad 3 blends over agent 1's red quad: drawn after it, without hiding it.
    EXPECT_COLOUR(pixelAt(image, 3, 0.5f, 0.5f), blended, "blended over opaque");
  }
}

// A material transforming two textures differently (KHR_texture_transform per texture): its
// programs take a transform per texture (material.glsl's THRONG_UV_TRANSFORM_PER_TEXTURE; one
// per material would fit ES 2.0's 16 fragment uniform vectors, docs/shaders.md), and each texture
// is read through its own. The checker's base colour is shifted a quarter to the left (texel 1
// at u = 0.125), its emissive copy is not (texel 0 there).
TEST_P(MaterialColours, EachTextureKeepsItsOwnTransform) {
  Package package = test::materialCharacterPackage();
  Material& checker = package.materials[1];
  checker.base_color_texture.transform.offset = glm::vec2(0.25f, 0.0f);
  checker.emissive_texture = checker.base_color_texture;
  checker.emissive_texture.transform = TextureTransform{};
  checker.emissive_factor = glm::vec3(0.25f);
  uint32_t draws = 0;
  const Image image = draw(package, {glm::vec3(0.0f)}, {glm::vec4(1.0f)}, false, &draws);
  ASSERT_EQ(image.width, kWidth);
  const FrameView view = frontView();
  for (const float v : {0.125f, 0.375f}) {
    // Texel (1, row) of the base colour, texel (0, row) of the emissive copy: colours 1 and 0
    // on even rows, 0 and 1 on odd ones.
    const int row = static_cast<int>(v * 4.0f);
    test::PbrPoint p;
    p.base_color = glm::dvec3(texelLinear(test::kCheckerColors[(1 + row) % 2]));
    p.emissive = 0.25 * glm::dvec3(texelLinear(test::kCheckerColors[row % 2]));
    p.view = glm::normalize(glm::dvec3(view.eye - glm::vec3(2.0f + 0.125f, 1.0f - v, 0.0f)));
    EXPECT_COLOUR(pixelAt(image, 1, 0.125f, v), test::encodedColour(test::shadePbr(p, view)),
                  "base colour shifted, emissive not");
  }
}

// The test character written as glTF (KHR_materials_variants) by our exporter and imported
// again: its variants "plain" and "all red", drawn per agent.
class MaterialVariants : public MaterialColours {
 protected:
  MaterialVariants() { height_ = kVariantRows * 2 * static_cast<int>(kPixelsPerUnit); }
  static constexpr int kVariantRows = 4;
};

TEST_P(MaterialVariants, EachAgentInItsVariantInOneDrawPerMaterial) {
  static const Package package = [] {
    const std::filesystem::path dir = test::makeTempDir("material_variants");
    const std::string path = (dir / "variants.gltf").string();
    EXPECT_TRUE(writeGltf(test::makeMaterialCharacter(), path).ok());
    Result<Character> imported = importGltf(path);
    EXPECT_TRUE(imported.ok()) << imported.status().toString();
    std::filesystem::remove_all(dir);
    BakeOptions bake;
    bake.threads = 1;
    return bakeCharacter(imported.value(), bake).value();
  }();
  ASSERT_EQ(package.variants, (std::vector<std::string>{"plain", "all red"}));
  // Rows of agents 2 units apart (y = 0, 2, 4, 6), each in one appearance: own materials, "plain",
  // "all red", and one past the last variant (own materials).
  const std::vector<uint16_t> variants = {0, 1, 2, 9};
  std::vector<glm::vec3> positions;
  for (int r = 0; r < kVariantRows; ++r) positions.emplace_back(0.0f, 2.0f * r, 0.0f);
  const float top = 2.0f * kVariantRows - 0.5f;
  FrameView view;
  view.view_projection = glm::ortho(-0.5f, 7.5f, -0.5f, top, 0.1f, 20.0f) *
                         glm::lookAt(glm::vec3(0, 0, 10), glm::vec3(0), glm::vec3(0, 1, 0));
  view.eye = glm::vec3(0, 0, 10);
  uint32_t draws = 0;
  const Image image = draw(package, positions, {}, true, &draws, variants, view);
  ASSERT_EQ(image.height, height_);
  EXPECT_EQ(draws, GetParam().path == RenderPath::kPerCharacter ? 16u : 4u)
      << "one draw per material (per character on the per-character path)";
  // The pixel showing point (u, v) of quad q of the agent in row r.
  auto at = [&](int r, int q, float u, float v) {
    const int column = static_cast<int>((2.0f * static_cast<float>(q) + u + 0.5f) * kPixelsPerUnit);
    const int row = static_cast<int>((top - (2.0f * r + 1.0f) + v) * kPixelsPerUnit);
    const uint8_t* p = &image.rgba[(static_cast<size_t>(row) * image.width + column) * 4];
    return glm::ivec3(p[0], p[1], p[2]);
  };
  const auto red = [](int r, int q, float u, float v) {
    return litColour({1, 0, 0}, q, u, v, 2.0f * static_cast<float>(r));
  };
  const glm::ivec3 clear = glm::ivec3(glm::round(glm::vec3(kMaterialClear) * 255.0f));
  for (const int r : {0, 1, 3}) {
    SCOPED_TRACE("own materials, appearance " + std::to_string(variants[r]));
    EXPECT_COLOUR(at(r, 0, 0.5f, 0.5f), red(r, 0, 0.5f, 0.5f), "red factor");
    EXPECT_COLOUR(at(r, 1, 0.125f, 0.125f),
                  litColour(texelLinear(test::kCheckerColors[0]), 1, 0.125f, 0.125f, 2.0f * r),
                  "checker texel (0, 0)");
    EXPECT_COLOUR(at(r, 2, 0.25f, 0.5f), clear, "cut-out half");
    EXPECT_COLOUR(at(r, 2, 0.75f, 0.5f), litColour({0, 1, 0}, 2, 0.75f, 0.5f, 2.0f * r),
                  "kept half");
    EXPECT_COLOUR(at(r, 3, 0.5f, 0.5f),
                  litColour({test::kVertexColor[0], test::kVertexColor[1], test::kVertexColor[2]},
                            3, 0.5f, 0.5f, 2.0f * r),
                  "vertex colour");
  }
  SCOPED_TRACE("'all red'");
  EXPECT_COLOUR(at(2, 0, 0.5f, 0.5f), red(2, 0, 0.5f, 0.5f), "quad 0");
  EXPECT_COLOUR(at(2, 1, 0.125f, 0.125f), red(2, 1, 0.125f, 0.125f),
                "quad 1 (checker in its own materials)");
  EXPECT_COLOUR(at(2, 2, 0.25f, 0.5f), red(2, 2, 0.25f, 0.5f), "quad 2, no cut-out in red");
  // Red times quad 3's vertex colour (0, 0.5, 1): black.
  EXPECT_COLOUR(at(2, 3, 0.5f, 0.5f), litColour({0, 0, 0}, 3, 0.5f, 0.5f, 4.0f),
                "quad 3, red x vertex colour");
}

INSTANTIATE_TEST_SUITE_P(Paths, MaterialVariants, ::testing::ValuesIn(kMaterialPathCases),
                         materialPathCaseName);

// kAuto picks the gpu path for a package with variants and for a renderer gathering events
// (the device decides, not the options).
TEST(MaterialVariantsGpu, AutoPicksTheGpuPathWithVariantsAndEvents) {
  DeviceDesc desc;
  desc.gles_major = 3;
  desc.gles_minor = 1;
  desc.width = kWidth;
  desc.height = kHeight;
  test::useGlesVersion(3);
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  THRONG_REQUIRE(device.ok(), "no ES 3.1 context: " + device.status().toString());
  THRONG_REQUIRE((*device)->caps().compute, "no ES 3.1 compute on " + (*device)->caps().version);
  ASSERT_FALSE(test::materialCharacterPackage().variants.empty());
  for (const bool events : {false, true}) {
    CrowdRendererDesc renderer_desc;
    renderer_desc.events = events;
    renderer_desc.events_on_cpu = events;  // ignored now
    CrowdRenderer automatic(**device, test::materialCharacterPackage(), renderer_desc);
    ASSERT_TRUE(automatic.ok()) << automatic.status().toString();
    EXPECT_EQ(automatic.path(), RenderPath::kGpu)
        << (events ? "with events: " : "with variants: ") << automatic.pathReason();
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, MaterialColours, ::testing::ValuesIn(kMaterialPathCases),
                         materialPathCaseName);

}  // namespace
}  // namespace throng::render
