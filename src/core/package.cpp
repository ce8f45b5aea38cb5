// The .throng package writer and reader (layout in docs/formats.md, "Package file (.throng)").
#include "throng/core/package.h"

#include <cstring>

#include <fmt/core.h>

#include "byte_io.h"
#include "package_impostor.h"
#include "package_looks.h"
#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"
#include "throng/core/package_format.h"

namespace throng {
namespace {

using detail::ByteReader;
using detail::ByteWriter;

// Texel data starts this many bytes into the ANIM section (a multiple of 16, for alignment).
constexpr size_t kTextureHeaderSize = 32;
// format, reserved u8, reserved u16, width, height, joints, frames, frames per row, reserved u64.
static_assert(kTextureHeaderSize == 1 + 1 + 2 + 5 * 4 + 8);

// ---- writing ----

void writeMeta(ByteWriter& w, const Package& p) {
  w.string(p.source);
}

void writeSkeleton(ByteWriter& w, const Skeleton& s) {
  w.u32(static_cast<uint32_t>(s.jointCount()));
  for (int j = 0; j < s.jointCount(); ++j) {
    w.string(s.names()[j]);
    w.i32(s.parents()[j]);
    const Transform& rest = s.restPoses()[j];
    w.vec3(rest.translation);
    w.vec4(glm::vec4(rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w));
    w.vec3(rest.scale);
    w.mat4(s.inverseBinds()[j]);
  }
}

void writeLods(ByteWriter& w, const std::vector<MeshLod>& lods) {
  w.u32(static_cast<uint32_t>(lods.size()));
  for (const MeshLod& lod : lods) {
    w.f32(lod.geometric_error);
    w.f32(lod.skinning_error);
    w.f32(lod.max_distance);
    w.f32(lod.max_error);
    w.f32(lod.p99_error);
    w.array(lod.palette_joints);
    const SkinnedMesh& m = lod.mesh;
    const size_t n = m.vertexCount();
    w.u32(static_cast<uint32_t>(n));
    w.raw(m.positions.data(), n * sizeof(glm::vec3));
    w.raw(m.normals.data(), n * sizeof(glm::vec3));
    w.u8(m.uvs.empty() ? 0 : 1);
    w.raw(m.uvs.data(), m.uvs.size() * sizeof(glm::vec2));
    w.u8(m.uvs1.empty() ? 0 : 1);
    w.raw(m.uvs1.data(), m.uvs1.size() * sizeof(glm::vec2));
    w.u8(m.colors.empty() ? 0 : 1);
    w.raw(m.colors.data(), m.colors.size() * sizeof(glm::vec4));
    w.raw(m.joints.data(), n * sizeof(glm::u16vec4));
    w.raw(m.weights.data(), n * sizeof(glm::vec4));
    w.array(m.indices);
    w.u32(static_cast<uint32_t>(m.submeshes.size()));
    for (const SubMesh& sm : m.submeshes) {
      w.string(sm.name);
      w.u32(sm.first_index);
      w.u32(sm.index_count);
      w.u32(sm.material);
      w.array(sm.variant_materials);
    }
  }
}

// TANG (version 4 on): per LOD, in LODS order, its tangent source and, unless none, its tangents.
void writeTangents(ByteWriter& w, const std::vector<MeshLod>& lods) {
  w.u32(static_cast<uint32_t>(lods.size()));
  for (const MeshLod& lod : lods) {
    w.u8(static_cast<uint8_t>(lod.mesh.tangent_source));
    w.raw(lod.mesh.tangents.data(), lod.mesh.tangents.size() * sizeof(glm::vec4));
  }
}

void writeOffset(ByteWriter& w, const AttachmentOffset& o) {
  w.vec3(o.translation);
  w.vec3(o.rotation_degrees);
  w.f32(o.scale);
}

// ATCH (version 5 on): the props, the masks, then per LOD in LODS order a flag and, when 1, each
// vertex's prop group.
void writeAttachments(ByteWriter& w, const Package& p) {
  w.u32(static_cast<uint32_t>(p.attachments.size()));
  for (const Attachment& a : p.attachments) {
    w.string(a.name);
    w.string(a.source);
    w.u32(a.joint);
    writeOffset(w, a.offset);
  }
  w.u32(static_cast<uint32_t>(p.masks.size()));
  for (const JointMask& m : p.masks) {
    w.string(m.name);
    w.u32(m.root);
  }
  w.u32(static_cast<uint32_t>(p.lods.size()));
  for (const MeshLod& lod : p.lods) {
    w.u8(lod.mesh.attachments.empty() ? 0 : 1);
    w.raw(lod.mesh.attachments.data(), lod.mesh.attachments.size());
  }
}

void writeClips(ByteWriter& w, const std::vector<BakedClip>& clips) {
  w.u32(static_cast<uint32_t>(clips.size()));
  for (const BakedClip& c : clips) {
    w.string(c.name);
    w.u32(c.first_frame);
    w.u32(c.frame_count);
    w.f32(c.fps);
    w.f32(c.duration);
    w.u8(c.loop ? 1 : 0);
    w.vec3(c.bounds.min);
    w.vec3(c.bounds.max);
    w.array(c.root_motion);
    w.u32(static_cast<uint32_t>(c.events.size()));
    for (const ClipEvent& e : c.events) {
      w.string(e.name);
      w.f32(e.time);
    }
  }
}

// The texels of `format`: floats or halves, as they are in memory.
void writeTexels(ByteWriter& w, TexelFormat format, const std::vector<float>& texels32,
                 const std::vector<uint16_t>& texels16) {
  if (format == TexelFormat::kRgba32F) {
    w.raw(texels32.data(), texels32.size() * sizeof(float));
  } else {
    w.raw(texels16.data(), texels16.size() * sizeof(uint16_t));
  }
}

void writeTexture(ByteWriter& w, const AnimationTexture& t) {
  static_assert(2 * sizeof(uint8_t) + sizeof(uint16_t) + 5 * sizeof(uint32_t) + sizeof(uint64_t) ==
                    kTextureHeaderSize,
                "the header written here ends where the texel data starts");
  w.u8(static_cast<uint8_t>(t.format));
  w.u8(0);
  w.u16(0);
  w.u32(t.width);
  w.u32(t.height);
  w.u32(t.joint_count);
  w.u32(t.frame_count);
  w.u32(t.frames_per_row);
  w.u64(0);
  writeTexels(w, t.format, t.texels32, t.texels16);
}

// VATX (version 5 on): kind, format, error, active target names, per-frame weights, then per LOD
// its texture's size and texels (docs/formats.md).
void writeMorph(ByteWriter& w, const MorphAnimation& m) {
  w.u8(static_cast<uint8_t>(m.kind));
  w.u8(static_cast<uint8_t>(m.lods.empty() ? TexelFormat::kRgba32F : m.lods[0].format));
  w.u16(0);
  w.f32(m.max_error);
  w.u32(static_cast<uint32_t>(m.targets.size()));
  for (const std::string& name : m.targets) w.string(name);
  w.array(m.frame_weights);
  w.u32(static_cast<uint32_t>(m.lods.size()));
  for (const VertexTexture& t : m.lods) {
    w.u32(t.width);
    w.u32(t.height);
    w.u32(t.vertex_count);
    w.u32(t.block_count);
    writeTexels(w, t.format, t.texels32, t.texels16);
  }
}

std::vector<std::byte> serialize(const Package& p) {
  struct Section {
    uint32_t tag;
    ByteWriter body;
  };
  Section sections[] = {{kSectionMeta, {}},   {kSectionSkeleton, {}},    {kSectionLods, {}},
                        {kSectionClips, {}},  {kSectionTexture, {}},     {kSectionMaterials, {}},
                        {kSectionImages, {}}, {kSectionTangents, {}},    {kSectionPbr, {}},
                        {kSectionMorph, {}},  {kSectionAttachments, {}}, {kSectionImpostor, {}}};
  writeMeta(sections[0].body, p);
  writeSkeleton(sections[1].body, p.skeleton);
  writeLods(sections[2].body, p.lods);
  writeClips(sections[3].body, p.clips);
  writeTexture(sections[4].body, p.animation);
  detail::writeMaterials(sections[5].body, p.materials, p.variants);
  detail::writeImages(sections[6].body, p.images);
  writeTangents(sections[7].body, p.lods);
  detail::writePbr(sections[8].body, p.materials);
  writeMorph(sections[9].body, p.morph);
  writeAttachments(sections[10].body, p);
  detail::writeImpostor(sections[11].body, p.impostor);

  const uint32_t count = static_cast<uint32_t>(std::size(sections));
  ByteWriter table;
  size_t offset = kPackageHeaderSize + count * kPackageSectionEntrySize;
  std::vector<size_t> offsets;
  for (Section& s : sections) {
    offset = (offset + kPackageSectionAlignment - 1) / kPackageSectionAlignment *
             kPackageSectionAlignment;
    offsets.push_back(offset);
    const std::vector<std::byte>& body = s.body.bytes();
    table.u32(s.tag);
    table.u32(0);
    table.u64(offset);
    table.u64(body.size());
    table.u64(fnv1a64(body));
    offset += body.size();
  }
  ByteWriter out;
  out.raw(kPackageMagic.data(), kPackageMagic.size());
  out.u32(kPackageVersion);
  out.u32(kPackageEndianMarker);
  out.u64(offset);  // file size
  out.u32(count);
  out.u32(0);
  uint64_t hash = fnv1a64(out.bytes());
  hash = fnv1a64(table.bytes(), hash);
  out.u64(hash);
  out.raw(table.bytes().data(), table.bytes().size());
  for (size_t i = 0; i < count; ++i) {
    out.padTo(kPackageSectionAlignment);
    const std::vector<std::byte>& body = sections[i].body.bytes();
    out.raw(body.data(), body.size());
  }
  return std::move(out.bytes());
}

// ---- reading ----

std::string readMeta(ByteReader& r) {
  return r.string("source name");
}

// Smallest encoded joint: empty name (4) + parent (4) + rest (40) + inverse bind (64).
constexpr size_t kMinJointBytes = 112;

Result<Skeleton> readSkeleton(ByteReader& r, std::string_view source) {
  const uint32_t count = r.u32("joint count");
  if (count > static_cast<uint32_t>(kMaxJoints)) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: section SKEL: {} joints, more than the limit of {}", source,
                              count, kMaxJoints));
  }
  if (!r.fits(count, kMinJointBytes, "joint count")) return r.status();
  RawSkeleton raw;
  raw.joints.resize(count);
  std::vector<int32_t> parents(count);
  for (uint32_t j = 0; j < count && r.ok(); ++j) {
    RawJoint& joint = raw.joints[j];
    joint.name = r.string("joint name");
    parents[j] = r.i32("parent");
    joint.rest.translation = r.vec3("rest translation");
    const glm::vec4 q = r.vec4("rest rotation");
    joint.rest.rotation = glm::quat(q.w, q.x, q.y, q.z);
    joint.rest.scale = r.vec3("rest scale");
    joint.inverse_bind = r.mat4("inverse bind");
    if (parents[j] != kNoParent && (parents[j] < 0 || parents[j] >= static_cast<int32_t>(j))) {
      r.fail(fmt::format("joint {} has parent {}; parents must come first", j, parents[j]));
    }
  }
  r.expectEnd();
  if (!r.ok()) return r.status();
  for (uint32_t j = 0; j < count; ++j) {
    if (parents[j] != kNoParent) raw.joints[j].parent = raw.joints[parents[j]].name;
  }
  Result<Skeleton> skeleton = buildSkeleton(raw, fmt::format("{}: section SKEL", source));
  if (!skeleton.ok()) return skeleton.status();
  // The builder reorders into depth-first order; a stored skeleton must already be in it, since
  // mesh joint indices and texture columns refer to the stored order.
  for (uint32_t j = 0; j < count; ++j) {
    if (skeleton->names()[j] != raw.joints[j].name) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: section SKEL: joints are not in depth-first order (joint {} "
                                "'{}')",
                                source, j, excerpt(raw.joints[j].name)));
    }
  }
  return skeleton;
}

