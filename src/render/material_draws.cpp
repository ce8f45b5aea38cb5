// Materials on the GPU: image upload, index grouping by material, per-draw material state.
#include "throng/render/material_draws.h"

#include <algorithm>
#include <cassert>

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "throng/render/gl_check.h"

namespace throng::render {

std::vector<MaterialRange> groupIndicesByMaterial(const SkinnedMesh& mesh,
                                                  std::span<const Material> materials,
                                                  std::vector<uint32_t>& indices) {
  indices.clear();
  indices.reserve(mesh.indices.size());
  std::vector<MaterialRange> ranges;
  if (mesh.submeshes.empty()) {
    indices = mesh.indices;
    const bool blend = !materials.empty() && materials[0].alpha_mode == AlphaMode::kBlend;
    ranges.push_back({0, 0, static_cast<uint32_t>(indices.size()), blend});
    return ranges;
  }
  // Materials in order of first use, opaque ones before blended ones.
  std::vector<uint32_t> order;
  for (const bool blended : {false, true}) {
    for (const SubMesh& sub : mesh.submeshes) {
      const bool blend = sub.material < materials.size() &&
                         materials[sub.material].alpha_mode == AlphaMode::kBlend;
      if (blend != blended || std::find(order.begin(), order.end(), sub.material) != order.end())
        continue;
      order.push_back(sub.material);
    }
  }
  for (const uint32_t material : order) {
    MaterialRange range;
    range.material = material;
    range.first_index = static_cast<uint32_t>(indices.size());
    range.blend =
        material < materials.size() && materials[material].alpha_mode == AlphaMode::kBlend;
    for (const SubMesh& sub : mesh.submeshes) {
      if (sub.material != material) continue;
      indices.insert(indices.end(), mesh.indices.begin() + sub.first_index,
                     mesh.indices.begin() + sub.first_index + sub.index_count);
    }
    range.index_count = static_cast<uint32_t>(indices.size()) - range.first_index;
    if (range.index_count > 0) ranges.push_back(range);
  }
  return ranges;
}

MaterialUniforms MaterialUniforms::of(const Program& program) {
  MaterialUniforms u;
  u.base_color = program.uniform("u_base_color");
  u.texture = program.uniform("u_base_texture");
  u.textured = program.uniform("u_textured");
  u.uv_set = program.uniform("u_uv_set");
  u.uv_transform = program.uniform("u_uv_transform");
  u.alpha_cutoff = program.uniform("u_alpha_cutoff");
  u.opaque = program.uniform("u_opaque");
  return u;
}

Result<GpuMaterials> GpuMaterials::create(const Device& device, const Looks& looks) {
  GpuMaterials out;
  out.materials_.assign(looks.materials.begin(), looks.materials.end());
  const Caps& caps = device.caps();
  const bool es2 = caps.gles_major < 3;
  const uint32_t max_size = static_cast<uint32_t>(std::max(caps.max_texture_size, 0));
  glActiveTexture(GL_TEXTURE0 + kMaterialTextureUnit);
  for (size_t i = 0; i < looks.images.size(); ++i) {
    const PackageImage& image = looks.images[i];
    std::span<const ImageLevel> levels = levelsToUpload(image, es2, max_size);
    if (levels.empty()) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("image {} ('{}'): no mip level fits GL_MAX_TEXTURE_SIZE {}", i,
                                image.name, max_size));
    }
    // ES 2.0 takes mip levels of power-of-two textures only; a non-power-of-two image without a
    // power-of-two copy is only sampled without mipmaps (needsPowerOfTwo), so its base suffices.
    if (es2 && !(isPowerOfTwo(levels[0].width) && isPowerOfTwo(levels[0].height)))
      levels = levels.first(1);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    out.textures_.push_back(texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (size_t l = 0; l < levels.size(); ++l) {
      glTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(l), GL_RGBA,
                   static_cast<GLsizei>(levels[l].width), static_cast<GLsizei>(levels[l].height), 0,
                   GL_RGBA, GL_UNSIGNED_BYTE, levels[l].rgba.data());
    }
    if (!es2)
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, static_cast<GLint>(levels.size() - 1));
    if (Status s = checkGl(fmt::format("uploading image {} ('{}', {}x{}, {} levels)", i, image.name,
                                       levels[0].width, levels[0].height, levels.size()));
        !s.ok()) {
      return s;
    }
  }
  glActiveTexture(GL_TEXTURE0);
  return out;
}

GpuMaterials::~GpuMaterials() {
  if (!textures_.empty())
    glDeleteTextures(static_cast<GLsizei>(textures_.size()), textures_.data());
}

GpuMaterials::GpuMaterials(GpuMaterials&& other) noexcept
    : plain_(other.plain_),
      materials_(std::move(other.materials_)),
      textures_(std::move(other.textures_)) {
  other.textures_.clear();
}

GpuMaterials& GpuMaterials::operator=(GpuMaterials&& other) noexcept {
  if (this != &other) {
    if (!textures_.empty())
      glDeleteTextures(static_cast<GLsizei>(textures_.size()), textures_.data());
    plain_ = other.plain_;
    materials_ = std::move(other.materials_);
    textures_ = std::move(other.textures_);
    other.textures_.clear();
  }
  return *this;
}

const Material& GpuMaterials::material(uint32_t index) const {
  static const Material kDefault = defaultMaterial();
  return index < materials_.size() ? materials_[index] : kDefault;
}

void GpuMaterials::apply(const MaterialUniforms& u, uint32_t index, bool cull_back_faces) const {
  const Material& m = material(index);
  const glm::vec4 white(1.0f);
  glUniform4fv(u.base_color, 1, glm::value_ptr(plain_ ? white : m.base_color));
  const TextureRef& ref = m.base_color_texture;
  const bool textured =
      !plain_ && ref.present() && static_cast<size_t>(ref.image) < textures_.size();
  glUniform1f(u.textured, textured ? 1.0f : 0.0f);
  glUniform1i(u.texture, kMaterialTextureUnit);
  glActiveTexture(GL_TEXTURE0 + kMaterialTextureUnit);
  if (textured) {
    glBindTexture(GL_TEXTURE_2D, textures_[static_cast<size_t>(ref.image)]);
    // Samplers are set per draw: one image may be used by materials with different samplers
    // (ES 2.0 has no sampler objects).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER,
                    static_cast<GLint>(ref.sampler.mag_filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    static_cast<GLint>(ref.sampler.min_filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, static_cast<GLint>(ref.sampler.wrap_s));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, static_cast<GLint>(ref.sampler.wrap_t));
  } else {
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  glActiveTexture(GL_TEXTURE0);
  glUniform1f(u.uv_set, static_cast<float>(textured ? ref.uv_set : 0));
  const glm::mat3 transform = textured ? ref.transform.matrix() : glm::mat3(1.0f);
  glUniformMatrix3fv(u.uv_transform, 1, GL_FALSE, glm::value_ptr(transform));
  // OPAQUE and BLEND keep every fragment: a cutoff below any alpha.
  glUniform1f(u.alpha_cutoff, m.alpha_mode == AlphaMode::kMask ? m.alpha_cutoff : -1.0f);
  glUniform1f(u.opaque, m.alpha_mode == AlphaMode::kBlend ? 0.0f : 1.0f);
  if (cull_back_faces && !m.double_sided) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
  } else {
    glDisable(GL_CULL_FACE);
  }
}

void GpuMaterials::beginPass(MaterialPass pass) {
  if (pass == MaterialPass::kBlend) {
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
  } else {
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
  }
}

}  // namespace throng::render
