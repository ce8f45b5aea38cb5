// Materials on the GPU: image upload, index grouping by material, per-draw material state.
#include "render/material_draws.h"

#include <algorithm>
#include <cassert>

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"

namespace throng::render {

namespace {

// The material sub-mesh `sub` uses in appearance `a` (0: its own; v: variant v - 1).
uint32_t lookMaterial(const SubMesh& sub, uint32_t a) {
  return a == 0 || a > sub.variant_materials.size() ? sub.material : sub.variant_materials[a - 1];
}

bool isBlend(std::span<const Material> materials, uint32_t material) {
  return material < materials.size() && materials[material].alpha_mode == AlphaMode::kBlend;
}

}  // namespace

Result<std::vector<MaterialRange>> groupIndicesByMaterial(const SkinnedMesh& mesh,
                                                          std::span<const Material> materials,
                                                          std::vector<uint32_t>& indices,
                                                          MaterialLooks* looks) {
  indices.clear();
  indices.reserve(mesh.indices.size());
  if (looks) *looks = {};
  std::vector<MaterialRange> ranges;
  if (mesh.submeshes.empty()) {
    indices = mesh.indices;
    ranges.push_back({0, 0, static_cast<uint32_t>(indices.size()), isBlend(materials, 0)});
    return ranges;
  }
  uint32_t appearances = 1;
  for (const SubMesh& sub : mesh.submeshes) {
    appearances = std::max(appearances, static_cast<uint32_t>(sub.variant_materials.size()) + 1);
  }
  // Materials in order of first use (appearance 0, then each variant), opaque before blended.
  std::vector<uint32_t> order;
  for (const bool blended : {false, true}) {
    for (uint32_t a = 0; a < appearances; ++a) {
      for (const SubMesh& sub : mesh.submeshes) {
        const uint32_t material = lookMaterial(sub, a);
        if (isBlend(materials, material) != blended ||
            std::find(order.begin(), order.end(), material) != order.end())
          continue;
        order.push_back(material);
      }
    }
  }
  // Look rows: one per distinct material tuple over the appearances.
  std::vector<uint32_t> submesh_row(mesh.submeshes.size(), 0);
  std::vector<std::vector<uint32_t>> rows;
  if (appearances > 1) {
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
      std::vector<uint32_t> row(appearances);
      for (uint32_t a = 0; a < appearances; ++a) row[a] = lookMaterial(mesh.submeshes[s], a);
      auto found = std::find(rows.begin(), rows.end(), row);
      submesh_row[s] = static_cast<uint32_t>(found - rows.begin());
      if (found == rows.end()) rows.push_back(std::move(row));
    }
  }
  // With looks, each vertex belongs to one row: a vertex shared by sub-meshes of different rows
  // is copied for each further row (remap[row][vertex], made only when a row needs it).
  std::vector<std::vector<uint32_t>> remap;
  if (looks && appearances > 1) {
    if (rows.size() * appearances > kMaxLookEntries) {
      return Status(
          ErrorCode::kLimitExceeded,
          fmt::format("{} sub-mesh looks x {} appearances (material variants + 1) need "
                      "{} table entries; at most {} fit the shaders' uniforms",
                      rows.size(), appearances, rows.size() * appearances, kMaxLookEntries));
    }
    looks->appearances = appearances;
    for (const std::vector<uint32_t>& row : rows) {
      for (const uint32_t m : row) looks->table.push_back(static_cast<float>(m));
    }
    looks->table.resize(static_cast<size_t>(kMaxLookEntries), 0.0f);
    const uint32_t n = static_cast<uint32_t>(mesh.vertexCount());
    constexpr uint32_t kUnset = ~0u;
    std::vector<uint32_t> owner(n, kUnset);
    looks->vertex_source.resize(n);
    looks->vertex_row.assign(n, 0.0f);
    for (uint32_t v = 0; v < n; ++v) looks->vertex_source[v] = v;
    remap.assign(rows.size(), {});
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
      const SubMesh& sub = mesh.submeshes[s];
      const uint32_t row = submesh_row[s];
      for (uint32_t i = sub.first_index; i < sub.first_index + sub.index_count; ++i) {
        const uint32_t v = mesh.indices[i];
        if (owner[v] == kUnset || owner[v] == row) {
          owner[v] = row;
          looks->vertex_row[v] = static_cast<float>(row);
          continue;
        }
        if (remap[row].empty()) remap[row].assign(n, kUnset);
        if (remap[row][v] == kUnset) {
          remap[row][v] = static_cast<uint32_t>(looks->vertex_source.size());
          looks->vertex_source.push_back(v);
          looks->vertex_row.push_back(static_cast<float>(row));
        }
      }
    }
  }
  for (const uint32_t material : order) {
    MaterialRange range;
    range.material = material;
    range.first_index = static_cast<uint32_t>(indices.size());
    range.blend = isBlend(materials, material);
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
      const SubMesh& sub = mesh.submeshes[s];
      bool uses = false;
      for (uint32_t a = 0; a < appearances && !uses; ++a) uses = lookMaterial(sub, a) == material;
      if (!uses) continue;
      const std::vector<uint32_t>* row_remap =
          remap.empty() || remap[submesh_row[s]].empty() ? nullptr : &remap[submesh_row[s]];
      for (uint32_t i = sub.first_index; i < sub.first_index + sub.index_count; ++i) {
        const uint32_t v = mesh.indices[i];
        // Copied vertices are those whose first owner was another row.
        const bool copied = row_remap && (*row_remap)[v] != ~0u;
        indices.push_back(copied ? (*row_remap)[v] : v);
      }
    }
    range.index_count = static_cast<uint32_t>(indices.size()) - range.first_index;
    if (range.index_count > 0) ranges.push_back(range);
  }
  return ranges;
}