// Reads `count` elements of T into `out` (count already known to fit).
template <typename T>
void readStream(ByteReader& r, size_t count, std::vector<T>& out, const char* what) {
  if (!r.fits(count, sizeof(T), what)) return;
  out.resize(count);
  r.raw(out.data(), count * sizeof(T), what);
}

// Smallest encoded LOD: 5 floats, empty palette, no vertices, 3 stream flags, no indices, no
// sub-meshes.
constexpr size_t kMinLodBytes = 20 + 4 + 4 + 3 + 4 + 4;
// Smallest encoded sub-mesh: empty name, first index, count, material, no variants.
constexpr size_t kMinSubMeshBytes = 4 + 4 + 4 + 4 + 4;

// A 0/1 flag and, when 1, `n` elements of an optional stream.
template <typename T>
void readOptionalStream(ByteReader& r, size_t n, std::vector<T>& out, const char* flag_name,
                        const char* what) {
  const uint8_t present = r.u8(flag_name);
  if (present > 1) r.fail(fmt::format("{} is {}, not 0 or 1", flag_name, present));
  if (present == 1) readStream(r, n, out, what);
}
// Each vertex takes at least position, normal, joints and weights.
constexpr size_t kMinVertexBytes = 12 + 12 + 8 + 16;

std::vector<MeshLod> readLods(ByteReader& r) {
  const uint32_t count = r.u32("LOD count");
  std::vector<MeshLod> lods;
  if (!r.fits(count, kMinLodBytes, "LOD count")) return lods;
  lods.resize(count);
  for (uint32_t l = 0; l < count && r.ok(); ++l) {
    MeshLod& lod = lods[l];
    lod.geometric_error = r.f32("geometric error");
    lod.skinning_error = r.f32("skinning error");
    lod.max_distance = r.f32("max distance");
    lod.max_error = r.f32("max error");
    lod.p99_error = r.f32("p99 error");
    lod.palette_joints = r.array<uint16_t>("palette joints");
    SkinnedMesh& m = lod.mesh;
    const uint32_t n = r.u32("vertex count");
    if (!r.fits(n, kMinVertexBytes, "vertex count")) break;
    readStream(r, n, m.positions, "positions");
    readStream(r, n, m.normals, "normals");
    readOptionalStream(r, n, m.uvs, "uv flag", "uvs");
    readOptionalStream(r, n, m.uvs1, "uv set 1 flag", "uvs1");
    readOptionalStream(r, n, m.colors, "colour flag", "colors");
    readStream(r, n, m.joints, "joints");
    readStream(r, n, m.weights, "weights");
    m.indices = r.array<uint32_t>("indices");
    const uint32_t submeshes = r.u32("sub-mesh count");
    if (!r.fits(submeshes, kMinSubMeshBytes, "sub-mesh count")) break;
    m.submeshes.resize(submeshes);
    for (SubMesh& sm : m.submeshes) {
      sm.name = r.string("sub-mesh name");
      sm.first_index = r.u32("sub-mesh first index");
      sm.index_count = r.u32("sub-mesh index count");
      sm.material = r.u32("sub-mesh material");
      sm.variant_materials = r.array<uint32_t>("sub-mesh variant materials");
    }
  }
  r.expectEnd();
  return lods;
}

