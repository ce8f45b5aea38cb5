// The CLI on inputs that are not files, on uris leading out of the asset, and with --allow-root.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support/test_support.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using test::runCli;

long lines(const std::string& s) {
  return std::count(s.begin(), s.end(), '\n');
}

// runCli under `timeout`: a command that blocks fails (exit 124) instead of hanging the suite.
test::CliResult runWithDeadline(const std::string& args) {
  test::CliResult result;
  const std::string command = std::string("timeout 60 '") + THRONG_CLI_PATH + "' " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(HostileInputCli, ADirectoryAFifoOrADeviceIsOneLineAndExitOne) {
  // The issue: a directory aborted inspect, bake and pose with an uncaught exception (exit 134).
  const fs::path dir = test::makeTempDir("cli-hostile");
  fs::create_directory(dir / "folder.glb");
  ASSERT_EQ(mkfifo((dir / "pipe.glb").c_str(), 0600), 0);
  for (const fs::path& input : {dir / "folder.glb", dir / "pipe.glb", fs::path("/dev/zero")}) {
    const std::string in = test::shellQuoted(input);
    const std::string out = test::shellQuoted(dir / "out");
    for (const std::string& command :
         {"inspect " + in, "bake " + in + " -o " + out, "pose " + in + " -o " + out,
          "skeleton " + in + " -o " + out}) {
      const test::CliResult r = runWithDeadline(command);
      EXPECT_EQ(r.exit_code, 1) << command << "\n" << r.output;
      EXPECT_EQ(lines(r.output), 1) << command << "\n" << r.output;
      EXPECT_NE(r.output.find(input.string() + ": is a"), std::string::npos) << r.output;
      EXPECT_FALSE(fs::exists(dir / "out")) << command;
    }
  }
  fs::remove_all(dir);
}

TEST(HostileInputCli, AllowRootLetsAUriLeaveTheAssetFolder) {
  const fs::path dir = test::makeTempDir("cli-allow-root");
  ASSERT_EQ(runCli("sample -o " + test::shellQuoted(dir / "sample.glb")).exit_code, 0);
  // Split the .glb into a .gltf in asset/ whose buffer lives one folder up.
  const std::string glb = test::readFile(dir / "sample.glb");
  uint32_t json_length = 0, bin_length = 0;
  std::memcpy(&json_length, glb.data() + 12, 4);
  std::memcpy(&bin_length, glb.data() + 20 + json_length, 4);
  std::string json = glb.substr(20, json_length);
  const std::string bin = glb.substr(28 + json_length, bin_length);
  const size_t buffers = json.find("\"buffers\"");
  ASSERT_NE(buffers, std::string::npos);
  const size_t length = json.find("\"byteLength\"", buffers);
  json.insert(length, "\"uri\":\"../shared.bin\",");
  fs::create_directory(dir / "asset");
  test::writeFile(dir / "asset" / "character.gltf", json);
  test::writeFile(dir / "shared.bin", bin);
  const std::string gltf = test::shellQuoted(dir / "asset" / "character.gltf");

  test::CliResult r = runCli("inspect " + gltf);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("buffer 0 uri '../shared.bin': leads outside the glTF file's folder"),
            std::string::npos)
      << r.output;
  r = runCli("inspect " + gltf + " --allow-root " + test::shellQuoted(dir));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("joints: 23"), std::string::npos) << r.output;
  // The option comes before or after the file, once or more, on every importing command.
  r = runCli("bake --allow-root /nonexistent --allow-root " + test::shellQuoted(dir) + " " + gltf +
             " -o " + test::shellQuoted(dir / "out.throng"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = runCli("pose " + gltf + " --allow-root " + test::shellQuoted(dir) + " -o " +
             test::shellQuoted(dir / "p.obj"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = runCli("skeleton " + gltf + " --allow-root " + test::shellQuoted(dir) + " -o " +
             test::shellQuoted(dir / "s.skel"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace throng
