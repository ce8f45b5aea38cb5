// A small character built in code whose looks are known exactly (see material_character.h).
#include "support/material_character.h"

namespace throng::test {
namespace {

SourceImage checker() {
  SourceImage image;
  image.name = "checker";
  image.pixels.width = 4;
  image.pixels.height = 4;
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const uint8_t* c = kCheckerColors[(x + y) % 2];
      image.pixels.rgba.insert(image.pixels.rgba.end(), c, c + 4);
    }
  }
  return image;
}

SourceImage cutout() {
  SourceImage image;
  image.name = "cutout";
  image.pixels.width = 2;
  image.pixels.height = 2;
  image.pixels.rgba = {0, 0, 0, 0, 0, 255, 0, 255, 0, 0, 0, 0, 0, 255, 0, 255};
  return image;
}

TextureSampler nearestClamp() {
  TextureSampler s;
  s.mag_filter = TextureFilter::kNearest;
  s.min_filter = TextureFilter::kNearest;
  s.wrap_s = TextureWrap::kClampToEdge;
  s.wrap_t = TextureWrap::kClampToEdge;
  return s;
}

}  // namespace

Character makeMaterialCharacter() {
  Character c;
  RawSkeleton raw;
  raw.joints.push_back(RawJoint{});
  raw.joints[0].name = "root";
  c.skeleton = std::move(buildSkeleton(raw, "material character").value());

  SkinnedMesh& m = c.mesh;
  for (uint32_t q = 0; q < 4; ++q) {
    const float x0 = 2.0f * static_cast<float>(q);
    const glm::vec3 corners[4] = {{x0, 1, 0}, {x0 + 1, 1, 0}, {x0 + 1, 0, 0}, {x0, 0, 0}};
    const glm::vec2 uvs[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const uint32_t base = static_cast<uint32_t>(m.positions.size());
    for (int k = 0; k < 4; ++k) {
      m.positions.push_back(corners[k]);
      m.normals.emplace_back(0.0f, 0.0f, 1.0f);
      m.uvs.push_back(uvs[k]);
      m.colors.push_back(
          q == 3 ? glm::vec4(kVertexColor[0], kVertexColor[1], kVertexColor[2], kVertexColor[3])
                 : glm::vec4(1.0f));
      m.joints.emplace_back(0, 0, 0, 0);
      m.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
    }
    SubMesh sub;
    sub.first_index = static_cast<uint32_t>(m.indices.size());
    sub.index_count = 6;
    sub.material = q;
    sub.variant_materials = {q, 0};
    // Top-left, bottom-left, bottom-right; top-left, bottom-right, top-right: counter-clockwise.
    m.indices.insert(m.indices.end(), {base, base + 3, base + 2, base, base + 2, base + 1});
    m.submeshes.push_back(std::move(sub));
  }

  Material red;
  red.name = "red";
  red.base_color = glm::vec4(1.0f, 0.0f, 0.0f, 1.0f);
  Material checkered;
  checkered.name = "checker";
  checkered.base_color_texture.image = 0;
  checkered.base_color_texture.sampler = nearestClamp();
  Material cut;
  cut.name = "cutout";
  cut.base_color_texture.image = 1;
  cut.base_color_texture.sampler = nearestClamp();
  cut.alpha_mode = AlphaMode::kMask;
  cut.alpha_cutoff = 0.5f;
  cut.double_sided = true;
  Material painted;
  painted.name = "painted";
  c.materials = {red, checkered, cut, painted};
  // Dielectrics: the tests' expected colours are diffuse (glTF's default metallic factor is 1).
  for (Material& material : c.materials) material.metallic_factor = 0.0f;
  for (size_t q = 0; q < 4; ++q) m.submeshes[q].name = c.materials[q].name;
  c.images = {checker(), cutout()};
  c.variants = {"plain", "all red"};

  Clip clip;
  clip.name = "idle";
  clip.joints.resize(1);
  clip.joints[0].rotation.times = {0.0f, 1.0f};
  clip.joints[0].rotation.values = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)};
  updateClipRange(clip);
  c.clips.push_back(std::move(clip));
  return c;
}

}  // namespace throng::test
