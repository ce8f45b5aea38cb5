// InstancedRenderer: uploads a package (LOD meshes grouped by material, animation texture, images)
// and draws every instance of a LOD with one glDrawElementsInstanced per material; a
// transform-feedback twin captures skinned vertices.
#include "render/instanced_renderer.h"

#ifndef __EMSCRIPTEN__
#include <GLES3/gl31.h>
#endif

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <numeric>

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"
#include "render/instance_record_attributes.h"
#include "render/morph_texture.h"
#include "render/shader_assembly.h"
#include "render/user_uniforms.h"
#include "throng/core/half.h"
#include "throng/crowd/layer_palette.h"

namespace throng::render {
namespace {

// Attribute locations shared by the draw and the capture programs.
enum Attribute : GLuint {
  kPosition = 0,
  kNormal = 1,
  kJoints = 2,
  kWeights = 3,
  kRecord0 = kRecordAttribute0,  // InstanceRecord's words (instance_record_attributes.h)
  kRecord1 = kRecordAttribute1,
  kRecord2 = kRecordAttribute2,
  kRecord3 = kRecordAttribute3,
  kTangent = 8,
  kUv0 = 9,
  kUv1 = 10,
  kColor = 11,
  kLook = 12,
  kVertex = 13,  // the mesh vertex a buffer vertex copies (the morph texture's row), prop group
  kAgent = 4,    // drawIndirect's program: the agent index replaces the instance attributes
};

const std::vector<AttributeBinding>& attributeBindings() {
  static const std::vector<AttributeBinding> bindings = {
      {"a_position", kPosition}, {"a_normal", kNormal},   {"a_joints", kJoints},
      {"a_weights", kWeights},   {"i_record0", kRecord0}, {"i_record1", kRecord1},
      {"i_record2", kRecord2},   {"a_tangent", kTangent}, {"a_uv0", kUv0},
      {"a_uv1", kUv1},           {"a_color", kColor},     {"a_look", kLook},
      {"a_vertex", kVertex},     {"i_record3", kRecord3},
  };
  return bindings;
}

struct GpuVertex {
  float position[3];
  float normal[3];
  float tangent[4];  // xyz, handedness; 0 when the mesh has none
  uint16_t joints[4];
  float weights[4];
  float uv0[2];
  float uv1[2];
  float color[4];
  float look;       // look row (MaterialLooks)
  uint32_t vertex;  // the mesh vertex it copies (its rows of the morph texture) | prop group << 24
};
static_assert(sizeof(GpuVertex) == 104, "vertices are 104 tightly packed bytes");

// The prop group (SkinnedMesh::attachments) rides in the high byte of GpuVertex::vertex, so props
// cost neither an attribute (the path uses 13 of ES 3.0's 16) nor a byte of the stride: a LOD's
// mesh index then has 24 bits (16.7 million vertices).
constexpr uint32_t kVertexIndexBits = 24;

// Transform feedback captures world position and normal: 6 floats per vertex.
constexpr size_t kCapturedFloatsPerVertex = 6;

// Smallest chunk of instance records packed by one thread (~10 ns each): smaller chunks cost more
// to hand over than they save.
constexpr size_t kMinRecordsPerChunk = 4096;
// How long beginRecords() waits for the GPU to finish with a ring segment: a frame three frames
// old that is still drawing after a second means a stalled device; the records are written anyway.
[[maybe_unused]] constexpr GLuint64 kRingWaitNanoseconds = 1'000'000'000;

// drawIndirect's instance records, after the animation texture (unit 0), the material's and the
// shadow map (ES 3.0 guarantees 16 vertex and 32 combined units; shader_assembly.cpp's table).
[[maybe_unused]] constexpr int kInstancesTextureUnit = kShadowTextureUnit + 1;
// The palette pass's texture, in place of the animation texture's fetches (PALETTE_TEXTURE).
constexpr int kPaletteTextureUnit = kShadowTextureUnit + 2;
// drawIndirect's per-agent extras (props, layers): the palette pass's unit, which the gpu
// variant never uses (shader_assembly.cpp's table).
[[maybe_unused]] constexpr int kAgentExtrasTextureUnit = kPaletteTextureUnit;
// The drawn LOD's morph texture (package section VATX), for a package with morph animation
// (shader_assembly.cpp's table).
constexpr int kMorphTextureUnit = kPaletteTextureUnit + 1;
// The units a user's samplers may take on this path (ES 3.0 guarantees 16 fragment units).
constexpr int kFirstUserTextureUnit = kMorphTextureUnit + 1;
constexpr int kEs3FragmentTextureUnits = 16;

// The instanced.vert variant that skins from the palette pass's texture.
std::vector<std::string> paletteDefines(const PalettePass& pass) {
  std::vector<std::string> defines = {"PALETTE_TEXTURE"};
  if (pass.bits()) defines.push_back("PALETTE_BITS");
  return defines;
}

// The per-vertex inputs of the bound vertex array, from `vertex_buffer` (GpuVertex records).
void bindVertexAttributes(GLuint vertex_buffer) {
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer);
  const GLsizei stride = sizeof(GpuVertex);
  glEnableVertexAttribArray(kPosition);
  glVertexAttribPointer(kPosition, 3, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, position)));
  glEnableVertexAttribArray(kNormal);
  glVertexAttribPointer(kNormal, 3, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, normal)));
  glEnableVertexAttribArray(kTangent);
  glVertexAttribPointer(kTangent, 4, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, tangent)));
  glEnableVertexAttribArray(kJoints);
  glVertexAttribIPointer(kJoints, 4, GL_UNSIGNED_SHORT, stride,
                         byteOffset(offsetof(GpuVertex, joints)));
  glEnableVertexAttribArray(kWeights);
  glVertexAttribPointer(kWeights, 4, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, weights)));
  glEnableVertexAttribArray(kUv0);
  glVertexAttribPointer(kUv0, 2, GL_FLOAT, GL_FALSE, stride, byteOffset(offsetof(GpuVertex, uv0)));
  glEnableVertexAttribArray(kUv1);
  glVertexAttribPointer(kUv1, 2, GL_FLOAT, GL_FALSE, stride, byteOffset(offsetof(GpuVertex, uv1)));
  glEnableVertexAttribArray(kColor);
  glVertexAttribPointer(kColor, 4, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, color)));
  glEnableVertexAttribArray(kLook);
  glVertexAttribPointer(kLook, 1, GL_FLOAT, GL_FALSE, stride,
                        byteOffset(offsetof(GpuVertex, look)));
  glEnableVertexAttribArray(kVertex);
  glVertexAttribIPointer(kVertex, 1, GL_UNSIGNED_INT, stride,
                         byteOffset(offsetof(GpuVertex, vertex)));
}

