// glTF 2.0 writer: builds a tinygltf model from a Character and serialises it in memory.
#include "throng/offline/gltf_export.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

#include <fmt/core.h>
#include <tiny_gltf.h>

#include "offline/png_encode.h"
#include "throng/core/file_io.h"

namespace throng {
namespace {

// glTF constants (glTF 2.0 specification, section 5).
constexpr int kArrayBuffer = 34962;         // bufferView.target for vertex attributes
constexpr int kElementArrayBuffer = 34963;  // bufferView.target for indices
constexpr int kTriangles = 4;               // primitive.mode

// Accessor offsets must be multiples of their component size, and a GLB chunk is padded to 4
// bytes; aligning every buffer view to 4 bytes satisfies both for float, uint16 and uint32 data.
constexpr size_t kViewAlignment = 4;

class ModelBuilder {
 public:
  explicit ModelBuilder(tinygltf::Model& model) : model_(model) { model_.buffers.emplace_back(); }

  // Appends `bytes` as a new buffer view; returns its index.
  int addView(const void* bytes, size_t size, int target) {
    std::vector<unsigned char>& data = model_.buffers[0].data;
    data.resize((data.size() + kViewAlignment - 1) / kViewAlignment * kViewAlignment, 0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = data.size();
    view.byteLength = size;
    view.target = target;
    const auto* begin = static_cast<const unsigned char*>(bytes);
    data.insert(data.end(), begin, begin + size);
    model_.bufferViews.push_back(view);
    return static_cast<int>(model_.bufferViews.size() - 1);
  }

  int addAccessor(int view, size_t byte_offset, int component_type, int type, size_t count,
                  std::vector<double> min = {}, std::vector<double> max = {}) {
    tinygltf::Accessor accessor;
    accessor.bufferView = view;
    accessor.byteOffset = byte_offset;
    accessor.componentType = component_type;
    accessor.type = type;
    accessor.count = count;
    accessor.minValues = std::move(min);
    accessor.maxValues = std::move(max);
    model_.accessors.push_back(std::move(accessor));
    return static_cast<int>(model_.accessors.size() - 1);
  }

  // A float accessor over `values` (`components` floats per element) in a view of its own.
  int addFloats(const float* values, size_t count, int components, int type, int target,
                bool with_bounds) {
    const int view = addView(values, count * components * sizeof(float), target);
    std::vector<double> min, max;
    if (with_bounds) {
      min.assign(components, std::numeric_limits<double>::infinity());
      max.assign(components, -std::numeric_limits<double>::infinity());
      for (size_t i = 0; i < count; ++i) {
        for (int c = 0; c < components; ++c) {
          min[c] = std::min(min[c], static_cast<double>(values[i * components + c]));
          max[c] = std::max(max[c], static_cast<double>(values[i * components + c]));
        }
      }
    }
    return addAccessor(view, 0, TINYGLTF_COMPONENT_TYPE_FLOAT, type, count, std::move(min),
                       std::move(max));
  }

  // Key times, shared by every track with the same times (animation sampler inputs need min/max).
  int addTimes(const std::vector<float>& times) {
    const auto it = time_accessors_.find(times);
    if (it != time_accessors_.end()) return it->second;
    const int accessor = addFloats(times.data(), times.size(), 1, TINYGLTF_TYPE_SCALAR, 0, true);
    time_accessors_.emplace(times, accessor);
    return accessor;
  }

 private:
  tinygltf::Model& model_;
  std::map<std::vector<float>, int> time_accessors_;
};

const char* interpolationName(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kLinear:
      return "LINEAR";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
  }
  return "LINEAR";
}

void addNodes(const Skeleton& skeleton, tinygltf::Model& model) {
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    tinygltf::Node node;
    node.name = skeleton.names()[j];
    const Transform& rest = skeleton.restPoses()[j];
    node.translation = {rest.translation.x, rest.translation.y, rest.translation.z};
    node.rotation = {rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w};
    node.scale = {rest.scale.x, rest.scale.y, rest.scale.z};
    node.children = skeleton.children(j);
    model.nodes.push_back(std::move(node));
  }
}

void addSkin(const Skeleton& skeleton, ModelBuilder& builder, tinygltf::Model& model) {
  tinygltf::Skin skin;
  skin.name = "skeleton";
  std::vector<float> matrices;
  int roots = 0;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    skin.joints.push_back(j);
    const glm::mat4& m = skeleton.inverseBinds()[j];
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) matrices.push_back(m[c][r]);  // glTF is column-major too
    }
    if (skeleton.parents()[j] == kNoParent) {
      ++roots;
      if (roots == 1) skin.skeleton = j;
    }
  }
  if (roots != 1) skin.skeleton = -1;  // no common root joint
  if (skeleton.jointCount() > 0) {
    skin.inverseBindMatrices =
        builder.addFloats(matrices.data(), skeleton.jointCount(), 16, TINYGLTF_TYPE_MAT4, 0, false);
  }
  model.skins.push_back(std::move(skin));
}

