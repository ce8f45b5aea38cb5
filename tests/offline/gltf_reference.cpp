// Test oracle: glTF skinning computed straight from tinygltf data, independent of the importer.
#include "offline/gltf_reference.h"

#include <cstring>

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include "throng/core/morph.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng::test {
namespace {

bool noImages(tinygltf::Image*, const int, std::string*, std::string*, int, int,
              const unsigned char*, int, void*) {
  return true;
}

struct Trs {
  glm::vec3 t{0.0f};
  glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 s{1.0f};
  bool has_matrix = false;
  glm::mat4 matrix{1.0f};
};

glm::mat4 toMat(const Trs& x) {
  if (x.has_matrix) return x.matrix;
  return glm::translate(glm::mat4(1.0f), x.t) * glm::mat4_cast(x.r) *
         glm::scale(glm::mat4(1.0f), x.s);
}

}  // namespace

bool loadTinyGltf(const std::string& path, tinygltf::Model& model) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&noImages, nullptr);
  std::string err, warn;
  const bool binary = path.size() > 4 && path.substr(path.size() - 4) == ".glb";
  const bool ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                         : loader.LoadASCIIFromFile(&model, &err, &warn, path);
  EXPECT_TRUE(ok) << path << ": " << err;
  return ok;
}

std::vector<float> accessorElement(const tinygltf::Model& model, int index, size_t i) {
  const tinygltf::Accessor& a = model.accessors.at(static_cast<size_t>(index));
  const int n = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type));
  const int size = tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(a.componentType));
  std::vector<float> out(static_cast<size_t>(n));
  auto decode = [&](const unsigned char* p) {
    for (int c = 0; c < n; ++c) {
      const unsigned char* q = p + c * size;
      float v = 0.0f;
      switch (a.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
          std::memcpy(&v, q, 4);
          break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
          v = *q;
          if (a.normalized) v /= 255.0f;
          break;
        case TINYGLTF_COMPONENT_TYPE_BYTE:
          v = static_cast<float>(static_cast<int8_t>(*q));
          if (a.normalized) v = std::max(v / 127.0f, -1.0f);
          break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          uint16_t s;
          std::memcpy(&s, q, 2);
          v = s;
          if (a.normalized) v /= 65535.0f;
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
          int16_t s;
          std::memcpy(&s, q, 2);
          v = s;
          if (a.normalized) v = std::max(v / 32767.0f, -1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
          uint32_t s;
          std::memcpy(&s, q, 4);
          v = static_cast<float>(s);
          break;
        }
        default:
          ADD_FAILURE() << "unexpected component type";
          break;
      }
      out[static_cast<size_t>(c)] = v;
    }
  };
  std::fill(out.begin(), out.end(), 0.0f);
  if (a.bufferView >= 0) {
    const tinygltf::BufferView& view = model.bufferViews.at(static_cast<size_t>(a.bufferView));
    const size_t stride = view.byteStride ? view.byteStride : static_cast<size_t>(n * size);
    decode(model.buffers.at(static_cast<size_t>(view.buffer)).data.data() + view.byteOffset +
           a.byteOffset + i * stride);
  }
  if (a.sparse.isSparse) {
    const auto& iv = model.bufferViews.at(static_cast<size_t>(a.sparse.indices.bufferView));
    const auto& vv = model.bufferViews.at(static_cast<size_t>(a.sparse.values.bufferView));
    const int isize =
        tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(a.sparse.indices.componentType));
    for (int k = 0; k < a.sparse.count; ++k) {
      const unsigned char* p = model.buffers[static_cast<size_t>(iv.buffer)].data.data() +
                               iv.byteOffset + a.sparse.indices.byteOffset + k * isize;
      uint32_t idx = 0;
      std::memcpy(&idx, p, static_cast<size_t>(isize));
      if (idx == i)
        decode(model.buffers[static_cast<size_t>(vv.buffer)].data.data() + vv.byteOffset +
               a.sparse.values.byteOffset + static_cast<size_t>(k * n * size));
    }
  }
  return out;
}

std::vector<float> accessorFloats(const tinygltf::Model& model, int accessor) {
  std::vector<float> out;
  for (size_t i = 0; i < model.accessors.at(static_cast<size_t>(accessor)).count; ++i) {
    const std::vector<float> e = accessorElement(model, accessor, i);
    out.insert(out.end(), e.begin(), e.end());
  }
  return out;
}

