// Merged-batch renderer: programs sized from the probed budget, K-copy buffers, one draw per batch.
#include "render/merged_batch_renderer.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <string>

#include <fmt/core.h>

#include "render/gl_check.h"
#include "render/shader_assembly.h"
#include "render/user_uniforms.h"

namespace throng::render {
namespace {

// Seven attributes, eight with morph animation: ES 2.0 guarantees 8 (the look row rides in the
// position's w, both uv sets in one vec4).
constexpr GLuint kPositionLocation = 0;
constexpr GLuint kNormalLocation = 1;
constexpr GLuint kTangentLocation = 2;
constexpr GLuint kUvLocation = 3;
constexpr GLuint kColorLocation = 4;
constexpr GLuint kJointsLocation = 5;
constexpr GLuint kWeightsLocation = 6;
constexpr GLuint kVertexLocation = 7;  // a_vertex: programs with morph animation only
// Every attribute a batch draw enables (and disables after it, in vertex array 0).
constexpr GLuint kBatchAttributes[] = {kPositionLocation, kNormalLocation, kTangentLocation,
                                       kUvLocation,       kColorLocation,  kJointsLocation,
                                       kWeightsLocation,  kVertexLocation};
// The morph texture's unit (ES 2.0 guarantees 8 units in all): the one after the shadow map's.
constexpr int kMorphTextureUnit = kShadowTextureUnit + 1;
// The texture units the merged path leaves to a user's samplers: ES 2.0 guarantees 8, and its
// programs take 1..kShadowTextureUnit (no animation texture on unit 0), and kMorphTextureUnit
// with morph animation.
constexpr int kUserTextureUnits[] = {0, kMorphTextureUnit};

int vectorsOfType(GLenum type) {
  switch (type) {
    case GL_FLOAT_MAT2:
      return 2;
    case GL_FLOAT_MAT3:
      return 3;
    case GL_FLOAT_MAT4:
      return 4;
    default:
      return 1;  // scalars, vectors, booleans and samplers take one slot each
  }
}

// `uv_per_texture`: GpuMaterials::uvTransformPerTexture.
Result<Program> buildMergedProgram(int copies, int joints_per_copy, JointEncoding encoding,
                                   bool looks, bool fade, bool uv_per_texture,
                                   MergedMorphDefines morph, CrowdPass pass,
                                   const ShaderSource* user, int user_texture_units,
                                   const GlFaults& faults) {
  CrowdProgramSource source;
  source.name =
      fmt::format("gles2/merged ({} characters of {} joints, {}{})", copies, joints_per_copy,
                  jointEncodingName(encoding), pass == CrowdPass::kDepth ? ", depth" : "");
  source.version = GlslVersion::kEs100;
  source.vertex_path = "gles2/merged.vert";
  source.defines = {fmt::format("COPIES {}", copies),
                    fmt::format("JOINTS_PER_COPY {}", joints_per_copy),
                    fmt::format("JOINT_VECTORS {}", vec4PerJoint(encoding))};
  if (looks) source.defines.push_back("LOOKS 1");
  if (fade) source.defines.push_back("IMPOSTOR_FADE");
  if (uv_per_texture) source.defines.push_back(kUvTransformPerTextureDefine);
  if (morph.kind == MorphBakeKind::kVertexFrames) source.defines.push_back("MORPH_VAT");
  if (morph.kind == MorphBakeKind::kTargetDeltas) {
    source.defines.push_back("MORPH_DELTAS");
    source.defines.push_back(fmt::format("MORPH_TARGETS {}", morph.targets));
  }
  source.pass = pass;
  source.user = user;
  source.user_texture_units = user_texture_units;
  Result<ProgramDesc> desc = assembleCrowdProgram(source);
  if (!desc.ok()) return desc.status();
  desc->attributes = {{"a_position", kPositionLocation}, {"a_normal", kNormalLocation},
                      {"a_tangent", kTangentLocation},   {"a_uv", kUvLocation},
                      {"a_color", kColorLocation},       {"a_joints", kJointsLocation},
                      {"a_weights", kWeightsLocation},   {"a_vertex", kVertexLocation}};
  Result<Program> program = buildProgram(*desc, faults);
  if (program.ok()) bindCrowdSamplers(*program);
  if (program.ok() && morph.kind != MorphBakeKind::kNone) {
    glUseProgram(program->id());
    glUniform1i(program->uniform("u_morph"), kMorphTextureUnit);
  }
  return program;
}

// Per palette slot, the centre of the bind vertices it moves, weighted by their weights (the
// origin for a slot that moves none): the pivot of its 2-vec4 encoding.
std::vector<glm::vec3> pivotsOfSlots(const SkinnedMesh& mesh, int slots) {
  std::vector<glm::vec3> sum(slots, glm::vec3(0.0f));
  std::vector<float> weight(slots, 0.0f);
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    for (int i = 0; i < 4; ++i) {
      const float w = mesh.weights[v][i];
      if (w <= 0.0f) continue;
      const int slot = mesh.joints[v][i];
      sum[slot] += w * mesh.positions[v];
      weight[slot] += w;
    }
  }
  for (int s = 0; s < slots; ++s) {
    if (weight[s] > 0.0f) sum[s] /= weight[s];
  }
  return sum;
}

}  // namespace

