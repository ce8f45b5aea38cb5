// End-to-end test of `throng demo`: the crowd demo runs headless and draws in one call.
#include <regex>

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

TEST(DemoCli, RendersASmallCrowdWithOneDrawCallPerLodInUse) {
  const auto dir = test::makeTempDir("cli-demo");
  const std::string png = (dir / "crowd.png").string();
  const test::CliResult r =
      test::runCli("demo --agents 25 --seconds 2 --width 160 --height 120 --out '" + png + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("25 agents"), std::string::npos) << r.output;
  // One instanced draw per LOD level that has agents, whatever the number of agents.
  std::smatch draws;
  ASSERT_TRUE(std::regex_search(r.output, draws, std::regex("(\\d+) draw call"))) << r.output;
  const std::string lod_line = r.output.substr(r.output.find("lods (agents per level):"));
  int levels_in_use = 0;
  const std::regex level(" \\d+: (\\d+) \\(");
  for (std::sregex_iterator it(lod_line.begin(), lod_line.end(), level);
       it != std::sregex_iterator(); ++it) {
    levels_in_use += std::stoi((*it)[1]) > 0;
  }
  EXPECT_GE(levels_in_use, 1);
  EXPECT_EQ(std::stoi(draws[1]), levels_in_use) << r.output;
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

namespace throng {
namespace {

TEST(DemoCli, StreetViewCullsTheAgentsOutsideTheFrustum) {
  const auto dir = test::makeTempDir("cli-demo-street");
  const test::CliResult r =
      test::runCli("demo --agents 100 --seconds 1 --width 160 --height 120 --view street --out '" +
                   (dir / "street.png").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("culling: (\\d+) of 100 agents visible")))
      << r.output;
  EXPECT_GT(std::stoi(m[1]), 0);
  EXPECT_LT(std::stoi(m[1]), 100);
  EXPECT_NE(test::runCli("demo --view sideways --out /dev/null").exit_code, 0);
}

}  // namespace
}  // namespace throng
