// glTF materials, textures, samplers and KHR_materials_variants -> throng Materials and Images.
#include "offline/gltf_read_material.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "offline/gltf_read_image.h"

namespace throng::gltf {
namespace {

constexpr const char* kTransformExtension = "KHR_texture_transform";
constexpr const char* kVariantsExtension = "KHR_materials_variants";
constexpr const char* kSpecGlossExtension = "KHR_materials_pbrSpecularGlossiness";
constexpr const char* kEmissiveStrengthExtension = "KHR_materials_emissive_strength";
// Texture extensions whose images stb cannot decode: a texture that has only such an image is
// drawn without it.
constexpr const char* kUndecodableTextureExtensions[] = {"KHR_texture_basisu", "EXT_texture_webp",
                                                         "MSFT_texture_dds", "EXT_texture_avif"};

// A textureInfo, from tinygltf's struct or from an extension's JSON value.
struct TextureInfoView {
  int index = -1;
  int tex_coord = 0;
  const tinygltf::Value* transform = nullptr;  // KHR_texture_transform object, if any
};

const tinygltf::Value* extension(const tinygltf::ExtensionMap& map, const char* name) {
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}

template <typename Info>
TextureInfoView viewOf(const Info& info) {
  return {info.index, info.texCoord, extension(info.extensions, kTransformExtension)};
}

bool isInt(const tinygltf::Value& v) {
  if (v.IsInt()) return true;
  if (!v.IsNumber()) return false;
  const double d = v.GetNumberAsDouble();
  return d >= -2147483648.0 && d <= 2147483647.0 && d == std::floor(d);
}

// The spec-gloss extension's diffuseTexture, when the material has one.
TextureInfoView specGlossDiffuse(const tinygltf::Material& material) {
  const tinygltf::Value* ext = extension(material.extensions, kSpecGlossExtension);
  if (ext == nullptr || !ext->IsObject() || !ext->Has("diffuseTexture")) return {};
  const tinygltf::Value& info = ext->Get("diffuseTexture");
  TextureInfoView view;
  if (info.Has("index") && isInt(info.Get("index")))
    view.index = info.Get("index").GetNumberAsInt();
  if (info.Has("texCoord") && isInt(info.Get("texCoord"))) {
    view.tex_coord = info.Get("texCoord").GetNumberAsInt();
  }
  if (info.Has("extensions") && info.Get("extensions").Has(kTransformExtension)) {
    view.transform = &info.Get("extensions").Get(kTransformExtension);
  }
  return view;
}

// The base colour texture: the core one, else the spec-gloss diffuse texture.
TextureInfoView baseColorInfo(const tinygltf::Material& material) {
  TextureInfoView view = viewOf(material.pbrMetallicRoughness.baseColorTexture);
  if (view.index < 0) view = specGlossDiffuse(material);
  return view;
}

// The textureInfo of `slot` in `material` (index -1 when it has none).
TextureInfoView slotInfo(const tinygltf::Material& material, TextureSlot slot) {
  switch (slot) {
    case TextureSlot::kBaseColor:
      return baseColorInfo(material);
    case TextureSlot::kMetallicRoughness:
      return viewOf(material.pbrMetallicRoughness.metallicRoughnessTexture);
    case TextureSlot::kNormal:
      return viewOf(material.normalTexture);
    case TextureSlot::kOcclusion:
      return viewOf(material.occlusionTexture);
    case TextureSlot::kEmissive:
      return viewOf(material.emissiveTexture);
  }
  return {};
}

int effectiveUvSet(const TextureInfoView& info) {
  if (info.transform != nullptr && info.transform->IsObject() && info.transform->Has("texCoord") &&
      isInt(info.transform->Get("texCoord"))) {
    return info.transform->Get("texCoord").GetNumberAsInt();
  }
  return info.tex_coord;
}

Result<std::vector<double>> numbers(const tinygltf::Value& v, size_t count,
                                    const std::string& where) {
  if (!v.IsArray() || v.ArrayLen() != count) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: expected an array of {} numbers", where, count));
  }
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) {
    const tinygltf::Value& e = v.Get(static_cast<int>(i));
    if (!e.IsNumber()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: element {} is not a number", where, i));
    }
    out[i] = e.GetNumberAsDouble();
  }
  return out;
}