int otherUniformVectors(unsigned program, std::span<const std::string_view> per_character) {
  int vectors = 0;
  for (const ActiveUniform& u : activeUniformsOf(program)) {
    if (std::find(per_character.begin(), per_character.end(), u.name) != per_character.end()) {
      continue;
    }
    vectors += vectorsOfType(u.type) * u.size;
  }
  return vectors;
}

namespace {

// Material variants: the look table of each LOD, and the vertices each LOD's copy draws (its
// vertices copied per look row); whether any LOD has variants.
Result<bool> countLookVertices(std::span<const MeshLod> lods, const Looks& looks,
                               std::vector<uint32_t>& vertex_counts) {
  bool has_looks = false;
  vertex_counts.resize(lods.size());
  for (size_t i = 0; i < lods.size(); ++i) {
    std::vector<uint32_t> indices;
    MaterialLooks looks_of_lod;
    Result<std::vector<MaterialRange>> ranges =
        groupIndicesByMaterial(lods[i].mesh, looks.materials, indices, &looks_of_lod);
    if (!ranges.ok())
      return Status(ranges.status().code(),
                    fmt::format("merged batch: LOD {}: {}", i, ranges.status().message()));
    has_looks = has_looks || looks_of_lod.appearances > 0;
    vertex_counts[i] = looks_of_lod.vertex_source.empty()
                           ? static_cast<uint32_t>(lods[i].mesh.vertexCount())
                           : static_cast<uint32_t>(looks_of_lod.vertex_source.size());
  }
  return has_looks;
}

}  // namespace

Result<std::unique_ptr<MergedBatchRenderer>> MergedBatchRenderer::create(
    Device& device, std::span<const MeshLod> lods, int skeleton_joints, const MergedBatchDesc& desc,
    const Looks& looks) {
  if (Status s = device.makeCurrent(); !s.ok()) return s;
  if (lods.empty()) return Status(ErrorCode::kInvalidArgument, "merged batch: no LODs");
  std::unique_ptr<MergedBatchRenderer> renderer(new MergedBatchRenderer());
  renderer->cull_back_faces_ = desc.cull_back_faces;
  Result<GpuMaterials> materials = GpuMaterials::create(device, looks);
  if (!materials.ok()) return materials.status();
  renderer->materials_ = std::move(materials).value();
  renderer->budget_ = desc.max_vertex_uniform_vectors > 0
                          ? desc.max_vertex_uniform_vectors
                          : device.caps().max_vertex_uniform_vectors;
  renderer->encoding_ = desc.joint_encoding;
  std::vector<uint32_t> vertex_counts;
  Result<bool> has_looks = countLookVertices(lods, looks, vertex_counts);
  if (!has_looks.ok()) return has_looks.status();
  renderer->shader_ = desc.shader;
  renderer->faults_ = &deviceFaults(device);
  if (desc.morph && desc.morph->kind != MorphBakeKind::kNone) {
    Result<std::vector<MorphLodTexture>> textures =
        uploadMorphTextures(device, *desc.morph, desc.morph_frame_count, "merged batch");
    if (!textures.ok()) return textures.status();
    renderer->morph_ = std::move(textures).value();
    renderer->morph_kind_ = desc.morph->kind;
    renderer->morph_targets_ = static_cast<int>(desc.morph->targets.size());
  }
  renderer->user_texture_units_ = static_cast<int>(
      unitsOnDevice(userTextureUnits(renderer->morph_kind_ != MorphBakeKind::kNone), device.caps())
          .size());
  // The vertex stage's own uniforms, read from a program linked for one character of one joint
  // with a fragment stage that takes none (the budget is the vertex stage's).
  Result<Program> probe = buildMergedProgram(
      1, 1, desc.joint_encoding, *has_looks, false, renderer->materials_.uvTransformPerTexture(),
      renderer->morphDefines(), CrowdPass::kVertexProbe, desc.shader.get(),
      renderer->user_texture_units_, deviceFaults(device));
  if (!probe.ok()) return probe.status();
  const std::string_view per_character[] = {kPaletteUniform, kAgentUniform, kMorphFramesUniform};
  const int other = otherUniformVectors(probe->id(), per_character);

  const int count = static_cast<int>(lods.size());
  renderer->lods_.resize(count);
  std::vector<Status> failures(count);  // LODs that fit no batch: the fallbacks' reasons
  for (int i = 0; i < count; ++i) {
    const LodBuild build{lods[i], i, skeleton_joints, vertex_counts[i], other, *has_looks};
    if (Status s = renderer->buildLod(device, build, desc, looks, failures[i]); !s.ok()) return s;
  }
  if (Status s = renderer->resolveFallbacks(lods, desc, failures); !s.ok()) return s;
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  return renderer;
}

