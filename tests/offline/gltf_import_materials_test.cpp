// glTF import of looks: materials, textures (embedded, data URI, external), samplers,
// KHR_texture_transform, vertex colours, alpha modes, variants, the extension policy.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <stb_image_write.h>

#include "offline/gltf_builder.h"
#include "support/message_log.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

using nlohmann::json;
using test::TwoBoneFile;

void appendPng(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<size_t>(size));
}

// A w x h PNG whose texel (x, y) is (x * 40, y * 40, 200, 255 - x).
std::string png(int w, int h) {
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* texel = rgba.data() + (static_cast<size_t>(y) * static_cast<size_t>(w) + x) * 4;
      texel[0] = static_cast<uint8_t>(x * 40);
      texel[1] = static_cast<uint8_t>(y * 40);
      texel[2] = 200;
      texel[3] = static_cast<uint8_t>(255 - x);
    }
  }
  std::string out;
  stbi_write_png_to_func(&appendPng, &out, w, h, 4, rgba.data(), w * 4);
  return out;
}

std::string allWarnings(const Character& c) {
  std::string s;
  for (const Warning& w : c.warnings) s += w.message + "\n";
  return s;
}

class GltfMaterials : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::makeTempDir("gltf-materials");
    uvs_ = file_.gltf.addFloats({0, 0, 1, 0, 0, 1, 1, 1}, "VEC2");
    primitive()["attributes"]["TEXCOORD_0"] = uvs_;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  json& primitive(int p = 0) { return file_.gltf.json["meshes"][0]["primitives"][p]; }
  json& gltf() { return file_.gltf.json; }
  // A second primitive over the same vertices (same attributes, same indices).
  json& addPrimitive() {
    file_.gltf.json["meshes"][0]["primitives"].push_back(primitive(0));
    file_.gltf.json["meshes"][0]["primitives"].back().erase("material");
    file_.gltf.json["meshes"][0]["primitives"].back().erase("extensions");
    return file_.gltf.json["meshes"][0]["primitives"].back();
  }
  int addMaterial(json material) {
    gltf()["materials"].push_back(std::move(material));
    return static_cast<int>(gltf()["materials"].size()) - 1;
  }
  // An image (from a buffer view), a texture over it and a material with it as base colour.
  int addTexturedMaterial(json image, json texture_info = json::object(), int sampler = -1) {
    gltf()["images"].push_back(std::move(image));
    json texture = {{"source", gltf()["images"].size() - 1}};
    if (sampler >= 0) texture["sampler"] = sampler;
    gltf()["textures"].push_back(texture);
    texture_info["index"] = gltf()["textures"].size() - 1;
    return addMaterial({{"pbrMetallicRoughness", {{"baseColorTexture", texture_info}}}});
  }
  json embeddedPng(int w, int h) {
    return {{"bufferView", file_.gltf.addBytes(png(w, h))}, {"mimeType", "image/png"}};
  }

  Result<Character> tryImport() {
    path_ = file_.gltf.write(dir_, "test.gltf");
    return importGltf(path_);
  }
  Character import() {
    Result<Character> c = tryImport();
    EXPECT_TRUE(c.ok()) << c.status().toString();
    if (!c.ok()) return {};
    EXPECT_TRUE(validateCharacter(*c, path_).ok());
    return std::move(c).value();
  }
  Status importError(ErrorCode code) {
    Result<Character> c = tryImport();
    EXPECT_FALSE(c.ok());
    if (c.ok()) return {};
    EXPECT_EQ(c.status().code(), code) << c.status().toString();
    EXPECT_NE(c.status().message().find(path_), std::string::npos) << c.status().message();
    return c.status();
  }

  TwoBoneFile file_;
  int uvs_ = -1;
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(GltfMaterials, WithoutMaterialsEverythingDrawsWithTheDefault) {
  const Character c = import();
  EXPECT_TRUE(c.materials.empty());
  EXPECT_TRUE(c.images.empty());
  ASSERT_EQ(c.mesh.submeshes.size(), 1u);
  EXPECT_EQ(c.mesh.submeshes[0].material, 0u);
  EXPECT_EQ(c.mesh.submeshes[0].name, "default");
  EXPECT_TRUE(c.mesh.colors.empty());
  EXPECT_TRUE(c.mesh.uvs1.empty());
}

TEST_F(GltfMaterials, FactorsAlphaModesSidesAndOneSubMeshPerMaterial) {
  const int blend =
      addMaterial({{"name", "glass"},
                   {"pbrMetallicRoughness", {{"baseColorFactor", {0.2, 0.4, 0.6, 0.8}}}},
                   {"alphaMode", "BLEND"},
                   {"doubleSided", true}});
  const int mask = addMaterial({{"alphaMode", "MASK"}, {"alphaCutoff", 0.25}});
  primitive()["material"] = blend;
  addPrimitive();                      // no material: the default
  addPrimitive()["material"] = blend;  // merges with primitive 0
  addPrimitive()["material"] = mask;
  const Character c = import();
  ASSERT_EQ(c.materials.size(), 3u);  // first-use order, then the default
  const Material& glass = c.materials[0];
  EXPECT_EQ(glass.name, "glass");
  EXPECT_EQ(glass.base_color, glm::vec4(0.2f, 0.4f, 0.6f, 0.8f));
  EXPECT_EQ(glass.alpha_mode, AlphaMode::kBlend);
  EXPECT_TRUE(glass.double_sided);
  EXPECT_FALSE(glass.base_color_texture.present());
  EXPECT_EQ(c.materials[1].name, "material1");  // unnamed: its glTF index
  EXPECT_EQ(c.materials[1].alpha_mode, AlphaMode::kMask);
  EXPECT_EQ(c.materials[1].alpha_cutoff, 0.25f);
  EXPECT_FALSE(c.materials[1].double_sided);
  EXPECT_EQ(c.materials[2].name, "default");
  EXPECT_EQ(c.materials[2].base_color, glm::vec4(1.0f));
  // Sub-meshes in the order their materials first appear among the primitives.
  ASSERT_EQ(c.mesh.submeshes.size(), 3u);
  EXPECT_EQ(c.mesh.submeshes[0].material, 0u);
  EXPECT_EQ(c.mesh.submeshes[0].name, "glass");
  EXPECT_EQ(c.mesh.submeshes[0].index_count, 12u);  // two primitives of two triangles
  EXPECT_EQ(c.mesh.submeshes[1].material, 2u);
  EXPECT_EQ(c.mesh.submeshes[1].name, "default");
  EXPECT_EQ(c.mesh.submeshes[2].material, 1u);
  EXPECT_EQ(c.mesh.submeshes[2].first_index, 18u);
  EXPECT_EQ(c.mesh.vertexCount(), 4u);  // the primitives share one vertex set
}

