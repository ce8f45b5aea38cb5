// Status and Result<T>: how throng reports bad data (a stable code plus a message naming file and
// place).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace throng {

// Stable error codes; documented in docs/errors.md. Never renumber.
enum class ErrorCode : int {
  kOk = 0,
  kIoError = 1,          // a file could not be opened, read, written or renamed
  kParseError = 2,       // bytes or text that do not follow the format
  kInvalidData = 3,      // well-formed but inconsistent data (bad index, cycle, NaN, ...)
  kUnsupported = 4,      // valid input using a feature throng does not implement
  kLimitExceeded = 5,    // a named hard limit (joints, texture size, uniforms, ...) is exceeded
  kInvalidArgument = 6,  // a bad option or name from the user (unknown clip, bad --fps, ...)
  kGlError = 7,          // EGL/GL failure: no context, shader compile/link error, GL error
  kVersionMismatch = 8,  // a file written by a newer (or unknown) format version
};

const char* errorCodeName(ErrorCode code);

class Status;
namespace detail {
// Messages are one line of bounded length whatever they quote: control bytes are escaped and
// anything past kMaxMessageBytes (excerpt.h) is cut.
std::string oneLineMessage(std::string message);
// Prints "throng: value of a failed Result: <status>" to stderr and calls std::abort(), in every
// build type: reading the value of an error is a caller bug that must never run on silently.
[[noreturn]] void abortOnMissingValue(const Status& status);
// For tests: a function told of every error Status made (its code and one-line message), on the
// thread that made it; nullptr (the default) for none. The test programs record which messages
// each test triggers, and docs/errors.md is checked against them (tests/tools/errors_doc_test.cpp).
using StatusObserver = void (*)(ErrorCode code, const std::string& message);
void setStatusObserver(StatusObserver observer);
void observeStatus(ErrorCode code, const std::string& message);
}  // namespace detail

// The outcome of an operation: ok, or an error code with a human-readable one-line message.
class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  Status(ErrorCode code, std::string message)
      : code_(code), message_(detail::oneLineMessage(std::move(message))) {
    assert(code != ErrorCode::kOk);
    detail::observeStatus(code_, message_);
  }
  static Status okStatus() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "error name: message", for logs and the CLI.
  std::string toString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // The value. On an error these print the status to stderr and abort the program (every build
  // type): check ok() first, or use the status.
  T& value() & {
    if (!value_) detail::abortOnMissingValue(status_);
    return *value_;
  }
  const T& value() const& {
    if (!value_) detail::abortOnMissingValue(status_);
    return *value_;
  }
  T&& value() && {
    if (!value_) detail::abortOnMissingValue(status_);
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace throng