// LOD build.index: its K from the budget, its batch mesh, program and buffers. A LOD whose joints
// do not fit is left for a fallback (drawn_lod -1, why in *does_not_fit); other failures return.
Status MergedBatchRenderer::buildLod(Device& device, const LodBuild& build,
                                     const MergedBatchDesc& desc, const Looks& looks,
                                     Status& does_not_fit) {
  Lod& lod = lods_[build.index];
  const MeshLod& source = build.source;
  const int x = source.palette_joints.empty() ? build.skeleton_joints
                                              : static_cast<int>(source.palette_joints.size());
  Result<BatchCapacity> capacity = computeBatchCapacity(budget_, build.other_uniform_vectors, x,
                                                        build.vertex_count, desc.joint_encoding);
  lod.fade = build.index == desc.fade_lod;
  if (!morph_.empty() && capacity.ok()) {
    // Each character's morph playback: K again with those vectors counted (fewer characters
    // need fewer of them, so the smaller K fits).
    capacity = computeBatchCapacity(
        budget_, build.other_uniform_vectors + kMorphVectorsPerCharacter * capacity->characters, x,
        build.vertex_count, desc.joint_encoding);
  }
  if (lod.fade && capacity.ok()) {
    // A quarter vector per character for the fade's weights: K again with them counted.
    capacity =
        computeBatchCapacity(budget_, build.other_uniform_vectors + (capacity->characters + 3) / 4,
                             x, build.vertex_count, desc.joint_encoding);
  }
  lod.info.joints = x;
  lod.info.encoding = desc.joint_encoding;
  lod.info.other_uniform_vectors = build.other_uniform_vectors;
  lod.info.drawn_lod = build.index;
  if (!capacity.ok()) {
    does_not_fit = Status(capacity.status().code(),
                          fmt::format("LOD {}: {}", build.index, capacity.status().message()));
    lod.info.drawn_lod = -1;
    return Status::okStatus();
  }
  int k = capacity->characters;
  if (desc.max_characters_per_batch > 0) k = std::min(k, desc.max_characters_per_batch);
  lod.info.characters_per_batch = k;
  if (source.palette_joints.empty()) {
    lod.palette_joints.resize(x);
    for (int j = 0; j < x; ++j) lod.palette_joints[j] = static_cast<uint16_t>(j);
  } else {
    lod.palette_joints = source.palette_joints;
  }
  Result<MergedBatchMesh> mesh = buildMergedBatchMesh(source.mesh, x, k, looks.materials);
  if (!mesh.ok()) return mesh.status();
  lod.info.vertices_per_character = mesh->vertices_per_copy;
  lod.info.indices_per_character = mesh->indices_per_copy;
  lod.triangles_per_character = mesh->indices_per_copy / 3;
  lod.ranges = mesh->ranges;
  lod.looks = mesh->looks;
  lod.has_looks = build.has_looks;
  Result<Program> program =
      buildMergedProgram(k, x, desc.joint_encoding, build.has_looks, lod.fade,
                         materials_.uvTransformPerTexture(), morphDefines(), CrowdPass::kColor,
                         desc.shader.get(), user_texture_units_, deviceFaults(device));
  if (!program.ok()) return program.status();
  lod.color = LodProgram::of(std::move(*program));
  if (white_.size() < static_cast<size_t>(k)) white_.resize(k, glm::vec4(1));
  if (agents_.size() < static_cast<size_t>(k)) agents_.resize(k);
  if (packed_.size() < static_cast<size_t>(k)) packed_.resize(k);
  if (fades_.size() < static_cast<size_t>(k + 3) / 4) fades_.resize((k + 3) / 4);
  if (still_morph_.size() < static_cast<size_t>(k) * kMorphVectorsPerCharacter)
    still_morph_.resize(static_cast<size_t>(k) * kMorphVectorsPerCharacter, glm::vec4(0.0f));

  glGenBuffers(1, &lod.vertex_buffer);
  glBindBuffer(GL_ARRAY_BUFFER, lod.vertex_buffer);
  glBufferData(GL_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh->vertices.size() * sizeof(BatchVertex)),
               mesh->vertices.data(), GL_STATIC_DRAW);
  glGenBuffers(1, &lod.index_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, lod.index_buffer);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh->indices.size() * sizeof(uint16_t)),
               mesh->indices.data(), GL_STATIC_DRAW);
  if (Status s = checkGlUpload(fmt::format("merged batch: buffers of LOD {}", build.index),
                               deviceFaults(device));
      !s.ok())
    return s;
  lod.staging.resize(static_cast<size_t>(k) * x);
  if (desc.joint_encoding == JointEncoding::kQuatScale) {
    lod.encoded.resize(lod.staging.size());
    lod.pivots = pivotsOfSlots(source.mesh, x);
  }
  lod.staging_tints.resize(k);
  lod.staging_agents.resize(k);
  return Status::okStatus();
}

