// Tests of the glTF writer: valid .glb/.gltf structure, exact data, and round trips via the
// importer.
#include "throng/offline/gltf_export.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include "support/material_character.h"
#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/offline/sample_character.h"

#include "throng/offline/gltf_import.h"
#include "throng/offline/tangents.h"

namespace throng {
namespace {

const Character& exportSample() {
  static const Character character = makeSampleCharacter();
  return character;
}

struct Loaded {
  tinygltf::Model model;
  std::string error, warning;
  bool ok = false;
};

Loaded load(const std::string& path, bool binary) {
  Loaded out;
  tinygltf::TinyGLTF loader;
  out.ok = binary ? loader.LoadBinaryFromFile(&out.model, &out.error, &out.warning, path)
                  : loader.LoadASCIIFromFile(&out.model, &out.error, &out.warning, path);
  return out;
}

// Element 0 of a tightly packed accessor, after checking it lies inside its buffer.
template <typename T>
const T* accessorData(const tinygltf::Model& m, int accessor_index) {
  const tinygltf::Accessor& a = m.accessors.at(accessor_index);
  const tinygltf::BufferView& v = m.bufferViews.at(a.bufferView);
  const tinygltf::Buffer& b = m.buffers.at(v.buffer);
  EXPECT_LE(a.byteOffset + a.count * sizeof(T), v.byteLength);
  EXPECT_LE(v.byteOffset + v.byteLength, b.data.size());
  EXPECT_EQ((v.byteOffset + a.byteOffset) % 4, 0u);
  EXPECT_TRUE(v.byteStride == 0 || v.byteStride == sizeof(T));
  return reinterpret_cast<const T*>(b.data.data() + v.byteOffset + a.byteOffset);
}

template <typename T>
bool sameBytes(const T* a, const T* b, size_t count) {
  return std::memcmp(a, b, count * sizeof(T)) == 0;
}

// Checks the written model against the character, element by element (bit-exact: floats travel
// as floats in the buffer, and as shortest round-trip doubles in the JSON).
void expectModelMatches(const tinygltf::Model& m, const Character& c) {
  const int joints = c.skeleton.jointCount();
  EXPECT_EQ(m.asset.version, "2.0");
  ASSERT_EQ(static_cast<int>(m.nodes.size()), joints + 1);
  ASSERT_EQ(m.scenes.size(), 1u);
  EXPECT_EQ(m.defaultScene, 0);
  for (int j = 0; j < joints; ++j) {
    SCOPED_TRACE(c.skeleton.names()[j]);
    const tinygltf::Node& node = m.nodes[j];
    EXPECT_EQ(node.name, c.skeleton.names()[j]);
    const Transform& rest = c.skeleton.restPoses()[j];
    ASSERT_EQ(node.translation.size(), 3u);
    ASSERT_EQ(node.rotation.size(), 4u);
    ASSERT_EQ(node.scale.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(static_cast<float>(node.translation[k]), rest.translation[k]);
      EXPECT_EQ(static_cast<float>(node.scale[k]), rest.scale[k]);
    }
    const float xyzw[4] = {rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w};
    for (int k = 0; k < 4; ++k) EXPECT_EQ(static_cast<float>(node.rotation[k]), xyzw[k]);
    EXPECT_EQ(node.children, c.skeleton.children(j));
    EXPECT_EQ(node.mesh, -1);
  }
  const tinygltf::Node& mesh_node = m.nodes[joints];
  EXPECT_EQ(mesh_node.mesh, 0);
  EXPECT_EQ(mesh_node.skin, 0);
  EXPECT_TRUE(mesh_node.translation.empty() && mesh_node.matrix.empty());
  const std::vector<int>& scene = m.scenes[0].nodes;
  EXPECT_NE(std::find(scene.begin(), scene.end(), joints), scene.end());
  for (int j = 0; j < joints; ++j) {
    const bool root = c.skeleton.parents()[j] == kNoParent;
    EXPECT_EQ(std::find(scene.begin(), scene.end(), j) != scene.end(), root) << j;
  }

  // Skin: every joint, inverse binds column-major like glm.
  ASSERT_EQ(m.skins.size(), 1u);
  const tinygltf::Skin& skin = m.skins[0];
  ASSERT_EQ(static_cast<int>(skin.joints.size()), joints);
  for (int j = 0; j < joints; ++j) EXPECT_EQ(skin.joints[j], j);
  const tinygltf::Accessor& ibm = m.accessors.at(skin.inverseBindMatrices);
  EXPECT_EQ(ibm.type, TINYGLTF_TYPE_MAT4);
  EXPECT_EQ(ibm.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  ASSERT_EQ(static_cast<int>(ibm.count), joints);
  EXPECT_TRUE(sameBytes(accessorData<glm::mat4>(m, skin.inverseBindMatrices),
                        c.skeleton.inverseBinds().data(), joints));

  // Mesh: one primitive per sub-mesh sharing the vertex attributes.
  ASSERT_EQ(m.meshes.size(), 1u);
  const tinygltf::Mesh& mesh = m.meshes[0];
  ASSERT_EQ(mesh.primitives.size(), c.mesh.submeshes.size());
  const size_t n = c.mesh.vertexCount();
  for (size_t p = 0; p < mesh.primitives.size(); ++p) {
    const tinygltf::Primitive& prim = mesh.primitives[p];
    const SubMesh& sub = c.mesh.submeshes[p];
    EXPECT_EQ(prim.mode, TINYGLTF_MODE_TRIANGLES);
    ASSERT_GE(prim.material, 0);
    EXPECT_EQ(m.materials.at(prim.material).name, sub.name);
    for (const char* name : {"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"}) {
      ASSERT_EQ(prim.attributes.count(name), 1u) << name;
      EXPECT_EQ(m.accessors.at(prim.attributes.at(name)).count, n) << name;
    }
    const tinygltf::Accessor& pos = m.accessors.at(prim.attributes.at("POSITION"));
    EXPECT_EQ(pos.type, TINYGLTF_TYPE_VEC3);
    ASSERT_EQ(pos.minValues.size(), 3u);
    ASSERT_EQ(pos.maxValues.size(), 3u);
    const Bounds bounds = computeBounds(c.mesh.positions);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(static_cast<float>(pos.minValues[k]), bounds.min[k]);
      EXPECT_EQ(static_cast<float>(pos.maxValues[k]), bounds.max[k]);
    }
    const tinygltf::Accessor& joints0 = m.accessors.at(prim.attributes.at("JOINTS_0"));
    EXPECT_EQ(joints0.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
    EXPECT_EQ(joints0.type, TINYGLTF_TYPE_VEC4);
    const tinygltf::Accessor& weights0 = m.accessors.at(prim.attributes.at("WEIGHTS_0"));
    EXPECT_EQ(weights0.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
    EXPECT_EQ(weights0.type, TINYGLTF_TYPE_VEC4);
    EXPECT_TRUE(sameBytes(accessorData<glm::vec3>(m, prim.attributes.at("POSITION")),
                          c.mesh.positions.data(), n));
    EXPECT_TRUE(sameBytes(accessorData<glm::vec3>(m, prim.attributes.at("NORMAL")),
                          c.mesh.normals.data(), n));
    EXPECT_TRUE(sameBytes(accessorData<glm::vec2>(m, prim.attributes.at("TEXCOORD_0")),
                          c.mesh.uvs.data(), n));
    EXPECT_TRUE(sameBytes(accessorData<glm::u16vec4>(m, prim.attributes.at("JOINTS_0")),
                          c.mesh.joints.data(), n));
    EXPECT_TRUE(sameBytes(accessorData<glm::vec4>(m, prim.attributes.at("WEIGHTS_0")),
                          c.mesh.weights.data(), n));
    const tinygltf::Accessor& indices = m.accessors.at(prim.indices);
    EXPECT_EQ(indices.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    ASSERT_EQ(indices.count, sub.index_count);
    EXPECT_TRUE(sameBytes(accessorData<uint32_t>(m, prim.indices),
                          c.mesh.indices.data() + sub.first_index, sub.index_count));
  }

  // Animations: one per clip, one sampler per non-empty track.
  ASSERT_EQ(m.animations.size(), c.clips.size());
  for (size_t a = 0; a < c.clips.size(); ++a) {
    const Clip& clip = c.clips[a];
    const tinygltf::Animation& anim = m.animations[a];
    SCOPED_TRACE(clip.name);
    EXPECT_EQ(anim.name, clip.name);
    size_t tracks = 0;
    for (const JointTracks& t : clip.joints) {
      tracks += !t.translation.empty() + !t.rotation.empty() + !t.scale.empty();
    }
    EXPECT_EQ(anim.channels.size(), tracks);
    EXPECT_EQ(anim.samplers.size(), tracks);
    for (const tinygltf::AnimationChannel& channel : anim.channels) {
      const tinygltf::AnimationSampler& sampler = anim.samplers.at(channel.sampler);
      const tinygltf::Accessor& input = m.accessors.at(sampler.input);
      ASSERT_EQ(input.minValues.size(), 1u);
      ASSERT_EQ(input.maxValues.size(), 1u);
      const JointTracks& t = clip.joints.at(channel.target_node);
      if (channel.target_path == "rotation") {
        EXPECT_EQ(sampler.interpolation, "LINEAR");
        ASSERT_EQ(input.count, t.rotation.times.size());
        EXPECT_TRUE(
            sameBytes(accessorData<float>(m, sampler.input), t.rotation.times.data(), input.count));
        EXPECT_EQ(static_cast<float>(input.maxValues[0]), t.rotation.times.back());
        const float* xyzw = accessorData<float>(m, sampler.output);
        for (size_t k = 0; k < t.rotation.values.size(); ++k) {
          const glm::quat& q = t.rotation.values[k];
          EXPECT_EQ(xyzw[4 * k + 0], q.x);
          EXPECT_EQ(xyzw[4 * k + 3], q.w);
        }
      } else {
        EXPECT_EQ(channel.target_path, "translation");
        EXPECT_EQ(m.accessors.at(sampler.output).count, t.translation.values.size());
        EXPECT_TRUE(sameBytes(accessorData<glm::vec3>(m, sampler.output),
                              t.translation.values.data(), t.translation.values.size()));
      }
    }
  }
}

TEST(GltfExport, WritesAValidGlbWithExactData) {
  const auto dir = test::makeTempDir("gltf_export_glb");
  const std::string path = (dir / "sample.glb").string();
  const Status status = writeGltf(exportSample(), path);
  ASSERT_TRUE(status.ok()) << status.toString();
  // GLB header: magic, version 2, total length; then the JSON chunk.
  const std::string bytes = test::readFile(path);
  ASSERT_GE(bytes.size(), 20u);
  EXPECT_EQ(bytes.substr(0, 4), "glTF");
  uint32_t version = 0, length = 0, chunk_type = 0;
  std::memcpy(&version, bytes.data() + 4, 4);
  std::memcpy(&length, bytes.data() + 8, 4);
  std::memcpy(&chunk_type, bytes.data() + 16, 4);
  EXPECT_EQ(version, 2u);
  EXPECT_EQ(length, bytes.size());
  EXPECT_EQ(chunk_type, 0x4E4F534Au);  // "JSON"
  // Only the file is left in the folder.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  const Loaded loaded = load(path, true);
  ASSERT_TRUE(loaded.ok) << loaded.error;
  EXPECT_TRUE(loaded.error.empty()) << loaded.error;
  expectModelMatches(loaded.model, exportSample());
}

TEST(GltfExport, WritesAStandaloneGltfWithAnEmbeddedBuffer) {
  const auto dir = test::makeTempDir("gltf_export_gltf");
  const std::string path = (dir / "sample.gltf").string();
  const Status status = writeGltf(exportSample(), path);
  ASSERT_TRUE(status.ok()) << status.toString();
  const std::string text = test::readFile(path);
  EXPECT_EQ(text.front(), '{');
  EXPECT_NE(text.find("data:application/octet-stream;base64,"), std::string::npos);
  const Loaded loaded = load(path, false);
  ASSERT_TRUE(loaded.ok) << loaded.error;
  expectModelMatches(loaded.model, exportSample());
}

TEST(GltfExport, KeepsEveryInterpolationAndGivesKeylessClipsAChannel) {
  Character c = test::makeChainCharacter();
  ASSERT_FALSE(c.clips.empty());
  // A cubic-spline scale track on joint 1 (three values per key), and a clip with no keys.
  Vec3Track& scale = c.clips[0].joints[1].scale;
  scale.interpolation = Interpolation::kCubicSpline;
  scale.times = {c.clips[0].start_time, c.clips[0].end_time};
  scale.values = {glm::vec3(0),     glm::vec3(1), glm::vec3(0.5f),
                  glm::vec3(0.25f), glm::vec3(2), glm::vec3(0)};
  Clip empty;
  empty.name = "empty";
  empty.joints.resize(c.skeleton.jointCount());
  c.clips.push_back(empty);
  const auto dir = test::makeTempDir("gltf_export_interp");
  const std::string path = (dir / "chain.GLB").string();  // the extension is case-insensitive
  const Status status = writeGltf(c, path);
  ASSERT_TRUE(status.ok()) << status.toString();
  const Loaded loaded = load(path, true);
  ASSERT_TRUE(loaded.ok) << loaded.error;
  const tinygltf::Model& m = loaded.model;
  ASSERT_EQ(m.animations.size(), c.clips.size());
  std::vector<std::string> seen;
  for (const auto& sampler : m.animations[0].samplers) seen.push_back(sampler.interpolation);
  EXPECT_NE(std::find(seen.begin(), seen.end(), "CUBICSPLINE"), seen.end());
  EXPECT_NE(std::find(seen.begin(), seen.end(), "STEP"), seen.end());
  EXPECT_NE(std::find(seen.begin(), seen.end(), "LINEAR"), seen.end());
  for (const auto& channel : m.animations[0].channels) {
    if (channel.target_path != "scale") continue;
    const auto& sampler = m.animations[0].samplers[channel.sampler];
    EXPECT_EQ(m.accessors[sampler.output].count, 6u);  // in-tangent, value, out-tangent per key
  }
  const tinygltf::Animation& keyless = m.animations.back();
  EXPECT_EQ(keyless.name, "empty");
  ASSERT_EQ(keyless.channels.size(), 1u);
  EXPECT_EQ(keyless.samplers[0].interpolation, "STEP");
}

TEST(GltfExport, RejectsAnInvalidCharacterWithoutWritingAFile) {
  Character c = test::makeChainCharacter();
  c.mesh.normals.pop_back();
  const auto dir = test::makeTempDir("gltf_export_invalid");
  const std::string path = (dir / "bad.glb").string();
  const Status status = writeGltf(c, path);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidData);
  EXPECT_NE(status.message().find(path), std::string::npos) << status.message();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(GltfExport, ReportsAnUnwritablePath) {
  const auto dir = test::makeTempDir("gltf_export_io");
  const std::string path = (dir / "missing" / "sample.glb").string();
  const Status status = writeGltf(test::makeChainCharacter(), path);
  EXPECT_EQ(status.code(), ErrorCode::kIoError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

// Largest difference between the palettes of two characters for one clip at one time.
float paletteDifference(const Character& a, const Clip& clip_a, const Character& b,
                        const Clip& clip_b, float time) {
  PoseScratch sa, sb;
  sa.resize(a.skeleton.jointCount());
  sb.resize(b.skeleton.jointCount());
  std::vector<JointRows> pa(a.skeleton.jointCount()), pb(b.skeleton.jointCount());
  evaluatePalette(a.skeleton, &clip_a, time, sa, pa);
  evaluatePalette(b.skeleton, &clip_b, time, sb, pb);
  float worst = 0.0f;
  for (int j = 0; j < a.skeleton.jointCount(); ++j) {
    const int k = b.skeleton.findJoint(a.skeleton.names()[j]);
    EXPECT_GE(k, 0);
    if (k < 0) return 1e9f;
    worst = std::max(worst, maxAbsDifference(unpackRows(pa[j]), unpackRows(pb[k])));
  }
  return worst;
}

// Materials, images, variants and the per-vertex and per-sub-mesh looks come back exactly (floats
// travel as JSON numbers and float accessors, images as lossless PNG).
void expectSameLooks(const Character& original, const Character& back) {
  EXPECT_EQ(back.variants, original.variants);
  ASSERT_EQ(back.materials.size(), original.materials.size());
  for (size_t m = 0; m < original.materials.size(); ++m) {
    const Material& a = original.materials[m];
    const Material& b = back.materials[m];
    SCOPED_TRACE(a.name);
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.base_color, a.base_color);
    EXPECT_EQ(b.alpha_mode, a.alpha_mode);
    EXPECT_EQ(b.alpha_cutoff, a.alpha_cutoff);
    EXPECT_EQ(b.double_sided, a.double_sided);
    EXPECT_EQ(b.metallic_factor, a.metallic_factor);
    EXPECT_EQ(b.roughness_factor, a.roughness_factor);
    EXPECT_EQ(b.emissive_factor, a.emissive_factor);
    const TextureRef& ta = a.base_color_texture;
    const TextureRef& tb = b.base_color_texture;
    EXPECT_EQ(tb.image, ta.image);
    EXPECT_EQ(tb.uv_set, ta.uv_set);
    EXPECT_EQ(tb.sampler.mag_filter, ta.sampler.mag_filter);
    EXPECT_EQ(tb.sampler.min_filter, ta.sampler.min_filter);
    EXPECT_EQ(tb.sampler.wrap_s, ta.sampler.wrap_s);
    EXPECT_EQ(tb.sampler.wrap_t, ta.sampler.wrap_t);
    EXPECT_EQ(tb.transform.offset, ta.transform.offset);
    EXPECT_EQ(tb.transform.rotation, ta.transform.rotation);
    EXPECT_EQ(tb.transform.scale, ta.transform.scale);
  }
  ASSERT_EQ(back.images.size(), original.images.size());
  for (size_t i = 0; i < original.images.size(); ++i) {
    EXPECT_EQ(back.images[i].name, original.images[i].name);
    EXPECT_EQ(back.images[i].pixels.width, original.images[i].pixels.width);
    EXPECT_EQ(back.images[i].pixels.height, original.images[i].pixels.height);
    EXPECT_EQ(back.images[i].pixels.rgba, original.images[i].pixels.rgba);
  }
  ASSERT_EQ(back.mesh.submeshes.size(), original.mesh.submeshes.size());
  for (size_t s = 0; s < original.mesh.submeshes.size(); ++s) {
    const SubMesh& a = original.mesh.submeshes[s];
    const SubMesh& b = back.mesh.submeshes[s];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.material, a.material);
    EXPECT_EQ(b.variant_materials, a.variant_materials);
    EXPECT_EQ(b.first_index, a.first_index);
    EXPECT_EQ(b.index_count, a.index_count);
  }
  EXPECT_EQ(back.mesh.colors.empty(), original.mesh.colors.empty());
  EXPECT_EQ(back.mesh.uvs1.empty(), original.mesh.uvs1.empty());
  for (size_t i = 0; i < original.mesh.indices.size(); ++i) {
    const uint32_t a = original.mesh.indices[i];
    const uint32_t b = back.mesh.indices[i];
    if (!original.mesh.colors.empty()) {
      ASSERT_EQ(back.mesh.colors[b], original.mesh.colors[a]);
    }
    if (!original.mesh.uvs1.empty()) {
      ASSERT_EQ(back.mesh.uvs1[b], original.mesh.uvs1[a]);
    }
    if (!original.mesh.uvs.empty()) {
      ASSERT_EQ(back.mesh.uvs[b], original.mesh.uvs[a]);
    }
  }
}

void expectSameCharacter(const Character& original, const Character& back) {
  expectSameLooks(original, back);
  const Skeleton& s = original.skeleton;
  ASSERT_EQ(back.skeleton.jointCount(), s.jointCount());
  std::vector<int> map(s.jointCount());
  for (int j = 0; j < s.jointCount(); ++j) {
    SCOPED_TRACE(s.names()[j]);
    const int k = back.skeleton.findJoint(s.names()[j]);
    ASSERT_GE(k, 0);
    map[j] = k;
    const int parent = s.parents()[j];
    const int back_parent = back.skeleton.parents()[k];
    if (parent == kNoParent) {
      EXPECT_EQ(back_parent, kNoParent);
    } else {
      ASSERT_NE(back_parent, kNoParent);
      EXPECT_EQ(back.skeleton.names()[back_parent], s.names()[parent]);
    }
    EXPECT_LT(maxAbsDifference(toMatrix(s.restPoses()[j]), toMatrix(back.skeleton.restPoses()[k])),
              1e-6f);
    EXPECT_LT(maxAbsDifference(s.inverseBinds()[j], back.skeleton.inverseBinds()[k]), 1e-6f);
  }
  // Same triangles over the same skinned vertices (compared corner by corner, so the importer
  // may index them differently).
  ASSERT_EQ(back.mesh.triangleCount(), original.mesh.triangleCount());
  // Sub-meshes over one vertex set come back sharing it, not copied per primitive.
  EXPECT_EQ(back.mesh.vertexCount(), original.mesh.vertexCount());
  for (size_t i = 0; i < original.mesh.indices.size(); ++i) {
    const uint32_t a = original.mesh.indices[i];
    const uint32_t b = back.mesh.indices[i];
    ASSERT_LT(glm::length(original.mesh.positions[a] - back.mesh.positions[b]), 1e-6f) << i;
    ASSERT_LT(glm::length(original.mesh.normals[a] - back.mesh.normals[b]), 1e-5f) << i;
    for (int w = 0; w < kMaxInfluences; ++w) {
      ASSERT_NEAR(original.mesh.weights[a][w], back.mesh.weights[b][w], 1e-6f) << i;
      if (original.mesh.weights[a][w] > 0.0f) {
        ASSERT_EQ(map[original.mesh.joints[a][w]], back.mesh.joints[b][w]) << i;
      }
    }
  }
  // Same clips: palettes equal at several times.
  ASSERT_EQ(back.clips.size(), original.clips.size());
  for (const Clip& clip : original.clips) {
    const int index = back.findClip(clip.name);
    ASSERT_GE(index, 0) << clip.name;
    const Clip& other = back.clips[index];
    EXPECT_FLOAT_EQ(other.start_time, clip.start_time);
    EXPECT_FLOAT_EQ(other.end_time, clip.end_time);
    for (int k = 0; k <= 7; ++k) {
      const float t = clip.start_time + clip.duration() * k / 7.0f;
      EXPECT_LT(paletteDifference(original, clip, back, other, t), 1e-5f)
          << clip.name << " at " << t;
    }
  }
}

TEST(GltfExport, SampleCharacterRoundTripsThroughTheImporter) {
  const auto dir = test::makeTempDir("gltf_export_roundtrip");
  for (const char* name : {"sample.glb", "sample.gltf"}) {
    SCOPED_TRACE(name);
    const std::string path = (dir / name).string();
    ASSERT_TRUE(writeGltf(exportSample(), path).ok());
    Result<Character> back = importGltf(path);
    ASSERT_TRUE(back.ok()) << back.status().toString();
    expectSameCharacter(exportSample(), *back);
  }
}

TEST(GltfExport, MaterialsTexturesColoursAndVariantsRoundTrip) {
  Character c = test::makeMaterialCharacter();
  // A second uv set and a transform, which the fixture itself does not use.
  for (const glm::vec2& uv : c.mesh.uvs) c.mesh.uvs1.push_back(uv * 0.5f + glm::vec2(0.25f));
  TextureRef& t = c.materials[1].base_color_texture;
  t.uv_set = 1;
  t.transform = {glm::vec2(0.125f, -0.5f), 0.3f, glm::vec2(2.0f, 0.75f)};
  t.sampler.min_filter = TextureFilter::kLinearMipmapNearest;
  t.sampler.wrap_s = TextureWrap::kMirroredRepeat;
  const auto dir = test::makeTempDir("gltf_export_looks");
  for (const char* name : {"looks.glb", "looks.gltf"}) {
    SCOPED_TRACE(name);
    const std::string path = (dir / name).string();
    ASSERT_TRUE(writeGltf(c, path).ok());
    Result<Character> back = importGltf(path);
    ASSERT_TRUE(back.ok()) << back.status().toString();
    expectSameCharacter(c, *back);
    // Other viewers see standard glTF: PNG images, extensions declared.
    const Loaded loaded = load(path, std::string(name).ends_with(".glb"));
    ASSERT_TRUE(loaded.ok) << loaded.error;
    ASSERT_EQ(loaded.model.images.size(), 2u);
    EXPECT_EQ(loaded.model.images[0].mimeType, "image/png");
    EXPECT_EQ(loaded.model.extensionsUsed,
              (std::vector<std::string>{"KHR_texture_transform", "KHR_materials_variants"}));
    EXPECT_TRUE(loaded.model.extensionsRequired.empty());
  }
  std::filesystem::remove_all(dir);
}

TEST(GltfExport, MetallicRoughnessTexturesAndTangentsRoundTrip) {
  Character c = test::makeMaterialCharacter();
  Material& m = c.materials[1];
  m.metallic_factor = 0.125f;
  m.roughness_factor = 0.625f;
  m.metallic_roughness_texture = m.base_color_texture;
  m.metallic_roughness_texture.image = 2;
  m.normal_texture = m.metallic_roughness_texture;
  m.normal_texture.transform.rotation = 0.5f;
  m.normal_scale = -0.75f;
  m.occlusion_texture = m.metallic_roughness_texture;
  m.occlusion_strength = 0.25f;
  m.emissive_factor = glm::vec3(1.0f, 0.5f, 0.0f);
  m.emissive_strength = 3.0f;
  m.emissive_texture = m.base_color_texture;
  SourceImage data = c.images[0];
  data.name = "orm";
  c.images.push_back(data);
  ASSERT_TRUE(generateTangents(c.mesh, c.materials).ok());
  ASSERT_TRUE(validateCharacter(c, "looks").ok());
  const auto dir = test::makeTempDir("gltf_export_pbr");
  const std::string path = (dir / "pbr.glb").string();
  ASSERT_TRUE(writeGltf(c, path).ok());
  Result<Character> back = importGltf(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  const Material& b = back->materials[1];
  EXPECT_EQ(b.metallic_factor, 0.125f);
  EXPECT_EQ(b.roughness_factor, 0.625f);
  EXPECT_EQ(b.normal_scale, -0.75f);
  EXPECT_EQ(b.occlusion_strength, 0.25f);
  EXPECT_EQ(b.emissive_factor, glm::vec3(1.0f, 0.5f, 0.0f));
  EXPECT_EQ(b.emissive_strength, 3.0f);
  for (int s = 0; s < kTextureSlotCount; ++s) {
    const auto slot = static_cast<TextureSlot>(s);
    SCOPED_TRACE(textureSlotName(slot));
    const TextureRef& want = m.texture(slot);
    const TextureRef& got = b.texture(slot);
    ASSERT_TRUE(got.present());
    EXPECT_EQ(back->images[static_cast<size_t>(got.image)].pixels.rgba,
              c.images[static_cast<size_t>(want.image)].pixels.rgba);
    EXPECT_EQ(got.uv_set, want.uv_set);
    EXPECT_EQ(got.sampler.min_filter, want.sampler.min_filter);
    EXPECT_EQ(got.transform.rotation, want.transform.rotation);
  }
  // The tangents travel as TANGENT and come back as the file's.
  EXPECT_EQ(back->mesh.tangent_source, TangentSource::kFile);
  EXPECT_EQ(back->mesh.tangents, c.mesh.tangents);
  const Loaded loaded = load(path, true);
  ASSERT_TRUE(loaded.ok) << loaded.error;
  EXPECT_NE(std::find(loaded.model.extensionsUsed.begin(), loaded.model.extensionsUsed.end(),
                      "KHR_materials_emissive_strength"),
            loaded.model.extensionsUsed.end());
  std::filesystem::remove_all(dir);
}

TEST(GltfExport, BenchmarkHumanoidRoundTripsThroughTheImporter) {
  const auto dir = test::makeTempDir("gltf_export_humanoid");
  const Character humanoid = makeBenchmarkHumanoid();
  const std::string path = (dir / "humanoid.glb").string();
  ASSERT_TRUE(writeGltf(humanoid, path).ok());
  Result<Character> back = importGltf(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSameCharacter(humanoid, *back);
  // Every channel comes back keyed, on the same times.
  for (const Clip& clip : back->clips) {
    for (const JointTracks& t : clip.joints) {
      EXPECT_FALSE(t.translation.empty() || t.rotation.empty() || t.scale.empty()) << clip.name;
    }
  }
}

TEST(GltfExport, ImportedAssetRoundTripsThroughTheWriter) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  Result<Character> original = importGltf(test::assetPath("CesiumMan/CesiumMan.glb").string());
  ASSERT_TRUE(original.ok()) << original.status().toString();
  const auto dir = test::makeTempDir("gltf_export_cesium");
  const std::string path = (dir / "cesium.glb").string();
  ASSERT_TRUE(writeGltf(*original, path).ok());
  Result<Character> back = importGltf(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSameCharacter(*original, *back);
}

}  // namespace
}  // namespace throng
