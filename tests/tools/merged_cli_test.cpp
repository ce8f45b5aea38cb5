// CLI tests of method A: `throng render-merged` and `throng bake --lods`.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/package.h"

namespace throng {
namespace {

TEST(RenderMergedCli, PrintsKBatchesAndDrawCalls) {
  const auto dir = test::makeTempDir("merged-cli");
  const std::string png = (dir / "merged.png").string();
  const test::CliResult r = test::runCli(
      "render-merged --agents 12 --frames 1 --width 64 "
      "--height 64 --uniform-budget 128 --out " +
      png);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // 128 vectors - 4 for the camera: 23 joints -> K = 1, 15 -> 2, 10 -> 4.
  EXPECT_NE(r.output.find("23 joints, 6054 vertices, K = 1 per batch"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("10 joints"), std::string::npos);
  EXPECT_NE(r.output.find("12 characters, palette source tree"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("draw calls per frame"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(png));
  std::filesystem::remove_all(dir);
}

TEST(RenderMergedCli, RejectsAnUnknownSource) {
  const test::CliResult r = test::runCli("render-merged --agents 1 --source magic");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--source must be tree or baked"), std::string::npos) << r.output;
}

TEST(BakeCli, LodsFlagWritesTheChainIntoThePackage) {
  const auto dir = test::makeTempDir("bake-lods");
  const std::string out = (dir / "sample.throng").string();
  const test::CliResult r = test::runCli("bake sample --lods -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("triangles/target"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("LODs: "), std::string::npos) << r.output;
  Result<Package> package = readPackage(out);
  ASSERT_TRUE(package.ok()) << package.status().toString();
  ASSERT_EQ(package->lods.size(), 4u);
  EXPECT_TRUE(package->lods[0].palette_joints.empty());
  EXPECT_EQ(package->lods[2].palette_joints.size(), 15u);
  EXPECT_EQ(package->lods[3].palette_joints.size(), 10u);
  EXPECT_GT(package->lods[3].skinning_error, 0.0f);

  // `throng render --path merged` draws that package with merged batches on ES 2.0.
  const std::string png = (dir / "merged.png").string();
  const test::CliResult render = test::runCli("render " + out +
                                              " --path merged --agents 30 --frames 1 --width 64 "
                                              "--height 64 --out " +
                                              png);
  ASSERT_EQ(render.exit_code, 0) << render.output;
  EXPECT_NE(render.output.find("OpenGL ES 2.0"), std::string::npos) << render.output;
  EXPECT_NE(render.output.find("10 joints"), std::string::npos) << render.output;
  EXPECT_NE(render.output.find("30 characters, palette source baked"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(png));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