const std::vector<AttributeBinding>& indirectAttributeBindings() {
  static const std::vector<AttributeBinding> bindings = {
      {"a_position", kPosition}, {"a_normal", kNormal}, {"a_joints", kJoints},
      {"a_weights", kWeights},   {"i_agent", kAgent},   {"a_tangent", kTangent},
      {"a_uv0", kUv0},           {"a_uv1", kUv1},       {"a_color", kColor},
      {"a_look", kLook},         {"a_vertex", kVertex},
  };
  return bindings;
}

// The variant's name for errors.
std::string variantName(bool palette, bool gpu, bool depth, bool capture) {
  std::string name = "gles3/instanced";
  std::string parts;
  for (const auto& [on, part] : {std::pair{palette, "palette texture"},
                                 {gpu, "GPU instances"},
                                 {depth, "depth"},
                                 {capture, "capture"}}) {
    if (on) parts += std::string(parts.empty() ? "" : ", ") + part;
  }
  return parts.empty() ? name : name + " (" + parts + ")";
}

}  // namespace

Result<std::unique_ptr<InstancedRenderer>> InstancedRenderer::create(
    Device& device, const Package& package, const InstancedRendererOptions& options) {
  const Caps& caps = device.caps();
  if (caps.gles_major < 3 || !caps.instancing || caps.max_vertex_texture_image_units < 1 ||
      (!caps.float_textures && !caps.half_float_textures))
    return Status(ErrorCode::kUnsupported,
                  fmt::format("instanced path needs OpenGL ES 3 with instancing, vertex texture "
                              "fetch and float textures; the device is '{}' ({} vertex texture "
                              "units, instancing {})",
                              caps.version, caps.max_vertex_texture_image_units,
                              caps.instancing ? "on" : "off"));
  // Validated once, when it was read or baked, and immutable since (Package is const here).
  assert(validatePackage(package, package.source).ok());
  if (package.animation.frame_count > kMaxRecordFrames)
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("instanced path: the animation texture has {} frames; instance "
                              "records hold frame numbers in 16 bits (at most {})",
                              package.animation.frame_count, kMaxRecordFrames));
  if (Status status = device.makeCurrent(); !status.ok()) return status;
  checkGl("before creating the instanced renderer").ok();  // start from a clean error state

  std::unique_ptr<InstancedRenderer> renderer(new InstancedRenderer());
  renderer->options_ = options;
  renderer->device_ = &device;
  renderer->joint_count_ = package.skeleton.jointCount();
  renderer->morph_kind_ = package.morph.kind;
  // Layers need each joint's pivot in a uniform array: packages with masks and at most
  // kMaxLayerJoints joints get the shader's layer code.
  if (!package.masks.empty() && package.skeleton.jointCount() <= kMaxLayerJoints)
    renderer->pivots_ = jointPivots(package.skeleton);
  Result<GpuMaterials> materials =
      GpuMaterials::create(device, Looks{package.materials, package.images});
  if (!materials.ok()) return materials.status();
  renderer->materials_ = std::move(materials).value();
  // The colour program now (after the materials, which choose its transforms' layout), so that a
  // user's file that does not compile fails creation.
  if (Result<ProgramSet*> program = renderer->programFor(0); !program.ok()) return program.status();
  if (Status status = renderer->uploadTexture(device, package.animation); !status.ok())
    return status;
  if (Status status = renderer->uploadMorph(device, package.morph); !status.ok()) return status;
  glGenBuffers(1, &renderer->instance_buffer_);
  for (const MeshLod& lod : package.lods) {
    if (Status status = renderer->uploadLod(lod, package.skeleton.jointCount(), package.materials);
        !status.ok())
      return status;
  }
  if (Status status = checkGlUpload("instanced renderer: upload", deviceFaults(device));
      !status.ok())
    return status;
  return renderer;
}

InstancedRenderer::~InstancedRenderer() {
  for (LodBuffers& lod : lods_) {
    glDeleteVertexArrays(1, &lod.vertex_array);
    if (lod.indirect_vertex_array) glDeleteVertexArrays(1, &lod.indirect_vertex_array);
    glDeleteBuffers(1, &lod.vertex_buffer);
    glDeleteBuffers(1, &lod.index_buffer);
  }
  if (texture_ && owns_texture_) glDeleteTextures(1, &texture_);
  if (instance_buffer_) glDeleteBuffers(1, &instance_buffer_);
#ifndef __EMSCRIPTEN__
  for (GLsync fence : ring_fences_) {
    if (fence) glDeleteSync(fence);
  }
#endif
  if (capture_buffer_) glDeleteBuffers(1, &capture_buffer_);
  deleteMorphTextures(morph_lods_);
  if (palette_vertex_array_) glDeleteVertexArrays(1, &palette_vertex_array_);
  if (indirect_commands_) glDeleteBuffers(1, &indirect_commands_);
}