// Fallback: a LOD that does not fit draws with the nearest coarser one that does, said aloud;
// kLimitExceeded when there is none, or its error passes desc.max_fallback_error.
Status MergedBatchRenderer::resolveFallbacks(std::span<const MeshLod> lods,
                                             const MergedBatchDesc& desc,
                                             std::span<const Status> does_not_fit) {
  const int count = static_cast<int>(lods.size());
  const float height = computeBounds(lods[0].mesh.positions).largestExtent();
  auto describeError = [&](float error) {
    return height > 0.0f ? fmt::format("{:.4g} model units, {:.3g}% of the height", error,
                                       100.0f * error / height)
                         : fmt::format("{:.4g} model units", error);
  };
  for (int i = 0; i < count; ++i) {
    lods_[i].info.error = lods[i].max_error;
    if (lods_[i].info.drawn_lod >= 0) continue;
    int coarser = -1;
    for (int j = i + 1; j < count && desc.fall_back_to_fewer_joints; ++j) {
      if (lods_[j].info.drawn_lod == j) {
        coarser = j;
        break;
      }
    }
    if (coarser < 0) return does_not_fit[i];
    if (lods[coarser].max_error > desc.max_fallback_error) {
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("merged batch: LOD {} ({} joints) does not fit {} uniform vectors; "
                                "the nearest LOD that fits, LOD {} ({} joints), has an error of "
                                "{}, over the cap of {}",
                                i, lods_[i].info.joints, budget_, coarser,
                                lods_[coarser].info.joints, describeError(lods[coarser].max_error),
                                describeError(desc.max_fallback_error)));
    }
    warnings_.push_back(makeWarning(
        WarningKind::kLodDrawnCoarser,
        fmt::format("merged batch: LOD {} ({} joints) does not fit {} uniform vectors; drawing "
                    "LOD {} ({} joints) instead, error {}",
                    i, lods_[i].info.joints, budget_, coarser, lods_[coarser].info.joints,
                    describeError(lods[coarser].max_error)),
        fmt::format("LOD {} as LOD {}", i, coarser)));
    warnings_.back()
        .with("lod", i)
        .with("joints", lods_[i].info.joints)
        .with("uniform_vectors", budget_)
        .with("drawn_lod", coarser)
        .with("error", static_cast<double>(lods[coarser].max_error));
    const Lod& target = lods_[coarser];
    lods_[i].info = target.info;
    lods_[i].info.drawn_lod = coarser;
    lods_[i].info.error = lods[coarser].max_error;
  }
  return Status::okStatus();
}