tinygltf::Value number(double v) {
  return tinygltf::Value(v);
}

tinygltf::Value pair(glm::vec2 v) {
  return tinygltf::Value(tinygltf::Value::Array{number(v.x), number(v.y)});
}

// A texture of its own (and a sampler) for `t`, referenced from `info` (a tinygltf TextureInfo,
// NormalTextureInfo or OcclusionTextureInfo) with its uv set and KHR_texture_transform; sets
// `transforms` when it has one.
template <typename Info>
void addTexture(const TextureRef& t, Info& info, tinygltf::Model& model, bool& transforms) {
  if (!t.present()) return;
  tinygltf::Sampler sampler;
  sampler.magFilter = static_cast<int>(t.sampler.mag_filter);
  sampler.minFilter = static_cast<int>(t.sampler.min_filter);
  sampler.wrapS = static_cast<int>(t.sampler.wrap_s);
  sampler.wrapT = static_cast<int>(t.sampler.wrap_t);
  model.samplers.push_back(std::move(sampler));
  tinygltf::Texture texture;
  texture.source = t.image;
  texture.sampler = static_cast<int>(model.samplers.size() - 1);
  model.textures.push_back(std::move(texture));
  info.index = static_cast<int>(model.textures.size() - 1);
  info.texCoord = t.uv_set;
  if (!t.transform.isIdentity()) {
    info.extensions["KHR_texture_transform"] =
        tinygltf::Value(tinygltf::Value::Object{{"offset", pair(t.transform.offset)},
                                                {"rotation", number(t.transform.rotation)},
                                                {"scale", pair(t.transform.scale)}});
    transforms = true;
  }
}

// glTF material of `material`: every factor and texture of metallic-roughness, alpha and sides.
// Sets `transforms` / `strength` when a texture transform / an emissive strength other than 1 is
// written.
tinygltf::Material gltfMaterial(const Material& material, tinygltf::Model& model, bool& transforms,
                                bool& strength) {
  tinygltf::Material out;
  out.name = material.name;
  tinygltf::PbrMetallicRoughness& pbr = out.pbrMetallicRoughness;
  pbr.baseColorFactor = {material.base_color.r, material.base_color.g, material.base_color.b,
                         material.base_color.a};
  pbr.metallicFactor = material.metallic_factor;
  pbr.roughnessFactor = material.roughness_factor;
  out.emissiveFactor = {material.emissive_factor.r, material.emissive_factor.g,
                        material.emissive_factor.b};
  out.alphaMode = alphaModeName(material.alpha_mode);
  out.alphaCutoff = material.alpha_cutoff;
  out.doubleSided = material.double_sided;
  addTexture(material.base_color_texture, pbr.baseColorTexture, model, transforms);
  addTexture(material.metallic_roughness_texture, pbr.metallicRoughnessTexture, model, transforms);
  addTexture(material.normal_texture, out.normalTexture, model, transforms);
  out.normalTexture.scale = material.normal_scale;
  addTexture(material.occlusion_texture, out.occlusionTexture, model, transforms);
  out.occlusionTexture.strength = material.occlusion_strength;
  addTexture(material.emissive_texture, out.emissiveTexture, model, transforms);
  if (material.emissive_strength != 1.0f) {
    out.extensions["KHR_materials_emissive_strength"] = tinygltf::Value(
        tinygltf::Value::Object{{"emissiveStrength", number(material.emissive_strength)}});
    strength = true;
  }
  return out;
}

// Images as lossless PNG in buffer views, one sampler + texture per material texture, and the
// materials. Returns false when an image does not encode.
bool addLooks(const Character& character, ModelBuilder& builder, tinygltf::Model& model) {
  for (const SourceImage& image : character.images) {
    std::string png;
    const ImageLevel& level = image.pixels;
    if (!encodePng(level.rgba.data(), level.width, level.height, 4, png)) return false;
    tinygltf::Image out;
    out.name = image.name;
    out.mimeType = "image/png";
    out.bufferView = builder.addView(png.data(), png.size(), 0);
    model.images.push_back(std::move(out));
  }
  bool transforms = false;
  bool strength = false;
  for (const Material& material : character.materials) {
    model.materials.push_back(gltfMaterial(material, model, transforms, strength));
  }
  if (transforms) model.extensionsUsed.push_back("KHR_texture_transform");
  if (strength) model.extensionsUsed.push_back("KHR_materials_emissive_strength");
  if (!character.variants.empty()) {
    tinygltf::Value::Array variants;
    for (const std::string& name : character.variants) {
      variants.push_back(tinygltf::Value(tinygltf::Value::Object{{"name", tinygltf::Value(name)}}));
    }
    model.extensions["KHR_materials_variants"] =
        tinygltf::Value(tinygltf::Value::Object{{"variants", tinygltf::Value(variants)}});
    model.extensionsUsed.push_back("KHR_materials_variants");
  }
  return true;
}