Status InstancedRenderer::uploadTexture(const Device& device, const AnimationTexture& texture) {
  frame_count_ = texture.frame_count;
  if (options_.shared_texture) {
    // Another character's texture rows: this character's slot of the shared texture.
    const SharedAnimationTexture& shared = *options_.shared_texture;
    if (options_.shared_slot >= shared.slotCount() ||
        shared.slot(options_.shared_slot).frame_count != texture.frame_count ||
        shared.slot(options_.shared_slot).joint_count != texture.joint_count) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("instanced renderer: shared animation texture slot {} (of {}) is "
                                "not this package's texture ({} frames of {} joints)",
                                options_.shared_slot, shared.slotCount(), texture.frame_count,
                                texture.joint_count));
    }
    slot_ = shared.slot(options_.shared_slot);
    texture_ = shared.id();
    owns_texture_ = false;
    texture_format_ = shared.format();
    texture_width_ = shared.width();
    texture_height_ = shared.height();
    return Status::okStatus();
  }
  const Caps& caps = device.caps();
  const uint32_t max_size = static_cast<uint32_t>(std::max(caps.max_texture_size, 0));
  // Full floats when the device has them; a half-float bake stays half (its error is the baker's).
  texture_format_ = deviceTexelFormat(caps, texture.format);
  std::vector<float> floats;
  std::vector<uint16_t> halves;
  Result<AnimationTextureSlot> slot =
      layoutAnimationTexture(texture, max_size, texture_format_, floats, halves);
  if (!slot.ok()) return slot.status();
  slot_ = *slot;
  texture_width_ = slot_.width;
  texture_height_ = slot_.height;
  Result<GLuint> uploaded = uploadAnimationTexels(
      device, texture_format_, texture_width_, texture_height_,
      texture_format_ == TexelFormat::kRgba32F ? static_cast<const void*>(floats.data())
                                               : static_cast<const void*>(halves.data()),
      "instanced renderer");
  if (!uploaded.ok()) return uploaded.status();
  texture_ = *uploaded;
  owns_texture_ = true;
  return Status::okStatus();
}

Status InstancedRenderer::uploadMorph(const Device& device, const MorphAnimation& morph) {
  Result<std::vector<MorphLodTexture>> textures =
      uploadMorphTextures(device, morph, frame_count_, "instanced renderer");
  if (!textures.ok()) return textures.status();
  morph_lods_ = std::move(textures).value();
  return Status::okStatus();
}

void InstancedRenderer::bindMorph(const Program& program, size_t lod) {
  if (morph_lods_.empty()) return;
  const MorphLodTexture& morph = morph_lods_[lod];
  glActiveTexture(GL_TEXTURE0 + kMorphTextureUnit);
  glBindTexture(GL_TEXTURE_2D, morph.texture);
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(program.uniform("u_morph_width"), morph.width);
  glUniform1i(program.uniform("u_morph_vertices"), morph.vertices);
  glUniform1i(program.uniform("u_morph_weight_row"), morph.weight_row);
  glUniform1i(program.uniform("u_morph_targets"), morph.targets);
  glUniform1i(program.uniform("u_morph_weight_texels"), morph.weight_texels);
}

Status InstancedRenderer::uploadLod(const MeshLod& lod, int joint_count,
                                    std::span<const Material> materials) {
  const SkinnedMesh& mesh = lod.mesh;
  LodBuffers buffers;
  std::vector<uint32_t> indices;
  Result<std::vector<MaterialRange>> ranges =
      groupIndicesByMaterial(mesh, materials, indices, &buffers.looks);
  if (!ranges.ok()) {
    return Status(ranges.status().code(), fmt::format("instanced renderer: LOD {}: {}",
                                                      lods_.size(), ranges.status().message()));
  }
  buffers.ranges = std::move(ranges).value();
  if (mesh.vertexCount() >= (size_t{1} << kVertexIndexBits)) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("instanced renderer: LOD {} has {} vertices, over the {} this path "
                              "draws (a vertex index has {} bits)",
                              lods_.size(), mesh.vertexCount(), size_t{1} << kVertexIndexBits,
                              kVertexIndexBits));
  }
  // Vertices shared by sub-meshes of different look rows are copied after the mesh's own.
  const std::vector<uint32_t>& source = buffers.looks.vertex_source;
  std::vector<GpuVertex> vertices(source.empty() ? mesh.vertexCount() : source.size());
  for (size_t o = 0; o < vertices.size(); ++o) {
    const size_t v = source.empty() ? o : source[o];
    GpuVertex& out = vertices[o];
    out.look = source.empty() ? 0.0f : buffers.looks.vertex_row[o];
    const uint32_t group = mesh.attachments.empty() ? 0u : mesh.attachments[v];
    out.vertex = static_cast<uint32_t>(v) | group << kVertexIndexBits;
    std::memcpy(out.position, &mesh.positions[v], sizeof(out.position));
    const glm::vec3 normal = mesh.normals.empty() ? glm::vec3(0, 1, 0) : mesh.normals[v];
    std::memcpy(out.normal, &normal, sizeof(out.normal));
    const glm::vec4 tangent = meshTangent(mesh, v);
    std::memcpy(out.tangent, &tangent, sizeof(out.tangent));
    for (int i = 0; i < 4; ++i) {
      // Bone-reduced LODs index palette slots; the texture is indexed by skeleton joint.
      const uint16_t slot = mesh.joints[v][i];
      out.joints[i] = lod.palette_joints.empty() ? slot : lod.palette_joints[slot];
      assert(out.joints[i] < joint_count);
      out.weights[i] = mesh.weights[v][i];
    }
    const glm::vec2 uv0 = mesh.uvs.empty() ? glm::vec2(0.0f) : mesh.uvs[v];
    const glm::vec2 uv1 = mesh.uvs1.empty() ? glm::vec2(0.0f) : mesh.uvs1[v];
    const glm::vec4 color = mesh.colors.empty() ? glm::vec4(1.0f) : mesh.colors[v];
    std::memcpy(out.uv0, &uv0, sizeof(out.uv0));
    std::memcpy(out.uv1, &uv1, sizeof(out.uv1));
    std::memcpy(out.color, &color, sizeof(out.color));
  }
  (void)joint_count;
  // Capture reads the mesh's own vertices: the first vertexCount() of the buffer.
  buffers.vertex_count = static_cast<uint32_t>(mesh.vertexCount());
  buffers.index_count = static_cast<uint32_t>(mesh.indices.size());
  glGenVertexArrays(1, &buffers.vertex_array);
  glBindVertexArray(buffers.vertex_array);
  glGenBuffers(1, &buffers.vertex_buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffers.vertex_buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(GpuVertex)),
               vertices.data(), GL_STATIC_DRAW);
  bindVertexAttributes(buffers.vertex_buffer);
  enableRecordAttributes(4);
  glGenBuffers(1, &buffers.index_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers.index_buffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint32_t)),
               indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  lods_.push_back(buffers);
  return checkGlUpload(fmt::format("instanced renderer: uploading LOD {}", lods_.size() - 1),
                       deviceFaults(*device_));
}

