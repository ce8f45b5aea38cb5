// Materials on the GPU: a package's images as textures, a LOD's indices grouped by material, and
// the per-draw material state (uniforms, texture, culling, blending) every render path sets.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <GLES3/gl3.h>

#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"
#include "throng/render/device.h"
#include "throng/render/program.h"

namespace throng::render {

// A character's looks as a renderer receives them (spans into a Package; both may be empty:
// then every sub-mesh uses defaultMaterial()).
struct Looks {
  std::span<const Material> materials;
  std::span<const PackageImage> images;
};

// The texture unit material textures are bound to (unit 0 holds the instanced path's animation
// texture); ES 2.0 guarantees 8 fragment units.
inline constexpr int kMaterialTextureUnit = 1;

// One material's share of an index buffer: indices [first_index, first_index + index_count).
struct MaterialRange {
  uint32_t material = 0;  // index into Looks::materials (0 with none: the default material)
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  bool blend = false;  // AlphaMode::kBlend: drawn in the second (blended) pass
};

// `mesh`'s indices regrouped so that each material used by its sub-meshes is one contiguous
// range (sub-meshes keep their order within a material); `indices` receives them
// (mesh.indices.size() entries). The ranges come opaque and masked materials first, then blended
// ones, each group in order of first use. A mesh without sub-meshes is one range of material 0.
// `materials` may be empty (default material); sub-mesh materials must index it (validated).
std::vector<MaterialRange> groupIndicesByMaterial(const SkinnedMesh& mesh,
                                                  std::span<const Material> materials,
                                                  std::vector<uint32_t>& indices);

// Which materials a draw sets up: kOpaque draws OPAQUE and MASK ones, kBlend the BLEND ones.
enum class MaterialPass : uint8_t { kOpaque, kBlend };

// Uniform locations of the material state in a program built from shaders/gles*/ (any may be -1
// when the linker removed it).
struct MaterialUniforms {
  GLint base_color = -1;    // u_base_color: vec4, linear RGBA factor
  GLint texture = -1;       // u_base_texture: sampler2D on kMaterialTextureUnit
  GLint textured = -1;      // u_textured: float, 1 when the texture is multiplied in
  GLint uv_set = -1;        // u_uv_set: float, 0 = a_uv0, 1 = a_uv1
  GLint uv_transform = -1;  // u_uv_transform: mat3 (KHR_texture_transform)
  GLint alpha_cutoff = -1;  // u_alpha_cutoff: float, fragments with alpha below it are cut
  GLint opaque = -1;        // u_opaque: float, 1 writes alpha 1 (OPAQUE, MASK)

  static MaterialUniforms of(const Program& program);
};

// The GL textures of a character's images and its materials. Lives and dies with its device's
// context current; move-only.
class GpuMaterials {
 public:
  GpuMaterials() = default;
  // Uploads every image of `looks` (levelsToUpload: the power-of-two chain on ES 2.0, the
  // levels that fit GL_MAX_TEXTURE_SIZE) as RGBA8 with its mip chain. kGlError on GL failure;
  // kLimitExceeded when an image has no level that fits.
  static Result<GpuMaterials> create(const Device& device, const Looks& looks);
  ~GpuMaterials();
  GpuMaterials(GpuMaterials&& other) noexcept;
  GpuMaterials& operator=(GpuMaterials&& other) noexcept;
  GpuMaterials(const GpuMaterials&) = delete;
  GpuMaterials& operator=(const GpuMaterials&) = delete;

  // Material `index` (the default material when there are none).
  const Material& material(uint32_t index) const;
  // Sets material `index`'s uniforms on the current program, binds its texture with its sampler
  // on kMaterialTextureUnit, and culls back faces unless the material is double-sided or
  // `cull_back_faces` is false.
  void apply(const MaterialUniforms& uniforms, uint32_t index, bool cull_back_faces) const;
  // Blending and depth writes for a pass: kBlend blends over what is drawn (src alpha) without
  // writing depth; kOpaque restores the opaque state.
  static void beginPass(MaterialPass pass);
  // Plain: every material's colour factor and texture are left out (white), for debug colours
  // (CrowdRendererDesc::lod_tint); alpha modes and sidedness stay.
  void setPlain(bool plain) { plain_ = plain; }

 private:
  bool plain_ = false;
  std::vector<Material> materials_;
  std::vector<GLuint> textures_;  // one per image
};

}  // namespace throng::render
