// The CLI's progress bar: nothing off a terminal or before its delay, then redrawn only when the
// percentage moves, and erased at the end.
#include "progress_bar.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace throng::cli {
namespace {

// What was written to `file` so far.
std::string contents(std::FILE* file) {
  std::fflush(file);
  const long size = std::ftell(file);
  std::string text(static_cast<size_t>(size), '\0');
  std::rewind(file);
  EXPECT_EQ(std::fread(text.data(), 1, text.size(), file), text.size());
  std::fseek(file, 0, SEEK_END);
  return text;
}

TEST(ProgressBar, OffATerminalItWritesNothing) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  double now = 0.0;
  {
    ProgressBar bar(file, false, [&] { return now; });
    for (uint64_t done = 0; done <= 100; ++done) {
      now = static_cast<double>(done);  // long past the delay
      bar.update("baking", done, 100, "frames");
    }
    EXPECT_FALSE(bar.drawn());
  }
  EXPECT_EQ(contents(file), "");
  std::fclose(file);
}

TEST(ProgressBar, OnATerminalItWaitsForTheDelayThenDrawsEachNewPercentage) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  double now = 10.0;
  ProgressBar bar(file, true, [&] { return now; });
  now += 0.5 * kProgressBarDelay;
  bar.update("baking", 10, 100, "frames");  // quick work so far: nothing
  EXPECT_EQ(contents(file), "");
  now += kProgressBarDelay;
  bar.update("baking", 40, 100, "frames");
  const std::string first = contents(file);
  EXPECT_EQ(first, "\rbaking [############..................]  40%  40/100 frames\033[K");
  EXPECT_TRUE(bar.drawn());
  bar.update("baking", 40, 100, "frames");  // the same percentage: not redrawn
  bar.update("baking", 30, 100, "frames");  // never backwards
  EXPECT_EQ(contents(file), first);
  bar.update("baking", 100, 100, "frames");
  EXPECT_NE(contents(file).find("\rbaking [##############################] 100%  100/100 frames"),
            std::string::npos);
  // A new step starts from its own beginning.
  bar.update("building LODs", 1, 4, "levels");
  EXPECT_NE(contents(file).find("\rbuilding LODs [#######.......................]  25%  1/4 "
                                "levels\033[K"),
            std::string::npos);
  const size_t before = contents(file).size();
  bar.finish();  // erased: what follows starts on a clean line
  EXPECT_EQ(contents(file).substr(before), "\r\033[K");
  EXPECT_FALSE(bar.drawn());
  bar.finish();  // once erased, nothing more
  EXPECT_EQ(contents(file).substr(before), "\r\033[K");
  std::fclose(file);
}

}  // namespace
}  // namespace throng::cli