MergedBatchRenderer::~MergedBatchRenderer() {
  for (Lod& lod : lods_) {
    if (lod.vertex_buffer != 0) glDeleteBuffers(1, &lod.vertex_buffer);
    if (lod.index_buffer != 0) glDeleteBuffers(1, &lod.index_buffer);
  }
  deleteMorphTextures(morph_);
}

std::span<const uint16_t> MergedBatchRenderer::paletteJoints(int lod) const {
  return lods_[lods_[lod].info.drawn_lod].palette_joints;
}

std::span<const glm::vec3> MergedBatchRenderer::palettePivots(int lod) const {
  return lods_[lods_[lod].info.drawn_lod].pivots;
}

MergedBatchRenderer::LodProgram MergedBatchRenderer::LodProgram::of(Program program) {
  LodProgram p;
  p.program = std::move(program);
  p.palette_location = p.program.uniform("u_palette[0]");
  if (p.palette_location < 0) p.palette_location = p.program.uniform("u_palette");
  p.agent_location = p.program.uniform("u_agent[0]");
  if (p.agent_location < 0) p.agent_location = p.program.uniform("u_agent");
  p.fade_location = p.program.uniform("u_fade[0]");
  if (p.fade_location < 0) p.fade_location = p.program.uniform("u_fade");
  p.morph_frames_location = p.program.uniform("u_morph_frames[0]");
  if (p.morph_frames_location < 0) p.morph_frames_location = p.program.uniform("u_morph_frames");
  p.morph_layout_location = p.program.uniform("u_morph_layout");
  p.material_uniforms = MaterialUniforms::of(p.program);
  p.shading = ShadingUniforms::of(p.program);
  return p;
}

std::vector<int> MergedBatchRenderer::userTextureUnits(bool morph) {
  if (morph) return {kUserTextureUnits[0]};
  return {std::begin(kUserTextureUnits), std::end(kUserTextureUnits)};
}

GLuint MergedBatchRenderer::shadingProgram() const {
  return lods_[lods_[0].info.drawn_lod].color.program.id();
}

void MergedBatchRenderer::beginFrame(const FrameView& view, const FrameShading& shading,
                                     DrawPass pass) {
  view_ = view;
  shading_ = shading;
  pass_ = pass;
  stats_ = {};
  status_ = Status::okStatus();
  for (Lod& lod : lods_) {
    lod.pending = 0;
    lod.color.frame_set = false;
    lod.depth.frame_set = false;
  }
}

std::span<JointRows> MergedBatchRenderer::addCharacter(int lod_index, const glm::vec4& tint,
                                                       uint16_t variant) {
  assert(lod_index >= 0 && lod_index < lodCount());
  const int drawn = lods_[lod_index].info.drawn_lod;
  Lod& lod = lods_[drawn];
  if (lod.pending == lod.info.characters_per_batch) flush(lod);
  const size_t x = static_cast<size_t>(lod.info.joints);
  lod.staging_tints[lod.pending] = tint;
  lod.staging_agents[lod.pending] =
      glm::vec4(static_cast<float>(stats_.characters + lod.pending), 0.0f,
                static_cast<float>(variant), static_cast<float>(drawn));
  return std::span<JointRows>(lod.staging.data() + x * lod.pending++, x);
}

void MergedBatchRenderer::flush(Lod& lod) {
  if (lod.pending == 0) return;
  drawBatch(lod, lod.staging.data(), lod.staging_tints.data(), lod.staging_agents.data(), nullptr,
            lod.pending);
  lod.pending = 0;
}

bool MergedBatchRenderer::hasBlendedMaterials(int lod_index) const {
  const Lod& lod = lods_[lods_[lod_index].info.drawn_lod];
  return std::any_of(lod.ranges.begin(), lod.ranges.end(),
                     [](const MaterialRange& r) { return r.blend; });
}

