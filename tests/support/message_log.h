// The messages each test triggers, for docs/errors.md's check: with THRONG_MESSAGE_LOG=FILE in
// the environment, every error Status made while a test runs, and every line of output of the
// programs it runs (runShell), is appended to FILE as "<test's full name>\t<message>".
#pragma once

#include <string_view>

namespace throng::test {

// Starts recording when THRONG_MESSAGE_LOG is set (the test programs' main calls it).
void startMessageLog();
// Records each line of a program's output (runShell calls it), a message a child process of the
// test sent back (a library call made where the test process cannot make it: under a file size
// limit, without root), or a warning the library returned (warnings are strings, not Status);
// nothing when not recording.
void logOutputLines(std::string_view output);

}  // namespace throng::test
