// The skeleton file reader's remaining error messages (docs/errors.md), each with its exact text;
// skeleton_file_test.cpp has the others.
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/excerpt.h"
#include "throng/core/skeleton_file.h"

namespace throng {
namespace {

// A one-joint file with line `line` (1-based) replaced by `replacement`.
std::string oneJoint(int line, const std::string& replacement) {
  std::string lines[] = {"throng-skeleton 1",
                         "joints 1",
                         "joint \"root\"",
                         "parent -",
                         "children 0",
                         "translation 0 0 0",
                         "rotation 0 0 0 1",
                         "scale 1 1 1",
                         "matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
                         "inverse_bind 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1",
                         "end"};
  if (line > 0) lines[line - 1] = replacement;
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

void expectError(const std::string& text, ErrorCode code, const std::string& message) {
  Result<Skeleton> s = parseSkeletonText(text, "one.skel");
  ASSERT_FALSE(s.ok()) << text;
  EXPECT_EQ(s.status().code(), code) << s.status().toString();
  EXPECT_EQ(s.status().message(), message);
}

TEST(SkeletonFileErrors, TheBaseFileIsValid) {
  EXPECT_TRUE(parseSkeletonText(oneJoint(0, ""), "one.skel").ok());
}

TEST(SkeletonFileErrors, LineShapes) {
  expectError(oneJoint(1, "throng-skeleton"), ErrorCode::kParseError,
              "one.skel:1: expected 'throng-skeleton <version>'");
  expectError(oneJoint(2, "joints 1 2"), ErrorCode::kParseError,
              "one.skel:2: 'joints' takes one count");
  expectError(oneJoint(3, "joint"), ErrorCode::kParseError,
              "one.skel:3: missing name after 'joint'");
  expectError(oneJoint(3, "joint \"ro\"ot"), ErrorCode::kParseError,
              "one.skel:3: a quoted name must be followed by a space or the end of the line");
  expectError(oneJoint(4, "parent - -"), ErrorCode::kParseError,
              "one.skel:4: 'parent' takes one quoted name, or - for a root joint");
  expectError(oneJoint(5, "children"), ErrorCode::kParseError,
              "one.skel:5: missing count after 'children'");
  expectError(oneJoint(11, "end now"), ErrorCode::kParseError,
              "one.skel:11: 'end' takes nothing after it");
  expectError(oneJoint(11, "fin"), ErrorCode::kParseError,
              "one.skel:11: expected 'end', found 'fin'");
}

TEST(SkeletonFileErrors, QuotedValuesAreShortAndOnOneLine) {
  // A 1 MB token and a name with a line break are quoted as short one-line excerpts.
  const std::string long_token(1 << 20, 'x');
  Result<Skeleton> s =
      parseSkeletonText(oneJoint(6, "translation 0 " + long_token + " 0"), "one.skel");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "one.skel:6: number 2 after 'translation' ('" +
                                      std::string(kExcerptBytes, 'x') +
                                      "...(1048576 bytes)') is not a number");
  s = parseSkeletonText(oneJoint(4, "parent \"gh\\x0aost\""), "one.skel");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "one.skel:4: parent \"gh\\nost\" of joint \"root\" is not a joint of this file");
}

TEST(SkeletonFileErrors, FilesThatAreNotSkeletonFiles) {
  const auto dir = test::makeTempDir("skeleton-file-errors");
  Result<Skeleton> folder = readSkeletonFile(dir.string());
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(folder.status().message(), dir.string() + ": is a directory, not a regular file");
  const std::string big = (dir / "big.skel").string();
  test::writeFile(big, std::string(kMaxSkeletonFileBytes + 1, '#'));
  Result<Skeleton> large = readSkeletonFile(big);
  ASSERT_FALSE(large.ok());
  EXPECT_EQ(large.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(large.status().message(), big +
                                          ": 16777217 bytes is more than the 16777216 bytes this "
                                          "file may have");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