Result<std::span<InstanceRecord>> InstancedRenderer::beginRecords(size_t count) {
  assert(mapped_count_ == 0 && "beginRecords() twice without endRecords()");
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
#ifdef __EMSCRIPTEN__
  // WebGL has no buffer mapping: records are staged and copied up at endRecords().
  if (count > ring_capacity_) {
    ring_capacity_ = count;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(count * sizeof(InstanceRecord)), nullptr,
                 GL_STREAM_DRAW);
  }
  if (staging_.size() < count) staging_.resize(count);
  mapped_count_ = count;
  uploaded_first_ = 0;
  return std::span<InstanceRecord>(staging_.data(), count);
#else
  // The draws issued so far read the segment written last: fence it before moving on.
  if (uploaded_instances_ > 0) {
    if (ring_fences_[ring_segment_]) glDeleteSync(ring_fences_[ring_segment_]);
    ring_fences_[ring_segment_] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  }
  if (count > ring_capacity_) {
    // New storage (the old is freed once the GPU is done with it): no segment is in use.
    for (GLsync& fence : ring_fences_) {
      if (fence) glDeleteSync(fence);
      fence = nullptr;
    }
    ring_capacity_ = std::max(count, ring_capacity_ + ring_capacity_ / 2);
    glBufferData(
        GL_ARRAY_BUFFER,
        static_cast<GLsizeiptr>(kInstanceRingSegments * ring_capacity_ * sizeof(InstanceRecord)),
        nullptr, GL_STREAM_DRAW);
    ring_segment_ = 0;
  } else {
    ring_segment_ = (ring_segment_ + 1) % kInstanceRingSegments;
    if (GLsync& fence = ring_fences_[ring_segment_]) {
      // The GPU read this segment kInstanceRingSegments frames ago: rarely still busy.
      glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, kRingWaitNanoseconds);
      glDeleteSync(fence);
      fence = nullptr;
    }
  }
  uploaded_first_ = ring_segment_ * ring_capacity_;
  void* mapped =
      count == 0
          ? nullptr
          : glMapBufferRange(
                GL_ARRAY_BUFFER, static_cast<GLintptr>(uploaded_first_ * sizeof(InstanceRecord)),
                static_cast<GLsizeiptr>(count * sizeof(InstanceRecord)),
                GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
  if (count > 0 && !mapped) {
    Status status = checkGl("instanced renderer: mapping the instance buffer");
    return status.ok() ? Status(ErrorCode::kGlError,
                                "instanced renderer: mapping the instance buffer returned null")
                       : status;
  }
  mapped_count_ = count;
  return std::span<InstanceRecord>(static_cast<InstanceRecord*>(mapped), count);
#endif
}

Status InstancedRenderer::endRecords() {
  const size_t count = mapped_count_;
  mapped_count_ = 0;
  uploaded_instances_ = count;
  if (count == 0) return Status::okStatus();
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
#ifdef __EMSCRIPTEN__
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count * sizeof(InstanceRecord)),
                  staging_.data());
#else
  if (glUnmapBuffer(GL_ARRAY_BUFFER) == GL_FALSE) {
    uploaded_instances_ = 0;
    return Status(ErrorCode::kGlError,
                  "instanced renderer: the instance buffer's contents were lost while mapped");
  }
#endif
  return checkGlUpload("instanced renderer: instance upload", deviceFaults(*device_));
}

Status InstancedRenderer::upload(std::span<const Instance> instances, JobSystem* jobs) {
  Result<std::span<InstanceRecord>> records = beginRecords(instances.size());
  if (!records.ok()) return records.status();
  const uint32_t last_frame = lastFrame();
  const auto pack = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      (*records)[i] = encodeInstanceRecord(instances[i], last_frame);
  };
  if (jobs) {
    // Chunks of records, each packed by one thread (the records are independent).
    jobs->parallelFor(instances.size(), jobs->chunkFor(instances.size(), kMinRecordsPerChunk),
                      pack);
  } else {
    pack(0, instances.size());
  }
  return endRecords();
}

