// Materials on the GPU: a package's images as textures, a LOD's indices grouped by material, and
// the per-draw material state (uniforms, textures, culling, blending) every render path sets:
// glTF 2.0 metallic-roughness, as shaders/common/material.glsl reads it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <GLES3/gl3.h>

#include "render/program.h"
#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"
#include "throng/render/device.h"

namespace throng::render {

// A character's looks as a renderer receives them (spans into a Package; both may be empty:
// then every sub-mesh uses defaultMaterial()).
struct Looks {
  std::span<const Material> materials;
  std::span<const PackageImage> images;
};

// The texture unit of a material's first texture; its kMaterialTextures textures (base colour,
// metallic-roughness, normal, occlusion, emissive: TextureSlot's order) take the units from it
// (unit 0 holds the instanced path's animation texture; ES 2.0 guarantees 8 fragment units).
inline constexpr int kMaterialTextureUnit = 1;
inline constexpr int kMaterialTextures = 5;
// The front end's shadow map's unit, after the material's.
inline constexpr int kShadowTextureUnit = kMaterialTextureUnit + kMaterialTextures;

// What the shaders read of a material (u_material, u_uv_transforms: material.glsl), from
// Material's glTF metallic-roughness fields. `textures[slot]` is null where the material has none
// (a 1x1 white texture stands in; the normal texture's scale is then 0).
struct ShadedMaterial {
  glm::vec4 base_color{1.0f};
  float metallic = 0.0f;
  float roughness = 1.0f;
  float normal_scale = 0.0f;
  float occlusion_strength = 1.0f;
  glm::vec3 emissive{0.0f};  // factor x strength
  const TextureRef* textures[kMaterialTextures] = {};
};
// Vertex v's tangent (xyz, handedness w) as the shaders take it: 0 when the mesh has none.
glm::vec4 meshTangent(const SkinnedMesh& mesh, size_t v);

// `m` as the shaders read it; `plain`: white, rough and untextured (debug colours), its alpha
// mode and sidedness kept.
ShadedMaterial shadedMaterial(const Material& m, bool plain);

// One material's share of an index buffer: indices [first_index, first_index + index_count).
struct MaterialRange {
  uint32_t material = 0;  // index into Looks::materials (0 with none: the default material)
  uint32_t first_index = 0;
  uint32_t index_count = 0;
  bool blend = false;  // AlphaMode::kBlend: drawn in the second (blended) pass
};

// Material variants (glTF KHR_materials_variants) drawn in one draw per material. An agent's
// appearance (Crowd::variants(), Instance::variant) is 0 for every sub-mesh's own material and v
// in 1..V for the package's variant v - 1 (SubMesh::variant_materials[v - 1]); larger values
// draw the own materials. Material m's draw holds every sub-mesh that uses m in some appearance;
// its vertex shader drops (clips) the triangles of sub-meshes whose material in the agent's
// appearance is not m, so another variant costs no draw, only the dropped triangles' vertices.
// Sub-meshes with the same material in every appearance share a look row; the shaders hold the
// table material(row, appearance) in kLookVectors uniform vectors (4 entries each): at most this
// many entries, an eighth of ES 2.0's 128-vector guarantee, the rest left to the palettes.
inline constexpr uint32_t kMaxLookEntries = 64;
inline constexpr int kLookVectors = static_cast<int>(kMaxLookEntries / 4);

// What the shaders need to draw variants: the table, and each vertex's look row.
struct MaterialLooks {
  uint32_t appearances = 0;  // V + 1; 0 when the mesh has no variants (every triangle is drawn)
  std::vector<float> table;  // [row * appearances + appearance] = material; kMaxLookEntries
  // Per vertex of the uploaded mesh: the mesh vertex it copies (a vertex shared by sub-meshes of
  // different look rows is copied once per row) and its look row. Empty without variants: the
  // mesh's own vertices, row 0.
  std::vector<uint32_t> vertex_source;
  std::vector<float> vertex_row;
};

// `mesh`'s indices regrouped so that each material used by its sub-meshes is one contiguous
// range (sub-meshes keep their order within a material); `indices` receives them
// (mesh.indices.size() entries without variants). The ranges come opaque and masked materials
// first, then blended ones, each group in order of first use. A mesh without sub-meshes is one
// range of material 0. `materials` may be empty (default material); sub-mesh materials must
// index it (validated). With variants, material m's range holds every sub-mesh that uses m in
// some appearance (so a sub-mesh may appear in several ranges); given `looks`, the indices then
// address looks->vertex_source's vertices and `looks` receives the table (kLimitExceeded when
// it has more than kMaxLookEntries entries); without `looks` they address the mesh's vertices
// (for counting draws).
Result<std::vector<MaterialRange>> groupIndicesByMaterial(const SkinnedMesh& mesh,
                                                          std::span<const Material> materials,
                                                          std::vector<uint32_t>& indices,
                                                          MaterialLooks* looks = nullptr);

// Which materials a draw sets up: kOpaque draws OPAQUE and MASK ones, kBlend the BLEND ones.
enum class MaterialPass : uint8_t { kOpaque, kBlend };

// True when some material of `materials` transforms two of its textures differently
// (KHR_texture_transform): the crowd programs drawing them then take a transform per texture
// (kUvTransformPerTextureDefine: 8 fragment uniform vectors more), the others one per material
// (GLSL ES 1.00 guarantees 16 fragment uniform vectors; docs/shaders.md, "Limits on ES 2.0
// hardware").
bool needsUvTransformPerTexture(std::span<const Material> materials);
inline constexpr const char* kUvTransformPerTextureDefine = "THRONG_UV_TRANSFORM_PER_TEXTURE";

// Uniform locations of the material state in a crowd program (shader_assembly.h; any may be -1
// when the linker removed it).
struct MaterialUniforms {
  GLint material = -1;          // u_material[3]: vec4 (material.glsl)
  GLint uv_transform = -1;      // u_uv_transform[2]: the material's one transform, uv set bits
  GLint uv_transforms = -1;     // u_uv_transforms[10]: vec4, two rows per texture
  GLint look_appearances = -1;  // u_look_appearances: float, MaterialLooks::appearances
  GLint look_material = -1;     // u_look_material: float, the draw's material
  GLint looks = -1;             // u_looks[kLookVectors]: vec4, MaterialLooks::table

