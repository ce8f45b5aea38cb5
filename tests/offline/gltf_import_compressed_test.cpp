// Compressed glTF: EXT_meshopt_compression, KHR_draco_mesh_compression and KHR_mesh_quantization
// files (made here, and by Debian's gltfpack and draco_transcoder from the shared assets) pose
// like their sources within the quantisation's error.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <string>
#include <unordered_map>

#include <draco/compression/encode.h>
#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include "offline/gltf_builder.h"
#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

using nlohmann::json;
using test::TwoBoneFile;

// ---- point-set comparison (compressors reorder and duplicate vertices) ----

// Nearest-point queries over a uniform grid.
class PointGrid {
 public:
  explicit PointGrid(const std::vector<glm::vec3>& points, float cell) : points_(points) {
    cell_ = std::max(cell, 1e-6f);
    for (size_t i = 0; i < points.size(); ++i) cells_[key(points[i])].push_back(i);
  }
  // Distance to the nearest point, searching outwards ring by ring.
  float nearest(glm::vec3 p) const {
    const glm::ivec3 c = coord(p);
    float best = INFINITY;
    for (int r = 0; r < 64; ++r) {
      for (int x = -r; x <= r; ++x) {
        for (int y = -r; y <= r; ++y) {
          for (int z = -r; z <= r; ++z) {
            if (std::max({std::abs(x), std::abs(y), std::abs(z)}) != r) continue;
            auto it = cells_.find(key(c + glm::ivec3(x, y, z)));
            if (it == cells_.end()) continue;
            for (size_t i : it->second) best = std::min(best, glm::distance(p, points_[i]));
          }
        }
      }
      // Points further than r cells cannot beat a point already within r * cell.
      if (best <= static_cast<float>(r) * cell_) return best;
    }
    for (const glm::vec3& q : points_) best = std::min(best, glm::distance(p, q));
    return best;
  }

 private:
  glm::ivec3 coord(glm::vec3 p) const { return glm::ivec3(glm::floor(p / cell_)); }
  static int64_t key(glm::ivec3 c) {
    return (int64_t{c.x} & 0x1fffff) | (int64_t{c.y} & 0x1fffff) << 21 |
           (int64_t{c.z} & 0x1fffff) << 42;
  }
  int64_t key(glm::vec3 p) const { return key(coord(p)); }

  const std::vector<glm::vec3>& points_;
  float cell_ = 1.0f;
  std::unordered_map<int64_t, std::vector<size_t>> cells_;
};

// Symmetric Hausdorff distance between two point sets.
float setDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b, float cell) {
  const PointGrid ga(a, cell), gb(b, cell);
  float worst = 0.0f;
  for (const glm::vec3& p : a) worst = std::max(worst, gb.nearest(p));
  for (const glm::vec3& p : b) worst = std::max(worst, ga.nearest(p));
  return worst;
}

// Sample spacing of the pose comparison: 1/6 s is a whole number of frames at 24 and 30 Hz, so at
// these times both the source's keys and gltfpack's 30 Hz resampled keys are exact and the
// comparison measures quantisation, not resampling (which alone moves Quaternius' 24 Hz run by
// 1% of its size between keys).
constexpr float kSampleSpacing = 1.0f / 6.0f;

// Largest set distance between `a` and `b` posed by every clip of `a` (matched by name) at the
// same file times (start + k * kSampleSpacing, at most `samples` + 1 of them spread over the
// clip), and at rest; as a fraction of a's size.
float poseDistance(const Character& a, const Character& b, int samples = 4) {
  const float size = std::max(a.size(), 1e-6f);
  const float cell = size / 64.0f;
  float worst = setDistance(test::skinPositions(a, nullptr, 0.0f),
                            test::skinPositions(b, nullptr, 0.0f), cell);
  for (const Clip& clip : a.clips) {
    const int other = b.findClip(clip.name);
    EXPECT_GE(other, 0) << "clip " << clip.name;
    if (other < 0) continue;
    const Clip& match = b.clips[static_cast<size_t>(other)];
    const int steps = static_cast<int>(std::floor(clip.duration() / kSampleSpacing + 1e-3f));
    const int stride = std::max(1, (steps + samples - 1) / samples);
    for (int k = 0; k <= steps; k += stride) {
      const float t = clip.start_time + static_cast<float>(k) * kSampleSpacing;
      worst = std::max(worst, setDistance(test::skinPositions(a, &clip, t),
                                          test::skinPositions(b, &match, t), cell));
    }
  }
  return worst / size;
}

// ---- files compressed in code ----