TEST_F(GltfMaterials, BadMaterialValuesAreErrors) {
  primitive()["material"] = addMaterial({{"alphaMode", "CUTOUT"}});
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("alphaMode 'CUTOUT'"),
            std::string::npos);
  gltf()["materials"][0] = {{"alphaMode", "MASK"}, {"alphaCutoff", -0.5}};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("alphaCutoff"), std::string::npos);
  gltf()["materials"][0] = json::object();
  primitive()["material"] = 3;
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("material 3 does not exist"),
            std::string::npos);
}

TEST_F(GltfMaterials, BadTextureTransformsAreErrors) {
  gltf()["extensionsUsed"] = {"KHR_texture_transform"};
  const json bad[] = {{{"offset", {0.5}}},         // one number, not two
                      {{"scale", "big"}},          // not numbers
                      {{"rotation", "quarter"}},   // not a number
                      {{"offset", {1e39, 0.0}}}};  // past the float range
  const char* const expected[] = {"KHR_texture_transform offset: expected an array of 2 numbers",
                                  "KHR_texture_transform scale: expected an array of 2 numbers",
                                  "KHR_texture_transform: rotation is not a number",
                                  "KHR_texture_transform: values overflow a float"};
  for (size_t i = 0; i < std::size(bad); ++i) {
    SCOPED_TRACE(bad[i].dump());
    gltf()["images"] = json::array();
    gltf()["textures"] = json::array();
    gltf()["materials"] = json::array();
    primitive()["material"] = addTexturedMaterial(
        embeddedPng(2, 2), {{"extensions", {{"KHR_texture_transform", bad[i]}}}});
    const std::string message = importError(ErrorCode::kInvalidData).message();
    EXPECT_NE(message.find(expected[i]), std::string::npos) << message;
  }
}

TEST_F(GltfMaterials, OutOfRangeFactorsAreClampedWithAWarning) {
  primitive()["material"] =
      addMaterial({{"pbrMetallicRoughness", {{"baseColorFactor", {1.5, 0.5, -0.1, 1.0}}}}});
  const Character c = import();
  EXPECT_EQ(c.materials[0].base_color, glm::vec4(1.0f, 0.5f, 0.0f, 1.0f));
  EXPECT_TRUE(test::hasWarning(c, "baseColorFactor outside [0, 1]; clamped")) << allWarnings(c);
}

TEST_F(GltfMaterials, EmbeddedTextureWithSamplerAndTransform) {
  gltf()["samplers"] = {
      {{"magFilter", 9728}, {"minFilter", 9729}, {"wrapS", 33071}, {"wrapT", 33648}}};
  primitive()["material"] = addTexturedMaterial(
      embeddedPng(3, 2),
      {{"extensions",
        {{"KHR_texture_transform",
          {{"offset", {0.5, -0.25}}, {"rotation", 0.75}, {"scale", {2.0, 4.0}}}}}}},
      0);
  gltf()["extensionsUsed"] = {"KHR_texture_transform"};
  const Character c = import();
  ASSERT_EQ(c.images.size(), 1u);
  const ImageLevel& pixels = c.images[0].pixels;
  ASSERT_EQ(pixels.width, 3u);
  ASSERT_EQ(pixels.height, 2u);
  // Rows in file order: texel (2, 1) is (80, 40, 200, 253).
  const size_t at = (1 * 3 + 2) * 4;
  EXPECT_EQ(pixels.rgba[at], 80);
  EXPECT_EQ(pixels.rgba[at + 1], 40);
  EXPECT_EQ(pixels.rgba[at + 2], 200);
  EXPECT_EQ(pixels.rgba[at + 3], 253);
  const TextureRef& t = c.materials[0].base_color_texture;
  EXPECT_EQ(t.image, 0);
  EXPECT_EQ(t.uv_set, 0);
  EXPECT_EQ(t.sampler.mag_filter, TextureFilter::kNearest);
  EXPECT_EQ(t.sampler.min_filter, TextureFilter::kLinear);
  EXPECT_EQ(t.sampler.wrap_s, TextureWrap::kClampToEdge);
  EXPECT_EQ(t.sampler.wrap_t, TextureWrap::kMirroredRepeat);
  EXPECT_EQ(t.transform.offset, glm::vec2(0.5f, -0.25f));
  EXPECT_EQ(t.transform.rotation, 0.75f);
  EXPECT_EQ(t.transform.scale, glm::vec2(2.0f, 4.0f));
  EXPECT_FALSE(test::hasWarning(c, "KHR_texture_transform"))
      << allWarnings(c);  // read, not ignored
}