void readTangents(ByteReader& r, std::vector<MeshLod>& lods) {
  const uint32_t count = r.u32("LOD count");
  if (r.ok() && count != lods.size()) {
    r.fail(fmt::format("{} LODs, section LODS has {}", count, lods.size()));
  }
  for (MeshLod& lod : lods) {
    const uint8_t source = r.u8("tangent source");
    if (source > static_cast<uint8_t>(TangentSource::kMixed)) {
      r.fail(fmt::format("tangent source is {}, not 0..3", source));
    }
    lod.mesh.tangent_source = static_cast<TangentSource>(source);
    if (source != 0) readStream(r, lod.mesh.vertexCount(), lod.mesh.tangents, "tangents");
    if (!r.ok()) break;
  }
  r.expectEnd();
}

// Smallest encoded attachment: two empty strings, joint, offset; smallest mask: empty name, root.
constexpr size_t kMinAttachmentBytes = 4 + 4 + 4 + 7 * 4;
constexpr size_t kMinMaskBytes = 4 + 4;

// Joint indices are checked by validatePackage; here only that they fit 16 bits.
uint16_t readJoint(ByteReader& r, const char* what) {
  const uint32_t joint = r.u32(what);
  if (joint > static_cast<uint32_t>(kMaxJoints)) {
    r.fail(fmt::format("{} {} exceeds the joint limit of {}", what, joint, kMaxJoints));
  }
  return static_cast<uint16_t>(joint);
}