Result<TextureFilter> filter(int value, bool minification, TextureFilter fallback,
                             const std::string& where) {
  if (value == -1) return fallback;
  const auto f = static_cast<TextureFilter>(value);
  if (value < 0 || value > 0xffff || !(minification ? isValidMinFilter(f) : isValidMagFilter(f))) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: {} {} is not a glTF filter", where,
                              minification ? "minFilter" : "magFilter", value));
  }
  return f;
}

Result<TextureWrap> wrap(int value, const char* name, const std::string& where) {
  const auto w = static_cast<TextureWrap>(value);
  if (value < 0 || value > 0xffff || !isValidWrap(w)) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: {} {} is not a glTF wrap mode", where, name, value));
  }
  return w;
}

// A factor of glTF's [0, 1] range: clamped, and `clamped` set when it was outside.
float unitFactor(double value, bool& clamped) {
  const double v = std::clamp(value, 0.0, 1.0);
  clamped = clamped || v != value;
  return static_cast<float>(v);
}

// A KHR_texture_transform object `t`; errors name `t_where`.
Result<TextureTransform> textureTransform(const tinygltf::Value& t, const std::string& t_where) {
  TextureTransform transform;
  if (!t.IsObject()) {
    return Status(ErrorCode::kInvalidData, t_where + ": not an object");
  }
  if (t.Has("offset")) {
    Result<std::vector<double>> v = numbers(t.Get("offset"), 2, t_where + " offset");
    if (!v.ok()) return v.status();
    transform.offset = glm::vec2((*v)[0], (*v)[1]);
  }
  if (t.Has("scale")) {
    Result<std::vector<double>> v = numbers(t.Get("scale"), 2, t_where + " scale");
    if (!v.ok()) return v.status();
    transform.scale = glm::vec2((*v)[0], (*v)[1]);
  }
  if (t.Has("rotation")) {
    if (!t.Get("rotation").IsNumber()) {
      return Status(ErrorCode::kInvalidData, t_where + ": rotation is not a number");
    }
    transform.rotation = static_cast<float>(t.Get("rotation").GetNumberAsDouble());
  }
  if (!std::isfinite(transform.offset.x) || !std::isfinite(transform.offset.y) ||
      !std::isfinite(transform.scale.x) || !std::isfinite(transform.scale.y) ||
      !std::isfinite(transform.rotation)) {
    return Status(ErrorCode::kInvalidData, t_where + ": values overflow a float");
  }
  return transform;
}

class LooksReader {
 public:
  LooksReader(Document& doc, const SkinnedMesh& mesh) : doc_(doc), mesh_(mesh) {}

  Result<Material> material(int index);
  std::vector<SourceImage> takeImages() { return std::move(images_); }

 private:
  // Base colour (factor, spec-gloss stand-ins), alpha mode, cutoff and sides.
  Status readBase(const tinygltf::Material& source, const std::string& where, Material& out);
  // Metallic, roughness, normal scale, occlusion strength, emissive factor and strength.
  Status readFactors(const tinygltf::Material& source, const std::string& where, Material& out);
  Status texture(const TextureInfoView& info, const std::string& where, TextureSlot slot,
                 TextureRef& out);
  Result<TextureSampler> readSampler(const tinygltf::Texture& texture,
                                     const std::string& tex_where);
  // KHR_texture_transform (the identity without it).
  Result<TextureTransform> readTransform(const TextureInfoView& info, const std::string& where);
  // The image slot of glTF image `source` in `space`, decoded (or copied) once; -1: unusable.
  Result<int> image(int source, ColorSpace space);
  void drop(const std::string& where, const std::string& why) {
    warn(doc_, WarningKind::kTextureDropped,
         fmt::format("{}: {}; drawn without its texture", where, why), where)
        .with("where", where)
        .with("reason", why);
  }

  Document& doc_;
  const SkinnedMesh& mesh_;
  std::vector<SourceImage> images_;
  // (glTF image, colour space) -> images_ index (-1: unusable). An image read both as colour and
  // as data is stored once per colour space (its mip chains are filtered differently).
  std::map<std::pair<int, ColorSpace>, int> image_of_source_;
  uint64_t budget_ = kMaxImageBytes;
};