TEST_F(GltfMaterials, TexturesWithoutSamplerUseRepeatAndTrilinear) {
  primitive()["material"] = addTexturedMaterial(embeddedPng(2, 2));
  gltf()["samplers"] = {json::object()};  // also a sampler without filters
  const int second = addTexturedMaterial(embeddedPng(2, 2), json::object(), 0);
  addPrimitive()["material"] = second;
  const Character c = import();
  for (const Material& m : c.materials) {
    const TextureSampler& s = m.base_color_texture.sampler;
    EXPECT_EQ(s.mag_filter, TextureFilter::kLinear);
    EXPECT_EQ(s.min_filter, TextureFilter::kLinearMipmapLinear);
    EXPECT_EQ(s.wrap_s, TextureWrap::kRepeat);
    EXPECT_EQ(s.wrap_t, TextureWrap::kRepeat);
  }
}

TEST_F(GltfMaterials, DataUriAndExternalImagesDecodeOnceEach) {
  const std::string bytes = png(4, 1);
  test::writeFile(dir_ / "skin.png", bytes);
  const int external = addTexturedMaterial({{"uri", "skin.png"}});
  const int data = addTexturedMaterial(
      {{"uri", "data:image/png;base64," + test::base64(png(1, 5))}, {"name", "inline"}});
  // A third material reusing the external image through another texture.
  gltf()["textures"].push_back({{"source", 0}});
  const int reuse =
      addMaterial({{"pbrMetallicRoughness",
                    {{"baseColorTexture", {{"index", 2}}}, {"baseColorFactor", {1, 0, 0, 1}}}}});
  primitive()["material"] = external;
  addPrimitive()["material"] = data;
  addPrimitive()["material"] = reuse;
  const Character c = import();
  ASSERT_EQ(c.images.size(), 2u);
  EXPECT_EQ(c.images[0].name, "skin.png");
  EXPECT_EQ(c.images[0].pixels.width, 4u);
  EXPECT_EQ(c.images[1].name, "inline");
  EXPECT_EQ(c.images[1].pixels.height, 5u);
  EXPECT_EQ(c.materials[0].base_color_texture.image, 0);
  EXPECT_EQ(c.materials[1].base_color_texture.image, 1);
  EXPECT_EQ(c.materials[2].base_color_texture.image, 0);
}

TEST_F(GltfMaterials, UnusableImagesDropTheTextureWithAWarning) {
  const int missing = addTexturedMaterial({{"uri", "nowhere.png"}});
  const int corrupt = addTexturedMaterial(
      {{"bufferView", file_.gltf.addBytes(png(2, 2).substr(0, 40))}, {"mimeType", "image/png"}});
  const int ktx2 = addTexturedMaterial(
      {{"bufferView",
        file_.gltf.addBytes(std::string("\xABKTX 20\xBB\r\n\x1A\n", 12) + std::string(64, '\0'))},
       {"mimeType", "image/ktx2"}});
  primitive()["material"] = missing;
  addPrimitive()["material"] = corrupt;
  addPrimitive()["material"] = ktx2;
  const Character c = import();
  // Warnings are messages too (docs/errors.md's check reads them from the message log).
  for (const Warning& w : c.warnings) test::logOutputLines(w.message);
  ASSERT_EQ(c.materials.size(), 3u);
  for (const Material& m : c.materials) EXPECT_FALSE(m.base_color_texture.present());
  EXPECT_TRUE(c.images.empty());
  EXPECT_TRUE(test::hasWarning(c, "file 'nowhere.png' could not be loaded")) << allWarnings(c);
  EXPECT_TRUE(test::hasWarning(c, "corrupt image/png data")) << allWarnings(c);
  EXPECT_TRUE(test::hasWarning(c, "format image/ktx2 cannot be decoded")) << allWarnings(c);
}

TEST_F(GltfMaterials, ImagesOverTheSizeLimitAreErrors) {
  primitive()["material"] =
      addTexturedMaterial(embeddedPng(static_cast<int>(kMaxImageSize) + 1, 1));
  const Status s = importError(ErrorCode::kLimitExceeded);
  EXPECT_NE(s.message().find("8193x1 pixels"), std::string::npos) << s.message();
}