void MergedBatchRenderer::drawCharacters(int lod_index, std::span<const JointRows> palettes,
                                         std::span<const glm::vec4> tints,
                                         std::optional<MaterialPass> pass,
                                         std::span<const glm::vec4> agents,
                                         std::span<const float> fades,
                                         std::span<const glm::vec4> morph_frames) {
  assert(lod_index >= 0 && lod_index < lodCount());
  const int drawn = lods_[lod_index].info.drawn_lod;
  Lod& lod = lods_[drawn];
  const size_t x = static_cast<size_t>(lod.info.joints);
  assert(palettes.size() % x == 0);
  const size_t characters = palettes.size() / x;
  assert(tints.empty() || tints.size() == characters);
  assert(agents.empty() || agents.size() == characters);
  assert(morph_frames.empty() || morph_frames.size() == characters * kMorphVectorsPerCharacter);
  if (pass == MaterialPass::kBlend && !hasBlendedMaterials(lod_index)) return;
  const size_t k = static_cast<size_t>(lod.info.characters_per_batch);
  for (size_t first = 0; first < characters; first += k) {
    const int count = static_cast<int>(std::min(k, characters - first));
    const glm::vec4* batch_tints = tints.empty() ? white_.data() : tints.data() + first;
    const glm::vec4* batch_agents = agents.data() + first;
    if (agents.empty()) {
      // No agent facts given: each character its place in the call, its own materials.
      for (int c = 0; c < count; ++c) {
        agents_[c] =
            glm::vec4(static_cast<float>(first + c), 0.0f, 0.0f, static_cast<float>(drawn));
      }
      batch_agents = agents_.data();
    }
    const glm::vec4* batch_morph =
        morph_frames.empty() ? nullptr : morph_frames.data() + first * kMorphVectorsPerCharacter;
    drawBatch(lod, palettes.data() + first * x, batch_tints, batch_agents, batch_morph, count, pass,
              fades.empty() ? nullptr : fades.data() + first);
  }
}

Result<MergedBatchRenderer::LodProgram*> MergedBatchRenderer::programOf(Lod& lod) {
  if (pass_ == DrawPass::kColor) return &lod.color;
  if (!lod.depth.program.valid()) {
    Result<Program> program = buildMergedProgram(
        lod.info.characters_per_batch, lod.info.joints, lod.info.encoding, lod.has_looks, lod.fade,
        materials_.uvTransformPerTexture(), morphDefines(), CrowdPass::kDepth, shader_.get(),
        user_texture_units_, *faults_);
    if (!program.ok()) return program.status();
    lod.depth = LodProgram::of(std::move(*program));
  }
  return &lod.depth;
}