// KHR_materials_variants mappings of one sub-mesh: one entry per material, listing its variants.
tinygltf::Value variantMappings(const SubMesh& sub) {
  std::map<uint32_t, tinygltf::Value::Array> by_material;
  for (size_t v = 0; v < sub.variant_materials.size(); ++v) {
    by_material[sub.variant_materials[v]].push_back(tinygltf::Value(static_cast<int>(v)));
  }
  tinygltf::Value::Array mappings;
  for (auto& [material, variants] : by_material) {
    mappings.push_back(tinygltf::Value(
        tinygltf::Value::Object{{"material", tinygltf::Value(static_cast<int>(material))},
                                {"variants", tinygltf::Value(std::move(variants))}}));
  }
  return tinygltf::Value(tinygltf::Value::Object{{"mappings", tinygltf::Value(mappings)}});
}

// Returns the mesh node's index, or -1 when there is no mesh to write.
int addMesh(const Character& character, const GltfExportOptions& options, ModelBuilder& builder,
            tinygltf::Model& model) {
  const SkinnedMesh& mesh = character.mesh;
  const size_t n = mesh.vertexCount();
  if (n == 0) return -1;
  tinygltf::Mesh out;
  out.name = "mesh";
  std::map<std::string, int> attributes;
  attributes["POSITION"] =
      builder.addFloats(&mesh.positions[0].x, n, 3, TINYGLTF_TYPE_VEC3, kArrayBuffer, true);
  attributes["NORMAL"] =
      builder.addFloats(&mesh.normals[0].x, n, 3, TINYGLTF_TYPE_VEC3, kArrayBuffer, false);
  if (!mesh.uvs.empty()) {
    attributes["TEXCOORD_0"] =
        builder.addFloats(&mesh.uvs[0].x, n, 2, TINYGLTF_TYPE_VEC2, kArrayBuffer, false);
  }
  if (!mesh.uvs1.empty()) {
    attributes["TEXCOORD_1"] =
        builder.addFloats(&mesh.uvs1[0].x, n, 2, TINYGLTF_TYPE_VEC2, kArrayBuffer, false);
  }
  if (!mesh.colors.empty()) {
    attributes["COLOR_0"] =
        builder.addFloats(&mesh.colors[0].x, n, 4, TINYGLTF_TYPE_VEC4, kArrayBuffer, false);
  }
  if (!mesh.tangents.empty() && options.tangents) {
    attributes["TANGENT"] =
        builder.addFloats(&mesh.tangents[0].x, n, 4, TINYGLTF_TYPE_VEC4, kArrayBuffer, false);
  }
  const int joints_view =
      builder.addView(mesh.joints.data(), n * sizeof(glm::u16vec4), kArrayBuffer);
  attributes["JOINTS_0"] = builder.addAccessor(
      joints_view, 0, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4, n);
  attributes["WEIGHTS_0"] =
      builder.addFloats(&mesh.weights[0].x, n, 4, TINYGLTF_TYPE_VEC4, kArrayBuffer, false);

  std::vector<SubMesh> submeshes = mesh.submeshes;
  if (submeshes.empty() && !mesh.indices.empty()) {
    submeshes.push_back({"mesh", 0, static_cast<uint32_t>(mesh.indices.size())});
  }
  const int index_view =
      mesh.indices.empty()
          ? -1
          : builder.addView(mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t),
                            kElementArrayBuffer);
  for (const SubMesh& sub : submeshes) {
    tinygltf::Primitive primitive;
    primitive.attributes = attributes;
    primitive.mode = kTriangles;
    primitive.material = character.materials.empty() ? -1 : static_cast<int>(sub.material);
    primitive.indices = builder.addAccessor(index_view, sub.first_index * sizeof(uint32_t),
                                            TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT,
                                            TINYGLTF_TYPE_SCALAR, sub.index_count);
    if (!sub.variant_materials.empty()) {
      primitive.extensions["KHR_materials_variants"] = variantMappings(sub);
    }
    out.primitives.push_back(std::move(primitive));
  }
  model.meshes.push_back(std::move(out));

  tinygltf::Node node;
  node.name = "mesh";
  node.mesh = 0;
  node.skin = 0;
  model.nodes.push_back(std::move(node));
  return static_cast<int>(model.nodes.size() - 1);
}

