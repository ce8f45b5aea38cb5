// Mutation test of the glTF importer: a few hundred seeded mutations of every shared asset and of
// the sample character as written by our exporter, each ending in a valid character or one clear
// line, within the time limit.
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mutation/mutator.h"
#include "support/test_support.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr uint32_t kGlbMagic = 0x46546C67;

uint32_t u32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

std::string le32(uint32_t v) {
  return std::string(reinterpret_cast<const char*>(&v), 4);
}

std::string glb(std::string json_text, std::string bin) {
  while (json_text.size() % 4 != 0) json_text += ' ';
  while (bin.size() % 4 != 0) bin += '\0';
  const size_t total = 20 + json_text.size() + (bin.empty() ? 0 : 8 + bin.size());
  std::string out = le32(kGlbMagic) + le32(2) + le32(static_cast<uint32_t>(total)) +
                    le32(static_cast<uint32_t>(json_text.size())) + le32(0x4E4F534A) + json_text;
  if (!bin.empty()) out += le32(static_cast<uint32_t>(bin.size())) + le32(0x004E4942) + bin;
  return out;
}

// An input: a .glb or .gltf and the external files it names (copied beside it for each case).
struct Input {
  std::string name;  // for messages and seeds
  fs::path file;
  std::vector<fs::path> externals;
};

std::vector<Input> inputs() {
  std::vector<Input> out = {{"sample.glb", {}, {}}};  // written by the test itself
  const fs::path assets = test::assetsDir();
  if (!fs::is_directory(assets)) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(assets)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".glb" || ext == ".gltf") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    Input input{fs::relative(file, assets).string(), file, {}};
    if (file.extension() == ".gltf") {
      const json j = json::parse(test::readFile(file), nullptr, false);
      for (const json& buffer : j.value("buffers", json::array())) {
        const std::string uri = buffer.value("uri", "");
        if (!uri.empty() && !uri.starts_with("data:")) {
          input.externals.push_back(file.parent_path() / uri);
        }
      }
    }
    out.push_back(input);
  }
  return out;
}

class GltfMutation : public ::testing::TestWithParam<Input> {};

TEST_P(GltfMutation, EveryMutationEndsInAValidCharacterOrOneClearLine) {
  const Input& input = GetParam();
  const fs::path dir = test::makeTempDir("gltf-mutation");
  std::string original;
  if (input.file.empty()) {
    ASSERT_TRUE(writeGltf(makeSampleCharacter(), (dir / "sample.glb").string()).ok());
    original = test::readFile(dir / "sample.glb");
  } else {
    original = test::readFile(input.file);
  }
  const bool binary = original.size() >= 20 && u32(original, 0) == kGlbMagic;
  std::string json_text = original, bin;
  if (binary) {
    const uint32_t json_length = u32(original, 12);
    json_text = original.substr(20, json_length);
    if (20 + json_length + 8 <= original.size()) {
      bin = original.substr(28 + json_length, u32(original, 20 + json_length));
    }
  }
  const json document = json::parse(json_text, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << input.name;
  std::vector<std::string> external_bytes;
  for (const fs::path& e : input.externals) external_bytes.push_back(test::readFile(e));

  const std::string ext = binary ? ".glb" : ".gltf";
  int ok = 0;
  for (int i = 0; i < test::kMutationsPerInput; ++i) {
    std::mt19937_64 rng = test::mutationRng(input.name, i);
    const std::string label = input.name + " mutation " + std::to_string(i);
    const fs::path case_dir = dir / std::to_string(i);
    fs::create_directories(case_dir);
    // External files go beside the case, where the document's uris find them.
    std::vector<std::string> externals = external_bytes;
    std::string bytes;
    const unsigned kind = static_cast<unsigned>(rng() % 3);
    if (kind == 0) {  // damage anywhere in the file
      bytes = test::mutateBytes(original, rng);
    } else if (kind == 1) {  // hostile numbers in the JSON, container rebuilt around them
      json mutated = document;
      test::mutateGltfJson(mutated, rng);
      bytes = binary ? glb(mutated.dump(), bin) : mutated.dump();
    } else if (binary && !bin.empty()) {  // damage in the binary chunk only
      bytes = glb(json_text, test::mutateBytes(bin, rng));
    } else if (!externals.empty()) {  // damage in an external buffer
      std::string& target = externals[rng() % externals.size()];
      target = test::mutateBytes(target, rng);
      bytes = original;
    } else {
      bytes = test::mutateBytes(original, rng);
    }
    for (size_t e = 0; e < input.externals.size(); ++e) {
      const fs::path relative = fs::relative(input.externals[e], input.file.parent_path());
      fs::create_directories((case_dir / relative).parent_path());
      test::writeFile(case_dir / relative, externals[e]);
    }
    const std::string path = (case_dir / ("input" + ext)).string();
    test::writeFile(path, bytes);
    test::expectWithinTimeLimit(
        [&] {
          Result<Character> c = importGltf(path);
          test::expectCleanOutcome(c.ok(), c.status(), path, label);
          if (c.ok()) {
            ++ok;
            EXPECT_TRUE(validateCharacter(*c, path).ok()) << label;
          }
        },
        label);
    fs::remove_all(case_dir);
    if (HasFailure()) break;  // one reported case is enough to reproduce
  }
  RecordProperty("imported", ok);
  fs::remove_all(dir);
}

std::string caseName(const ::testing::TestParamInfo<Input>& param_info) {
  std::string name = param_info.param.name;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Assets, GltfMutation, ::testing::ValuesIn(inputs()), caseName);

// The shared assets are inputs too: without them the list above holds the sample alone.
TEST(GltfMutationInputs, IncludeTheSharedAssets) {
  THRONG_REQUIRE(fs::is_directory(test::assetsDir()),
                 "no shared assets in " + test::assetsDir().string());
  EXPECT_GT(inputs().size(), 10u);
}

}  // namespace
}  // namespace throng
