// The glTF importer's error catalogue (docs/errors.md): one case per message not triggered by
// another test, each checking the code and the message after the file name.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TwoBoneFile;

std::string le32(uint32_t v) {
  return std::string(reinterpret_cast<const char*>(&v), 4);
}

// A file made from bytes (the GLB container cases) or from an edited two-bone file.
struct ErrorCase {
  const char* name;
  std::string (*bytes)();      // non-null: the file's bytes (written as <name>.glb)
  void (*edit)(TwoBoneFile&);  // else: edits of the two-bone file (written as <name>.gltf)
  ErrorCode code;
  const char* message;  // the message after "<file>: "
};

std::string glbHeader(uint32_t version, uint32_t length) {
  return le32(0x46546C67) + le32(version) + le32(length);
}

json translationAnimation(TwoBoneFile& f, int node, const char* interpolation = "LINEAR") {
  const int t = f.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int v = f.gltf.addFloats({0, 0, 0, 0, 1, 0}, "VEC3");
  return {
      {"channels",
       json::array({{{"sampler", 0}, {"target", {{"node", node}, {"path", "translation"}}}}})},
      {"samplers", json::array({{{"input", t}, {"output", v}, {"interpolation", interpolation}}})}};
}

const ErrorCase kCases[] = {
    // ---- the GLB container, checked before the JSON is parsed ----
    {"GlbTooShort", [] { return glbHeader(2, 12); }, nullptr, ErrorCode::kParseError,
     "truncated GLB: 12 bytes, the header alone needs 20"},
    {"GlbVersion1", [] { return glbHeader(1, 20) + le32(0) + le32(0x4E4F534A); }, nullptr,
     ErrorCode::kUnsupported, "GLB version 1 (only version 2 is supported)"},
    {"GlbLengthMismatch", [] { return glbHeader(2, 99) + le32(4) + le32(0x4E4F534A) + "{}  "; },
     nullptr, ErrorCode::kParseError, "truncated or padded GLB: header says 99 bytes, file has 24"},
    {"GlbFirstChunkNotJson", [] { return glbHeader(2, 24) + le32(4) + le32(0x004E4942) + "{}  "; },
     nullptr, ErrorCode::kParseError, "GLB chunk 0 is not JSON"},
    {"GlbJsonPastTheEnd", [] { return glbHeader(2, 24) + le32(40) + le32(0x4E4F534A) + "{}  "; },
     nullptr, ErrorCode::kParseError,
     "GLB JSON chunk of 40 bytes does not fit in the 24-byte file"},
    {"GlbChunkHeaderCut",
     [] { return glbHeader(2, 28) + le32(4) + le32(0x4E4F534A) + "{}  " + le32(4); }, nullptr,
     ErrorCode::kParseError, "truncated GLB: chunk header at byte 24 cut off"},
    {"GlbSecondChunkNotBin",
     [] {
       return glbHeader(2, 36) + le32(4) + le32(0x4E4F534A) + "{}  " + le32(4) + le32(0x4E4F534A) +
              "abcd";
     },
     nullptr, ErrorCode::kParseError, "GLB chunk 1 is not BIN"},
    {"GlbBinPastTheEnd",
     [] {
       return glbHeader(2, 36) + le32(4) + le32(0x4E4F534A) + "{}  " + le32(64) + le32(0x004E4942) +
              "abcd";
     },
     nullptr, ErrorCode::kParseError,
     "truncated GLB: BIN chunk of 64 bytes at byte 24 ends past the 36-byte file"},
    {"EmptyFile", [] { return std::string(); }, nullptr, ErrorCode::kParseError, "empty file"},
    // ---- external buffers ----
    {"ExternalSizeMismatch", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["buffers"] = json::array({{{"uri", "beside.bin"}, {"byteLength", 9999}}});
     },
     ErrorCode::kIoError, "cannot load external buffer: File size mismatch : beside.bin"},
    {"EmptyUri", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["buffers"] = json::array({{{"uri", ""}, {"byteLength", 4}}});
     },
     ErrorCode::kIoError,
     "cannot load external buffer: 'uri' is missing from non binary glTF file buffer."},
    // ---- accessors ----
    {"BufferViewMissing", nullptr,
     [](TwoBoneFile& f) { f.gltf.json["accessors"][0]["bufferView"] = 99; },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): buffer view 99 does not exist"},
    {"BufferMissing", nullptr, [](TwoBoneFile& f) { f.gltf.json["bufferViews"][0]["buffer"] = 5; },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): buffer view 0 uses buffer 5, which does not "
     "exist"},
    {"CountZero", nullptr, [](TwoBoneFile& f) { f.gltf.json["accessors"][0]["count"] = 0; },
     ErrorCode::kInvalidData, "accessor 0 (mesh 0 primitive 0 POSITION): count is 0"},
    {"SparseCountTooLarge", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["accessors"][0]["sparse"] = {
           {"count", 10},
           {"indices", {{"bufferView", 3}, {"componentType", 5123}}},
           {"values", {{"bufferView", 0}}}};
     },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): sparse count 10 is not in 1..4"},
    {"SparseIndicesFloat", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["accessors"][0]["sparse"] = {
           {"count", 1},
           {"indices", {{"bufferView", 0}, {"componentType", 5126}}},
           {"values", {{"bufferView", 0}}}};
     },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): sparse indices are FLOAT, expected an unsigned "
     "integer type"},
    {"SparseNegativeOffset", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["accessors"][0]["sparse"] = {
           {"count", 1},
           {"indices", {{"bufferView", 3}, {"componentType", 5123}, {"byteOffset", -4}}},
           {"values", {{"bufferView", 0}}}};
     },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): negative sparse byteOffset"},
    {"SparseNotIncreasing", nullptr,
     [](TwoBoneFile& f) {
       const int idx = f.gltf.add(std::vector<uint16_t>{2, 1}, 5123, "SCALAR");
       f.gltf.json["accessors"][0]["sparse"] = {
           {"count", 2},
           {"indices",
            {{"bufferView", f.gltf.json["accessors"][idx]["bufferView"]}, {"componentType", 5123}}},
           {"values", {{"bufferView", 0}}}};
     },
     ErrorCode::kInvalidData,
     "accessor 0 (mesh 0 primitive 0 POSITION): sparse indices are not strictly increasing at 1"},
    // ---- animations ----
    {"UnknownInterpolation", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["animations"] = json::array({translationAnimation(f, 2, "SMOOTH")});
     },
     ErrorCode::kInvalidData, "animation 0 channel 0: unknown interpolation 'SMOOTH'"},
    {"ZeroQuaternionKey", nullptr,
     [](TwoBoneFile& f) {
       const int t = f.gltf.addFloats({0.0f, 1.0f}, "SCALAR");
       const int v = f.gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 0}, "VEC4");
       f.gltf.json["animations"] = json::array(
           {{{"channels",
              json::array({{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}}})},
             {"samplers", json::array({{{"input", t}, {"output", v}}})}}});
     },
     ErrorCode::kInvalidData, "animation 0 channel 0: key 1 is a zero quaternion"},
    {"TargetNodeMissing", nullptr,
     [](TwoBoneFile& f) {
       json a = translationAnimation(f, 2);
       a["channels"][0]["target"]["node"] = 40;
       f.gltf.json["animations"] = json::array({a});
     },
     ErrorCode::kInvalidData, "animation 0 channel 0: target node 40 does not exist (4 nodes)"},
    // ---- meshes ----
    {"NormalCountMismatch", nullptr,
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["NORMAL"] = f.gltf.addFloats({0, 0, 1, 0, 0, 1}, "VEC3");
     },
     ErrorCode::kInvalidData, "mesh 0 primitive 0: NORMAL has 2 elements, POSITION 4"},
    {"TexcoordCountMismatch", nullptr,
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["TEXCOORD_0"] = f.gltf.addFloats({0, 0, 1, 1}, "VEC2");
     },
     ErrorCode::kInvalidData, "mesh 0 primitive 0: TEXCOORD_0 has 2 elements, POSITION 4"},
    {"InfluenceCountMismatch", nullptr,
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["WEIGHTS_0"] = f.gltf.addFloats({1, 0, 0, 0}, "VEC4");
     },
     ErrorCode::kInvalidData,
     "mesh 0 primitive 0: JOINTS_0/WEIGHTS_0 have 4/1 elements for 4 vertices"},
    {"NegativeWeight", nullptr,
     [](TwoBoneFile& f) {
       f.primitive()["attributes"]["WEIGHTS_0"] =
           f.gltf.addFloats({1, 0, 0, 0, 1, 0, 0, 0, -1, 2, 0, 0, 1, 0, 0, 0}, "VEC4");
     },
     ErrorCode::kInvalidData, "mesh 0 primitive 0: vertex 2 has negative weight -1"},
    // ---- nodes and skins ----
    {"NodeMeshMissing", nullptr, [](TwoBoneFile& f) { f.gltf.json["nodes"][3]["mesh"] = 7; },
     ErrorCode::kInvalidData, "node 3 ('body'): mesh 7 does not exist (1 meshes)"},
    {"NodeSkinMissing", nullptr, [](TwoBoneFile& f) { f.gltf.json["nodes"][3]["skin"] = 2; },
     ErrorCode::kInvalidData, "node 3 ('body'): skin 2 does not exist (1 skins)"},
    {"MatrixOf15", nullptr,
     [](TwoBoneFile& f) { f.gltf.json["nodes"][1]["matrix"] = std::vector<double>(15, 1.0); },
     ErrorCode::kInvalidData, "node 1 ('root'): matrix must be 16 finite numbers"},
    {"TranslationOf2", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["nodes"][2]["translation"] = {0.0, 1.0};
     },
     ErrorCode::kInvalidData, "node 2 ('child'): translation must be 3 finite numbers"},
    {"RotationOf3", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["nodes"][2]["rotation"] = {0.0, 0.0, 1.0};
     },
     ErrorCode::kInvalidData, "node 2 ('child'): rotation must be 4 finite numbers"},
    {"ZeroRotation", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["nodes"][2]["rotation"] = {0.0, 0.0, 0.0, 0.0};
     },
     ErrorCode::kInvalidData, "node 2 ('child'): rotation is a zero quaternion"},
    {"ScaleOf4", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["nodes"][2]["scale"] = {1.0, 1.0, 1.0, 1.0};
     },
     ErrorCode::kInvalidData, "node 2 ('child'): scale must be 3 finite numbers"},
    {"SceneNodeMissing", nullptr, [](TwoBoneFile& f) { f.gltf.json["scenes"][0]["nodes"] = {9}; },
     ErrorCode::kInvalidData, "scene 0: node 9 does not exist (4 nodes)"},
    {"SkinWithoutJoints", nullptr,
     [](TwoBoneFile& f) { f.gltf.json["skins"][0]["joints"] = json::array(); },
     ErrorCode::kInvalidData, "skin 0: no joints"},
    {"SkinJointTwice", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["skins"][0]["joints"] = {1, 2, 1};
     },
     ErrorCode::kInvalidData, "skin 0: node 1 is listed twice"},
    {"TooFewInverseBinds", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json["skins"][0]["inverseBindMatrices"] =
           f.gltf.addFloats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, "MAT4");
     },
     ErrorCode::kInvalidData, "skin 0: 1 inverse bind matrices for 2 joints"},
    {"NothingToImport", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json.erase("skins");
       f.gltf.json["nodes"][3].erase("skin");
       f.gltf.json["nodes"][3].erase("mesh");
     },
     ErrorCode::kInvalidData, "nothing to import: no skin, no mesh and no animated node"},
    {"TooManyAnimatedNodes", nullptr,
     [](TwoBoneFile& f) {
       f.gltf.json.erase("skins");
       f.gltf.json["nodes"][3].erase("skin");
       f.gltf.json["nodes"][3].erase("mesh");
       json a = translationAnimation(f, 0);
       json& nodes = f.gltf.json["nodes"];
       for (int i = 0; i < kMaxJoints; ++i) {
         nodes.push_back(json::object());
         a["channels"].push_back(
             {{"sampler", 0}, {"target", {{"node", nodes.size() - 1}, {"path", "translation"}}}});
       }
       f.gltf.json["animations"] = json::array({a});
     },
     ErrorCode::kLimitExceeded,
     "animated nodes: the skeleton would have more than the limit of 1024 joints (1025 so far)"},
    {"TooManyRiders", nullptr,
     [](TwoBoneFile& f) {
       // Unskinned meshes under a joint ride on it and join the skeleton, one joint each.
       json& nodes = f.gltf.json["nodes"];
       json children = json::array();
       for (int i = 0; i < kMaxJoints; ++i) {
         nodes.push_back({{"mesh", 0}});
         children.push_back(nodes.size() - 1);
       }
       nodes[2]["children"] = children;
     },
     ErrorCode::kLimitExceeded,
     "unskinned meshes under the skeleton: the skeleton would have more than the limit of 1024 "
     "joints (1025 so far)"},
};

class GltfErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(GltfErrors, MessageAndCode) {
  const ErrorCase& e = GetParam();
  const fs::path dir = test::makeTempDir("gltf-errors");
  std::string path;
  if (e.bytes != nullptr) {
    path = (dir / (std::string(e.name) + ".glb")).string();
    test::writeFile(path, e.bytes());
  } else {
    TwoBoneFile file;
    e.edit(file);
    path = file.gltf.write(dir, std::string(e.name) + ".gltf");
    test::writeFile(dir / "beside.bin", std::string(16, '\0'));
  }
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok()) << e.name;
  EXPECT_EQ(c.status().code(), e.code) << c.status().toString();
  EXPECT_TRUE(c.status().message().starts_with(path + ": " + e.message)) << c.status().message();
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, GltfErrors, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ErrorCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace throng