TEST_F(GltfMaterials, SecondUvSetAndTexCoordOverride) {
  const int uv1 = file_.gltf.addFloats({0.5f, 0.5f, 0.25f, 0.5f, 0.5f, 0.75f, 0, 1}, "VEC2");
  primitive()["attributes"]["TEXCOORD_1"] = uv1;
  // texCoord 0, overridden to 1 by KHR_texture_transform.
  primitive()["material"] = addTexturedMaterial(
      embeddedPng(2, 2),
      {{"texCoord", 0}, {"extensions", {{"KHR_texture_transform", {{"texCoord", 1}}}}}});
  Character c = import();
  ASSERT_EQ(c.mesh.uvs1.size(), 4u);
  EXPECT_EQ(c.mesh.uvs1[2], glm::vec2(0.5f, 0.75f));
  EXPECT_EQ(c.materials[0].base_color_texture.uv_set, 1);
  EXPECT_TRUE(c.materials[0].base_color_texture.transform.isIdentity());
  // Without a material sampling it, TEXCOORD_1 is not imported.
  gltf()["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"].erase("extensions");
  c = import();
  EXPECT_TRUE(c.mesh.uvs1.empty());
  EXPECT_EQ(c.materials[0].base_color_texture.uv_set, 0);
  // A set throng does not import, or one the mesh lacks: drawn without the texture.
  gltf()["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 2;
  c = import();
  EXPECT_FALSE(c.materials[0].base_color_texture.present());
  EXPECT_TRUE(test::hasWarning(c, "reads TEXCOORD_2")) << allWarnings(c);
  gltf()["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 0;
  primitive()["attributes"].erase("TEXCOORD_0");
  c = import();
  EXPECT_FALSE(c.materials[0].base_color_texture.present());
  EXPECT_TRUE(test::hasWarning(c, "the mesh has no TEXCOORD_0")) << allWarnings(c);
}

TEST_F(GltfMaterials, VertexColoursInEveryForm) {
  // VEC3 normalised bytes (alpha 1), then VEC4 floats and normalised shorts on other vertex sets.
  primitive()["attributes"]["COLOR_0"] = file_.gltf.add(
      std::vector<uint8_t>{255, 0, 0, 0, 255, 0, 0, 0, 255, 51, 102, 153}, 5121, "VEC3", true);
  Character c = import();
  ASSERT_EQ(c.mesh.colors.size(), 4u);
  EXPECT_EQ(c.mesh.colors[0], glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(c.mesh.colors[3], glm::vec4(0.2f, 0.4f, 0.6f, 1.0f));
  primitive()["attributes"]["COLOR_0"] =
      file_.gltf.addFloats({0.5f, 0.5f, 0.5f, 0.25f, 0, 0, 0, 0, 1, 1, 1, 1, 2, -1, 0, 1}, "VEC4");
  c = import();
  EXPECT_EQ(c.mesh.colors[0], glm::vec4(0.5f, 0.5f, 0.5f, 0.25f));
  EXPECT_EQ(c.mesh.colors[3], glm::vec4(1, 0, 0, 1));  // clamped
  EXPECT_TRUE(test::hasWarning(c, "COLOR_0 values outside [0, 1] clamped")) << allWarnings(c);
  primitive()["attributes"]["COLOR_0"] = file_.gltf.add(
      std::vector<uint16_t>{65535, 0, 0, 65535, 0, 65535, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5123,
      "VEC4", true);
  // A second vertex set without colours reads white.
  json second = primitive();
  second["attributes"].erase("COLOR_0");
  second["attributes"]["POSITION"] =
      file_.gltf.addFloats({0, 0, 1, 1, 0, 1, 0, 2, 1, 1, 2, 1}, "VEC3");
  gltf()["meshes"][0]["primitives"].push_back(second);
  c = import();
  ASSERT_EQ(c.mesh.colors.size(), 8u);
  EXPECT_EQ(c.mesh.colors[0], glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(c.mesh.colors[1], glm::vec4(0, 1, 0, 0));
  EXPECT_EQ(c.mesh.colors[5], glm::vec4(1.0f));
  // Unnormalised integers are not colours.
  primitive()["attributes"]["COLOR_0"] =
      file_.gltf.add(std::vector<uint8_t>(12, 1), 5121, "VEC3", false);
  EXPECT_FALSE(importError(ErrorCode::kInvalidData).ok());
}

TEST_F(GltfMaterials, MaterialVariants) {
  const int red =
      addMaterial({{"name", "red"}, {"pbrMetallicRoughness", {{"baseColorFactor", {1, 0, 0, 1}}}}});
  const int blue = addMaterial(
      {{"name", "blue"}, {"pbrMetallicRoughness", {{"baseColorFactor", {0, 0, 1, 1}}}}});
  const int gold = addMaterial({{"name", "gold"}});
  gltf()["extensionsUsed"] = {"KHR_materials_variants"};
  gltf()["extensions"]["KHR_materials_variants"]["variants"] = {
      {{"name", "day"}}, {{"name", "night"}}, {{"name", "gala"}}};
  primitive()["material"] = red;
  primitive()["extensions"]["KHR_materials_variants"]["mappings"] = {
      {{"material", blue}, {"variants", {1}}}, {{"material", gold}, {"variants", {2}}}};
  json& other = addPrimitive();  // no material and no mappings
  (void)other;
  Character c = import();
  EXPECT_EQ(c.variants, (std::vector<std::string>{"day", "night", "gala"}));
  ASSERT_EQ(c.materials.size(), 4u);  // red, blue, gold (first use), default
  EXPECT_EQ(c.materials[1].name, "blue");
  EXPECT_EQ(c.materials[2].name, "gold");
  ASSERT_EQ(c.mesh.submeshes.size(), 2u);
  // "day" has no mapping: the primitive keeps red.
  EXPECT_EQ(c.mesh.submeshes[0].variant_materials, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_TRUE(c.mesh.submeshes[1].variant_materials.empty());
  EXPECT_EQ(c.mesh.submeshes[1].material, 3u);
  // A variant mapped twice, or out of range, is an error.
  primitive()["extensions"]["KHR_materials_variants"]["mappings"][1]["variants"] = {1};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("variant 1 is mapped twice"),
            std::string::npos);
  primitive()["extensions"]["KHR_materials_variants"]["mappings"][1]["variants"] = {3};
  EXPECT_FALSE(importError(ErrorCode::kInvalidData).ok());
  // A mapping without a material, or naming one that does not exist.
  json& mappings = primitive()["extensions"]["KHR_materials_variants"]["mappings"];
  mappings[1] = {{"variants", {2}}};
  EXPECT_NE(importError(ErrorCode::kInvalidData)
                .message()
                .find("mapping 1 needs a material and a variants array"),
            std::string::npos);
  mappings[1] = {{"material", 9}, {"variants", {2}}};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("mapping 1 names material 9"),
            std::string::npos);
  // Extensions without their arrays.
  primitive()["extensions"]["KHR_materials_variants"] = {{"mapping", json::array()}};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("no 'mappings' array"),
            std::string::npos);
  gltf()["extensions"]["KHR_materials_variants"] = {{"variant", json::array()}};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("no 'variants' array"),
            std::string::npos);
}

TEST_F(GltfMaterials, SpecularGlossinessDiffuseIsTheBaseColour) {
  primitive()["material"] = addMaterial(
      {{"extensions",
        {{"KHR_materials_pbrSpecularGlossiness", {{"diffuseFactor", {0.5, 0.25, 1.0, 1.0}}}}}}});
  gltf()["extensionsUsed"] = {"KHR_materials_pbrSpecularGlossiness"};
  gltf()["extensionsRequired"] = {"KHR_materials_pbrSpecularGlossiness"};
  const Character c = import();
  EXPECT_EQ(c.materials[0].base_color, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
}

TEST_F(GltfMaterials, BadTextureReferencesAreErrors) {
  primitive()["material"] =
      addMaterial({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 4}}}}}});
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("texture 4 does not exist"),
            std::string::npos);
  gltf()["materials"][0] = json::object();
  primitive()["material"] = addTexturedMaterial(embeddedPng(2, 2), json::object(), 3);
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("sampler 3 does not exist"),
            std::string::npos);
  gltf()["samplers"] = {{{"minFilter", 1234}}};
  gltf()["textures"][0]["sampler"] = 0;
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("minFilter 1234"),
            std::string::npos);
  gltf()["samplers"] = {{{"wrapS", 7}}};
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("wrapS 7"), std::string::npos);
}

