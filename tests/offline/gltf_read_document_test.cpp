// Loading a glTF document: hostile files (not files, deep JSON, empty buffers, huge data uris)
// end in one clear line, never in a crash, an exception or a wait.
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "offline/gltf_builder.h"
#include "support/test_support.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A GLB container around `json_text` and `bin` (both padded to 4 bytes as the spec asks).
std::string makeGlb(std::string json_text, std::string bin) {
  while (json_text.size() % 4 != 0) json_text += ' ';
  while (bin.size() % 4 != 0) bin += '\0';
  auto u32 = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  std::string out = u32(0x46546C67) + u32(2);
  const uint32_t total =
      12 + 8 + static_cast<uint32_t>(json_text.size()) + (bin.empty() ? 0 : 8 + bin.size());
  out += u32(total) + u32(static_cast<uint32_t>(json_text.size())) + u32(0x4E4F534A) + json_text;
  if (!bin.empty()) out += u32(static_cast<uint32_t>(bin.size())) + u32(0x004E4942) + bin;
  return out;
}

class GltfDocument : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("gltf-document"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    test::writeFile(dir_ / name, bytes);
    return (dir_ / name).string();
  }
  fs::path dir_;
};

// Every message of the importer: one line, naming the file first, of bounded size.
void expectOneLine(const Status& s, const std::string& path) {
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  EXPECT_TRUE(s.message().starts_with(path + ": ")) << s.message();
  EXPECT_LE(s.message().size(), path.size() + 400) << s.message();
}

TEST_F(GltfDocument, ADirectoryIsAClearErrorNotAnException) {
  fs::create_directory(dir_ / "folder.glb");
  const std::string path = (dir_ / "folder.glb").string();
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(c.status().message(), path + ": is a directory, not a regular file");
}

TEST_F(GltfDocument, AFifoOrADeviceIsAClearErrorWithoutWaiting) {
  const std::string fifo = (dir_ / "pipe.glb").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<Character> a = importGltf(fifo);
    Result<Character> b = importGltf("/dev/zero");
    const bool expected =
        !a.ok() && a.status().message() == fifo + ": is a FIFO (named pipe), not a regular file" &&
        !b.ok() && b.status().message() == "/dev/zero: is a character device, not a regular file";
    _exit(expected ? 0 : 1);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "importing a FIFO or /dev/zero blocked";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(GltfDocument, DeeplyNestedJsonIsRefusedBeforeItCanExhaustTheStack) {
  // 100,000 nested arrays in `extras` crashed tinygltf (it copies extras recursively).
  const int depth = 100'000;
  const std::string deep = R"({"asset":{"version":"2.0"},"extras":)" + std::string(depth, '[') +
                           std::string(depth, ']') + "}";
  const std::string path = write("deep.gltf", deep);
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(c.status().message(), path + ": JSON nested more than 64 levels deep");

  // Nesting up to the limit is fine: the file imports (or fails) on its content.
  test::TwoBoneFile file;
  json extras = json::array();
  for (int level = 0; level < 60; ++level) extras = json::array({extras});
  file.gltf.json["extras"] = extras;
  const std::string ok = file.gltf.write(dir_, "extras.gltf");
  Result<Character> fine = importGltf(ok);
  EXPECT_TRUE(fine.ok()) << fine.status().message();
}

TEST_F(GltfDocument, AGlbBufferOfZeroBytesIsInvalidDataNotALibraryException) {
  // tinygltf took &data.at(0) of the empty buffer: "vector::_M_range_check" reached the user.
  const std::string path =
      write("empty-buffer.glb",
            makeGlb(R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":0}]})", "abcd"));
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(c.status().message(),
            path + ": buffer 0: byteLength is 0 (a buffer holds at least one byte)");
}

TEST_F(GltfDocument, AHugeInvalidDataUriGivesAShortOneLineError) {
  // The issue: a 200 MB data uri was echoed whole; 20 MB shows the same (the size is what varies).
  const std::string payload(20'000'000, '!');
  const std::string path = write(
      "data.gltf",
      R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":10,"uri":"data:application/octet-stream;base64,)" +
          payload + R"("}]})");
  Result<Character> c = importGltf(path);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kParseError);
  expectOneLine(c.status(), path);
  EXPECT_NE(c.status().message().find("Failed to decode 'uri'"), std::string::npos)
      << c.status().message();
}

TEST_F(GltfDocument, ParserMessagesAndWarningsAreOneLine) {
  // A broken document: tinygltf reports several lines, which become one.
  const std::string broken = write(
      "broken.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"uri":"a.bin"},{"uri":"b.bin"}]})");
  Result<Character> c = importGltf(broken);
  ASSERT_FALSE(c.ok());
  expectOneLine(c.status(), broken);

  // Names with line breaks reach warnings (a repeated joint name) escaped, on one line.
  test::TwoBoneFile file;
  file.gltf.json["nodes"][1]["name"] = "bone\nname";
  file.gltf.json["nodes"][2]["name"] = "bone\nname";
  const std::string path = file.gltf.write(dir_, "names.gltf");
  Result<Character> named = importGltf(path);
  ASSERT_TRUE(named.ok()) << named.status().message();
  ASSERT_FALSE(named->warnings.empty());
  for (const Warning& w : named->warnings) {
    EXPECT_EQ(w.message.find('\n'), std::string::npos) << w.message;
    EXPECT_NE(w.message.find("bone\\nname"), std::string::npos) << w.message;
  }
}

}  // namespace
}  // namespace throng