// A uniform array's location: "name[0]", or "name" where the driver names it so.
GLint arrayUniform(const Program& program, const char* name) {
  const GLint location = program.uniform((std::string(name) + "[0]").c_str());
  return location >= 0 ? location : program.uniform(name);
}

glm::vec4 meshTangent(const SkinnedMesh& mesh, size_t v) {
  return mesh.tangents.empty() ? glm::vec4(0.0f) : mesh.tangents[v];
}

ShadedMaterial shadedMaterial(const Material& m, bool plain) {
  ShadedMaterial out;
  if (plain) return out;
  out.base_color = m.base_color;
  out.metallic = m.metallic_factor;
  out.roughness = m.roughness_factor;
  // Without a normal texture the default (flat) one is bound: scale 0 keeps the vertex normal.
  out.normal_scale = m.normal_texture.present() ? m.normal_scale : 0.0f;
  out.occlusion_strength = m.occlusion_strength;
  out.emissive = m.emissive_factor * m.emissive_strength;
  for (int slot = 0; slot < kTextureSlotCount; ++slot) {
    const TextureRef& texture = m.texture(static_cast<TextureSlot>(slot));
    if (texture.present()) out.textures[slot] = &texture;
  }
  return out;
}

namespace {

bool sameTransform(const TextureTransform& a, const TextureTransform& b) {
  return a.offset == b.offset && a.rotation == b.rotation && a.scale == b.scale;
}

// The transform material `m`'s present textures share (the identity without any); false in
// `shared` when two differ.
TextureTransform sharedTransform(const Material& m, bool& shared) {
  shared = true;
  const TextureTransform* first = nullptr;
  for (int slot = 0; slot < kTextureSlotCount; ++slot) {
    const TextureRef& texture = m.texture(static_cast<TextureSlot>(slot));
    if (!texture.present()) continue;
    if (!first) first = &texture.transform;
    shared = shared && sameTransform(*first, texture.transform);
  }
  return first ? *first : TextureTransform{};
}

}  // namespace

bool needsUvTransformPerTexture(std::span<const Material> materials) {
  return std::any_of(materials.begin(), materials.end(), [](const Material& m) {
    bool shared = true;
    sharedTransform(m, shared);
    return !shared;
  });
}