TEST_F(GltfMaterials, TexturesOnlyInUndecodableFormats) {
  // A texture whose only image is KTX2 (KHR_texture_basisu): used, not required.
  const int ktx = file_.gltf.addBytes("\xABKTX 20\xBB\r\n\x1A\n");
  gltf()["images"] = {{{"bufferView", ktx}, {"mimeType", "image/ktx2"}}};
  gltf()["textures"] = {{{"extensions", {{"KHR_texture_basisu", {{"source", 0}}}}}}};
  gltf()["extensionsUsed"] = {"KHR_texture_basisu"};
  primitive()["material"] =
      addMaterial({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}});
  Character c = import();
  EXPECT_FALSE(c.materials[0].base_color_texture.present());
  EXPECT_TRUE(test::hasWarning(c,
                               "extension KHR_texture_basisu (KTX2 / Basis Universal textures) is "
                               "not supported"))
      << allWarnings(c);
  EXPECT_TRUE(test::hasWarning(c, "has only a KHR_texture_basisu image")) << allWarnings(c);
  // With a fallback image the texture is used.
  gltf()["images"].push_back(embeddedPng(2, 2));
  gltf()["textures"][0]["source"] = 1;
  c = import();
  EXPECT_TRUE(c.materials[0].base_color_texture.present());
  // Required: one line naming the extension.
  gltf()["extensionsRequired"] = {"KHR_texture_basisu"};
  const Status s = importError(ErrorCode::kUnsupported);
  EXPECT_EQ(s.message(), path_ +
                             ": requires extension KHR_texture_basisu (KTX2 / Basis Universal "
                             "textures), which throng cannot decode");
  gltf()["extensionsUsed"] = {"EXT_texture_webp"};
  gltf()["extensionsRequired"] = {"EXT_texture_webp"};
  EXPECT_NE(importError(ErrorCode::kUnsupported).message().find("EXT_texture_webp (WebP"),
            std::string::npos);
  gltf()["extensionsUsed"] = {"EXT_unknown_thing"};
  gltf()["extensionsRequired"] = {"EXT_unknown_thing"};
  EXPECT_EQ(importError(ErrorCode::kUnsupported).message(),
            path_ + ": requires extension EXT_unknown_thing, which throng does not support");
}

// ---- metallic-roughness, normal, occlusion, emissive; tangents ----

class GltfPbr : public GltfMaterials {
 protected:
  // An embedded w x h PNG and a texture over it; returns the texture's index.
  int addTexture(int w, int h) {
    gltf()["images"].push_back(embeddedPng(w, h));
    gltf()["textures"].push_back({{"source", gltf()["images"].size() - 1}});
    return static_cast<int>(gltf()["textures"].size()) - 1;
  }
  // A material with every metallic-roughness texture: base colour and emissive on image 0,
  // metallic-roughness and occlusion on image 1 (an ORM map), normal on image 2.
  json fullMaterial() {
    const int colour = addTexture(2, 2), orm = addTexture(4, 4), normal = addTexture(2, 1);
    return {{"name", "full"},
            {"pbrMetallicRoughness",
             {{"baseColorTexture", {{"index", colour}}},
              {"metallicFactor", 0.25},
              {"roughnessFactor", 0.5},
              {"metallicRoughnessTexture", {{"index", orm}}}}},
            {"normalTexture", {{"index", normal}, {"scale", 0.75}}},
            {"occlusionTexture", {{"index", orm}, {"strength", 0.375}}},
            {"emissiveTexture", {{"index", colour}}},
            {"emissiveFactor", {1.0, 0.5, 0.25}},
            {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", 5.0}}}}}};
  }
  // TANGENT for the 4 vertices: xyzw each.
  int addTangents(std::vector<float> xyzw) { return file_.gltf.addFloats(std::move(xyzw), "VEC4"); }
};

TEST_F(GltfPbr, EveryFactorAndTextureIsRead) {
  primitive()["material"] = addMaterial(fullMaterial());
  gltf()["extensionsUsed"] = {"KHR_materials_emissive_strength"};
  const Character c = import();
  ASSERT_EQ(c.materials.size(), 1u);
  const Material& m = c.materials[0];
  EXPECT_EQ(m.metallic_factor, 0.25f);
  EXPECT_EQ(m.roughness_factor, 0.5f);
  EXPECT_EQ(m.normal_scale, 0.75f);
  EXPECT_EQ(m.occlusion_strength, 0.375f);
  EXPECT_EQ(m.emissive_factor, glm::vec3(1.0f, 0.5f, 0.25f));
  EXPECT_EQ(m.emissive_strength, 5.0f);
  // Images once each, in first-use order: the ORM map serves two slots.
  ASSERT_EQ(c.images.size(), 3u);
  EXPECT_EQ(m.base_color_texture.image, 0);
  EXPECT_EQ(m.metallic_roughness_texture.image, 1);
  EXPECT_EQ(m.normal_texture.image, 2);
  EXPECT_EQ(m.occlusion_texture.image, 1);
  EXPECT_EQ(m.emissive_texture.image, 0);
  EXPECT_EQ(c.images[1].pixels.width, 4u);
  EXPECT_EQ(imageColorSpace(c.materials, 1), ColorSpace::kLinear);
  EXPECT_EQ(imageColorSpace(c.materials, 0), ColorSpace::kSrgb);
  EXPECT_FALSE(test::hasWarning(c, "is ignored")) << allWarnings(c);  // the extension is read
  // The normal texture needs tangents; the file has none: generated, and said.
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kGenerated);
  ASSERT_EQ(c.mesh.tangents.size(), 4u);
  EXPECT_TRUE(
      test::hasWarning(c,
                       "tangents generated (MikkTSpace rules) for 4 vertices (a material has "
                       "a normal texture, the file has no TANGENT)"))
      << allWarnings(c);
  // u grows along +x; v along +y, up the quad: the texture is seen mirrored, w = -1.
  for (const glm::vec4& t : c.mesh.tangents) EXPECT_EQ(t, glm::vec4(1, 0, 0, -1));
}

TEST_F(GltfPbr, WithoutANormalTextureThereAreNoTangentsUnlessAskedFor) {
  json material = fullMaterial();
  material.erase("normalTexture");
  primitive()["material"] = addMaterial(material);
  Character c = import();
  EXPECT_TRUE(c.mesh.tangents.empty());
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kNone);
  EXPECT_FALSE(test::hasWarning(c, "tangents")) << allWarnings(c);
  ImportOptions options;
  options.tangents = TangentPolicy::kAlways;
  Result<Character> always = importGltf(path_, options);
  ASSERT_TRUE(always.ok()) << always.status().toString();
  EXPECT_EQ(always->mesh.tangent_source, TangentSource::kGenerated);
  EXPECT_EQ(always->mesh.tangents.size(), 4u);
  EXPECT_TRUE(test::hasWarning(*always, "tangents generated (MikkTSpace rules) for 4 vertices"))
      << allWarnings(*always);
}

