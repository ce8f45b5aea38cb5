// The package's MATL (materials, variant names), PBRM (metallic-roughness, normal, occlusion,
// emissive) and IMGS (mip chains) sections.
#include "package_looks.h"

#include <iterator>

#include "throng/core/package_format.h"

namespace throng::detail {
namespace {

// A texture record: image, uv set, 4 sampler enums, offset, rotation, scale.
constexpr size_t kMaterialTextureBytes = 4 + 4 + 4 * 2 + 5 * 4;
// Smallest encoded material: empty name, colour, mode/sides/reserved, cutoff, texture record.
constexpr size_t kMinMaterialBytes = 4 + 16 + 4 + 4 + kMaterialTextureBytes;
// The textures of PBRM, after the base colour's in MATL.
constexpr TextureSlot kPbrSlots[] = {TextureSlot::kMetallicRoughness, TextureSlot::kNormal,
                                     TextureSlot::kOcclusion, TextureSlot::kEmissive};
// A PBRM material: metallic, roughness, normal scale, occlusion strength, emissive (3), emissive
// strength, then a texture record per kPbrSlots entry.
constexpr size_t kPbrMaterialBytes = 8 * 4 + std::size(kPbrSlots) * kMaterialTextureBytes;
// Smallest encoded image: empty name, two level counts.
constexpr size_t kMinImageBytes = 4 + 4 + 4;
// Each level has at least its size and one pixel.
constexpr size_t kMinLevelBytes = 8 + 4;

void writeTexture(ByteWriter& w, const TextureRef& t) {
  w.i32(t.image);
  w.u32(static_cast<uint32_t>(t.uv_set));
  w.u16(static_cast<uint16_t>(t.sampler.mag_filter));
  w.u16(static_cast<uint16_t>(t.sampler.min_filter));
  w.u16(static_cast<uint16_t>(t.sampler.wrap_s));
  w.u16(static_cast<uint16_t>(t.sampler.wrap_t));
  w.f32(t.transform.offset.x);
  w.f32(t.transform.offset.y);
  w.f32(t.transform.rotation);
  w.f32(t.transform.scale.x);
  w.f32(t.transform.scale.y);
}

void readTexture(ByteReader& r, TextureRef& t) {
  t.image = r.i32("texture image");
  const uint32_t uv_set = r.u32("texture uv set");
  if (uv_set > 1) r.fail(fmt::format("texture uv set {} is not 0 or 1", uv_set));
  t.uv_set = static_cast<int>(uv_set);
  t.sampler.mag_filter = static_cast<TextureFilter>(r.u16("mag filter"));
  t.sampler.min_filter = static_cast<TextureFilter>(r.u16("min filter"));
  t.sampler.wrap_s = static_cast<TextureWrap>(r.u16("wrap s"));
  t.sampler.wrap_t = static_cast<TextureWrap>(r.u16("wrap t"));
  t.transform.offset.x = r.f32("texture offset");
  t.transform.offset.y = r.f32("texture offset");
  t.transform.rotation = r.f32("texture rotation");
  t.transform.scale.x = r.f32("texture scale");
  t.transform.scale.y = r.f32("texture scale");
}

void writeChain(ByteWriter& w, const std::vector<ImageLevel>& chain) {
  for (const ImageLevel& level : chain) {
    w.u32(level.width);
    w.u32(level.height);
    w.raw(level.rgba.data(), level.rgba.size());
  }
}

void readChain(ByteReader& r, uint32_t count, std::vector<ImageLevel>& chain) {
  if (!r.fits(count, kMinLevelBytes, "mip level count")) return;
  chain.resize(count);
  for (ImageLevel& level : chain) {
    level.width = r.u32("level width");
    level.height = r.u32("level height");
    if (level.width > kMaxImageSize || level.height > kMaxImageSize) {
      r.fail(fmt::format("image level {}x{} exceeds the limit of {} per side", level.width,
                         level.height, kMaxImageSize));
      return;
    }
    const uint64_t bytes = uint64_t{4} * level.width * level.height;
    if (!r.fits(bytes, 1, "level pixels")) return;
    level.rgba.resize(bytes);
    r.raw(level.rgba.data(), bytes, "level pixels");
  }
}

}  // namespace

void writeMaterials(ByteWriter& w, const std::vector<Material>& materials,
                    const std::vector<std::string>& variants) {
  w.u32(static_cast<uint32_t>(variants.size()));
  for (const std::string& name : variants) w.string(name);
  w.u32(static_cast<uint32_t>(materials.size()));
  for (const Material& m : materials) {
    w.string(m.name);
    w.vec4(m.base_color);
    w.u8(static_cast<uint8_t>(m.alpha_mode));
    w.u8(m.double_sided ? 1 : 0);
    w.u16(0);
    w.f32(m.alpha_cutoff);
    writeTexture(w, m.base_color_texture);
  }
}

void writePbr(ByteWriter& w, const std::vector<Material>& materials) {
  w.u32(static_cast<uint32_t>(materials.size()));
  for (const Material& m : materials) {
    w.f32(m.metallic_factor);
    w.f32(m.roughness_factor);
    w.f32(m.normal_scale);
    w.f32(m.occlusion_strength);
    w.vec3(m.emissive_factor);
    w.f32(m.emissive_strength);
    for (TextureSlot slot : kPbrSlots) writeTexture(w, m.texture(slot));
  }
}

void writeImages(ByteWriter& w, const std::vector<PackageImage>& images) {
  w.u32(static_cast<uint32_t>(images.size()));
  for (const PackageImage& image : images) {
    w.string(image.name);
    w.u32(static_cast<uint32_t>(image.mips.size()));
    w.u32(static_cast<uint32_t>(image.pot_mips.size()));
    writeChain(w, image.mips);
    writeChain(w, image.pot_mips);
  }
}

void readMaterials(ByteReader& r, std::vector<Material>& materials,
                   std::vector<std::string>& variants) {
  const uint32_t variant_count = r.u32("variant count");
  if (!r.fits(variant_count, 4, "variant count")) return;
  variants.resize(variant_count);
  for (std::string& name : variants) name = r.string("variant name");
  const uint32_t count = r.u32("material count");
  if (!r.fits(count, kMinMaterialBytes, "material count")) return;
  materials.resize(count);
  for (Material& m : materials) {
    m.name = r.string("material name");
    m.base_color = r.vec4("base colour");
    const uint8_t mode = r.u8("alpha mode");
    if (mode > static_cast<uint8_t>(AlphaMode::kBlend)) {
      r.fail(fmt::format("alpha mode {} is not 0, 1 or 2", mode));
    }
    m.alpha_mode = static_cast<AlphaMode>(mode);
    const uint8_t sides = r.u8("double-sided flag");
    if (sides > 1) r.fail(fmt::format("double-sided flag is {}, not 0 or 1", sides));
    m.double_sided = sides == 1;
    r.u16("reserved");
    m.alpha_cutoff = r.f32("alpha cutoff");
    readTexture(r, m.base_color_texture);
  }
}

void readPbr(ByteReader& r, std::vector<Material>& materials) {
  const uint32_t count = r.u32("material count");
  if (r.ok() && count != materials.size()) {
    r.fail(fmt::format("{} materials, section MATL has {}", count, materials.size()));
  }
  if (!r.fits(count, kPbrMaterialBytes, "material count")) return;
  for (Material& m : materials) {
    m.metallic_factor = r.f32("metallic factor");
    m.roughness_factor = r.f32("roughness factor");
    m.normal_scale = r.f32("normal scale");
    m.occlusion_strength = r.f32("occlusion strength");
    m.emissive_factor = r.vec3("emissive factor");
    m.emissive_strength = r.f32("emissive strength");
    for (TextureSlot slot : kPbrSlots) readTexture(r, m.texture(slot));
  }
}

void setVersion3Pbr(std::vector<Material>& materials) {
  for (Material& m : materials) {
    m.metallic_factor = kVersion3MetallicFactor;
    m.roughness_factor = kVersion3RoughnessFactor;
  }
}

std::vector<PackageImage> readImages(ByteReader& r) {
  std::vector<PackageImage> images;
  const uint32_t count = r.u32("image count");
  if (!r.fits(count, kMinImageBytes, "image count")) return images;
  images.resize(count);
  for (PackageImage& image : images) {
    image.name = r.string("image name");
    const uint32_t levels = r.u32("mip level count");
    const uint32_t pot_levels = r.u32("power-of-two level count");
    readChain(r, levels, image.mips);
    readChain(r, pot_levels, image.pot_mips);
    if (!r.ok()) break;
  }
  return images;
}

}  // namespace throng::detail