std::vector<float> sampleChannel(const tinygltf::Model& model, const tinygltf::AnimationSampler& s,
                                 size_t width, bool rotation, float time) {
  const std::vector<float> times = accessorFloats(model, s.input);
  const std::vector<float> values = accessorFloats(model, s.output);
  const bool cubic = s.interpolation == "CUBICSPLINE";
  const size_t keys = times.size();
  auto value = [&](size_t key, size_t part) {  // part: 0 in-tangent, 1 value, 2 out-tangent
    const size_t element = cubic ? key * 3 + part : key;
    std::vector<float> v(values.begin() + static_cast<long>(element * width),
                         values.begin() + static_cast<long>((element + 1) * width));
    return v;
  };
  std::vector<float> result(width);
  if (time <= times.front()) {
    result = value(0, 1);
  } else if (time >= times.back()) {
    result = value(keys - 1, 1);
  } else {
    size_t k = 0;
    while (times[k + 1] <= time) ++k;
    const float td = times[k + 1] - times[k];
    const float u = (time - times[k]) / td;
    if (s.interpolation == "STEP") {
      result = value(k, 1);
    } else if (cubic) {
      const float u2 = u * u, u3 = u2 * u;
      const std::vector<float> p0 = value(k, 1), m0 = value(k, 2), p1 = value(k + 1, 1),
                               m1 = value(k + 1, 0);
      for (size_t c = 0; c < width; ++c) {
        result[c] = (2 * u3 - 3 * u2 + 1) * p0[c] + td * (u3 - 2 * u2 + u) * m0[c] +
                    (-2 * u3 + 3 * u2) * p1[c] + td * (u3 - u2) * m1[c];
      }
    } else if (rotation) {
      const std::vector<float> a = value(k, 1), b = value(k + 1, 1);
      const glm::quat qa(a[3], a[0], a[1], a[2]), qb(b[3], b[0], b[1], b[2]);
      const glm::quat q = glm::slerp(qa, glm::dot(qa, qb) < 0 ? -qb : qb, u);
      result = {q.x, q.y, q.z, q.w};
    } else {
      const std::vector<float> a = value(k, 1), b = value(k + 1, 1);
      for (size_t c = 0; c < width; ++c) result[c] = a[c] + (b[c] - a[c]) * u;
    }
  }
  return result;
}

std::vector<float> morphWeights(const tinygltf::Model& model, int node, int animation, float time) {
  const tinygltf::Node& n = model.nodes.at(static_cast<size_t>(node));
  const tinygltf::Mesh& mesh = model.meshes.at(static_cast<size_t>(n.mesh));
  const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
  const std::vector<double>& defaults = !n.weights.empty() ? n.weights : mesh.weights;
  std::vector<float> weights(targets, 0.0f);
  for (size_t t = 0; t < targets && t < defaults.size(); ++t) {
    weights[t] = static_cast<float>(defaults[t]);
  }
  if (animation < 0 || targets == 0) return weights;
  const tinygltf::Animation& anim = model.animations.at(static_cast<size_t>(animation));
  for (const tinygltf::AnimationChannel& ch : anim.channels) {
    if (ch.target_path != "weights" || ch.target_node != node) continue;
    return sampleChannel(model, anim.samplers.at(static_cast<size_t>(ch.sampler)), targets, false,
                         time);
  }
  return weights;
}

std::vector<glm::mat4> worldMatrices(const tinygltf::Model& model, int animation, float time) {
  std::vector<Trs> locals(model.nodes.size());
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const tinygltf::Node& node = model.nodes[n];
    Trs& x = locals[n];
    if (node.matrix.size() == 16) {
      x.has_matrix = true;
      for (int k = 0; k < 16; ++k)
        glm::value_ptr(x.matrix)[k] = static_cast<float>(node.matrix[static_cast<size_t>(k)]);
    }
    if (node.translation.size() == 3)
      x.t = {node.translation[0], node.translation[1], node.translation[2]};
    if (node.rotation.size() == 4)
      x.r = glm::quat(static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                      static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
    if (node.scale.size() == 3) x.s = {node.scale[0], node.scale[1], node.scale[2]};
  }
  if (animation >= 0) {
    const tinygltf::Animation& anim = model.animations.at(static_cast<size_t>(animation));
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      if (ch.target_path != "translation" && ch.target_path != "rotation" &&
          ch.target_path != "scale")
        continue;
      const size_t width = ch.target_path == "rotation" ? 4 : 3;
      const std::vector<float> result = sampleChannel(
          model, anim.samplers.at(static_cast<size_t>(ch.sampler)), width, width == 4, time);
      Trs& x = locals.at(static_cast<size_t>(ch.target_node));
      if (ch.target_path == "translation") x.t = {result[0], result[1], result[2]};
      if (ch.target_path == "scale") x.s = {result[0], result[1], result[2]};
      if (ch.target_path == "rotation")
        x.r = glm::normalize(glm::quat(result[3], result[0], result[1], result[2]));
    }
  }
  std::vector<int> parents(model.nodes.size(), -1);
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    for (int c : model.nodes[n].children) parents[static_cast<size_t>(c)] = static_cast<int>(n);
  }
  std::vector<glm::mat4> worlds(model.nodes.size());
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    glm::mat4 m = toMat(locals[n]);
    for (int p = parents[n]; p >= 0; p = parents[static_cast<size_t>(p)])
      m = toMat(locals[static_cast<size_t>(p)]) * m;
    worlds[n] = m;
  }
  return worlds;
}