Status InstancedRenderer::readRecords(std::span<InstanceRecord> out) const {
  assert(out.size() == uploaded_instances_);
  if (out.empty()) return Status::okStatus();
#ifdef __EMSCRIPTEN__
  std::copy_n(staging_.begin(), out.size(), out.begin());
  return Status::okStatus();
#else
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  const void* data = glMapBufferRange(
      GL_ARRAY_BUFFER, static_cast<GLintptr>(uploaded_first_ * sizeof(InstanceRecord)),
      static_cast<GLsizeiptr>(out.size() * sizeof(InstanceRecord)), GL_MAP_READ_BIT);
  if (!data) return checkGl("instanced renderer: reading the instance buffer back");
  std::memcpy(out.data(), data, out.size() * sizeof(InstanceRecord));
  glUnmapBuffer(GL_ARRAY_BUFFER);
  return checkGl("instanced renderer: reading the instance buffer back");
#endif
}

void InstancedRenderer::bindInstanceAttributes(size_t first_instance) {
  // Each LOD's instances start at its own offset: ES 3.0 has no base-instance draw.
  bindRecordAttributes(instance_buffer_,
                       (uploaded_first_ + first_instance) * sizeof(InstanceRecord), 4);
}

Result<InstancedRenderer::ProgramSet*> InstancedRenderer::programFor(unsigned variant) {
  std::unique_ptr<ProgramSet>& slot = programs_[variant];
  if (slot) return slot.get();
  const bool palette = (variant & kPaletteVariant) != 0;
  const bool gpu = (variant & kGpuVariant) != 0;
  const bool depth = (variant & kDepthVariant) != 0;
  const bool capture = (variant & kCaptureVariant) != 0;
  assert(!palette || palette_pass_);
  CrowdProgramSource source;
  source.name = variantName(palette, gpu, depth, capture);
  source.version = GlslVersion::kEs300;
  source.vertex_path = "gles3/instanced.vert";
  if (palette) source.defines = paletteDefines(*palette_pass_);
  if (gpu) source.defines.push_back("GPU_INSTANCES");
  if (options_.impostor_fade) source.defines.push_back("IMPOSTOR_FADE");
  if (materials_.uvTransformPerTexture()) source.defines.push_back(kUvTransformPerTextureDefine);
  if (morph_kind_ == MorphBakeKind::kVertexFrames) source.defines.push_back("MORPH_VAT");
  if (morph_kind_ == MorphBakeKind::kTargetDeltas) source.defines.push_back("MORPH_DELTAS");
  if (!pivots_.empty()) {
    source.defines.push_back("LAYERS");
    source.defines.push_back(fmt::format("LAYER_JOINTS {}", pivots_.size()));
  }
  source.pass = depth ? CrowdPass::kDepth : CrowdPass::kColor;
  // Capture checks throng's skinning: the user's file (and its vertex hook) stays out of it.
  source.user = capture ? nullptr : options_.shader.get();
  source.user_texture_units =
      static_cast<int>(unitsOnDevice(userTextureUnits(), device_->caps()).size());
  Result<ProgramDesc> desc = assembleCrowdProgram(source);
  if (!desc.ok()) return desc.status();
  desc->attributes = gpu ? indirectAttributeBindings() : attributeBindings();
  if (capture) desc->feedback_varyings = {"v_world", "v_normal"};
  Result<Program> program = buildProgram(*desc, deviceFaults(*device_));
  if (!program.ok()) return program.status();
  auto set = std::make_unique<ProgramSet>();
  set->program = std::move(program).value();
  set->material = MaterialUniforms::of(set->program);
  set->shading = ShadingUniforms::of(set->program);
  set->lod = set->program.uniform("u_lod");
  set->palette_first = set->program.uniform("u_palette_first");
  set->fade_eye = set->program.uniform("u_fade_eye");
  set->fade_band = set->program.uniform("u_fade_band");
  bindCrowdSamplers(set->program);  // leaves the program in use
  if (!pivots_.empty()) {
    glUniform3fv(set->program.uniform("u_pivots[0]"), static_cast<GLsizei>(pivots_.size()),
                 &pivots_[0].x);
  }
  slot = std::move(set);
  return slot.get();
}

std::vector<int> InstancedRenderer::userTextureUnits() {
  std::vector<int> units;
  for (int unit = kFirstUserTextureUnit; unit < kEs3FragmentTextureUnits; ++unit)
    units.push_back(unit);
  return units;
}

GLuint InstancedRenderer::shadingProgram() const {
  return programs_[0] ? programs_[0]->program.id() : 0;
}

void InstancedRenderer::setUniforms(const ProgramSet& set, const FrameView& view,
                                    const FrameShading& shading) {
  const Program& program = set.program;
  glUseProgram(program.id());
  glActiveTexture(GL_TEXTURE0);
  // A texture shared with the characters drawn before this one is bound already: no bind.
  GLint bound = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
  if (static_cast<GLuint>(bound) != texture_) {
    glBindTexture(GL_TEXTURE_2D, texture_);
    ++stats_.animation_texture_binds;
  }
  glUniform1i(program.uniform("u_base_row"), static_cast<GLint>(slot_.base_row));
  glUniform1i(program.uniform("u_frames_per_row"), static_cast<GLint>(slot_.frames_per_row));
  glUniform1i(program.uniform("u_texels_per_frame"), static_cast<GLint>(slot_.texels_per_frame));
  glUniform1i(program.uniform("u_rows_per_frame"), static_cast<GLint>(slot_.rows_per_frame));
  glUniform1i(program.uniform("u_joints_per_row"), static_cast<GLint>(slot_.joints_per_row));
  applyShading(set.shading, view, shading);
}

