// Status and Result: messages, and reading the value of an error ends the program in every build.
#include "throng/core/status.h"

#include <string>

#include <gtest/gtest.h>

namespace throng {
namespace {

Result<std::string> failure() {
  return Status(ErrorCode::kIoError, "hero.glb: cannot open: No such file or directory");
}

TEST(Status, ToStringNamesTheCodeAndTheMessage) {
  EXPECT_EQ(Status().toString(), "ok");
  EXPECT_EQ(failure().status().toString(),
            "io error: hero.glb: cannot open: No such file or directory");
}

TEST(Result, HoldsAValue) {
  Result<std::string> r = std::string("crowd");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), "crowd");
  EXPECT_EQ(*r, "crowd");
  EXPECT_EQ(r->size(), 5u);
  EXPECT_EQ(std::move(r).value(), "crowd");
}

// Release builds included: this suite is built with the tree's build type (Release by default).
TEST(ResultDeathTest, ValueOfAnErrorPrintsTheStatusAndAborts) {
  const char* expected = "value of a failed Result: io error: hero.glb: cannot open";
  EXPECT_DEATH(
      {
        Result<std::string> r = failure();
        (void)r.value();
      },
      expected);
  EXPECT_DEATH(
      {
        const Result<std::string> r = failure();
        (void)r.value();
      },
      expected);
  EXPECT_DEATH((void)failure().value(), expected);
  EXPECT_DEATH(
      {
        Result<std::string> r = failure();
        (void)*r;
      },
      expected);
  EXPECT_DEATH(
      {
        Result<std::string> r = failure();
        (void)r->size();
      },
      expected);
}

}  // namespace
}  // namespace throng
