// Tests of `throng render`: a package in, a PNG and the frame's numbers out; clear errors.
#include <filesystem>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "test_package.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/render/capture.h"

namespace throng {
namespace {

std::string writeChainPackage(const std::filesystem::path& dir) {
  Character character = test::makeChainCharacter();
  character.clips.push_back(test::makeChainTwistClip());
  Result<Package> package = bakeCharacter(character, BakeOptions{});
  EXPECT_TRUE(package.ok()) << package.status().toString();
  const std::string path = (dir / "chain.throng").string();
  EXPECT_TRUE(writePackage(*package, path).ok());
  return path;
}

TEST(RenderCli, WritesThePngAndReportsOneDrawCall) {
  const auto dir = test::makeTempDir("render-cli");
  const std::string package = writeChainPackage(dir);
  const std::string png = (dir / "crowd.png").string();
  const test::CliResult result =
      test::runCli("render " + package + " --agents 30 --out " + png +
                   " --width 96 --height 64 --clip twist --frames 2 --seed 3");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("draw calls: 1"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("triangles: 960"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("frame time:"), std::string::npos) << result.output;
  Result<render::Image> image = render::readPng(png);
  ASSERT_TRUE(image.ok()) << image.status().toString();
  EXPECT_EQ(image->width, 96);
  EXPECT_EQ(image->height, 64);
  std::filesystem::remove_all(dir);
}

TEST(RenderCli, BadInputsFailWithAMessage) {
  const auto dir = test::makeTempDir("render-cli-bad");
  const std::string package = writeChainPackage(dir);
  const std::string png = (dir / "x.png").string();
  test::CliResult result = test::runCli("render " + package + " --out " + png + " --clip nope");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("bend, twist"), std::string::npos) << result.output;
  result = test::runCli("render " + (dir / "missing.throng").string() + " --out " + png);
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("missing.throng"), std::string::npos) << result.output;
  result = test::runCli("render " + package + " --out " + png + " --agents 0");
  EXPECT_NE(result.exit_code, 0);
  result = test::runCli("render " + package + " --out " + png + " --path warp");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(png));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
