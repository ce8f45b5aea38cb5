// External uris of a .gltf: only regular files inside its folder (or an allowed root) are read.
#include <chrono>
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

// The tree every test starts from:
//   <top>/secret.bin            the two-bone file's buffer, outside the asset folder
//   <top>/asset/doc.gltf        the two-bone file, buffer uri set per test
//   <top>/asset/body.bin        the same buffer, inside the asset folder
class GltfUri : public ::testing::Test {
 protected:
  void SetUp() override {
    top_ = test::makeTempDir("gltf-uri");
    asset_ = top_ / "asset";
    fs::create_directories(asset_);
    test::TwoBoneFile file;
    doc_ = file.gltf.write(asset_, "doc.gltf", "body.bin");
    fs::copy_file(asset_ / "body.bin", top_ / "secret.bin");
  }
  void TearDown() override { fs::remove_all(top_); }

  // Rewrites doc.gltf with buffer 0's uri (and, when given, one image uri); returns its path.
  std::string withUris(const std::string& buffer_uri, const std::string& image_uri = "") {
    json j = json::parse(test::readFile(doc_));
    j["buffers"][0]["uri"] = buffer_uri;
    if (!image_uri.empty()) j["images"] = json::array({json{{"uri", image_uri}}});
    test::writeFile(doc_, j.dump());
    return doc_;
  }
  Result<Character> importWith(const std::string& buffer_uri, const ImportOptions& options = {}) {
    return importGltf(withUris(buffer_uri), options);
  }
  // Expects a refusal whose message quotes the uri as written and ends with `why`.
  void expectRefused(const std::string& uri, const std::string& why,
                     ErrorCode code = ErrorCode::kInvalidData, const ImportOptions& options = {}) {
    Result<Character> c = importWith(uri, options);
    ASSERT_FALSE(c.ok()) << uri;
    EXPECT_EQ(c.status().code(), code) << c.status().message();
    const std::string prefix = doc_ + ": buffer 0 uri '" + uri + "': ";
    EXPECT_TRUE(c.status().message().starts_with(prefix)) << c.status().message();
    EXPECT_NE(c.status().message().find(why), std::string::npos) << c.status().message();
  }

  fs::path top_, asset_;
  std::string doc_;
};

TEST_F(GltfUri, AFileInsideTheFolderIsRead) {
  fs::create_directories(asset_ / "sub");
  fs::copy_file(asset_ / "body.bin", asset_ / "sub" / "my body+1.bin");
  for (const char* uri : {"body.bin", "./body.bin", "sub/../body.bin", "sub/my%20body+1.bin",
                          "sub/my body+1.bin", "sub/%6Dy%20body+1.bin"}) {
    Result<Character> c = importWith(uri);
    ASSERT_TRUE(c.ok()) << uri << ": " << c.status().message();
    EXPECT_EQ(c->mesh.vertexCount(), 4u);
  }
}

TEST_F(GltfUri, DotDotOutOfTheFolderIsRefused) {
  expectRefused("../secret.bin", "leads outside the glTF file's folder");
  expectRefused("sub/../../secret.bin", "leads outside the glTF file's folder");
  expectRefused("../../../../../../../../etc/passwd", "leads outside the glTF file's folder");
}

TEST_F(GltfUri, PercentEncodedDotDotIsRefused) {
  expectRefused("%2e%2e/secret.bin", "leads outside the glTF file's folder");
  expectRefused("%2E%2E%2Fsecret.bin", "leads outside the glTF file's folder");
}

TEST_F(GltfUri, AbsolutePathsAreRefused) {
  expectRefused((top_ / "secret.bin").string(), "is an absolute path");
  expectRefused("/etc/passwd", "is an absolute path");
  expectRefused("%2Fetc%2Fpasswd", "is an absolute path");
}

TEST_F(GltfUri, AnAbsolutePathIsRefusedAlsoWhenTheGltfPathHasNoFolder) {
  // The issue: with "doc.gltf" (no folder part) an absolute uri was read as it stood.
  withUris("/etc/passwd");
  const fs::path previous = fs::current_path();
  fs::current_path(asset_);
  Result<Character> c = importGltf("doc.gltf");
  fs::current_path(previous);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "doc.gltf: buffer 0 uri '/etc/passwd': is an absolute path; only relative paths are "
            "read");
}

TEST_F(GltfUri, SchemesBackslashesNulBytesAndBadEscapesAreRefused) {
  expectRefused("file:///etc/passwd", "has a scheme");
  expectRefused("http://example.com/body.bin", "has a scheme");
  expectRefused("data:text/html,hello", "has a scheme");  // not a data uri tinygltf decodes
  expectRefused("..\\secret.bin", "contains a backslash");
  expectRefused("body.bin%00.png", "contains a NUL byte");
  expectRefused("body%zz.bin", "bad percent escape at character 5");
  expectRefused("body.bin%2", "bad percent escape at character 9");
}

TEST_F(GltfUri, SymbolicLinksLeadingOutAreRefusedAndThoseStayingInsideAreFollowed) {
  fs::create_symlink(top_ / "secret.bin", asset_ / "link.bin");
  expectRefused("link.bin", "goes through a symbolic link to " + (top_ / "secret.bin").string());
  fs::create_directory_symlink(top_, asset_ / "up");
  expectRefused("up/secret.bin", "goes through a symbolic link");
  fs::create_symlink("body.bin", asset_ / "inside.bin");
  Result<Character> c = importWith("inside.bin");
  EXPECT_TRUE(c.ok()) << c.status().message();
}