void readAttachments(ByteReader& r, Package& p) {
  const uint32_t count = r.u32("prop count");
  if (!r.fits(count, kMinAttachmentBytes, "prop count")) return;
  p.attachments.resize(count);
  for (Attachment& a : p.attachments) {
    a.name = r.string("prop name");
    a.source = r.string("prop source");
    a.joint = readJoint(r, "prop joint");
    a.offset.translation = r.vec3("prop translation");
    a.offset.rotation_degrees = r.vec3("prop rotation");
    a.offset.scale = r.f32("prop scale");
  }
  const uint32_t masks = r.u32("mask count");
  if (!r.fits(masks, kMinMaskBytes, "mask count")) return;
  p.masks.resize(masks);
  for (JointMask& m : p.masks) {
    m.name = r.string("mask name");
    m.root = readJoint(r, "mask root");
  }
  const uint32_t lods = r.u32("LOD count");
  if (r.ok() && lods != p.lods.size()) {
    r.fail(fmt::format("{} LODs, section LODS has {}", lods, p.lods.size()));
  }
  for (MeshLod& lod : p.lods) {
    readOptionalStream(r, lod.mesh.vertexCount(), lod.mesh.attachments, "prop group flag",
                       "prop groups");
    if (!r.ok()) break;
  }
  r.expectEnd();
}

