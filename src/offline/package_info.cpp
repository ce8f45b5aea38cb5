// Text description of a package and of its file's section table.
#include "throng/offline/package_info.h"

#include <fmt/core.h>

#include "throng/core/file_io.h"
#include "throng/core/package_format.h"

namespace throng {
namespace {

const char* filterName(TextureFilter f) {
  switch (f) {
    case TextureFilter::kNearest:
      return "nearest";
    case TextureFilter::kLinear:
      return "linear";
    case TextureFilter::kNearestMipmapNearest:
      return "nearest-mip-nearest";
    case TextureFilter::kLinearMipmapNearest:
      return "linear-mip-nearest";
    case TextureFilter::kNearestMipmapLinear:
      return "nearest-mip-linear";
    case TextureFilter::kLinearMipmapLinear:
      return "trilinear";
  }
  return "?";
}

const char* wrapName(TextureWrap w) {
  switch (w) {
    case TextureWrap::kRepeat:
      return "repeat";
    case TextureWrap::kClampToEdge:
      return "clamp";
    case TextureWrap::kMirroredRepeat:
      return "mirror";
  }
  return "?";
}

}  // namespace

namespace {

// " image 0 uv0 linear/trilinear repeat/repeat[ transform ...]".
std::string describeTexture(const TextureRef& t) {
  std::string s = fmt::format(" image {} uv{} {}/{} {}/{}", t.image, t.uv_set,
                              filterName(t.sampler.mag_filter), filterName(t.sampler.min_filter),
                              wrapName(t.sampler.wrap_s), wrapName(t.sampler.wrap_t));
  if (!t.transform.isIdentity()) {
    s += fmt::format(" transform offset ({:.4g}, {:.4g}) rotation {:.4g} scale ({:.4g}, {:.4g})",
                     t.transform.offset.x, t.transform.offset.y, t.transform.rotation,
                     t.transform.scale.x, t.transform.scale.y);
  }
  return s;
}

}  // namespace

std::string describeMaterial(const Material& m) {
  std::string s = fmt::format("{}: colour ({:.3g}, {:.3g}, {:.3g}, {:.3g})", m.name, m.base_color.r,
                              m.base_color.g, m.base_color.b, m.base_color.a);
  if (m.base_color_texture.present()) s += ", texture" + describeTexture(m.base_color_texture);
  s += fmt::format(", metallic {:.3g} roughness {:.3g}", m.metallic_factor, m.roughness_factor);
  if (m.metallic_roughness_texture.present()) {
    s += ", metallic-roughness texture" + describeTexture(m.metallic_roughness_texture);
  }
  if (m.normal_texture.present()) {
    s += ", normal texture" + describeTexture(m.normal_texture) +
         fmt::format(" scale {:.3g}", m.normal_scale);
  }
  if (m.occlusion_texture.present()) {
    s += ", occlusion texture" + describeTexture(m.occlusion_texture) +
         fmt::format(" strength {:.3g}", m.occlusion_strength);
  }
  if (m.emissive_factor != glm::vec3(0.0f) || m.emissive_texture.present()) {
    s += fmt::format(", emissive ({:.3g}, {:.3g}, {:.3g})", m.emissive_factor.r,
                     m.emissive_factor.g, m.emissive_factor.b);
    if (m.emissive_strength != 1.0f) s += fmt::format(" x {:.4g}", m.emissive_strength);
    if (m.emissive_texture.present()) s += " texture" + describeTexture(m.emissive_texture);
  }
  s += fmt::format(", {}", alphaModeName(m.alpha_mode));
  if (m.alpha_mode == AlphaMode::kMask) s += fmt::format(" {:.3g}", m.alpha_cutoff);
  if (m.double_sided) s += ", double-sided";
  return s;
}

std::vector<PropSummary> summarizeProps(const Package& p) {
  std::vector<PropSummary> out;
  for (const Attachment& a : p.attachments) {
    out.push_back({a.name, p.skeleton.names()[a.joint], a.source, {}});
  }
  for (const MeshLod& lod : p.lods) {
    const SkinnedMesh& mesh = lod.mesh;
    for (PropSummary& prop : out) prop.triangles.push_back(0);
    if (mesh.attachments.empty()) continue;
    for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
      const uint8_t group = mesh.attachments[mesh.indices[i]];
      if (group > 0 && group <= out.size()) ++out[group - 1u].triangles.back();
    }
  }
  return out;
}

