// `throng bake` end to end: every shared character, the sample, options and bad input.
#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/package.h"

namespace throng {
namespace {

// Bakes `input`, expects success, a readable package and the error bounds in the summary.
void expectBakes(const std::string& input, const std::string& extra, uint32_t* frames = nullptr) {
  const auto dir = test::makeTempDir("bakecli");
  const auto out = dir / "out.throng";
  const test::CliResult r =
      test::runCli("bake " + input + " -o " + test::shellQuoted(out) + " " + extra);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("model units"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mid-frame interpolation error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("texture: "), std::string::npos) << r.output;
  // Not a terminal: no progress bar.
  EXPECT_EQ(r.output.find("baking ["), std::string::npos) << r.output;
  const Result<Package> p = readPackage(out.string());
  ASSERT_TRUE(p.ok()) << p.status().toString();
  EXPECT_FALSE(p->clips.empty());
  EXPECT_LE(p->animation.width, 4096u);
  if (frames != nullptr) *frames = p->animation.frame_count;
  std::filesystem::remove_all(dir);
}

TEST(BakeCli, BakesEverySharedCharacter) {
  struct AssetCase {
    std::string file;
    std::string extra;  // more options
  };
  const AssetCase cases[] = {
      {"CesiumMan/CesiumMan.glb", ""},
      {"RiggedSimple/RiggedSimple.glb", ""},
      {"RiggedFigure/RiggedFigure.glb", "--format rgba16f"},
      {"SimpleSkin/SimpleSkin.gltf", ""},
      {"QuaterniusCharacter/Character.glb", "--fps 15 --format rgba16f"},
      {"KayKitMannequin/manny_med_mod.gltf",
       "--fps 10 --clips-from " +
           test::shellQuoted(test::assetPath("KayKitMannequin/Med_General.glb"))},
  };
  for (const AssetCase& c : cases) THRONG_REQUIRE_ASSET(c.file);
  THRONG_REQUIRE_ASSET("KayKitMannequin/Med_General.glb");
  for (const AssetCase& c : cases) {
    SCOPED_TRACE(c.file);
    expectBakes(test::shellQuoted(test::assetPath(c.file)), c.extra);
  }
}

TEST(BakeCli, BakesTheSampleCharacter) {
  uint32_t by_word = 0, by_flag = 0;
  expectBakes("sample", "--fps 10", &by_word);
  expectBakes("--sample", "--fps 10", &by_flag);
  EXPECT_GT(by_word, 0u);
  EXPECT_EQ(by_word, by_flag);
}

TEST(BakeCli, SameBytesWhateverTheThreadCount) {
  const auto dir = test::makeTempDir("bakecli");
  const auto a = dir / "a.throng";
  const auto b = dir / "b.throng";
  ASSERT_EQ(test::runCli("bake sample --fps 10 --threads 1 -o " + test::shellQuoted(a)).exit_code,
            0);
  ASSERT_EQ(test::runCli("bake sample --fps 10 --threads 3 -o " + test::shellQuoted(b)).exit_code,
            0);
  EXPECT_EQ(test::readFile(a), test::readFile(b));
  std::filesystem::remove_all(dir);
}

TEST(BakeCli, OptionsReachTheBaker) {
  const auto dir = test::makeTempDir("bakecli");
  const auto out = dir / "out.throng";
  const auto png = dir / "preview.png";
  const test::CliResult r = test::runCli(
      "bake sample --clips walk,idle --fps 12 --max-width 512 --format rgba16f "
      "--no-loop walk --preview " +
      test::shellQuoted(png) + " -o " + test::shellQuoted(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Result<Package> p = readPackage(out.string());
  ASSERT_TRUE(p.ok()) << p.status().toString();
  ASSERT_EQ(p->clips.size(), 2u);
  EXPECT_EQ(p->clips[0].name, "walk");
  EXPECT_FALSE(p->clips[0].loop);
  EXPECT_EQ(p->clips[1].name, "idle");
  EXPECT_EQ(p->animation.format, TexelFormat::kRgba16F);
  EXPECT_LE(p->animation.width, 512u);
  EXPECT_EQ(test::readFile(png).substr(1, 3), "PNG");
  EXPECT_NE(r.output.find("RGBA16F"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(BakeCli, FailuresExitWithOneLineNamingTheProblem) {
  const auto dir = test::makeTempDir("bakecli");
  const auto out = dir / "out.throng";
  const auto garbage = dir / "garbage.glb";
  test::writeFile(garbage, "this is not a glTF file");
  struct Case {
    std::string args;
    std::string needle;
    int exit_code;  // 2: the command line's fault; 1: the input's
  };
  const Case cases[] = {
      {test::shellQuoted(garbage), "garbage.glb", 1},
      {test::shellQuoted(dir / "missing.glb"), "missing.glb", 1},
      {"sample --format rgba8", "--format rgba8: must be rgba32f or rgba16f", 2},
      {"sample --clips nope", "--clips nope: no such clip in sample (clips: 0 idle", 2},
      {"sample --no-loop walk,nope", "--no-loop nope", 2},
      {"sample --fps 0", "--fps 0: must be a number in (0, 1000]", 2},
      {"sample --threads -1", "--threads -1", 2},
      {"sample --max-width 2", "--max-width 2: must be a whole number in 3..", 2},
      {"sample --format rgba16f --max-error 0.0000001", "allowed error", 1},
  };
  for (const Case& c : cases) {
    const test::CliResult r = test::runCli("bake " + c.args + " -o " + test::shellQuoted(out));
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << "\n" << r.output;
    EXPECT_EQ(test::lineCount(r.output), 1) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  std::filesystem::remove_all(dir);
}

TEST(BakeCli, LodsFlagWritesTheChainIntoThePackage) {
  const auto dir = test::makeTempDir("bake-lods");
  const auto out = dir / "sample.throng";
  const test::CliResult r = test::runCli("bake sample --lods --out " + test::shellQuoted(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Result<Package> package = readPackage(out.string());
  ASSERT_TRUE(package.ok()) << package.status().toString();
  ASSERT_EQ(package->lods.size(), 4u);
  EXPECT_TRUE(package->lods[0].palette_joints.empty());
  EXPECT_EQ(package->lods[2].palette_joints.size(), 15u);
  EXPECT_EQ(package->lods[3].palette_joints.size(), 10u);
  EXPECT_GT(package->lods[3].skinning_error, 0.0f);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