// Smallest encoded clip: empty name, 2 u32, 2 f32, loop flag, bounds, empty root motion.
constexpr size_t kMinClipBytes = 4 + 8 + 8 + 1 + 24 + 4;

// Smallest encoded event: empty name, f32 time.
constexpr size_t kMinEventBytes = 4 + 4;

std::vector<BakedClip> readClips(ByteReader& r) {
  const uint32_t count = r.u32("clip count");
  std::vector<BakedClip> clips;
  if (!r.fits(count, kMinClipBytes, "clip count")) return clips;
  clips.resize(count);
  for (uint32_t c = 0; c < count && r.ok(); ++c) {
    BakedClip& clip = clips[c];
    clip.name = r.string("clip name");
    clip.first_frame = r.u32("first frame");
    clip.frame_count = r.u32("frame count");
    clip.fps = r.f32("fps");
    clip.duration = r.f32("duration");
    const uint8_t loop = r.u8("loop flag");
    if (loop > 1) r.fail(fmt::format("loop flag is {}, not 0 or 1", loop));
    clip.loop = loop == 1;
    clip.bounds.min = r.vec3("bounds min");
    clip.bounds.max = r.vec3("bounds max");
    clip.root_motion = r.array<glm::vec3>("root motion");
    const uint32_t events = r.u32("event count");
    if (!r.fits(events, kMinEventBytes, "event count")) break;
    clip.events.resize(events);
    for (uint32_t e = 0; e < events && r.ok(); ++e) {
      clip.events[e].name = r.string("event name");
      clip.events[e].time = r.f32("event time");
    }
  }
  r.expectEnd();
  return clips;
}

