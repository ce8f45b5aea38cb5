// Tests of the PBR sample (makeSamplePbrCharacter): every texture slot with the right colour space,
// normal maps of unit tangent-space normals with relief, and a glTF round trip without TANGENT
// that generates tangents and keeps the look.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace throng {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace sample_pbr_test {

// An 8-bit channel is within 1/255 of the value written, so a decoded unit normal's length is
// within about sqrt(3) * 2/255 of 1.
constexpr float kUnitTolerance = 0.015f;
// A texel leans when its normal is more than about 11 degrees off the surface's (z < 0.98).
constexpr float kFlatZ = 0.98f;

const Character& pbr() {
  static const Character character = makeSamplePbrCharacter();
  return character;
}

const Material& material(const Character& c, const std::string& name) {
  const auto it = std::find_if(c.materials.begin(), c.materials.end(),
                               [&](const Material& m) { return m.name == name; });
  EXPECT_NE(it, c.materials.end()) << name;
  return it != c.materials.end() ? *it : c.materials.front();
}

const ImageLevel& pixels(const Character& c, const TextureRef& t) {
  return c.images.at(static_cast<size_t>(t.image)).pixels;
}

TEST(SamplePbr, EveryMaterialHasItsTexturesInTheirColourSpaces) {
  const Character& c = pbr();
  ASSERT_TRUE(validateCharacter(c, "pbr sample").ok());
  ASSERT_EQ(c.materials.size(), 3u);
  for (const Material& m : c.materials) {
    SCOPED_TRACE(m.name);
    for (TextureSlot slot :
         {TextureSlot::kNormal, TextureSlot::kMetallicRoughness, TextureSlot::kOcclusion}) {
      const TextureRef& t = m.texture(slot);
      ASSERT_TRUE(t.present()) << textureSlotName(slot);
      EXPECT_EQ(imageColorSpace(c.materials, t.image), ColorSpace::kLinear)
          << textureSlotName(slot);
      EXPECT_EQ(pixels(c, t).width, kSamplePbrTextureSize);
      EXPECT_EQ(pixels(c, t).height, kSamplePbrTextureSize);
    }
  }
  const Material& clothes = material(c, "clothes");
  for (TextureSlot slot : {TextureSlot::kBaseColor, TextureSlot::kEmissive}) {
    ASSERT_TRUE(clothes.texture(slot).present()) << textureSlotName(slot);
    EXPECT_EQ(imageColorSpace(c.materials, clothes.texture(slot).image), ColorSpace::kSrgb);
  }
  EXPECT_GT(clothes.emissive_factor.g, 0.0f);
  // The glow is a small area: some texels lit, most black.
  const ImageLevel& glow = pixels(c, clothes.emissive_texture);
  size_t lit = 0;
  for (size_t i = 0; i < glow.rgba.size(); i += 4) lit += glow.rgba[i + 1] > 128;
  EXPECT_GT(lit, 0u);
  EXPECT_LT(lit * 10, glow.rgba.size() / 4);
  // Tangents for the normal textures, generated as an importer would.
  EXPECT_EQ(c.mesh.tangents.size(), c.mesh.vertexCount());
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kGenerated);
  // Deterministic.
  const Character again = makeSamplePbrCharacter();
  ASSERT_EQ(again.images.size(), c.images.size());
  for (size_t i = 0; i < c.images.size(); ++i) {
    EXPECT_EQ(again.images[i].pixels.rgba, c.images[i].pixels.rgba) << c.images[i].name;
  }
}

TEST(SamplePbr, NormalTexelsAreUnitTangentSpaceNormalsWithRelief) {
  const Character& c = pbr();
  for (const Material& m : c.materials) {
    SCOPED_TRACE(m.name);
    const ImageLevel& image = pixels(c, m.normal_texture);
    size_t leaning = 0, bad = 0;
    float min_x = 1.0f, max_x = -1.0f, min_y = 1.0f, max_y = -1.0f;
    for (size_t i = 0; i < image.rgba.size(); i += 4) {
      const glm::vec3 n =
          glm::vec3(image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]) / 255.0f * 2.0f - 1.0f;
      bad += std::abs(glm::length(n) - 1.0f) > kUnitTolerance || n.z <= 0.0f;
      leaning += n.z < kFlatZ;
      min_x = std::min(min_x, n.x), max_x = std::max(max_x, n.x);
      min_y = std::min(min_y, n.y), max_y = std::max(max_y, n.y);
    }
    const size_t texels = image.rgba.size() / 4;
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(leaning * 20, texels);  // more than 5% of the texels show relief
    // The relief leans both ways along at least one axis (bumps and dents, not a tilt).
    EXPECT_TRUE((min_x < -0.2f && max_x > 0.2f) || (min_y < -0.2f && max_y > 0.2f))
        << min_x << " " << max_x << " " << min_y << " " << max_y;
  }
}