TEST_F(GltfPbr, TangentsFromTheFileAreReadAndCompletedWhereMissing) {
  primitive()["material"] = addMaterial(fullMaterial());
  primitive()["attributes"]["TANGENT"] =
      addTangents({0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1});
  Character c = import();
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kFile);
  for (const glm::vec4& t : c.mesh.tangents) EXPECT_EQ(t, glm::vec4(0, 1, 0, 1));
  EXPECT_FALSE(test::hasWarning(c, "tangents generated")) << allWarnings(c);
  // A second primitive on vertices of its own without TANGENT: its tangents are generated.
  json& other = addPrimitive();
  other["material"] = 0;
  other["attributes"].erase("TANGENT");
  other["attributes"]["POSITION"] =
      file_.gltf.addFloats({5, 0, 0, 6, 0, 0, 5, 2, 0, 6, 2, 0}, "VEC3");
  c = import();
  ASSERT_EQ(c.mesh.vertexCount(), 8u);
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kMixed);
  for (size_t v = 0; v < 4; ++v) EXPECT_EQ(c.mesh.tangents[v], glm::vec4(0, 1, 0, 1)) << v;
  for (size_t v = 4; v < 8; ++v) EXPECT_EQ(c.mesh.tangents[v], glm::vec4(1, 0, 0, -1)) << v;
  EXPECT_TRUE(test::hasWarning(c,
                               "tangents generated (MikkTSpace rules) for 4 vertices whose "
                               "primitives have no usable TANGENT"))
      << allWarnings(c);
}

TEST_F(GltfPbr, TangentsWithoutHandednessAreGeneratedInsteadWithAWarning) {
  primitive()["material"] = addMaterial(fullMaterial());
  primitive()["attributes"]["TANGENT"] =
      addTangents({0, 1, 0, 1, 0, 1, 0, 0.25f, 0, 1, 0, 1, 0, 1, 0, 1});
  const Character c = import();
  EXPECT_TRUE(test::hasWarning(c,
                               "mesh 0 primitive 0: TANGENT of vertex 1 is (0, 1, 0, 0.25): not a "
                               "direction with w +1 or -1; the primitive's tangents are generated "
                               "instead"))
      << allWarnings(c);
  EXPECT_EQ(c.mesh.tangent_source, TangentSource::kGenerated);
  for (const glm::vec4& t : c.mesh.tangents) EXPECT_EQ(t, glm::vec4(1, 0, 0, -1));
  // Not finite: the accessor reader's error.
  primitive()["attributes"]["TANGENT"] = addTangents(
      {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, std::numeric_limits<float>::infinity(), 0, 1});
  EXPECT_NE(importError(ErrorCode::kInvalidData).message().find("TANGENT"), std::string::npos);
}