TEST_F(GltfUri, AnAllowedRootOpensTheFoldersItNames) {
  ImportOptions options;
  options.allowed_roots = {top_.string()};
  for (const char* uri : {"../secret.bin", "%2e%2e/secret.bin"}) {
    Result<Character> c = importWith(uri, options);
    EXPECT_TRUE(c.ok()) << uri << ": " << c.status().message();
  }
  Result<Character> absolute = importWith((top_ / "secret.bin").string(), options);
  EXPECT_TRUE(absolute.ok()) << absolute.status().message();
  // Only what the root holds: further up is still refused.
  expectRefused("../../secret.bin", "leads outside", ErrorCode::kInvalidData, options);
  expectRefused("/etc/passwd", "is an absolute path outside the allowed roots",
                ErrorCode::kInvalidData, options);
  fs::create_symlink("/etc/passwd", asset_ / "passwd.bin");
  expectRefused("passwd.bin", "goes through a symbolic link", ErrorCode::kInvalidData, options);
}

TEST_F(GltfUri, MissingFilesDirectoriesFifosAndDevicesAreClearErrorsThatNeverBlock) {
  expectRefused("missing.bin", "No such file or directory", ErrorCode::kIoError);
  fs::create_directory(asset_ / "folder.bin");
  expectRefused("folder.bin", "is a directory, not a regular file", ErrorCode::kIoError);
  ImportOptions devices;
  devices.allowed_roots = {"/dev"};
  expectRefused("/dev/zero", "is a character device, not a regular file", ErrorCode::kIoError,
                devices);
  ASSERT_EQ(mkfifo((asset_ / "pipe.bin").c_str(), 0600), 0);
  withUris("pipe.bin");
  // Before the fix the import waited forever for a writer: run it in a child with a deadline.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<Character> c = importGltf(doc_);
    const bool expected =
        !c.ok() && c.status().code() == ErrorCode::kIoError &&
        c.status().message() == doc_ +
                                    ": buffer 0 uri 'pipe.bin': " + (asset_ / "pipe.bin").string() +
                                    ": is a FIFO (named pipe), not a regular file";
    _exit(expected ? 0 : 1);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "importing a .gltf whose buffer is a FIFO blocked";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(GltfUri, ManyBuffersNamingOneFileCannotLoadItOverAndOver) {
  // 20 buffers naming one 2 MiB file would load 40 MiB from 2 MiB of files: refused at the read
  // that passes twice the distinct bytes plus 16 MiB.
  test::writeFile(asset_ / "big.bin", std::string(2 << 20, '\0'));
  json j = json::parse(test::readFile(doc_));
  for (int b = 0; b < 20; ++b) {
    j["buffers"].push_back({{"uri", "big.bin"}, {"byteLength", 2 << 20}});
  }
  test::writeFile(doc_, j.dump());
  Result<Character> c = importGltf(doc_);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), ErrorCode::kLimitExceeded);
  // Buffer 0 is body.bin; buffers 1..20 are big.bin. The 11th big read is the first too many.
  const uint64_t body = fs::file_size(asset_ / "body.bin"), big = 2 << 20;
  ASSERT_LE(body + 10 * big, 2 * (body + big) + (16 << 20));
  ASSERT_GT(body + 11 * big, 2 * (body + big) + (16 << 20));
  EXPECT_EQ(c.status().message(),
            doc_ +
                ": uri 'big.bin' (named 20 times) is read too often: the document's uris "
                "would load " +
                std::to_string(body + 11 * big) + " bytes from " + std::to_string(body + big) +
                " bytes of files");
}

TEST_F(GltfUri, ImageUrisFollowTheSameRules) {
  // Images are imported, so their files are read through the same rules as buffers: an escape, a
  // bad escape or an absolute path is refused even for an image no material uses.
  for (const char* image : {"../../secret.png", "%zz.png", "/etc/passwd"}) {
    Result<Character> c = importGltf(withUris("body.bin", image));
    ASSERT_FALSE(c.ok()) << image;
    EXPECT_EQ(c.status().code(), ErrorCode::kInvalidData) << c.status().message();
    EXPECT_TRUE(c.status().message().starts_with(doc_ + ": image 0 uri '" + image + "': "))
        << c.status().message();
  }
  // A FIFO is not read (nor waited on): the image is missing, which costs a warning, not the
  // import (no material uses it).
  ASSERT_EQ(mkfifo((asset_ / "pipe.png").c_str(), 0600), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<Character> c = importGltf(withUris("body.bin", "pipe.png"));
    _exit(c.ok() && c->images.empty() ? 0 : 1);
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "importing a .gltf whose image is a FIFO blocked";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(GltfUri, ClipFilesFollowTheSameRules) {
  test::TwoBoneFile rig;
  const std::string clips = rig.gltf.write(asset_, "clips.gltf", "clips.bin");
  json j = json::parse(test::readFile(clips));
  j["buffers"][0]["uri"] = "../secret.bin";
  test::writeFile(clips, j.dump());
  ImportOptions options;
  options.clip_files = {clips};
  Result<Character> c = importGltf(withUris("body.bin"), options);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            clips + ": buffer 0 uri '../secret.bin': leads outside the glTF file's folder (" +
                asset_.string() + ") and the allowed roots");
}

}  // namespace
}  // namespace throng