  static MaterialUniforms of(const Program& program);
};

// The GL textures of a character's images and its materials. Lives and dies with its device's
// context current; move-only.
class GpuMaterials {
 public:
  GpuMaterials() = default;
  // Uploads every image of `looks` (levelsToUpload: the power-of-two chain on ES 2.0, the
  // levels that fit GL_MAX_TEXTURE_SIZE) as RGBA8 with its mip chain, and a 1x1 white texture for
  // the textures materials lack. kGlError on GL failure; kLimitExceeded when an image has no level
  // that fits.
  static Result<GpuMaterials> create(const Device& device, const Looks& looks);
  ~GpuMaterials();
  GpuMaterials(GpuMaterials&& other) noexcept;
  GpuMaterials& operator=(GpuMaterials&& other) noexcept;
  GpuMaterials(const GpuMaterials&) = delete;
  GpuMaterials& operator=(const GpuMaterials&) = delete;

  // Material `index` (the default material when there are none).
  const Material& material(uint32_t index) const;
  // needsUvTransformPerTexture of the materials: the programs drawing them #define
  // kUvTransformPerTextureDefine when true.
  bool uvTransformPerTexture() const { return needsUvTransformPerTexture(materials_); }
  // Sets material `index`'s uniforms on the current program, binds its textures with their
  // samplers on kMaterialTextureUnit.., and culls back faces unless the material is double-sided
  // or `cull_back_faces` is false. `pass` kDepth: the depth pass's alpha cut (MASK at its cutoff,
  // BLEND at kDepthBlendCutoff).
  void apply(const MaterialUniforms& uniforms, uint32_t index, bool cull_back_faces,
             bool depth = false) const;
  // Sets `looks`' table on the current program (appearances 0: every triangle drawn); apply()
  // then names its material as the draw's.
  static void setLooks(const MaterialUniforms& uniforms, const MaterialLooks& looks);
  // Blending and depth writes for a pass: kBlend blends over what is drawn (src alpha) without
  // writing depth; kOpaque restores the opaque state.
  static void beginPass(MaterialPass pass);
  // Plain: every material's colour factor and texture are left out (white), for debug colours
  // (CrowdRendererDesc::lod_tint); alpha modes and sidedness stay.
  void setPlain(bool plain) { plain_ = plain; }

 private:
  bool plain_ = false;
  std::vector<Material> materials_;
  std::vector<GLuint> textures_;  // one per image, then the 1x1 white one
};

// A blended material casts a shadow where its alpha is at least this (the depth pass has no
// blending: it draws BLEND like MASK at this cutoff).
inline constexpr float kDepthBlendCutoff = 0.5f;

}  // namespace throng::render
