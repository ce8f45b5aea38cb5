// Records the messages each test triggers (message_log.h).
#include "support/message_log.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include <gtest/gtest.h>

#include "support/require.h"
#include "throng/core/status.h"

namespace throng::test {
namespace {

std::mutex log_mutex;
FILE* log_file = nullptr;  // open while recording

void writeLine(std::string_view message) {
  if (log_file == nullptr || message.empty()) return;
  const std::string test = currentTestName();
  std::lock_guard lock(log_mutex);
  std::fprintf(log_file, "%s\t%.*s\n", test.c_str(), static_cast<int>(message.size()),
               message.data());
  std::fflush(log_file);  // a test that crashes still leaves what it triggered
}

void observe(ErrorCode, const std::string& message) {
  writeLine(message);
}

}  // namespace

void startMessageLog() {
  const char* path = std::getenv("THRONG_MESSAGE_LOG");
  if (path == nullptr || *path == '\0') return;
  log_file = std::fopen(path, "a");
  if (log_file == nullptr) {
    std::fprintf(stderr, "cannot append to THRONG_MESSAGE_LOG=%s\n", path);
    std::exit(1);
  }
  detail::setStatusObserver(observe);
}

void logOutputLines(std::string_view output) {
  if (log_file == nullptr) return;
  while (!output.empty()) {
    const size_t end = output.find('\n');
    writeLine(output.substr(0, end));
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + 1);
  }
}

}  // namespace throng::test