// Bad references and accessors in the new slots: one error naming the file, the material (or
// primitive) and the slot.
TEST_F(GltfPbr, BadPbrTexturesAndTangentAccessorsAreErrorsNamingTheFileAndPlace) {
  // The message after the file's name (importError checks that it starts the message).
  auto error = [&](ErrorCode code) {
    const std::string message = importError(code).message();
    return message.substr(std::min(message.size(), path_.size()));
  };
  const int texture = addTexture(2, 2);
  primitive()["material"] = addMaterial({{"name", "skin"}, {"normalTexture", {{"index", 7}}}});
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": material 0 ('skin') normal texture: texture 7 does not exist (1 textures)");
  gltf()["materials"][0] = {
      {"name", "skin"},
      {"pbrMetallicRoughness", {{"metallicRoughnessTexture", {{"index", texture + 1}}}}}};
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": material 0 ('skin') metallic-roughness texture: texture 1 does not exist (1 "
            "textures)");
  gltf()["materials"][0] = {{"name", "skin"}, {"occlusionTexture", {{"index", texture + 2}}}};
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": material 0 ('skin') occlusion texture: texture 2 does not exist (1 textures)");
  gltf()["materials"][0] = {{"name", "skin"}, {"emissiveTexture", {{"index", texture}}}};
  gltf()["textures"][0]["source"] = 5;
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": material 0 ('skin') emissive texture 0: image 5 does not exist (1 images)");
  gltf()["textures"][0]["source"] = 0;
  gltf()["materials"][0] = {{"name", "skin"}, {"normalTexture", {{"index", texture}}}};
  ASSERT_TRUE(tryImport().ok());

  // TANGENT of the wrong type, count or component type.
  const int vec3 = file_.gltf.addFloats({1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");
  primitive()["attributes"]["TANGENT"] = vec3;
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": accessor " + std::to_string(vec3) +
                " (mesh 0 primitive 0 TANGENT): type VEC3, expected VEC4");
  primitive()["attributes"]["TANGENT"] = addTangents({1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1});
  EXPECT_EQ(error(ErrorCode::kInvalidData),
            ": mesh 0 primitive 0: TANGENT has 3 elements, POSITION 4");
  const int bytes = file_.gltf.addFloats({1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}, "VEC4");
  gltf()["accessors"][bytes]["componentType"] = 5121;  // UNSIGNED_BYTE, not quantised
  gltf()["accessors"][bytes]["normalized"] = true;
  primitive()["attributes"]["TANGENT"] = bytes;
  EXPECT_NE(error(ErrorCode::kInvalidData)
                .find("(mesh 0 primitive 0 TANGENT): components are normalized UNSIGNED_BYTE"),
            std::string::npos);
}

TEST_F(GltfPbr, ImagesReadAsColourAndAsDataAreStoredTwice) {
  const int shared = addTexture(2, 2);
  primitive()["material"] =
      addMaterial({{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", shared}}}}},
                   {"normalTexture", {{"index", shared}}}});
  const Character c = import();
  ASSERT_EQ(c.images.size(), 2u);
  EXPECT_EQ(c.images[0].pixels.rgba, c.images[1].pixels.rgba);
  const Material& m = c.materials[0];
  EXPECT_NE(m.base_color_texture.image, m.normal_texture.image);
  EXPECT_EQ(imageColorSpace(c.materials, m.base_color_texture.image), ColorSpace::kSrgb);
  EXPECT_EQ(imageColorSpace(c.materials, m.normal_texture.image), ColorSpace::kLinear);
  EXPECT_TRUE(
      test::hasWarning(c, "image 0 is read as sRGB colour and as linear data; stored twice"))
      << allWarnings(c);
}

TEST_F(GltfPbr, OutOfRangeFactorsAreClampedAndBadOnesAreErrors) {
  primitive()["material"] =
      addMaterial({{"pbrMetallicRoughness", {{"metallicFactor", 1.5}, {"roughnessFactor", -0.5}}},
                   {"emissiveFactor", {2.0, 0.5, 0.0}}});
  Character c = import();
  EXPECT_EQ(c.materials[0].metallic_factor, 1.0f);
  EXPECT_EQ(c.materials[0].roughness_factor, 0.0f);
  EXPECT_EQ(c.materials[0].emissive_factor, glm::vec3(1.0f, 0.5f, 0.0f));
  EXPECT_TRUE(test::hasWarning(c,
                               "metallicFactor, roughnessFactor, occlusion strength or "
                               "emissiveFactor outside [0, 1]; clamped"))
      << allWarnings(c);
  gltf()["materials"][0] = {{"emissiveFactor", {0.5, 0.5}}};  // tinygltf refuses it first
  EXPECT_NE(importError(ErrorCode::kParseError).message().find("emissiveFactor"),
            std::string::npos);
  gltf()["materials"][0] = {
      {"extensions", {{"KHR_materials_emissive_strength", {{"emissiveStrength", -2}}}}}};
  EXPECT_NE(importError(ErrorCode::kInvalidData)
                .message()
                .find("KHR_materials_emissive_strength: emissiveStrength is not a finite number "
                      ">= 0"),
            std::string::npos);
  gltf()["materials"][0] = {{"normalTexture", {{"index", addTexture(1, 1)}, {"scale", 1e300}}}};
  EXPECT_NE(importError(ErrorCode::kInvalidData)
                .message()
                .find("normalTexture scale 1e+300 is not a finite number"),
            std::string::npos);
}

TEST_F(GltfPbr, AnOcclusionTextureOnTheSecondUvSetBringsTexcoord1) {
  primitive()["attributes"]["TEXCOORD_1"] =
      file_.gltf.addFloats({0.5f, 0.5f, 0.25f, 0.5f, 0.5f, 0.75f, 0, 1}, "VEC2");
  primitive()["material"] =
      addMaterial({{"occlusionTexture", {{"index", addTexture(2, 2)}, {"texCoord", 1}}}});
  const Character c = import();
  ASSERT_EQ(c.mesh.uvs1.size(), 4u);
  EXPECT_EQ(c.materials[0].occlusion_texture.uv_set, 1);
  EXPECT_TRUE(c.mesh.tangents.empty());
  // A normal texture on a set the mesh lacks is dropped, and then needs no tangents.
  gltf()["materials"][0]["normalTexture"] = {{"index", 0}, {"texCoord", 1}};
  primitive()["attributes"].erase("TEXCOORD_1");
  const Character d = import();
  EXPECT_FALSE(d.materials[0].normal_texture.present());
  EXPECT_TRUE(test::hasWarning(d, "material 0 ('') normal texture: the mesh has no TEXCOORD_1"))
      << allWarnings(d);
  EXPECT_TRUE(d.mesh.tangents.empty());
}

TEST_F(GltfPbr, SpecularGlossinessBecomesARoughDielectric) {
  primitive()["material"] = addMaterial(
      {{"extensions", {{"KHR_materials_pbrSpecularGlossiness", {{"glossinessFactor", 0.25}}}}}});
  const Character c = import();
  EXPECT_EQ(c.materials[0].metallic_factor, 0.0f);
  EXPECT_EQ(c.materials[0].roughness_factor, 0.75f);
}

// ---- shared assets ----

Character importAsset(const std::string& relative) {
  Result<Character> c = importGltf(test::assetPath(relative).string());
  EXPECT_TRUE(c.ok()) << c.status().toString();
  return c.ok() ? std::move(c).value() : Character{};
}

TEST(GltfMaterialAssets, CesiumManHasItsJpegTexture) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  const Character c = importAsset("CesiumMan/CesiumMan.glb");
  ASSERT_EQ(c.materials.size(), 1u);
  const Material& m = c.materials[0];
  EXPECT_EQ(m.name, "Cesium_Man-effect");
  EXPECT_EQ(m.base_color, glm::vec4(1.0f));
  ASSERT_TRUE(m.base_color_texture.present());
  EXPECT_EQ(m.base_color_texture.sampler.min_filter, TextureFilter::kNearestMipmapLinear);  // 9986
  EXPECT_EQ(m.base_color_texture.sampler.wrap_s, TextureWrap::kRepeat);
  ASSERT_EQ(c.images.size(), 1u);
  EXPECT_GT(c.images[0].pixels.width, 0u);
  EXPECT_EQ(c.images[0].pixels.rgba.size(),
            size_t{4} * c.images[0].pixels.width * c.images[0].pixels.height);
  EXPECT_EQ(c.mesh.submeshes.size(), 1u);
  EXPECT_EQ(m.metallic_factor, 0.0f);
  EXPECT_EQ(m.roughness_factor, 1.0f);
  EXPECT_TRUE(c.mesh.tangents.empty());  // no normal texture, no TANGENT
}

