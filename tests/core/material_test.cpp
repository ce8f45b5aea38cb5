// Materials: sampler rules for ES 2.0, the KHR_texture_transform matrix, validation.
#include "throng/core/material.h"

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include <gtest/gtest.h>

namespace throng {
namespace {

TEST(Material, DefaultsFollowGltf) {
  const Material m = defaultMaterial();
  EXPECT_EQ(m.base_color, glm::vec4(1.0f));
  EXPECT_FALSE(m.base_color_texture.present());
  EXPECT_EQ(m.alpha_mode, AlphaMode::kOpaque);
  EXPECT_EQ(m.alpha_cutoff, 0.5f);
  EXPECT_FALSE(m.double_sided);
  const TextureSampler s;
  EXPECT_EQ(s.mag_filter, TextureFilter::kLinear);
  EXPECT_EQ(s.min_filter, TextureFilter::kLinearMipmapLinear);
  EXPECT_EQ(s.wrap_s, TextureWrap::kRepeat);
  EXPECT_EQ(s.wrap_t, TextureWrap::kRepeat);
  EXPECT_TRUE(validateMaterial(m, 0, 0, "test").ok());
  EXPECT_STREQ(alphaModeName(AlphaMode::kMask), "MASK");
  // glTF 2.0's metallic-roughness defaults.
  EXPECT_EQ(m.metallic_factor, 1.0f);
  EXPECT_EQ(m.roughness_factor, 1.0f);
  EXPECT_EQ(m.normal_scale, 1.0f);
  EXPECT_EQ(m.occlusion_strength, 1.0f);
  EXPECT_EQ(m.emissive_factor, glm::vec3(0.0f));
  EXPECT_EQ(m.emissive_strength, 1.0f);
  for (int slot = 0; slot < kTextureSlotCount; ++slot) {
    EXPECT_FALSE(m.texture(static_cast<TextureSlot>(slot)).present());
  }
}

TEST(Material, SlotsNameTheirTexturesAndColourSpaces) {
  Material m;
  const TextureRef* fields[] = {&m.base_color_texture, &m.metallic_roughness_texture,
                                &m.normal_texture, &m.occlusion_texture, &m.emissive_texture};
  const char* names[] = {"base colour", "metallic-roughness", "normal", "occlusion", "emissive"};
  const ColorSpace spaces[] = {ColorSpace::kSrgb, ColorSpace::kLinear, ColorSpace::kLinear,
                               ColorSpace::kLinear, ColorSpace::kSrgb};
  for (int s = 0; s < kTextureSlotCount; ++s) {
    const auto slot = static_cast<TextureSlot>(s);
    EXPECT_EQ(&m.texture(slot), fields[s]);
    EXPECT_EQ(&std::as_const(m).texture(slot), fields[s]);
    EXPECT_STREQ(textureSlotName(slot), names[s]);
    EXPECT_EQ(slotColorSpace(slot), spaces[s]);
  }
}

TEST(Material, ImagesTakeTheColourSpaceOfTheirUses) {
  std::vector<Material> materials(2);
  materials[0].base_color_texture.image = 0;
  materials[0].normal_texture.image = 1;
  materials[1].occlusion_texture.image = 1;
  materials[1].metallic_roughness_texture.image = 1;  // one ORM image: all data
  materials[1].emissive_texture.image = 2;
  EXPECT_EQ(imageColorSpace(materials, 0), ColorSpace::kSrgb);
  EXPECT_EQ(imageColorSpace(materials, 1), ColorSpace::kLinear);
  EXPECT_EQ(imageColorSpace(materials, 2), ColorSpace::kSrgb);
  EXPECT_EQ(imageColorSpace(materials, 3), ColorSpace::kSrgb);  // unused
  EXPECT_TRUE(validateImageColorSpaces(materials, "x.glb").ok());
  materials[1].name = "skin";
  materials[1].emissive_texture.image = 1;  // colour and data from one image
  const Status s = validateImageColorSpaces(materials, "x.glb");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(s.message(),
            "x.glb: image 1 is read as sRGB colour (material 1 ('skin') emissive texture) and as "
            "linear data (material 0 ('') normal texture); an image has one colour space: give "
            "each use its own image");
}

TEST(Material, GlEnumValues) {
  // The enums are GL's numbers, so a renderer passes them through.
  EXPECT_EQ(static_cast<int>(TextureFilter::kNearest), 9728);
  EXPECT_EQ(static_cast<int>(TextureFilter::kLinearMipmapLinear), 9987);
  EXPECT_EQ(static_cast<int>(TextureWrap::kRepeat), 10497);
  EXPECT_EQ(static_cast<int>(TextureWrap::kClampToEdge), 33071);
  EXPECT_EQ(static_cast<int>(TextureWrap::kMirroredRepeat), 33648);
}

TEST(Material, PowerOfTwoRuleOfEs2) {
  TextureSampler s{TextureFilter::kLinear, TextureFilter::kLinear, TextureWrap::kClampToEdge,
                   TextureWrap::kClampToEdge};
  EXPECT_FALSE(needsPowerOfTwo(s));
  s.min_filter = TextureFilter::kNearest;
  EXPECT_FALSE(needsPowerOfTwo(s));
  for (TextureFilter f :
       {TextureFilter::kNearestMipmapNearest, TextureFilter::kLinearMipmapNearest,
        TextureFilter::kNearestMipmapLinear, TextureFilter::kLinearMipmapLinear}) {
    s.min_filter = f;
    EXPECT_TRUE(usesMipmaps(f));
    EXPECT_TRUE(needsPowerOfTwo(s));
  }
  s.min_filter = TextureFilter::kLinear;
  s.wrap_t = TextureWrap::kRepeat;
  EXPECT_TRUE(needsPowerOfTwo(s));
  s.wrap_t = TextureWrap::kClampToEdge;
  s.wrap_s = TextureWrap::kMirroredRepeat;
  EXPECT_TRUE(needsPowerOfTwo(s));
}

TEST(Material, TextureTransformIsTranslationRotationScale) {
  TextureTransform t;
  EXPECT_TRUE(t.isIdentity());
  EXPECT_EQ(t.apply(glm::vec2(0.3f, 0.7f)), glm::vec2(0.3f, 0.7f));
  t.offset = glm::vec2(0.5f, 0.25f);
  t.scale = glm::vec2(2.0f, 4.0f);
  EXPECT_FALSE(t.isIdentity());
  // No rotation: uv * scale + offset.
  glm::vec2 uv = t.apply(glm::vec2(1.0f, 1.0f));
  EXPECT_NEAR(uv.x, 2.5f, 1e-6f);
  EXPECT_NEAR(uv.y, 4.25f, 1e-6f);
  // The extension's matrix: rotation = mat3(cos, sin, 0, -sin, cos, 0, 0, 0, 1) (columns), so a
  // quarter turn takes (1, 0) to (0, 1) before the offset.
  t.rotation = std::numbers::pi_v<float> / 2.0f;
  t.scale = glm::vec2(1.0f);
  uv = t.apply(glm::vec2(1.0f, 0.0f));
  EXPECT_NEAR(uv.x, 0.5f, 1e-6f);
  EXPECT_NEAR(uv.y, 1.25f, 1e-6f);
  // Scale applies before the rotation.
  t.scale = glm::vec2(3.0f, 1.0f);
  uv = t.apply(glm::vec2(1.0f, 0.0f));
  EXPECT_NEAR(uv.x, 0.5f, 1e-6f);
  EXPECT_NEAR(uv.y, 3.25f, 1e-6f);
  const glm::mat3 m = t.matrix();
  EXPECT_EQ(m[2], glm::vec3(0.5f, 0.25f, 1.0f));
}

TEST(Material, ValidationNamesTheProblem) {
  auto error = [](const Material& m, size_t images) {
    const Status s = validateMaterial(m, 3, images, "x.glb");
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
    EXPECT_NE(s.message().find("x.glb: material 3 ('m')"), std::string::npos) << s.message();
    return s.message();
  };
  Material m;
  m.name = "m";
  m.base_color.a = -0.1f;
  EXPECT_NE(error(m, 0).find("base colour component 3"), std::string::npos);
  m.base_color = glm::vec4(NAN);
  EXPECT_NE(error(m, 0).find("base colour"), std::string::npos);
  m = Material{};
  m.name = "m";
  m.alpha_mode = static_cast<AlphaMode>(3);
  EXPECT_NE(error(m, 0).find("alpha mode"), std::string::npos);
  m.alpha_mode = AlphaMode::kMask;
  m.alpha_cutoff = NAN;
  EXPECT_NE(error(m, 0).find("alpha cutoff"), std::string::npos);
  m.alpha_cutoff = 2.0f;  // above 1 is legal glTF: everything is cut away
  EXPECT_TRUE(validateMaterial(m, 0, 0, "x").ok());
  m.base_color_texture.image = 1;
  EXPECT_NE(error(m, 1).find("image 1 does not exist"), std::string::npos);
  EXPECT_TRUE(validateMaterial(m, 0, 2, "x").ok());
  m.base_color_texture.uv_set = 2;
  EXPECT_NE(error(m, 2).find("uv set 2"), std::string::npos);
  m.base_color_texture.uv_set = 1;
  m.base_color_texture.sampler.min_filter = static_cast<TextureFilter>(0x1234);
  EXPECT_NE(error(m, 2).find("filters"), std::string::npos);
  m.base_color_texture.sampler.min_filter = TextureFilter::kNearest;
  m.base_color_texture.sampler.wrap_s = static_cast<TextureWrap>(0);
  EXPECT_NE(error(m, 2).find("wraps"), std::string::npos);
  m.base_color_texture.sampler.wrap_s = TextureWrap::kRepeat;
  m.base_color_texture.transform.rotation = INFINITY;
  EXPECT_NE(error(m, 2).find("transform"), std::string::npos);
}

TEST(Material, ValidationCoversEveryPbrFactorAndTexture) {
  auto error = [](const Material& m) {
    const Status s = validateMaterial(m, 1, 2, "x.throng");
    EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
    return s.message();
  };
  auto fresh = [] {
    Material m;
    m.name = "pbr";
    return m;
  };
  Material m = fresh();
  m.metallic_factor = 1.5f;
  EXPECT_EQ(error(m), "x.throng: material 1 ('pbr'): metallic factor is 1.5, outside [0, 1]");
  m = fresh();
  m.roughness_factor = NAN;
  EXPECT_NE(error(m).find("roughness factor is nan, outside [0, 1]"), std::string::npos);
  m = fresh();
  m.occlusion_strength = -0.5f;
  EXPECT_NE(error(m).find("occlusion strength is -0.5, outside [0, 1]"), std::string::npos);
  m = fresh();
  m.emissive_factor.b = 2.0f;
  EXPECT_NE(error(m).find("emissive factor component 2 is 2, outside [0, 1]"), std::string::npos);
  m = fresh();
  m.emissive_strength = -1.0f;
  EXPECT_NE(error(m).find("emissive strength -1 is not a finite number >= 0"), std::string::npos);
  m.emissive_strength = INFINITY;
  EXPECT_NE(error(m).find("emissive strength inf"), std::string::npos);
  m = fresh();
  m.normal_scale = NAN;
  EXPECT_NE(error(m).find("normal scale nan is not finite"), std::string::npos);
  m.normal_scale = -2.0f;  // any finite scale is glTF (a negative one flips the normal's xy)
  m.emissive_strength = 40.0f;
  EXPECT_TRUE(validateMaterial(m, 1, 2, "x").ok());
  // Each texture slot is checked like the base colour's, and named.
  for (int s = 1; s < kTextureSlotCount; ++s) {
    const auto slot = static_cast<TextureSlot>(s);
    m = fresh();
    m.texture(slot).image = 2;
    EXPECT_NE(error(m).find(fmt::format("{} texture image 2 does not exist (2 images)",
                                        textureSlotName(slot))),
              std::string::npos);
    m.texture(slot).image = 1;
    m.texture(slot).uv_set = 3;
    EXPECT_NE(error(m).find(fmt::format("{} texture uv set 3", textureSlotName(slot))),
              std::string::npos);
    m.texture(slot).uv_set = 0;
    m.texture(slot).sampler.wrap_t = static_cast<TextureWrap>(1);
    EXPECT_NE(error(m).find(fmt::format("{} texture wraps", textureSlotName(slot))),
              std::string::npos);
    m.texture(slot).sampler.wrap_t = TextureWrap::kRepeat;
    m.texture(slot).transform.scale.y = NAN;
    EXPECT_NE(
        error(m).find(fmt::format("{} texture transform is not finite", textureSlotName(slot))),
        std::string::npos);
  }
}

}  // namespace
}  // namespace throng