Status InstancedRenderer::submit(const FrameView& view, std::span<const uint32_t> lod_counts,
                                 const FrameShading& shading, DrawPass draw_pass) {
  assert(lod_counts.size() <= lods_.size());
  const size_t drawn = std::accumulate(lod_counts.begin(), lod_counts.end(), size_t{0});
  assert(drawn <= uploaded_instances_);
  stats_ = {};
  if (drawn == 0) return Status::okStatus();
  bool palette = false;
  if (wantsPalettePass(lod_counts)) {
    Result<bool> ready = preparePalettePass();
    if (!ready.ok()) return ready.status();
    palette = *ready && palette_pass_->fits(drawn);
  }
  if (palette) {
    Status status = runPalettePass(drawn);
    if (status.code() == ErrorCode::kUnsupported)
      palette = false;  // the render target was refused: this frame and the next fetch directly
    else if (!status.ok())
      return status;
  }
  stats_.palette_pass = palette;
  const bool depth = draw_pass == DrawPass::kDepth;
  Result<ProgramSet*> set =
      programFor((palette ? kPaletteVariant : 0u) | (depth ? kDepthVariant : 0u));
  if (!set.ok()) return set.status();
  const Program& program = (*set)->program;
  const MaterialUniforms& material_uniforms = (*set)->material;
  setUniforms(**set, view, shading);
  if (palette) palette_pass_->bind(program, kPaletteTextureUnit);
  const GLint palette_first = (*set)->palette_first;
  // Opaque and masked materials of every LOD first, then the blended ones over them (the depth
  // pass draws them in one go, blended ones cut at kDepthBlendCutoff).
  for (const MaterialPass pass : {MaterialPass::kOpaque, MaterialPass::kBlend}) {
    const bool blend = pass == MaterialPass::kBlend;
    const MaterialPass state = depth ? MaterialPass::kOpaque : pass;
    bool begun = false;
    size_t first = 0;
    for (size_t l = 0; l < lod_counts.size(); ++l) {
      const uint32_t count = lod_counts[l];
      if (count == 0) continue;
      const LodBuffers& lod = lods_[l];
      bool bound = false;
      for (const MaterialRange& range : lod.ranges) {
        if (range.blend != blend) continue;
        if (!begun) GpuMaterials::beginPass(state);
        begun = true;
        if (!bound) {
          glBindVertexArray(lod.vertex_array);
          bindInstanceAttributes(first);
          GpuMaterials::setLooks(material_uniforms, lod.looks);
          glUniform1f((*set)->lod, static_cast<float>(l));
          const bool fades = !depth && static_cast<int>(l) == fade_lod_;
          glUniform3fv((*set)->fade_eye, 1, &fade_eye_.x);
          glUniform2f((*set)->fade_band, fades ? fade_band_.x : 0.0f, fades ? fade_band_.y : 0.0f);
          bindMorph(program, l);
          if (palette) glUniform1i(palette_first, static_cast<GLint>(first));
          bound = true;
        }
        materials_.apply(material_uniforms, range.material, options_.cull_back_faces, depth);
        glDrawElementsInstanced(GL_TRIANGLES, static_cast<GLsizei>(range.index_count),
                                GL_UNSIGNED_INT, byteOffset(range.first_index * sizeof(uint32_t)),
                                static_cast<GLsizei>(count));
        ++stats_.draw_calls;
        stats_.triangles += static_cast<uint64_t>(range.index_count / 3) * count;
      }
      if (!blend) stats_.instances += count;
      first += count;
    }
    if (begun && state == MaterialPass::kBlend) GpuMaterials::beginPass(MaterialPass::kOpaque);
  }
  glBindVertexArray(0);
  return checkGl("instanced renderer: draw");
}

bool InstancedRenderer::wantsPalettePass(std::span<const uint32_t> lod_counts) const {
  if (options_.palette_pass == PalettePassMode::kOff || palette_unavailable_) return false;
  if (options_.palette_pass == PalettePassMode::kOn) return true;
  uint64_t skinned = 0;
  for (size_t l = 0; l < lod_counts.size(); ++l)
    skinned += static_cast<uint64_t>(lods_[l].vertex_count) * lod_counts[l];
  return skinned >= kPalettePassMinVertexInstances;
}