void MergedBatchRenderer::drawBatch(Lod& lod, const JointRows* palettes, const glm::vec4* tints,
                                    const glm::vec4* agents, const glm::vec4* morph_frames,
                                    int count, std::optional<MaterialPass> pass,
                                    const float* fades) {
  Result<LodProgram*> made = programOf(lod);
  if (!made.ok()) {
    if (status_.ok()) status_ = made.status();
    return;
  }
  LodProgram& program = **made;
  glUseProgram(program.program.id());
  // The frame's uniforms once per program and frame: many batches share them.
  if (!program.frame_set) {
    applyShading(program.shading, view_, shading_);
    program.frame_set = true;
  }
  // One upload of the filled part of the palette (count * x * vec4PerJoint vectors, encoded
  // here when 2 vec4 per joint) and of the tints.
  const size_t entries = static_cast<size_t>(count) * lod.info.joints;
  if (lod.info.encoding == JointEncoding::kQuatScale) {
    encodeQuatJoints(std::span<const JointRows>(palettes, entries), lod.pivots,
                     std::span<QuatJoint>(lod.encoded.data(), entries));
    glUniform4fv(program.palette_location, static_cast<GLsizei>(entries) * kVec4PerQuatJoint,
                 &lod.encoded[0].rotation.x);
  } else {
    glUniform4fv(program.palette_location, static_cast<GLsizei>(entries) * kVec4PerJoint,
                 &palettes[0].rows[0].x);
  }
  for (int c = 0; c < count; ++c) packed_[c] = packMergedAgent(tints[c], agents[c]);
  glUniform4fv(program.agent_location, count, &packed_[0].x);
  if (program.fade_location >= 0) {
    // Four weights a vector; none given (another LOD drawn with this one, the depth pass): 0.
    const int vectors = (count + 3) / 4;
    std::fill(fades_.begin(), fades_.begin() + vectors, glm::vec4(0.0f));
    for (int c = 0; fades && c < count; ++c) fades_[c / 4][c % 4] = fades[c];
    glUniform4fv(program.fade_location, vectors, &fades_[0].x);
  }
  if (program.morph_frames_location >= 0) {
    // The drawn LOD's texture; characters given no playback show frame 0.
    const MorphLodTexture& morph = morph_[static_cast<size_t>(lod.info.drawn_lod)];
    glActiveTexture(GL_TEXTURE0 + kMorphTextureUnit);
    glBindTexture(GL_TEXTURE_2D, morph.texture);
    glUniform4f(program.morph_layout_location, static_cast<float>(morph.width),
                static_cast<float>(morph.height), static_cast<float>(morph.vertices),
                static_cast<float>(morph.weight_row));
    glUniform4fv(program.morph_frames_location, count * kMorphVectorsPerCharacter,
                 morph_frames ? &morph_frames[0].x : &still_morph_[0].x);
  }
  glBindBuffer(GL_ARRAY_BUFFER, lod.vertex_buffer);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, lod.index_buffer);
  constexpr GLsizei kStride = sizeof(BatchVertex);
  for (const GLuint location : kBatchAttributes) glEnableVertexAttribArray(location);
  const auto pointer = [](GLuint location, GLint size, size_t offset) {
    glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, kStride,
                          reinterpret_cast<const void*>(offset));
  };
  pointer(kPositionLocation, 4, offsetof(BatchVertex, position));
  pointer(kNormalLocation, 3, offsetof(BatchVertex, normal));
  pointer(kTangentLocation, 4, offsetof(BatchVertex, tangent));
  pointer(kUvLocation, 4, offsetof(BatchVertex, uv));
  pointer(kColorLocation, 4, offsetof(BatchVertex, color));
  pointer(kJointsLocation, 4, offsetof(BatchVertex, joints));
  pointer(kWeightsLocation, 4, offsetof(BatchVertex, weights));
  pointer(kVertexLocation, 1, offsetof(BatchVertex, vertex));
  GpuMaterials::setLooks(program.material_uniforms, lod.looks);
  const bool depth = pass_ == DrawPass::kDepth;
  // One draw per material: opaque and masked ones, then blended ones (both unless `pass` says;
  // the depth pass draws blended ones unblended, cut at kDepthBlendCutoff).
  for (const MaterialPass p : {MaterialPass::kOpaque, MaterialPass::kBlend}) {
    if (pass && *pass != p) continue;
    const bool blend = p == MaterialPass::kBlend;
    const MaterialPass state = depth ? MaterialPass::kOpaque : p;
    bool begun = false;
    for (const MaterialRange& range : lod.ranges) {
      if (range.blend != blend) continue;
      if (!begun) GpuMaterials::beginPass(state);  // the ground may have left blending on
      begun = true;
      materials_.apply(program.material_uniforms, range.material, cull_back_faces_, depth);
      const uint32_t index_count = static_cast<uint32_t>(count) * range.index_count;
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(index_count), GL_UNSIGNED_SHORT,
                     reinterpret_cast<const void*>(range.first_index * sizeof(uint16_t)));
      ++stats_.draw_calls;
      stats_.triangles += static_cast<uint64_t>(count) * (range.index_count / 3);
    }
    if (begun && state == MaterialPass::kBlend) GpuMaterials::beginPass(MaterialPass::kOpaque);
  }
  // Vertex array 0 is shared with the ground and the user: leave no array enabled that points
  // into this renderer's buffers (WebGL refuses draws whose enabled arrays have no live buffer).
  for (const GLuint location : kBatchAttributes) glDisableVertexAttribArray(location);
  if (pass != MaterialPass::kBlend) stats_.characters += count;
  ++stats_.batches;
}

MergedFrameStats MergedBatchRenderer::endFrame() {
  for (Lod& lod : lods_) flush(lod);
  return stats_;
}

}  // namespace throng::render