TEST(SamplePbr, MetalBandRoughClothAndDarkerFolds) {
  const Character& c = pbr();
  const Material& clothes = material(c, "clothes");
  const ImageLevel& mr = pixels(c, clothes.metallic_roughness_texture);
  int max_metal = 0, min_metal = 255, min_rough = 255, max_rough = 0;
  for (size_t i = 0; i < mr.rgba.size(); i += 4) {
    max_metal = std::max<int>(max_metal, mr.rgba[i + 2]);
    min_metal = std::min<int>(min_metal, mr.rgba[i + 2]);
    min_rough = std::min<int>(min_rough, mr.rgba[i + 1]);
    max_rough = std::max<int>(max_rough, mr.rgba[i + 1]);
  }
  EXPECT_EQ(max_metal, 255);
  EXPECT_EQ(min_metal, 0);
  EXPECT_LT(min_rough, 100);  // the band is smooth
  EXPECT_GT(max_rough, 200);  // the cloth rough
  for (const Material& m : c.materials) {
    const ImageLevel& ao = pixels(c, m.occlusion_texture);
    int min_ao = 255, max_ao = 0;
    for (size_t i = 0; i < ao.rgba.size(); i += 4) {
      min_ao = std::min<int>(min_ao, ao.rgba[i]);
      max_ao = std::max<int>(max_ao, ao.rgba[i]);
    }
    EXPECT_LT(min_ao, 230) << m.name;
    EXPECT_EQ(max_ao, 255) << m.name;
  }
  // The shoes' leather is smoother than the cloth (medians of roughness x its factor).
  auto medianRoughness = [&](const Material& m) {
    const ImageLevel& image = pixels(c, m.metallic_roughness_texture);
    std::vector<uint8_t> g;
    for (size_t i = 1; i < image.rgba.size(); i += 4) g.push_back(image.rgba[i]);
    std::nth_element(g.begin(), g.begin() + g.size() / 2, g.end());
    return g[g.size() / 2] / 255.0f * m.roughness_factor;
  };
  EXPECT_LT(medianRoughness(material(c, "shoes")) + 0.3f, medianRoughness(clothes));
}

TEST(SamplePbr, WrittenWithoutTangentsImportsWithGeneratedTangentsAndTheSameLook) {
  const Character& c = pbr();
  const auto dir = test::makeTempDir("sample-pbr");
  const std::string without = (dir / "sample-pbr.glb").string();
  GltfExportOptions options;
  options.tangents = false;
  ASSERT_TRUE(writeGltf(c, without, options).ok());
  Result<Character> read = importGltf(without);
  ASSERT_TRUE(read.ok()) << read.status().toString();
  EXPECT_EQ(read->mesh.tangent_source, TangentSource::kGenerated);
  EXPECT_EQ(read->mesh.tangents.size(), read->mesh.vertexCount());
  EXPECT_TRUE(test::hasWarning(*read, "tangents generated (MikkTSpace rules)"));
  ASSERT_EQ(read->materials.size(), c.materials.size());
  ASSERT_EQ(read->images.size(), c.images.size());
  for (size_t i = 0; i < c.materials.size(); ++i) {
    const Material& a = c.materials[i];
    const Material& b = read->materials[i];
    SCOPED_TRACE(a.name);
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.base_color, a.base_color);
    EXPECT_FLOAT_EQ(b.metallic_factor, a.metallic_factor);
    EXPECT_FLOAT_EQ(b.roughness_factor, a.roughness_factor);
    EXPECT_FLOAT_EQ(b.normal_scale, a.normal_scale);
    EXPECT_FLOAT_EQ(b.occlusion_strength, a.occlusion_strength);
    EXPECT_EQ(b.emissive_factor, a.emissive_factor);
    for (int s = 0; s < kTextureSlotCount; ++s) {
      const TextureSlot slot = static_cast<TextureSlot>(s);
      ASSERT_EQ(b.texture(slot).present(), a.texture(slot).present()) << textureSlotName(slot);
      if (!a.texture(slot).present()) continue;
      // PNG is lossless: the texels come back as made, in the slot's colour space.
      EXPECT_EQ(pixels(*read, b.texture(slot)).rgba, pixels(c, a.texture(slot)).rgba)
          << textureSlotName(slot);
      EXPECT_EQ(imageColorSpace(read->materials, b.texture(slot).image), slotColorSpace(slot))
          << textureSlotName(slot);
    }
  }
  // The tangents match the ones makeSamplePbrCharacter generated (the same rules on the same mesh).
  ASSERT_EQ(read->mesh.vertexCount(), c.mesh.vertexCount());
  size_t differ = 0;
  for (size_t v = 0; v < c.mesh.vertexCount(); ++v) {
    differ += glm::dot(glm::vec3(read->mesh.tangents[v]), glm::vec3(c.mesh.tangents[v])) < 0.999f ||
              read->mesh.tangents[v].w != c.mesh.tangents[v].w;
  }
  EXPECT_EQ(differ, 0u);

  // By default the writer keeps the tangents, and the reader takes them from the file.
  const std::string with = (dir / "with-tangents.glb").string();
  ASSERT_TRUE(writeGltf(c, with).ok());
  Result<Character> kept = importGltf(with);
  ASSERT_TRUE(kept.ok()) << kept.status().toString();
  EXPECT_EQ(kept->mesh.tangent_source, TangentSource::kFile);
  std::filesystem::remove_all(dir);
}

}  // namespace sample_pbr_test
}  // namespace throng