AnimationTexture readTexture(ByteReader& r) {
  AnimationTexture t;
  const uint8_t format = r.u8("texel format");
  r.u8("reserved");
  r.u16("reserved");
  if (format > static_cast<uint8_t>(TexelFormat::kRgba16F)) {
    r.fail(fmt::format("unknown texel format {}", format));
  }
  t.format = static_cast<TexelFormat>(format);
  t.width = r.u32("width");
  t.height = r.u32("height");
  t.joint_count = r.u32("joint count");
  t.frame_count = r.u32("frame count");
  t.frames_per_row = r.u32("frames per row");
  r.u64("reserved");
  if (t.width > kMaxAnimationTextureSize || t.height > kMaxAnimationTextureSize) {
    r.fail(fmt::format("texture {}x{} exceeds the limit of {} per side", t.width, t.height,
                       kMaxAnimationTextureSize));
    return t;
  }
  const uint64_t channels = static_cast<uint64_t>(t.width) * t.height * 4;  // < 2^32: no overflow
  if (t.format == TexelFormat::kRgba32F) {
    readStream(r, channels, t.texels32, "RGBA32F texels");
  } else {
    readStream(r, channels, t.texels16, "RGBA16F texels");
  }
  r.expectEnd();
  return t;
}

// Smallest encoded LOD texture: width, height, vertex count, block count.
constexpr size_t kMinVertexTextureBytes = 16;
// Smallest encoded target name: its length.
constexpr size_t kMinNameBytes = 4;

// The sizes are checked against the LODs and frames by validatePackage; here only what reading
// needs: a known kind and format, and texels within the section and the size limit.
MorphAnimation readMorph(ByteReader& r) {
  MorphAnimation m;
  const uint8_t kind = r.u8("morph kind");
  const uint8_t format = r.u8("texel format");
  r.u16("reserved");
  if (kind > static_cast<uint8_t>(MorphBakeKind::kTargetDeltas)) {
    r.fail(fmt::format("unknown morph kind {}", kind));
    return m;
  }
  if (format > static_cast<uint8_t>(TexelFormat::kRgba16F)) {
    r.fail(fmt::format("unknown texel format {}", format));
    return m;
  }
  m.kind = static_cast<MorphBakeKind>(kind);
  m.max_error = r.f32("morph error");
  const uint32_t targets = r.u32("target count");
  if (!r.fits(targets, kMinNameBytes, "target count")) return m;
  m.targets.resize(targets);
  for (std::string& name : m.targets) name = r.string("target name");
  m.frame_weights = r.array<float>("frame weights");
  const uint32_t lods = r.u32("LOD count");
  if (!r.fits(lods, kMinVertexTextureBytes, "LOD count")) return m;
  m.lods.resize(lods);
  for (VertexTexture& t : m.lods) {
    t.format = static_cast<TexelFormat>(format);
    t.width = r.u32("width");
    t.height = r.u32("height");
    t.vertex_count = r.u32("vertex count");
    t.block_count = r.u32("block count");
    if (t.width > kMaxAnimationTextureSize || t.height > kMaxAnimationTextureSize) {
      r.fail(fmt::format("vertex texture {}x{} exceeds the limit of {} per side", t.width, t.height,
                         kMaxAnimationTextureSize));
      return m;
    }
    const uint64_t channels = static_cast<uint64_t>(t.width) * t.height * 4;
    if (t.format == TexelFormat::kRgba32F) {
      readStream(r, channels, t.texels32, "RGBA32F texels");
    } else {
      readStream(r, channels, t.texels16, "RGBA16F texels");
    }
    if (!r.ok()) return m;
  }
  return m;
}

const PackageSectionInfo* findSection(const PackageLayout& layout, uint32_t tag) {
  for (const PackageSectionInfo& s : layout.sections) {
    if (s.tag == tag) return &s;
  }
  return nullptr;
}

}  // namespace

