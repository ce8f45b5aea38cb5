// A bake killed (SIGKILL) while it writes leaves the previous package intact and no temporary file.
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/test_support.h"
#include "throng/core/package.h"

namespace throng {
namespace {

namespace fs = std::filesystem;

// Starts the throng CLI with `args` (output discarded); returns its process id.
pid_t startCli(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  dup2(null, 2);
  std::vector<char*> argv;
  std::string program = THRONG_CLI_PATH;
  argv.push_back(program.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  _exit(127);
}

// True when process `pid` has a file open in `dir` (an O_TMPFILE file shows as "<dir>/#<inode>
// (deleted)", a named temporary file under its name): the package is being written.
bool writingInto(pid_t pid, const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code link_ec;
    const fs::path target = fs::read_symlink(it->path(), link_ec);
    if (!link_ec && target.string().starts_with(dir.string() + "/")) return true;
  }
  return false;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
  return names;
}

TEST(AtomicOutput, ABakeKilledWhileWritingLeavesThePreviousPackageAndNoTemporaryFile) {
  const fs::path dir = test::makeTempDir("atomic-bake");
  const fs::path out = dir / "crowd.throng";
  ASSERT_EQ(test::runCli("bake sample --fps 10 -o '" + out.string() + "'").exit_code, 0);
  const std::string previous = test::readFile(out);
  ASSERT_TRUE(readPackage(out.string()).ok());

  // A large package (every clip at 1,000 fps) keeps the file open long enough to be caught.
  int killed_while_writing = 0;
  for (int attempt = 0; attempt < 8 && killed_while_writing < 2; ++attempt) {
    const pid_t pid =
        startCli({"bake", "sample", "--fps", "1000", "--threads", "1", "-o", out.string()});
    ASSERT_GT(pid, 0);
    bool caught = false;
    int status = 0;
    for (;;) {
      if (writingInto(pid, dir)) {
        kill(pid, SIGKILL);
        caught = true;
      }
      const pid_t done = waitpid(pid, &status, caught ? 0 : WNOHANG);
      if (done == pid) break;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    if (!caught) {
      // Finished before it could be caught: the new package replaced the old one whole.
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      ASSERT_TRUE(readPackage(out.string()).ok());
      test::writeFile(out, previous);
      continue;
    }
    ASSERT_TRUE(WIFSIGNALED(status));
    ++killed_while_writing;
    EXPECT_EQ(test::readFile(out), previous) << "the killed bake changed the package";
    EXPECT_EQ(entries(dir), std::vector<std::string>{"crowd.throng"})
        << "the killed bake left a temporary file";
  }
  EXPECT_GT(killed_while_writing, 0) << "no bake could be killed while writing its package";

  // Killed before writing (while it bakes): nothing changes either.
  const pid_t early = startCli({"bake", "sample", "--fps", "1000", "-o", out.string()});
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(early, SIGKILL);
  waitpid(early, nullptr, 0);
  EXPECT_EQ(test::readFile(out), previous);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"crowd.throng"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace throng