Result<int> LooksReader::image(int source, ColorSpace space) {
  if (auto cached = image_of_source_.find({source, space}); cached != image_of_source_.end()) {
    return cached->second;
  }
  const ColorSpace other = space == ColorSpace::kSrgb ? ColorSpace::kLinear : ColorSpace::kSrgb;
  int slot = -1;
  if (auto twin = image_of_source_.find({source, other}); twin != image_of_source_.end()) {
    if (twin->second >= 0) {
      const SourceImage copy = images_[static_cast<size_t>(twin->second)];
      const uint64_t bytes = copy.pixels.rgba.size();
      if (bytes > budget_) {
        return Status(ErrorCode::kLimitExceeded,
                      place(doc_, fmt::format("image {}: a second copy (for another colour "
                                              "space) exceeds what is left of the {}-byte budget "
                                              "for all images of a character",
                                              source, kMaxImageBytes)));
      }
      budget_ -= bytes;
      warn(doc_, WarningKind::kImageStoredTwice,
           fmt::format("image {} is read as sRGB colour and as linear data; stored twice, "
                       "once for each",
                       source),
           fmt::format("image {}", source))
          .with("image", source);
      slot = static_cast<int>(images_.size());
      images_.push_back(copy);
    }
  } else {
    Result<SourceImage> decoded = decodeImage(doc_, source, budget_);
    if (decoded.ok()) {
      slot = static_cast<int>(images_.size());
      images_.push_back(std::move(decoded).value());
    } else if (decoded.status().code() == ErrorCode::kLimitExceeded) {
      return decoded.status();
    } else {
      // The decoder's message already names the file and the image.
      doc_.warnings.push_back(
          makeWarning(WarningKind::kImageUnusable,
                      decoded.status().message() + "; textures using it are dropped",
                      fmt::format("image {}", source)));
      doc_.warnings.back()
          .with("file", doc_.path)
          .with("image", source)
          .with("reason", decoded.status().message());
    }
  }
  image_of_source_.emplace(std::make_pair(source, space), slot);
  return slot;
}

Result<TextureSampler> LooksReader::readSampler(const tinygltf::Texture& texture,
                                                const std::string& tex_where) {
  const tinygltf::Model& model = doc_.model;
  TextureSampler sampler;
  if (texture.sampler >= 0) {
    if (static_cast<size_t>(texture.sampler) >= model.samplers.size()) {
      return Status(ErrorCode::kInvalidData,
                    place(doc_, fmt::format("{}: sampler {} does not exist ({} samplers)",
                                            tex_where, texture.sampler, model.samplers.size())));
    }
    const tinygltf::Sampler& s = model.samplers[static_cast<size_t>(texture.sampler)];
    const std::string s_where = place(doc_, fmt::format("sampler {}", texture.sampler));
    Result<TextureFilter> mag = filter(s.magFilter, false, sampler.mag_filter, s_where);
    if (!mag.ok()) return mag.status();
    Result<TextureFilter> min = filter(s.minFilter, true, sampler.min_filter, s_where);
    if (!min.ok()) return min.status();
    Result<TextureWrap> wrap_s = wrap(s.wrapS, "wrapS", s_where);
    if (!wrap_s.ok()) return wrap_s.status();
    Result<TextureWrap> wrap_t = wrap(s.wrapT, "wrapT", s_where);
    if (!wrap_t.ok()) return wrap_t.status();
    sampler = {*mag, *min, *wrap_s, *wrap_t};
  }
  return sampler;
}

Result<TextureTransform> LooksReader::readTransform(const TextureInfoView& info,
                                                    const std::string& where) {
  TextureTransform transform;
  if (info.transform != nullptr) {
    Result<TextureTransform> read = textureTransform(
        *info.transform, place(doc_, fmt::format("{}: {}", where, kTransformExtension)));
    if (!read.ok()) return read.status();
    transform = *read;
  }
  return transform;
}