void addChannel(tinygltf::Animation& animation, int input, int output, Interpolation interpolation,
                int node, const char* path) {
  tinygltf::AnimationSampler sampler;
  sampler.input = input;
  sampler.output = output;
  sampler.interpolation = interpolationName(interpolation);
  animation.samplers.push_back(std::move(sampler));
  tinygltf::AnimationChannel channel;
  channel.sampler = static_cast<int>(animation.samplers.size() - 1);
  channel.target_node = node;
  channel.target_path = path;
  animation.channels.push_back(std::move(channel));
}

void addAnimations(const Character& character, ModelBuilder& builder, tinygltf::Model& model) {
  for (const Clip& clip : character.clips) {
    tinygltf::Animation animation;
    animation.name = clip.name;
    for (size_t j = 0; j < clip.joints.size(); ++j) {
      const JointTracks& tracks = clip.joints[j];
      const int node = static_cast<int>(j);
      if (!tracks.translation.empty()) {
        const Vec3Track& t = tracks.translation;
        addChannel(
            animation, builder.addTimes(t.times),
            builder.addFloats(&t.values[0].x, t.values.size(), 3, TINYGLTF_TYPE_VEC3, 0, false),
            t.interpolation, node, "translation");
      }
      if (!tracks.rotation.empty()) {
        const QuatTrack& r = tracks.rotation;
        std::vector<float> xyzw;
        xyzw.reserve(r.values.size() * 4);
        for (const glm::quat& q : r.values) xyzw.insert(xyzw.end(), {q.x, q.y, q.z, q.w});
        addChannel(animation, builder.addTimes(r.times),
                   builder.addFloats(xyzw.data(), r.values.size(), 4, TINYGLTF_TYPE_VEC4, 0, false),
                   r.interpolation, node, "rotation");
      }
      if (!tracks.scale.empty()) {
        const Vec3Track& s = tracks.scale;
        addChannel(
            animation, builder.addTimes(s.times),
            builder.addFloats(&s.values[0].x, s.values.size(), 3, TINYGLTF_TYPE_VEC3, 0, false),
            s.interpolation, node, "scale");
      }
    }
    if (animation.channels.empty() && character.skeleton.jointCount() > 0) {
      const glm::quat q = character.skeleton.restPoses()[0].rotation;
      const float xyzw[4] = {q.x, q.y, q.z, q.w};
      addChannel(animation, builder.addTimes({clip.start_time}),
                 builder.addFloats(xyzw, 1, 4, TINYGLTF_TYPE_VEC4, 0, false), Interpolation::kStep,
                 0, "rotation");
    }
    if (!animation.channels.empty()) model.animations.push_back(std::move(animation));
  }
}

bool endsWithGlb(const std::string& path) {
  if (path.size() < 4) return false;
  std::string tail = path.substr(path.size() - 4);
  std::transform(tail.begin(), tail.end(), tail.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return tail == ".glb";
}

}  // namespace

Status writeGltf(const Character& character, const std::string& path,
                 const GltfExportOptions& options) {
  if (Status s = validateCharacter(character, path); !s.ok()) return s;

  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = "throng";
  ModelBuilder builder(model);
  const Skeleton& skeleton = character.skeleton;
  addNodes(skeleton, model);
  addSkin(skeleton, builder, model);
  if (!addLooks(character, builder, model)) {
    return Status(ErrorCode::kIoError, fmt::format("{}: an image did not encode as PNG", path));
  }
  const int mesh_node = addMesh(character, options, builder, model);
  addAnimations(character, builder, model);

  tinygltf::Scene scene;
  scene.name = "scene";
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.parents()[j] == kNoParent) scene.nodes.push_back(j);
  }
  if (mesh_node >= 0) scene.nodes.push_back(mesh_node);
  model.scenes.push_back(std::move(scene));
  model.defaultScene = 0;

  const bool binary = endsWithGlb(path);
  std::ostringstream stream(std::ios::binary);
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToStream(&model, stream, /*prettyPrint=*/!binary, binary)) {
    return Status(ErrorCode::kIoError, fmt::format("{}: the glTF serialiser failed", path));
  }
  return writeFileAtomically(path, stream.str());
}

}  // namespace throng