Result<bool> InstancedRenderer::preparePalettePass() {
  if (palette_unavailable_) return false;
  if (palette_pass_) return true;
  std::vector<AttributeBinding> attributes;
  // The records' animation fields, and with layers the layer's words.
  const bool layers = !pivots_.empty();
  for (const AttributeBinding& binding : attributeBindings()) {
    if (binding.location == kRecord1 ||
        (layers && (binding.location == kRecord2 || binding.location == kRecord3)))
      attributes.push_back(binding);
  }
  Result<std::unique_ptr<PalettePass>> pass =
      PalettePass::create(*device_, static_cast<int>(joint_count_), std::move(attributes), pivots_);
  if (!pass.ok()) {
    if (pass.status().code() != ErrorCode::kUnsupported) return pass.status();
    palette_unavailable_ = true;  // too many joints for one texture row: direct fetching
    return false;
  }
  palette_pass_ = std::move(pass).value();
  // Its draw program (instanced.vert skinning from the palette) is built here, so that the first
  // frame that uses the pass has it.
  if (Result<ProgramSet*> program = programFor(kPaletteVariant); !program.ok()) {
    palette_pass_.reset();
    return program.status();
  }
  // The pass reads only the records' animation fields (and the layer's), one per instance.
  glGenVertexArrays(1, &palette_vertex_array_);
  glBindVertexArray(palette_vertex_array_);
  for (const GLuint a : {kRecord1, kRecord2, kRecord3}) {
    if (a != kRecord1 && !layers) continue;
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  glBindVertexArray(0);
  return true;
}

Status InstancedRenderer::runPalettePass(size_t count) {
  // The pass binds the animation texture on unit 0, where the draws then find it (and a
  // character sharing the texture after this one too): count that bind as setUniforms would.
  GLint bound = 0;
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
  if (static_cast<GLuint>(bound) != texture_) ++stats_.animation_texture_binds;
  glBindVertexArray(palette_vertex_array_);
  bindInstanceAttributes(0);
  glBindVertexArray(0);
  const AnimationTextureBinding animation{texture_,
                                          static_cast<int>(slot_.base_row),
                                          static_cast<int>(slot_.frames_per_row),
                                          static_cast<int>(slot_.texels_per_frame),
                                          static_cast<int>(slot_.rows_per_frame),
                                          static_cast<int>(slot_.joints_per_row)};
  Status status = palette_pass_->run(palette_vertex_array_, count, animation);
  if (status.code() == ErrorCode::kUnsupported) {
    // The driver refused the render target after all: direct fetching from now on.
    palette_unavailable_ = true;
  }
  return status;
}

Status InstancedRenderer::capturePalettes(std::span<const Instance> instances,
                                          std::span<JointRows> palettes) {
  assert(palettes.size() == instances.size() * joint_count_);
  Result<bool> ready = preparePalettePass();
  if (!ready.ok()) return ready.status();
  if (!*ready || !palette_pass_->fits(instances.size()))
    return Status(ErrorCode::kUnsupported,
                  fmt::format("instanced renderer: the palette pass cannot hold {} palettes of {} "
                              "joints on this device",
                              instances.size(), joint_count_));
  if (instances.empty()) return Status::okStatus();
  if (Status status = upload(instances); !status.ok()) return status;
  if (Status status = runPalettePass(instances.size()); !status.ok()) return status;
  return palette_pass_->read(instances.size(), palettes);
}

Status InstancedRenderer::prepareIndirect() {
#ifdef __EMSCRIPTEN__
  return Status(ErrorCode::kUnsupported, "instanced renderer: WebGL has no indirect draws");
#else
  if (indirect_commands_) return Status::okStatus();
  if (Result<ProgramSet*> program = programFor(kGpuVariant); !program.ok()) return program.status();
  // One command per (LOD, material range): its indices, no instances yet (drawIndirect copies
  // the compute pass's per-LOD count into each), no base vertex, the reserved word 0.
  std::vector<GLuint> commands;
  for (LodBuffers& lod : lods_) {
    lod.first_indirect_command = static_cast<uint32_t>(commands.size() / kDrawCommandWords);
    for (const MaterialRange& range : lod.ranges) {
      commands.insert(commands.end(), {range.index_count, 0u, range.first_index, 0u, 0u});
    }
    glGenVertexArrays(1, &lod.indirect_vertex_array);
    glBindVertexArray(lod.indirect_vertex_array);
    bindVertexAttributes(lod.vertex_buffer);
    glEnableVertexAttribArray(kAgent);
    glVertexAttribDivisor(kAgent, 1);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, lod.index_buffer);
  }
  glBindVertexArray(0);
  glGenBuffers(1, &indirect_commands_);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, indirect_commands_);
  glBufferData(GL_DRAW_INDIRECT_BUFFER, static_cast<GLsizeiptr>(commands.size() * sizeof(GLuint)),
               commands.data(), GL_DYNAMIC_DRAW);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  return checkGl("instanced renderer: preparing indirect draws");
#endif
}

Status InstancedRenderer::drawIndirect(const FrameView& view, const IndirectInstances& in,
                                       const FrameShading& shading, DrawPass draw_pass) {
  stats_ = {};
#ifdef __EMSCRIPTEN__
  (void)view;
  (void)in;
  (void)shading;
  (void)draw_pass;
  return Status(ErrorCode::kUnsupported, "instanced renderer: WebGL has no indirect draws");
#else
  if (Status status = prepareIndirect(); !status.ok()) return status;
  const auto drawn = [&](size_t l) {
    return in.only_lod < 0 || static_cast<size_t>(in.only_lod) == l;
  };
  // Each (LOD, material) command's instance count is its LOD's, copied on the GPU (the compute
  // pass's barrier covers buffer updates): no read-back, CPU work per draw.
  constexpr size_t kCommandBytes = kDrawCommandWords * sizeof(GLuint);
  constexpr size_t kInstanceCountByte = sizeof(GLuint);  // the record's second word
  glBindBuffer(GL_COPY_READ_BUFFER, in.draw_commands);
  glBindBuffer(GL_COPY_WRITE_BUFFER, indirect_commands_);
  for (size_t l = 0; l < lods_.size(); ++l) {
    if (!drawn(l)) continue;
    for (size_t r = 0; r < lods_[l].ranges.size(); ++r) {
      glCopyBufferSubData(
          GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
          static_cast<GLintptr>(l * kCommandBytes + kInstanceCountByte),
          static_cast<GLintptr>((lods_[l].first_indirect_command + r) * kCommandBytes +
                                kInstanceCountByte),
          sizeof(GLuint));
    }
  }
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);

  const bool depth = draw_pass == DrawPass::kDepth;
  Result<ProgramSet*> set = programFor(kGpuVariant | (depth ? kDepthVariant : 0u));
  if (!set.ok()) return set.status();
  const MaterialUniforms& material_uniforms = (*set)->material;
  setUniforms(**set, view, shading);
  glActiveTexture(GL_TEXTURE0 + kInstancesTextureUnit);
  glBindTexture(GL_TEXTURE_2D, in.instances);
  glUniform1i((*set)->program.uniform("u_instances_per_row"), in.instances_per_row);
  // The agents' props and layers, when any differ from the defaults (every prop, no layer).
  glUniform1i((*set)->program.uniform("u_has_agent_extras"), in.agent_extras != 0 ? 1 : 0);
  if (in.agent_extras != 0) {
    glActiveTexture(GL_TEXTURE0 + kAgentExtrasTextureUnit);
    glBindTexture(GL_TEXTURE_2D, in.agent_extras);
    glUniform1i((*set)->program.uniform("u_agent_extras_per_row"), in.agent_extras_per_row);
  }
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, indirect_commands_);
  // Opaque and masked materials of every LOD first, then the blended ones over them (as submit).
  for (const MaterialPass pass : {MaterialPass::kOpaque, MaterialPass::kBlend}) {
    const bool blend = pass == MaterialPass::kBlend;
    const MaterialPass state = depth ? MaterialPass::kOpaque : pass;
    bool begun = false;
    for (size_t l = 0; l < lods_.size(); ++l) {
      if (!drawn(l)) continue;
      const LodBuffers& lod = lods_[l];
      bool bound = false;
      for (size_t r = 0; r < lod.ranges.size(); ++r) {
        const MaterialRange& range = lod.ranges[r];
        if (range.blend != blend) continue;
        if (!begun) GpuMaterials::beginPass(state);
        begun = true;
        if (!bound) {
          glBindVertexArray(lod.indirect_vertex_array);
          glBindBuffer(GL_ARRAY_BUFFER, in.agent_lists);
          // No base instance in ES 3.1's record: each LOD's list is its own attribute offset.
          glVertexAttribIPointer(kAgent, 1, GL_UNSIGNED_INT, 0,
                                 byteOffset(l * in.list_capacity * sizeof(GLuint)));
          // Each agent's appearance comes with its extras (own materials without them).
          GpuMaterials::setLooks(material_uniforms, lod.looks);
          glUniform1f((*set)->lod, static_cast<float>(l));
          const bool fades = !depth && static_cast<int>(l) == fade_lod_;
          glUniform3fv((*set)->fade_eye, 1, &fade_eye_.x);
          glUniform2f((*set)->fade_band, fades ? fade_band_.x : 0.0f, fades ? fade_band_.y : 0.0f);
          bindMorph((*set)->program, l);
          bound = true;
        }
        materials_.apply(material_uniforms, range.material, options_.cull_back_faces, depth);
        glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT,
                               byteOffset((lod.first_indirect_command + r) * kCommandBytes));
        ++stats_.draw_calls;
      }
    }
    if (begun && state == MaterialPass::kBlend) GpuMaterials::beginPass(MaterialPass::kOpaque);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0);
  return checkGl("instanced renderer: indirect draw");