Status LooksReader::texture(const TextureInfoView& info, const std::string& material_where,
                            TextureSlot slot, TextureRef& out) {
  const tinygltf::Model& model = doc_.model;
  out = TextureRef{};
  if (info.index < 0) return {};
  const std::string where = fmt::format("{} {} texture", material_where, textureSlotName(slot));
  if (static_cast<size_t>(info.index) >= model.textures.size()) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: texture {} does not exist ({} textures)", where,
                                          info.index, model.textures.size())));
  }
  const tinygltf::Texture& texture = model.textures[static_cast<size_t>(info.index)];
  const std::string tex_where = fmt::format("{} {}", where, info.index);

  Result<TextureSampler> sampler = readSampler(texture, tex_where);
  if (!sampler.ok()) return sampler.status();
  Result<TextureTransform> transform = readTransform(info, where);
  if (!transform.ok()) return transform.status();

  const int uv_set = effectiveUvSet(info);
  if (uv_set < 0) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: texCoord {} is negative", where, uv_set)));
  }
  if (uv_set > 1) {
    drop(where, fmt::format("its texture reads TEXCOORD_{}; throng imports sets 0 and 1", uv_set));
    return {};
  }
  if ((uv_set == 0 ? mesh_.uvs : mesh_.uvs1).empty()) {
    drop(where, fmt::format("the mesh has no TEXCOORD_{}", uv_set));
    return {};
  }

  // Image: the core source, else report the extension that holds the only image.
  int source = texture.source;
  if (source < 0) {
    for (const char* name : kUndecodableTextureExtensions) {
      if (extension(texture.extensions, name) != nullptr) {
        drop(where, fmt::format("texture {} has only a {} image, which throng cannot decode",
                                info.index, name));
        return {};
      }
    }
    drop(where, fmt::format("texture {} has no image", info.index));
    return {};
  }
  if (static_cast<size_t>(source) >= model.images.size()) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: image {} does not exist ({} images)", tex_where,
                                          source, model.images.size())));
  }
  Result<int> stored = image(source, slotColorSpace(slot));
  if (!stored.ok()) return stored.status();
  if (*stored < 0) return {};
  out.image = *stored;
  out.uv_set = uv_set;
  out.sampler = *sampler;
  out.transform = *transform;
  return {};
}

Status LooksReader::readBase(const tinygltf::Material& source, const std::string& where,
                             Material& out) {
  std::vector<double> factor = source.pbrMetallicRoughness.baseColorFactor;
  if (const tinygltf::Value* sg = extension(source.extensions, kSpecGlossExtension);
      sg != nullptr && sg->IsObject() && source.pbrMetallicRoughness.baseColorTexture.index < 0) {
    // Spec-gloss files keep pbrMetallicRoughness at its defaults: their diffuse is the colour.
    if (sg->Has("diffuseFactor")) {
      Result<std::vector<double>> v =
          numbers(sg->Get("diffuseFactor"), 4, place(doc_, where + " diffuseFactor"));
      if (!v.ok()) return v.status();
      factor = *v;
    }
  }
  if (factor.size() != 4) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: baseColorFactor has {} numbers, not 4", where,
                                          factor.size())));
  }
  bool clamped = false;
  for (int c = 0; c < 4; ++c)
    out.base_color[c] = unitFactor(factor[static_cast<size_t>(c)], clamped);
  if (clamped) {
    warn(doc_, WarningKind::kBaseColorClamped,
         fmt::format("{}: baseColorFactor outside [0, 1]; clamped", where), where)
        .with("where", where);
  }

  if (source.alphaMode == "OPAQUE" || source.alphaMode.empty()) {
    out.alpha_mode = AlphaMode::kOpaque;
  } else if (source.alphaMode == "MASK") {
    out.alpha_mode = AlphaMode::kMask;
  } else if (source.alphaMode == "BLEND") {
    out.alpha_mode = AlphaMode::kBlend;
  } else {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: alphaMode '{}' is not OPAQUE, MASK or BLEND", where,
                                          source.alphaMode)));
  }
  if (!(source.alphaCutoff >= 0.0) || !std::isfinite(static_cast<float>(source.alphaCutoff))) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: alphaCutoff {} is not a non-negative number", where,
                                          source.alphaCutoff)));
  }
  out.alpha_cutoff = static_cast<float>(source.alphaCutoff);
  out.double_sided = source.doubleSided;
  return {};
}

