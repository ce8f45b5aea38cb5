// Materials: sampler rules for ES 2.0, the KHR_texture_transform matrix, validation.
#include "throng/core/material.h"

#include <cmath>
#include <numbers>

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

}  // namespace
}  // namespace throng