std::vector<glm::vec3> referencePositions(const tinygltf::Model& model, int animation, float time) {
  const std::vector<glm::mat4> worlds = worldMatrices(model, animation, time);
  std::vector<glm::vec3> out;
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const tinygltf::Node& node = model.nodes[n];
    if (node.mesh < 0) continue;
    for (const tinygltf::Primitive& prim :
         model.meshes[static_cast<size_t>(node.mesh)].primitives) {
      const int pos = prim.attributes.at("POSITION");
      const size_t count = model.accessors[static_cast<size_t>(pos)].count;
      const std::vector<float> weights =
          prim.targets.empty() ? std::vector<float>{}
                               : morphWeights(model, static_cast<int>(n), animation, time);
      for (size_t v = 0; v < count; ++v) {
        std::vector<float> p = accessorElement(model, pos, v);
        // Morph first, then skin: p + sum_t w_t * POSITION_t (glTF 2.0, "Morph Targets").
        for (size_t t = 0; t < prim.targets.size(); ++t) {
          auto it = prim.targets[t].find("POSITION");
          if (it == prim.targets[t].end()) continue;
          const std::vector<float> d = accessorElement(model, it->second, v);
          for (size_t c = 0; c < 3; ++c) p[c] += weights[t] * d[c];
        }
        const glm::vec4 p1(p[0], p[1], p[2], 1.0f);
        if (node.skin < 0) {
          out.push_back(glm::vec3(worlds[n] * p1));
          continue;
        }
        const tinygltf::Skin& skin = model.skins[static_cast<size_t>(node.skin)];
        const std::vector<float> j = accessorElement(model, prim.attributes.at("JOINTS_0"), v);
        const std::vector<float> w = accessorElement(model, prim.attributes.at("WEIGHTS_0"), v);
        const float sum = w[0] + w[1] + w[2] + w[3];
        glm::vec3 skinned(0.0f);
        for (int k = 0; k < 4; ++k) {
          if (w[static_cast<size_t>(k)] == 0.0f) continue;
          const size_t sj = static_cast<size_t>(j[static_cast<size_t>(k)]);
          glm::mat4 ibm(1.0f);
          if (skin.inverseBindMatrices >= 0) {
            const std::vector<float> m = accessorElement(model, skin.inverseBindMatrices, sj);
            ibm = glm::make_mat4(m.data());
          }
          skinned += (w[static_cast<size_t>(k)] / sum) *
                     glm::vec3(worlds[static_cast<size_t>(skin.joints[sj])] * ibm * p1);
        }
        out.push_back(skinned);
      }
    }
  }
  return out;
}

std::vector<glm::vec3> skinPositions(const Character& character, const Clip* clip, float time) {
  std::vector<JointRows> palette(static_cast<size_t>(character.skeleton.jointCount()));
  PoseScratch scratch;
  scratch.resize(character.skeleton.jointCount());
  evaluatePalette(character.skeleton, clip, time, scratch, palette);
  std::vector<glm::vec3> out(character.mesh.vertexCount());
  std::vector<glm::vec3> positions = character.mesh.positions;
  const std::vector<MorphTarget>& targets = character.mesh.morph_targets;
  if (!targets.empty()) {  // the library's morph: this is the importer side under test
    std::vector<float> weights(targets.size());
    sampleMorphWeights(targets, clip, time, weights);
    EXPECT_TRUE(
        (MorphJob{targets, weights, character.mesh.positions, {}, {}, positions, {}, {}}.run()));
  }
  SkinJob job;
  job.positions = positions;
  job.joints = character.mesh.joints;
  job.weights = character.mesh.weights;
  job.palette = palette;
  job.out_positions = out;
  EXPECT_TRUE(job.run());
  return out;
}

float maxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  float worst = 0.0f;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    worst = std::max(worst, glm::length(a[i] - b[i]));
  }
  return worst;
}

}  // namespace throng::test