Status LooksReader::readFactors(const tinygltf::Material& source, const std::string& where,
                                Material& out) {
  const tinygltf::PbrMetallicRoughness& pbr = source.pbrMetallicRoughness;
  bool clamped = false;
  out.metallic_factor = unitFactor(pbr.metallicFactor, clamped);
  out.roughness_factor = unitFactor(pbr.roughnessFactor, clamped);
  out.occlusion_strength = unitFactor(source.occlusionTexture.strength, clamped);
  if (const tinygltf::Value* sg = extension(source.extensions, kSpecGlossExtension);
      sg != nullptr && sg->IsObject()) {
    // Specular-glossiness, seen through metallic-roughness: a dielectric as rough as it is not
    // glossy (its specular colour and texture are not read).
    double glossiness = 1.0;
    if (sg->Has("glossinessFactor") && sg->Get("glossinessFactor").IsNumber()) {
      glossiness = sg->Get("glossinessFactor").GetNumberAsDouble();
    }
    out.metallic_factor = 0.0f;
    out.roughness_factor = unitFactor(1.0 - glossiness, clamped);
  }
  if (source.emissiveFactor.size() != 3) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: emissiveFactor has {} numbers, not 3", where,
                                          source.emissiveFactor.size())));
  }
  for (int c = 0; c < 3; ++c) {
    out.emissive_factor[c] = unitFactor(source.emissiveFactor[static_cast<size_t>(c)], clamped);
  }
  if (clamped) {
    warn(doc_, WarningKind::kMaterialFactorsClamped,
         fmt::format("{}: metallicFactor, roughnessFactor, occlusion strength or "
                     "emissiveFactor outside [0, 1]; clamped",
                     where),
         where)
        .with("where", where);
  }
  out.normal_scale = static_cast<float>(source.normalTexture.scale);
  if (!std::isfinite(out.normal_scale)) {
    return Status(ErrorCode::kInvalidData,
                  place(doc_, fmt::format("{}: normalTexture scale {} is not a finite number",
                                          where, source.normalTexture.scale)));
  }
  if (const tinygltf::Value* es = extension(source.extensions, kEmissiveStrengthExtension)) {
    const bool number =
        es->IsObject() && es->Has("emissiveStrength") && es->Get("emissiveStrength").IsNumber();
    const double strength = number ? es->Get("emissiveStrength").GetNumberAsDouble() : 1.0;
    if ((es->IsObject() && es->Has("emissiveStrength") && !number) || !(strength >= 0.0) ||
        !std::isfinite(static_cast<float>(strength))) {
      return Status(ErrorCode::kInvalidData,
                    place(doc_, fmt::format("{}: {}: emissiveStrength is not a finite number >= 0",
                                            where, kEmissiveStrengthExtension)));
    }
    out.emissive_strength = static_cast<float>(strength);
  }
  return {};
}

Result<Material> LooksReader::material(int index) {
  const tinygltf::Material& source = doc_.model.materials.at(static_cast<size_t>(index));
  const std::string where = fmt::format("material {} ('{}')", index, source.name);
  Material out;
  out.name = !source.name.empty() ? source.name : fmt::format("material{}", index);
  if (Status s = readBase(source, where, out); !s.ok()) return s;
  if (Status s = readFactors(source, where, out); !s.ok()) return s;
  for (int s = 0; s < kTextureSlotCount; ++s) {
    const auto slot = static_cast<TextureSlot>(s);
    if (Status status = texture(slotInfo(source, slot), where, slot, out.texture(slot));
        !status.ok()) {
      return status;
    }
  }
  return out;
}

}  // namespace

bool samplesUvSet1(const Document& doc, int material) {
  if (material < 0 || static_cast<size_t>(material) >= doc.model.materials.size()) return false;
  const tinygltf::Material& m = doc.model.materials[static_cast<size_t>(material)];
  for (int s = 0; s < kTextureSlotCount; ++s) {
    const TextureInfoView info = slotInfo(m, static_cast<TextureSlot>(s));
    if (info.index >= 0 && effectiveUvSet(info) == 1) return true;
  }
  return false;
}

Result<std::vector<std::string>> readVariantNames(const Document& doc) {
  std::vector<std::string> names;
  const tinygltf::Value* ext = extension(doc.model.extensions, kVariantsExtension);
  if (ext == nullptr) return names;
  const std::string where = place(doc, std::string(kVariantsExtension));
  if (!ext->IsObject() || !ext->Has("variants") || !ext->Get("variants").IsArray()) {
    return Status(ErrorCode::kInvalidData, where + ": no 'variants' array");
  }
  const tinygltf::Value& variants = ext->Get("variants");
  std::set<std::string> seen;
  for (size_t v = 0; v < variants.ArrayLen(); ++v) {
    const tinygltf::Value& entry = variants.Get(static_cast<int>(v));
    if (!entry.IsObject() || !entry.Has("name") || !entry.Get("name").IsString()) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: variant {} has no name", where, v));
    }
    std::string name = entry.Get("name").Get<std::string>();
    if (!seen.insert(name).second) name = fmt::format("{}#{}", name, v);
    names.push_back(std::move(name));
  }
  return names;
}

