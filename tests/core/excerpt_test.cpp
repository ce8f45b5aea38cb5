// Tests of the one-line excerpts that error messages quote, and of the Status safety net.
#include "throng/core/excerpt.h"

#include <string>

#include <gtest/gtest.h>

#include "throng/core/status.h"

namespace throng {
namespace {

TEST(Excerpt, ShortPrintableTextIsUnchanged) {
  EXPECT_EQ(excerpt("Hips"), "Hips");
  EXPECT_EQ(excerpt("Grundkörper"), "Grundkörper");
}

TEST(Excerpt, ControlBytesAreEscapedOnOneLine) {
  EXPECT_EQ(excerpt("a\nb\tc\rd\x01"
                    "e\x7f"),
            "a\\nb\\tc\\rd\\x01e\\x7f");
  EXPECT_EQ(excerpt(std::string("x\0y", 3)), "x\\x00y");
}

TEST(Excerpt, LongTextIsCutAndTellsItsSize) {
  const std::string huge(200'000'000 / 1000, 'A');  // 200 kB stands for the 200 MB data uri
  const std::string e = excerpt(huge);
  EXPECT_EQ(e, std::string(kExcerptBytes, 'A') + "...(200000 bytes)");
  EXPECT_EQ(excerpt("abcdef", 3), "abc...(6 bytes)");
}

TEST(Excerpt, NeverCutsInsideAUtf8Sequence) {
  // "ä" is two bytes; a cut after "a" + the first byte of "ä" must drop that byte.
  const std::string text = "aä" + std::string(10, 'z');
  EXPECT_EQ(excerpt(text, 2), "a...(13 bytes)");
  EXPECT_EQ(excerpt(text, 3), "aä...(13 bytes)");
}

TEST(StatusMessage, IsOneLineAndBounded) {
  const Status multi(ErrorCode::kParseError, "file.skel:3: name \"a\nb\"");
  EXPECT_EQ(multi.message(), "file.skel:3: name \"a\\nb\"");
  const Status flood(ErrorCode::kParseError, "x.gltf: " + std::string(5'000'000, 'B'));
  EXPECT_LE(flood.message().size(), kMaxMessageBytes + 32);
  EXPECT_EQ(flood.message().find('\n'), std::string::npos);
  EXPECT_TRUE(flood.message().starts_with("x.gltf: BBB"));
  EXPECT_TRUE(flood.message().ends_with("...(5000008 bytes)")) << flood.message();
}

}  // namespace
}  // namespace throng