#endif
}

Status InstancedRenderer::draw(const FrameView& view, std::span<const Instance> instances,
                               std::span<const uint32_t> lod_counts, const FrameShading& shading) {
  if (Status status = upload(instances); !status.ok()) return status;
  return submit(view, lod_counts, shading);
}

Status InstancedRenderer::draw(const FrameView& view, std::span<const Instance> instances) {
  const uint32_t count = static_cast<uint32_t>(instances.size());
  return draw(view, instances, std::span<const uint32_t>(&count, 1));
}

Status InstancedRenderer::captureSkinnedVertices(std::span<const Instance> instances, int lod,
                                                 std::span<glm::vec3> positions,
                                                 std::span<glm::vec3> normals) {
  assert(lod >= 0 && lod < lodCount());
  const LodBuffers& buffers = lods_[lod];
  const size_t vertices = instances.size() * buffers.vertex_count;
  assert(positions.size() == vertices && normals.size() == vertices);
  if (vertices == 0) return Status::okStatus();
  if (!capture_buffer_) glGenBuffers(1, &capture_buffer_);
  bool palette = false;
  if (options_.palette_pass == PalettePassMode::kOn) {
    Result<bool> ready = preparePalettePass();
    if (!ready.ok()) return ready.status();
    palette = *ready && palette_pass_->fits(instances.size());
  }
  Result<ProgramSet*> set = programFor(kCaptureVariant | (palette ? kPaletteVariant : 0u));
  if (!set.ok()) return set.status();
  const Program& program = (*set)->program;
  if (Status status = upload(instances); !status.ok()) return status;
  if (palette) {
    Status status = runPalettePass(instances.size());
    if (status.code() == ErrorCode::kUnsupported) {
      // Refused render target: capture by direct fetching, as draws would.
      return captureSkinnedVertices(instances, lod, positions, normals);
    }
    if (!status.ok()) return status;
  }
  setUniforms(**set, FrameView{}, {});
  if (palette) {
    palette_pass_->bind(program, kPaletteTextureUnit);
    glUniform1i(program.uniform("u_palette_first"), 0);
  }
  bindMorph(program, static_cast<size_t>(lod));
  glBindVertexArray(buffers.vertex_array);
  bindInstanceAttributes(0);
  const size_t bytes = vertices * kCapturedFloatsPerVertex * sizeof(float);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, capture_buffer_);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr,
               GL_STREAM_READ);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, capture_buffer_);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  // Instanced draws run instance by instance, so the capture is instance-major.
  glDrawArraysInstanced(GL_POINTS, 0, static_cast<GLsizei>(buffers.vertex_count),
                        static_cast<GLsizei>(instances.size()));
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glBindVertexArray(0);
  const float* data = static_cast<const float*>(glMapBufferRange(
      GL_TRANSFORM_FEEDBACK_BUFFER, 0, static_cast<GLsizeiptr>(bytes), GL_MAP_READ_BIT));
  if (!data) return checkGl("instanced renderer: mapping the transform feedback buffer");
  for (size_t v = 0; v < vertices; ++v) {
    const float* record = data + v * kCapturedFloatsPerVertex;
    positions[v] = glm::vec3(record[0], record[1], record[2]);
    normals[v] = glm::vec3(record[3], record[4], record[5]);
  }
  glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  return checkGl("instanced renderer: transform feedback capture");
}

}  // namespace throng::render