Result<std::vector<uint32_t>> readVariantMapping(const Document& doc,
                                                 const tinygltf::Primitive& primitive,
                                                 size_t variant_count, const std::string& what) {
  std::vector<uint32_t> mapping;
  const tinygltf::Value* ext = extension(primitive.extensions, kVariantsExtension);
  if (ext == nullptr) return mapping;
  const std::string where = place(doc, fmt::format("{}: {}", what, kVariantsExtension));
  if (!ext->IsObject() || !ext->Has("mappings") || !ext->Get("mappings").IsArray()) {
    return Status(ErrorCode::kInvalidData, where + ": no 'mappings' array");
  }
  mapping.assign(variant_count, kNoGltfMaterial);
  const tinygltf::Value& mappings = ext->Get("mappings");
  for (size_t m = 0; m < mappings.ArrayLen(); ++m) {
    const tinygltf::Value& entry = mappings.Get(static_cast<int>(m));
    if (!entry.IsObject() || !entry.Has("material") || !isInt(entry.Get("material")) ||
        !entry.Has("variants") || !entry.Get("variants").IsArray()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: mapping {} needs a material and a variants array", where, m));
    }
    const int material = entry.Get("material").GetNumberAsInt();
    if (material < 0 || static_cast<size_t>(material) >= doc.model.materials.size()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: mapping {} names material {} ({} materials)", where, m,
                                material, doc.model.materials.size()));
    }
    const tinygltf::Value& variants = entry.Get("variants");
    for (size_t i = 0; i < variants.ArrayLen(); ++i) {
      const tinygltf::Value& v = variants.Get(static_cast<int>(i));
      const int variant = isInt(v) ? v.GetNumberAsInt() : -1;
      if (variant < 0 || static_cast<size_t>(variant) >= variant_count) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: mapping {} names variant {} ({} variants)", where, m,
                                  isInt(v) ? std::to_string(variant) : "that is not an index",
                                  variant_count));
      }
      if (mapping[static_cast<size_t>(variant)] != kNoGltfMaterial) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: variant {} is mapped twice", where, variant));
      }
      mapping[static_cast<size_t>(variant)] = static_cast<uint32_t>(material);
    }
  }
  return mapping;
}

Result<Looks> readLooks(Document& doc, SkinnedMesh& mesh, std::vector<std::string> variants) {
  Looks looks;
  looks.variants = std::move(variants);
  // Resolve "keeps its own material" inside variants first: later steps see plain indices.
  bool any_default = false;
  std::vector<uint32_t> order;  // used glTF materials, first use first
  auto use = [&](uint32_t gltf) {
    if (gltf == kNoGltfMaterial) {
      any_default = true;
    } else if (std::find(order.begin(), order.end(), gltf) == order.end()) {
      order.push_back(gltf);
    }
  };
  for (SubMesh& sm : mesh.submeshes) {
    use(sm.material);
    for (uint32_t& v : sm.variant_materials) {
      if (v == kNoGltfMaterial) v = sm.material;
      use(v);
    }
  }
  if (order.empty()) {
    // No primitive has a material: the empty list means the default material for all.
    for (SubMesh& sm : mesh.submeshes) {
      sm.material = 0;
      sm.variant_materials.clear();
      sm.name = "default";
    }
    return looks;
  }

  LooksReader reader(doc, mesh);
  std::map<uint32_t, uint32_t> index_of;  // glTF material -> looks.materials index
  for (uint32_t gltf : order) {
    Result<Material> material = reader.material(static_cast<int>(gltf));
    if (!material.ok()) return material.status();
    index_of[gltf] = static_cast<uint32_t>(looks.materials.size());
    looks.materials.push_back(std::move(material).value());
  }
  if (any_default) {
    index_of[kNoGltfMaterial] = static_cast<uint32_t>(looks.materials.size());
    looks.materials.push_back(defaultMaterial());
  }
  looks.images = reader.takeImages();
  for (SubMesh& sm : mesh.submeshes) {
    sm.material = index_of.at(sm.material);
    for (uint32_t& v : sm.variant_materials) v = index_of.at(v);
    sm.name = looks.materials[sm.material].name;
  }
  return looks;
}

}  // namespace throng::gltf
