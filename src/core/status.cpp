// Status formatting and the names of the stable error codes.
#include "throng/core/status.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "throng/core/excerpt.h"

namespace throng {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kIoError:
      return "io error";
    case ErrorCode::kParseError:
      return "parse error";
    case ErrorCode::kInvalidData:
      return "invalid data";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kLimitExceeded:
      return "limit exceeded";
    case ErrorCode::kInvalidArgument:
      return "invalid argument";
    case ErrorCode::kGlError:
      return "gl error";
    case ErrorCode::kVersionMismatch:
      return "version mismatch";
  }
  return "unknown error";
}

namespace detail {

std::string oneLineMessage(std::string message) {
  bool clean = message.size() <= kMaxMessageBytes;
  for (size_t i = 0; clean && i < message.size(); ++i) {
    const auto byte = static_cast<unsigned char>(message[i]);
    clean = byte >= 0x20 && byte != 0x7f;
  }
  return clean ? message : excerpt(message, kMaxMessageBytes);
}

namespace {
std::atomic<StatusObserver> status_observer{nullptr};
}  // namespace

void setStatusObserver(StatusObserver observer) {
  status_observer.store(observer);
}

void observeStatus(ErrorCode code, const std::string& message) {
  if (StatusObserver observer = status_observer.load(std::memory_order_relaxed)) {
    observer(code, message);
  }
}

void abortOnMissingValue(const Status& status) {
  std::fprintf(stderr, "throng: value of a failed Result: %s\n", status.toString().c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace detail

std::string Status::toString() const {
  if (ok()) return "ok";
  return std::string(errorCodeName(code_)) + ": " + message_;
}

}  // namespace throng
