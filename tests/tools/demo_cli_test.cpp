// End-to-end test of `throng demo`: the crowd demo runs headless and draws in one call.
#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

TEST(DemoCli, RendersASmallCrowdWithOneDrawCall) {
  const auto dir = test::makeTempDir("cli-demo");
  const std::string png = (dir / "crowd.png").string();
  const test::CliResult r =
      test::runCli("demo --agents 25 --seconds 2 --width 160 --height 120 --out '" + png + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("25 agents"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 draw call"), std::string::npos) << r.output;
  const std::string bytes = test::readFile(png);
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

TEST(DemoCli, RejectsBadArguments) {
  const test::CliResult r = test::runCli("demo --agents 0 --out /dev/null");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--agents"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace throng