MaterialUniforms MaterialUniforms::of(const Program& program) {
  MaterialUniforms u;
  u.material = arrayUniform(program, "u_material");
  u.uv_transform = arrayUniform(program, "u_uv_transform");
  u.uv_transforms = arrayUniform(program, "u_uv_transforms");
  u.look_appearances = program.uniform("u_look_appearances");
  u.look_material = program.uniform("u_look_material");
  u.looks = arrayUniform(program, "u_looks");
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
  // The stand-in for absent textures: white multiplies nothing away (the normal texture's scale
  // is 0 then, which makes its texel the unbent normal).
  const uint8_t white[4] = {255, 255, 255, 255};
  GLuint texture = 0;
  glGenTextures(1, &texture);
  out.textures_.push_back(texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glActiveTexture(GL_TEXTURE0);
  if (Status s = checkGl("uploading the 1x1 white texture"); !s.ok()) return s;
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

void GpuMaterials::apply(const MaterialUniforms& u, uint32_t index, bool cull_back_faces,
                         bool depth) const {
  const Material& m = material(index);
  const ShadedMaterial shaded = shadedMaterial(m, plain_);
  // OPAQUE keeps every fragment: a cutoff below any alpha; BLEND's -2 also says to write the
  // alpha (material.glsl). The depth pass cuts BLEND at a half.
  float cutoff = m.alpha_mode == AlphaMode::kMask    ? m.alpha_cutoff
                 : m.alpha_mode == AlphaMode::kBlend ? -2.0f
                                                     : -1.0f;
  if (depth && m.alpha_mode == AlphaMode::kBlend) cutoff = kDepthBlendCutoff;
  const glm::vec4 values[3] = {
      shaded.base_color,
      {shaded.metallic, shaded.roughness, shaded.normal_scale, shaded.occlusion_strength},
      {shaded.emissive, cutoff},
  };
  glUniform4fv(u.material, 3, glm::value_ptr(values[0]));
  // Both layouts of the transforms (material.glsl): the program has one of them.
  glm::vec4 rows[2 * kMaterialTextures];
  float uv_set_bits = 0.0f;
  for (int slot = 0; slot < kMaterialTextures; ++slot) {
    const TextureRef* ref = shaded.textures[slot];
    const bool textured = ref && static_cast<size_t>(ref->image) + 1 < textures_.size();
    glActiveTexture(GL_TEXTURE0 + kMaterialTextureUnit + slot);
    const glm::mat3 transform = textured ? ref->transform.matrix() : glm::mat3(1.0f);
    const float uv_set = textured ? static_cast<float>(ref->uv_set) : 0.0f;
    uv_set_bits += uv_set * static_cast<float>(1 << slot);
    // Row r of the 2D affine transform (column-major mat3: m[column][row]), the uv set in w.
    rows[2 * slot] = {transform[0][0], transform[1][0], transform[2][0], uv_set};
    rows[2 * slot + 1] = {transform[0][1], transform[1][1], transform[2][1], 0.0f};
    if (!textured) {
      glBindTexture(GL_TEXTURE_2D, textures_.back());
      continue;
    }
    glBindTexture(GL_TEXTURE_2D, textures_[static_cast<size_t>(ref->image)]);
    // Samplers are set per draw: one image may be used by materials with different samplers
    // (ES 2.0 has no sampler objects).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER,
                    static_cast<GLint>(ref->sampler.mag_filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    static_cast<GLint>(ref->sampler.min_filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, static_cast<GLint>(ref->sampler.wrap_s));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, static_cast<GLint>(ref->sampler.wrap_t));
  }
  glActiveTexture(GL_TEXTURE0);
  if (u.uv_transforms >= 0)
    glUniform4fv(u.uv_transforms, 2 * kMaterialTextures, glm::value_ptr(rows[0]));
  if (u.uv_transform >= 0) {
    // The transform every present texture shares (plain: none, the identity).
    bool shared = true;
    const glm::mat3 transform = plain_ ? glm::mat3(1.0f) : sharedTransform(m, shared).matrix();
    assert(shared && "a package needing a transform per texture #defines it in its programs");
    const glm::vec4 one[2] = {{transform[0][0], transform[1][0], transform[2][0], uv_set_bits},
                              {transform[0][1], transform[1][1], transform[2][1], 0.0f}};
    glUniform4fv(u.uv_transform, 2, glm::value_ptr(one[0]));
  }
  glUniform1f(u.look_material, static_cast<float>(index));
  if (cull_back_faces && !m.double_sided) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
  } else {
    glDisable(GL_CULL_FACE);
  }
}

void GpuMaterials::setLooks(const MaterialUniforms& u, const MaterialLooks& looks) {
  glUniform1f(u.look_appearances, static_cast<float>(looks.appearances));
  if (looks.appearances > 0 && u.looks >= 0)
    glUniform4fv(u.looks, kLookVectors, looks.table.data());
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