class CompressedInCode : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-compressed"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Result<Character> load(test::GltfBuilder& gltf, const char* name = "test.gltf") {
    path_ = gltf.write(dir_, name);
    return importGltf(path_);
  }
  Character plain() {
    TwoBoneFile file;
    return load(file.gltf).value();
  }

  std::filesystem::path dir_;
  std::string path_;
};

// Meshopt-encodes accessor `accessor`'s view (ATTRIBUTES), replacing it by a compressed view into
// buffer 0 and marking its old data as a fallback buffer that holds nothing.
void meshoptEncode(test::GltfBuilder& gltf, const std::vector<float>& values, int accessor,
                   int components) {
  const size_t stride = sizeof(float) * static_cast<size_t>(components);
  const size_t count = values.size() / static_cast<size_t>(components);
  std::vector<unsigned char> encoded(meshopt_encodeVertexBufferBound(count, stride));
  encoded.resize(
      meshopt_encodeVertexBuffer(encoded.data(), encoded.size(), values.data(), count, stride));
  const int compressed =
      gltf.addBytes(std::string(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
  json& source = gltf.json["bufferViews"][compressed];
  json view = {{"buffer", 1},
               {"byteOffset", 0},
               {"byteLength", count * stride},
               {"byteStride", stride},
               {"extensions",
                {{"EXT_meshopt_compression",
                  {{"buffer", 0},
                   {"byteOffset", source["byteOffset"]},
                   {"byteLength", source["byteLength"]},
                   {"byteStride", stride},
                   {"count", count},
                   {"mode", "ATTRIBUTES"}}}}}};
  gltf.json["bufferViews"].push_back(view);
  gltf.json["accessors"][accessor]["bufferView"] = gltf.json["bufferViews"].size() - 1;
}

TEST_F(CompressedInCode, MeshoptViewsDecodeAndFallbackBuffersAreIgnored) {
  TwoBoneFile file;
  meshoptEncode(file.gltf, {0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0}, file.positions, 3);
  meshoptEncode(file.gltf, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, file.weights, 4);
  // Buffer 1: the fallback, with no uri (tinygltf alone refuses this file).
  path_ = file.gltf.write(dir_, "meshopt.gltf");
  json written = json::parse(test::readFile(path_));
  written["buffers"].push_back(
      {{"byteLength", 4096}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
  written["extensionsUsed"] = {"EXT_meshopt_compression"};
  written["extensionsRequired"] = {"EXT_meshopt_compression"};
  test::writeFile(path_, written.dump());
  Result<Character> c = importGltf(path_);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  const Character reference = plain();
  EXPECT_EQ(c->mesh.positions, reference.mesh.positions);
  EXPECT_EQ(c->mesh.weights, reference.mesh.weights);

  // Damaged compressed bytes: one line naming the view.
  json damaged = written;
  const size_t view = damaged["accessors"][file.positions]["bufferView"].get<size_t>();
  damaged["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]["byteLength"] = 3;
  test::writeFile(path_, damaged.dump());
  Result<Character> bad = importGltf(path_);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(bad.status().message().find("buffer view " + std::to_string(view) +
                                        " (EXT_meshopt_compression)"),
            std::string::npos)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("do not decode"), std::string::npos);
  // Bad fields.
  for (auto [field, value] : std::vector<std::pair<std::string, json>>{{"mode", "SOMETHING"},
                                                                       {"byteStride", 6},
                                                                       {"count", 100000000000},
                                                                       {"buffer", 9},
                                                                       {"filter", "OCTAHEDRAL"}}) {
    damaged = written;
    damaged["bufferViews"][view]["extensions"]["EXT_meshopt_compression"][field] = value;
    test::writeFile(path_, damaged.dump());
    bad = importGltf(path_);
    ASSERT_FALSE(bad.ok()) << field;
    EXPECT_NE(bad.status().message().find("EXT_meshopt_compression"), std::string::npos)
        << bad.status().message();
  }
}

// Draco-encodes the two-bone quad (positions, joints, weights) with libdraco.
std::string dracoQuad(int& position_id, int& joints_id, int& weights_id, size_t& points) {
  draco::Mesh mesh;
  mesh.set_num_points(4);
  auto add = [&](draco::GeometryAttribute::Type type, int components, draco::DataType data_type,
                 int bytes, const void* values) {
    draco::GeometryAttribute ga;
    ga.Init(type, nullptr, static_cast<int8_t>(components), data_type, false, components * bytes,
            0);
    const int id = mesh.AddAttribute(ga, true, 4);
    for (int i = 0; i < 4; ++i) {
      mesh.attribute(id)->SetAttributeValue(
          draco::AttributeValueIndex(i),
          static_cast<const unsigned char*>(values) + i * components * bytes);
    }
    return static_cast<int>(mesh.attribute(id)->unique_id());
  };
  const float positions[12] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0};
  const uint16_t joints[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  const float weights[16] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  position_id = add(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32, 4, positions);
  joints_id = add(draco::GeometryAttribute::GENERIC, 4, draco::DT_UINT16, 2, joints);
  weights_id = add(draco::GeometryAttribute::GENERIC, 4, draco::DT_FLOAT32, 4, weights);
  using draco::PointIndex;
  mesh.AddFace({PointIndex(0), PointIndex(1), PointIndex(2)});
  mesh.AddFace({PointIndex(2), PointIndex(1), PointIndex(3)});
  draco::Encoder encoder;
  encoder.SetAttributeQuantization(draco::GeometryAttribute::POSITION, 14);
  draco::EncoderBuffer buffer;
  const draco::Status status = encoder.EncodeMeshToBuffer(mesh, &buffer);
  EXPECT_TRUE(status.ok()) << status.error_msg_string();
  points = mesh.num_points();
  return std::string(buffer.data(), buffer.size());
}

TEST_F(CompressedInCode, DracoPrimitivesDecode) {
  int position_id = 0, joints_id = 0, weights_id = 0;
  size_t points = 0;
  const std::string draco = dracoQuad(position_id, joints_id, weights_id, points);
  TwoBoneFile file;
  const int view = file.gltf.addBytes(draco);
  json& primitive = file.primitive();
  primitive["extensions"]["KHR_draco_mesh_compression"] = {
      {"bufferView", view},
      {"attributes",
       {{"POSITION", position_id}, {"JOINTS_0", joints_id}, {"WEIGHTS_0", weights_id}}}};
  // The accessors lose their data, as a Draco file has it.
  for (int a : {file.positions, file.joints, file.weights, file.indices}) {
    file.gltf.json["accessors"][a].erase("bufferView");
  }
  file.gltf.json["extensionsUsed"] = {"KHR_draco_mesh_compression"};
  file.gltf.json["extensionsRequired"] = {"KHR_draco_mesh_compression"};
  Result<Character> c = load(file.gltf, "draco.gltf");
  ASSERT_TRUE(c.ok()) << c.status().toString();
  const Character reference = plain();
  EXPECT_EQ(c->mesh.vertexCount(), points);
  EXPECT_LT(poseDistance(reference, *c), 1e-3f);

  // Garbage instead of Draco data.
  TwoBoneFile broken;
  broken.primitive()["extensions"]["KHR_draco_mesh_compression"] = {
      {"bufferView", broken.gltf.addBytes(std::string(64, 'x'))},
      {"attributes", {{"POSITION", 0}}}};
  broken.gltf.json["extensionsUsed"] = {"KHR_draco_mesh_compression"};
  Result<Character> bad = load(broken.gltf, "garbage.gltf");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(bad.status().message().find("mesh 0 primitive 0 (KHR_draco_mesh_compression)"),
            std::string::npos)
      << bad.status().message();
  // An attribute without data of its own that the extension does not map.
  primitive["extensions"]["KHR_draco_mesh_compression"]["attributes"].erase("WEIGHTS_0");
  bad = load(file.gltf, "unmapped.gltf");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("WEIGHTS_0 has no buffer view"), std::string::npos)
      << bad.status().message();
  primitive["extensions"]["KHR_draco_mesh_compression"]["attributes"]["WEIGHTS_0"] = weights_id;
  // An attribute id the stream does not have.
  primitive["extensions"]["KHR_draco_mesh_compression"]["attributes"]["POSITION"] = 77;
  bad = load(file.gltf, "bad-id.gltf");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Draco id 77"), std::string::npos)
      << bad.status().message();
}

// ---- files made by Debian's tools from the shared assets ----

struct Tool {
  const char* name;
  std::string path;  // empty: not installed
};

Tool gltfpack() {
  return {"gltfpack", THRONG_GLTFPACK};
}
Tool dracoTranscoder() {
  return {"draco_transcoder", THRONG_DRACO_TRANSCODER};
}

// Runs `tool args`; true on exit status 0.
bool run(const Tool& tool, const std::string& args) {
  const std::string command = "'" + tool.path + "' " + args + " > /dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

struct AssetCase {
  const char* file;
  // Largest pose distance allowed, as a fraction of the character's size. gltfpack quantises
  // positions to 14 bits and rotations to 12 (measured: at most 0.2%), draco_transcoder
  // positions to 11 bits (at most 0.05%).
  float tolerance;
};

void PrintTo(const AssetCase& c, std::ostream* out) {
  *out << c.file;
}

const AssetCase kAssets[] = {
    {"CesiumMan/CesiumMan.glb", 0.005f},
    {"RiggedSimple/RiggedSimple.glb", 0.005f},
    {"RiggedFigure/RiggedFigure.glb", 0.005f},
    {"QuaterniusCharacter/Character.glb", 0.005f},
    {"KayKitMannequin/manny_med_mod.gltf", 0.005f},
    {"SimpleSkin/SimpleSkin.gltf", 0.005f},
    {"skin-tests-2018/Animation_Skin/Animation_Skin_01.gltf", 0.005f},
};
// Not here: InterpolationTest (node animation: gltfpack's 30 Hz resampling moves its STEP keys,
// by design) and Animation_SkinType_01 (draco_transcoder 1.5.5 drops its normalised-byte
// WEIGHTS_0; the importer then reports "JOINTS_0 and WEIGHTS_0 must come together").

class CompressedAssets : public ::testing::TestWithParam<AssetCase> {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-compressed-assets"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Compresses the asset with `tool args`, imports both, and checks the poses; reports the
  // distance.
  void check(const Tool& tool, const std::string& flags, const std::string& tag,
             const char* extension) {
    const AssetCase& asset = GetParam();
    THRONG_REQUIRE_ASSET(asset.file);
    THRONG_REQUIRE(!tool.path.empty(), std::string(tool.name) + " is not installed");
    const std::string source = test::assetPath(asset.file).string();
    const std::string out = (dir_ / (tag + ".glb")).string();
    ASSERT_TRUE(run(tool, "-i '" + source + "' -o '" + out + "' " + flags))
        << tool.name << " " << flags << " failed on " << asset.file;
    // The source imports once for the four tools.
    static std::unordered_map<std::string, Result<Character>> sources;
    auto it = sources.find(source);
    if (it == sources.end()) it = sources.emplace(source, importGltf(source)).first;
    const Result<Character>& original = it->second;
    ASSERT_TRUE(original.ok()) << original.status().toString();
    Result<Character> packed = importGltf(out);
    ASSERT_TRUE(packed.ok()) << tool.name << " " << flags << ": " << packed.status().toString();
    const std::string used = test::readFile(out);
    if (extension != nullptr) {
      EXPECT_NE(used.find(extension), std::string::npos) << "the file does not use " << extension;
    }
    const float distance = poseDistance(*original, *packed);
    EXPECT_LT(distance, asset.tolerance) << asset.file << " " << tool.name << " " << flags;
    // The looks survive too.
    // (draco_transcoder gives a file without materials a default one.)
    if (!original->materials.empty()) {
      ASSERT_EQ(packed->materials.size(), original->materials.size());
      for (size_t m = 0; m < original->materials.size(); ++m) {
        EXPECT_EQ(packed->materials[m].name, original->materials[m].name);
        EXPECT_LT(glm::distance(packed->materials[m].base_color, original->materials[m].base_color),
                  1e-6f);
        EXPECT_EQ(packed->materials[m].base_color_texture.present(),
                  original->materials[m].base_color_texture.present());
      }
    }
    EXPECT_EQ(packed->images.size(), original->images.size());
    std::printf("[ measure  ] %s %s %s: pose distance %.3g%% of the size, %zu -> %zu vertices\n",
                asset.file, tool.name, flags.c_str(), 100.0 * distance,
                original->mesh.vertexCount(), packed->mesh.vertexCount());
  }

  std::filesystem::path dir_;
};

TEST_P(CompressedAssets, GltfpackQuantized) {
  check(gltfpack(), "-km -kn", "quantized", "KHR_mesh_quantization");
}
TEST_P(CompressedAssets, GltfpackMeshopt) {
  check(gltfpack(), "-c -km -kn", "meshopt", "EXT_meshopt_compression");
}
TEST_P(CompressedAssets, GltfpackMeshoptHigh) {
  check(gltfpack(), "-cc", "meshopt-cc", "EXT_meshopt_compression");
}
TEST_P(CompressedAssets, DracoTranscoder) {
  check(dracoTranscoder(), "", "draco", "KHR_draco_mesh_compression");
}

INSTANTIATE_TEST_SUITE_P(Assets, CompressedAssets, ::testing::ValuesIn(kAssets),
                         [](const ::testing::TestParamInfo<AssetCase>& param) {
                           std::string name = param.param.file;
                           name = name.substr(0, name.rfind('.'));
                           name = name.substr(name.rfind('/') + 1);
                           std::erase(name, '_');
                           return name;
                         });

}  // namespace
}  // namespace throng