TEST(GltfMaterialAssets, MorphStressTestOcclusionReadsTheSecondUvSet) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  const Character c = importAsset("feature-tests/MorphStressTest/MorphStressTest.glb");
  const Material* base = nullptr;
  for (const Material& m : c.materials) base = m.name == "Base" ? &m : base;
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->metallic_factor, 0.0f);
  EXPECT_NEAR(base->roughness_factor, 0.4f, 1e-6f);
  ASSERT_TRUE(base->occlusion_texture.present());
  EXPECT_EQ(base->occlusion_texture.uv_set, 1);
  EXPECT_EQ(c.mesh.uvs1.size(), c.mesh.vertexCount());
  EXPECT_EQ(imageColorSpace(c.materials, base->occlusion_texture.image), ColorSpace::kLinear);
  EXPECT_EQ(imageColorSpace(c.materials, base->base_color_texture.image), ColorSpace::kSrgb);
}

TEST(GltfMaterialAssets, KayKitLoadsItsExternalPngAndMergesItsMeshes) {
  THRONG_REQUIRE_ASSET("KayKitMannequin/manny_med_mod.gltf");
  const Character c = importAsset("KayKitMannequin/manny_med_mod.gltf");
  ASSERT_EQ(c.materials.size(), 1u);
  const Material& m = c.materials[0];
  EXPECT_EQ(m.name, "Character_Material");
  EXPECT_TRUE(m.double_sided);
  ASSERT_TRUE(m.base_color_texture.present());
  EXPECT_EQ(m.base_color_texture.sampler.wrap_s, TextureWrap::kClampToEdge);
  EXPECT_EQ(m.base_color_texture.sampler.min_filter, TextureFilter::kLinearMipmapLinear);
  ASSERT_EQ(c.images.size(), 1u);
  EXPECT_EQ(c.images[0].name, "mannequin_texture");
  // Eight skinned meshes with one material: one sub-mesh, one draw.
  EXPECT_EQ(c.mesh.submeshes.size(), 1u);
}

TEST(GltfMaterialAssets, QuaterniusHasSixColours) {
  THRONG_REQUIRE_ASSET("QuaterniusCharacter/Character.glb");
  const Character c = importAsset("QuaterniusCharacter/Character.glb");
  ASSERT_EQ(c.materials.size(), 6u);
  EXPECT_TRUE(c.images.empty());
  std::vector<std::string> names;
  for (const Material& m : c.materials) names.push_back(m.name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"Black", "EyeColor", "Main", "Main2", "Main_Light",
                                             "White"}));
  for (const Material& m : c.materials) {
    if (m.name == "Main") {
      EXPECT_NEAR(m.base_color.b, 0.8f, 1e-6f);
    }
  }
  // Four skinned meshes whose primitives share six materials: one sub-mesh per material.
  EXPECT_EQ(c.mesh.submeshes.size(), 6u);
}

TEST(GltfMaterialAssets, SkinTestsHaveVertexColours) {
  THRONG_REQUIRE_ASSET("skin-tests-2018/Animation_Skin/Animation_Skin_00.gltf");
  const Character c = importAsset("skin-tests-2018/Animation_Skin/Animation_Skin_00.gltf");
  ASSERT_EQ(c.mesh.colors.size(), c.mesh.vertexCount());
  ASSERT_EQ(c.materials.size(), 1u);
  EXPECT_TRUE(c.materials[0].double_sided);
}

}  // namespace
}  // namespace throng
