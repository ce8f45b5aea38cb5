// Tests of whole-file reads (never blocking, never overrunning) and of crash-safe writes.
#include "throng/core/file_io.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/message_log.h"
#include "support/test_support.h"

namespace throng {
namespace {

namespace fs = std::filesystem;

// Runs `check` in a child process; fails when it does not return within `seconds` (a read that
// blocks would otherwise hang the whole test program) or when it returns false.
void expectWithinDeadline(const std::function<bool()>& check, double seconds = 10.0) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(check() ? 0 : 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      FAIL() << "the read blocked for more than " << seconds << " s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's check failed";
}

std::vector<std::string> folderEntries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ReadFileBytes, ReadsARegularFileWhole) {
  const fs::path dir = test::makeTempDir("read");
  std::string bytes(300'000, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  test::writeFile(dir / "data.bin", bytes);
  Result<std::string> read = readFileBytes((dir / "data.bin").string());
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(*read, bytes);
  test::writeFile(dir / "empty", "");
  Result<std::string> empty = readFileBytes((dir / "empty").string());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(ReadFileBytes, RefusesADirectory) {
  const fs::path dir = test::makeTempDir("read-dir");
  Result<std::string> read = readFileBytes(dir.string());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(read.status().message(), dir.string() + ": is a directory, not a regular file");
}

TEST(ReadFileBytes, RefusesAFifoWithoutBlocking) {
  const fs::path dir = test::makeTempDir("read-fifo");
  const fs::path fifo = dir / "pipe.bin";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expectWithinDeadline([&] {
    Result<std::string> read = readFileBytes(fifo.string());
    return !read.ok() && read.status().code() == ErrorCode::kIoError &&
           read.status().message() ==
               fifo.string() + ": is a FIFO (named pipe), not a regular file";
  });
}

TEST(ReadFileBytes, RefusesDevicesAndSocketsWithoutReading) {
  // /dev/zero never ends: reading it would exhaust memory instead of failing.
  expectWithinDeadline([] {
    Result<std::string> read = readFileBytes("/dev/zero");
    return !read.ok() &&
           read.status().message() == "/dev/zero: is a character device, not a regular file";
  });
  const fs::path dir = test::makeTempDir("read-socket");
  const fs::path path = dir / "socket";
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof(address.sun_path));
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  Result<std::string> read = readFileBytes(path.string());
  close(fd);
  ASSERT_FALSE(read.ok());
  // A socket cannot be opened like a file (ENXIO); either way the message names the path.
  EXPECT_EQ(read.status().code(), ErrorCode::kIoError);
  EXPECT_TRUE(read.status().message().starts_with(path.string() + ": ")) << read.status().message();
}

TEST(ReadFileBytes, RefusesAFileOverTheLimitBeforeReadingIt) {
  const fs::path dir = test::makeTempDir("read-limit");
  test::writeFile(dir / "big.bin", std::string(1000, 'x'));
  Result<std::string> read = readFileBytes((dir / "big.bin").string(), 999);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(read.status().message(), (dir / "big.bin").string() +
                                         ": 1000 bytes is more than the 999 bytes this file may "
                                         "have");
  EXPECT_TRUE(readFileBytes((dir / "big.bin").string(), 1000).ok());
}

// Runs `call` in a child process and returns the message it sends back (a Status message), also
// recorded as this test's (message_log.h): for library calls the test process must not make
// itself (under a file size limit, without root).
std::string messageFromChild(const std::function<std::string()>& call) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return "pipe failed";
  const pid_t child = fork();
  if (child < 0) return "fork failed";
  if (child == 0) {
    close(pipe_fds[0]);
    const std::string message = call();
    const ssize_t written = write(pipe_fds[1], message.data(), message.size());
    _exit(written == static_cast<ssize_t>(message.size()) ? 0 : 1);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[1024];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child failed: " << message;
  test::logOutputLines(message);
  return message;
}

TEST(ReadFileBytes, ReportsMissingAndUnreadableFiles) {
  const fs::path dir = test::makeTempDir("read-missing");
  Result<std::string> missing = readFileBytes((dir / "nothing.glb").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(missing.status().message(),
            (dir / "nothing.glb").string() + ": cannot open: No such file or directory");
  test::writeFile(dir / "secret.glb", "x");
  ASSERT_EQ(chmod((dir / "secret.glb").c_str(), 0), 0);
  // Root reads a file whatever its permissions say (CI runs as root): there the read runs in a
  // child that has given root up for the user nobody.
  const std::string path = (dir / "secret.glb").string();
  const std::string message = messageFromChild([&] {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) return std::string("setuid");
    return readFileBytes(path).status().message();
  });
  EXPECT_EQ(message, path + ": cannot open: Permission denied");
}

// A file that holds more than its size said when it was opened (a /proc file says 0 bytes) is
// read only up to the limit.
TEST(ReadFileBytes, AFileThatGrowsPastTheLimitWhileReadIsRefused) {
  Result<std::string> grown = readFileBytes("/proc/self/status", 16);
  ASSERT_FALSE(grown.ok());
  EXPECT_EQ(grown.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(grown.status().message(),
            "/proc/self/status: grew past the 16 bytes this file may have");
  EXPECT_TRUE(readFileBytes("/proc/self/status").ok());
}

// A read the system fails (this process's own memory at address 0, which no page maps) names the
// system's reason.
TEST(ReadFileBytes, AFailedReadNamesTheSystemsReason) {
  Result<std::string> failed = readFileBytes("/proc/self/mem");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(failed.status().message(), "/proc/self/mem: read error: Input/output error");
}

TEST(WriteFileAtomically, ReplacesTheFileAndLeavesNoTemporaryFile) {
  const fs::path dir = test::makeTempDir("write");
  const std::string path = (dir / "out.throng").string();
  ASSERT_TRUE(writeFileAtomically(path, "first").ok());
  ASSERT_TRUE(writeFileAtomically(path, "second, longer").ok());
  EXPECT_EQ(test::readFile(path), "second, longer");
  EXPECT_EQ(folderEntries(dir), std::vector<std::string>{"out.throng"});
}

TEST(WriteFileAtomically, RemovesTheTemporaryFilesOfKilledWriters) {
  const fs::path dir = test::makeTempDir("write-stale");
  // A process id that no longer runs: a child that has exited and been reaped.
  const pid_t dead = fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) _exit(0);
  ASSERT_EQ(waitpid(dead, nullptr, 0), dead);
  const std::string marker(kTempFileMarker);
  const std::string stale = "out.throng" + marker + std::to_string(dead) + "-0";
  const std::string live = "out.throng" + marker + std::to_string(getppid()) + "-0";
  const std::string other = "other.throng" + marker + std::to_string(dead) + "-0";
  for (const std::string& name : {stale, live, other}) test::writeFile(dir / name, "partial");

  ASSERT_TRUE(writeFileAtomically((dir / "out.throng").string(), "whole").ok());
  // Only the dead writer's file of this output goes; a running writer's and other outputs' stay.
  std::vector<std::string> expected = {live, other, "out.throng"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(folderEntries(dir), expected);
}

TEST(WriteFileAtomically, AFailedWriteLeavesTheTargetAndNoTemporaryFile) {
  const fs::path dir = test::makeTempDir("write-fail");
  fs::create_directory(dir / "taken");  // rename cannot replace a directory with a file
  test::writeFile(dir / "taken" / "inside", "keep");
  const Status s = writeFileAtomically((dir / "taken").string(), "bytes");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kIoError);
  EXPECT_TRUE(s.message().starts_with((dir / "taken").string() + ": cannot rename into place: "))
      << s.message();
  EXPECT_EQ(folderEntries(dir), std::vector<std::string>{"taken"});
  EXPECT_EQ(test::readFile(dir / "taken" / "inside"), "keep");

  const Status missing = writeFileAtomically((dir / "no-such-folder" / "x.throng").string(), "b");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), ErrorCode::kIoError);
  EXPECT_EQ(missing.message(), (dir / "no-such-folder" / "x.throng").string() +
                                   ": cannot create a temporary file: No such file or directory");

  // A write the system stops half way (here a file size limit, as a full disk would) leaves
  // nothing either.
  const std::string path = (dir / "big.throng").string();
  const std::string message = messageFromChild([&] {
    signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG instead of killing the process
    const rlimit limit{4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return std::string("setrlimit");
    return writeFileAtomically(path, std::string(1 << 16, 'x')).message();
  });
  EXPECT_EQ(message, path + ": write failed: File too large");
  EXPECT_EQ(folderEntries(dir), std::vector<std::string>{"taken"});
}

}  // namespace
}  // namespace throng