Status writePackage(const Package& package, const std::string& path) {
  if (Status s = validatePackage(package, path); !s.ok()) return s;
  const std::vector<std::byte> bytes = serialize(package);
  return writeFileAtomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<Package> readPackage(const std::string& path) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  return parsePackage(std::as_bytes(std::span<const char>(*bytes)), path);
}

Result<Package> parsePackage(std::span<const std::byte> bytes, std::string_view source) {
  Result<PackageLayout> layout = readPackageLayout(bytes, source);
  if (!layout.ok()) return layout.status();
  // Older versions lack the sections later ones added (unknown sections are skipped, as ever).
  const bool v3 = layout->version == 3;
  const bool v5 = layout->version >= 5;
  const bool v6 = layout->version >= 6;
  std::vector<uint32_t> required = {kSectionMeta,  kSectionSkeleton, kSectionLods,
                                    kSectionClips, kSectionTexture,  kSectionMaterials,
                                    kSectionImages};
  if (!v3) required.insert(required.end(), {kSectionTangents, kSectionPbr});
  if (v5) required.insert(required.end(), {kSectionMorph, kSectionAttachments});
  if (v6) required.push_back(kSectionImpostor);
  for (uint32_t tag : required) {
    if (findSection(*layout, tag) == nullptr) {
      return Status(ErrorCode::kParseError, fmt::format("{}: section {} is missing", source,
                                                        PackageSectionInfo{tag, 0, 0, 0}.name()));
    }
  }
  auto reader = [&](uint32_t tag, const char* name) {
    const PackageSectionInfo* s = findSection(*layout, tag);
    return ByteReader(bytes.subspan(s->offset, s->size), source, name);
  };
  Package p;
  ByteReader meta = reader(kSectionMeta, "META");
  p.source = readMeta(meta);
  meta.expectEnd();
  if (!meta.ok()) return meta.status();

  ByteReader skel = reader(kSectionSkeleton, "SKEL");
  Result<Skeleton> skeleton = readSkeleton(skel, source);
  if (!skeleton.ok()) return skeleton.status();
  p.skeleton = std::move(skeleton).value();

  ByteReader lods = reader(kSectionLods, "LODS");
  p.lods = readLods(lods);
  if (!lods.ok()) return lods.status();

  ByteReader clips = reader(kSectionClips, "CLIP");
  p.clips = readClips(clips);
  if (!clips.ok()) return clips.status();

  ByteReader anim = reader(kSectionTexture, "ANIM");
  p.animation = readTexture(anim);
  if (!anim.ok()) return anim.status();

  ByteReader matl = reader(kSectionMaterials, "MATL");
  detail::readMaterials(matl, p.materials, p.variants);
  matl.expectEnd();
  if (!matl.ok()) return matl.status();

  ByteReader imgs = reader(kSectionImages, "IMGS");
  p.images = detail::readImages(imgs);
  imgs.expectEnd();
  if (!imgs.ok()) return imgs.status();

  if (v3) {
    detail::setVersion3Pbr(p.materials);
  } else {
    ByteReader tang = reader(kSectionTangents, "TANG");
    readTangents(tang, p.lods);
    if (!tang.ok()) return tang.status();
    ByteReader pbrm = reader(kSectionPbr, "PBRM");
    detail::readPbr(pbrm, p.materials);
    pbrm.expectEnd();
    if (!pbrm.ok()) return pbrm.status();
  }
  if (v5) {
    ByteReader atch = reader(kSectionAttachments, "ATCH");
    readAttachments(atch, p);
    if (!atch.ok()) return atch.status();
  }

  if (v5) {
    ByteReader vatx = reader(kSectionMorph, "VATX");
    p.morph = readMorph(vatx);
    vatx.expectEnd();
    if (!vatx.ok()) return vatx.status();
  }

  if (v6) {
    ByteReader imps = reader(kSectionImpostor, "IMPS");
    p.impostor = detail::readImpostor(imps);
    if (!imps.ok()) return imps.status();
  }

  if (Status s = validatePackage(p, source); !s.ok()) return s;
  return p;
}

}  // namespace throng