std::vector<MaskSummary> summarizeMasks(const Package& p) {
  std::vector<MaskSummary> out;
  for (const JointMask& m : p.masks) {
    const JointRange range = jointRange(p.skeleton, m.root);
    out.push_back({m.name, p.skeleton.names()[m.root], range.end - range.first});
  }
  return out;
}

std::string describePackage(const Package& p) {
  std::string s;
  s += fmt::format("source: {}\n", p.source.empty() ? "(unknown)" : p.source);
  s += fmt::format("skeleton: {} joints\n", p.skeleton.jointCount());
  s += fmt::format("LODs: {}\n", p.lods.size());
  for (size_t l = 0; l < p.lods.size(); ++l) {
    const MeshLod& lod = p.lods[l];
    s += fmt::format(
        "  LOD {}: {} vertices, {} triangles, {} sub-meshes, palette {} joints, geometric error "
        "{:.4g}, skinning error {:.4g}, max distance {}{}\n",
        l, lod.mesh.vertexCount(), lod.mesh.triangleCount(), lod.mesh.submeshes.size(),
        lod.palette_joints.empty() ? p.skeleton.jointCount()
                                   : static_cast<int>(lod.palette_joints.size()),
        lod.geometric_error, lod.skinning_error,
        lod.max_distance > 0.0f ? fmt::format("{:.4g}", lod.max_distance) : "unlimited",
        lod.mesh.tangents.empty()
            ? ""
            : fmt::format(", tangents {}", tangentSourceName(lod.mesh.tangent_source)));
  }
  s += fmt::format("clips: {}\n", p.clips.size());
  s += fmt::format("  {:<24} {:>7} {:>7} {:>7} {:>9} {:>5} {:>5}  {}\n", "name", "first", "frames",
                   "fps", "seconds", "loop", "root", "bounds");
  for (const BakedClip& c : p.clips) {
    s += fmt::format(
        "  {:<24} {:>7} {:>7} {:>7.3f} {:>9.3f} {:>5} {:>5}  ({:.3g}, {:.3g}, {:.3g}) .. "
        "({:.3g}, {:.3g}, {:.3g})\n",
        c.name, c.first_frame, c.frame_count, c.fps, c.duration, c.loop ? "yes" : "no",
        c.root_motion.empty() ? "-" : "moves", c.bounds.min.x, c.bounds.min.y, c.bounds.min.z,
        c.bounds.max.x, c.bounds.max.y, c.bounds.max.z);
    for (const ClipEvent& e : c.events) {
      s += fmt::format("    event '{}' at {:.3f} s\n", e.name, e.time);
    }
  }
  const std::vector<PropSummary> props = summarizeProps(p);
  if (!props.empty()) s += fmt::format("props: {}\n", props.size());
  for (const PropSummary& prop : props) {
    s += fmt::format("  {} on joint {} from {}, triangles per LOD", prop.name, prop.joint,
                     prop.source.empty() ? "(unknown)" : prop.source);
    for (uint32_t triangles : prop.triangles) s += fmt::format(" {}", triangles);
    s += "\n";
  }
  const std::vector<MaskSummary> masks = summarizeMasks(p);
  if (!masks.empty()) s += fmt::format("masks: {}\n", masks.size());
  for (const MaskSummary& mask : masks) {
    s += fmt::format("  {} from joint {}, {} joints\n", mask.name, mask.root, mask.joints);
  }
  const AnimationTexture& t = p.animation;
  const bool is32 = t.format == TexelFormat::kRgba32F;
  const size_t bytes = is32 ? t.texels32.size() * 4 : t.texels16.size() * 2;
  s += fmt::format("texture: {} x {} texels, {}, {} bytes, {} frames, {} per row, {} joints\n",
                   t.width, t.height, is32 ? "RGBA32F" : "RGBA16F", bytes, t.frame_count,
                   t.frames_per_row, t.joint_count);
  const MorphAnimation& morph = p.morph;
  if (morph.kind != MorphBakeKind::kNone) {
    uint64_t morph_bytes = 0;
    for (const VertexTexture& v : morph.lods) morph_bytes += v.byteSize();
    s += fmt::format("morph: {}, {} bytes, error {:.4g}", morphBakeKindName(morph.kind),
                     morph_bytes, morph.max_error);
    if (morph.kind == MorphBakeKind::kTargetDeltas) {
      s += fmt::format(", {} active targets:", morph.targets.size());
      for (const std::string& name : morph.targets) s += " " + name;
    }
    s += "\n";
    for (size_t l = 0; l < morph.lods.size(); ++l) {
      const VertexTexture& v = morph.lods[l];
      s += fmt::format(
          "  LOD {}: {} x {} texels, {}, {} vertices x {} {}, {} bytes\n", l, v.width, v.height,
          v.format == TexelFormat::kRgba32F ? "RGBA32F" : "RGBA16F", v.vertex_count, v.block_count,
          morph.kind == MorphBakeKind::kVertexFrames ? "frames" : "targets", v.byteSize());
    }
  }
  s += fmt::format("materials: {}{}\n", p.materials.size(),
                   p.materials.empty() ? " (the default material)" : "");
  for (const Material& m : p.materials) s += "  " + describeMaterial(m) + "\n";
  if (!p.variants.empty()) {
    s += fmt::format("variants: {}\n", p.variants.size());
    for (const std::string& v : p.variants) s += fmt::format("  {}\n", v);
  }
  s += fmt::format("images: {}\n", p.images.size());
  for (size_t i = 0; i < p.images.size(); ++i) {
    const PackageImage& image = p.images[i];
    s += fmt::format("  {} {}: {} x {}, {} mip levels, {}", i, image.name, image.mips[0].width,
                     image.mips[0].height, image.mips.size(),
                     imageColorSpace(p.materials, static_cast<int>(i)) == ColorSpace::kSrgb
                         ? "sRGB colour"
                         : "linear data");
    if (!image.pot_mips.empty()) {
      s += fmt::format(", power-of-two copy {} x {}", image.pot_mips[0].width,
                       image.pot_mips[0].height);
    }
    s += "\n";
  }
  return s;
}

std::string describePackageFile(const std::string& path, bool* ok) {
  if (ok != nullptr) *ok = false;
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes.ok()) return fmt::format("error: {}\n", bytes.status().toString());
  const auto span = std::as_bytes(std::span<const char>(*bytes));
  std::string s = fmt::format("package: {} ({} bytes)\n", path, bytes->size());
  Result<PackageLayout> layout = readPackageLayout(span, path);
  if (!layout.ok()) return s + fmt::format("error: {}\n", layout.status().toString());
  s += fmt::format("format version: {}\nsections: {}\n", layout->version, layout->sections.size());
  for (const PackageSectionInfo& sec : layout->sections) {
    s += fmt::format("  {} offset {:>10} size {:>10} checksum {:016x}\n", sec.name(), sec.offset,
                     sec.size, sec.checksum);
  }
  Result<Package> package = parsePackage(span, path);
  if (!package.ok()) return s + fmt::format("error: {}\n", package.status().toString());
  if (ok != nullptr) *ok = true;
  return s + describePackage(*package);
}

}  // namespace throng
