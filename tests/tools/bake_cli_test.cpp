// `throng bake` end to end: every shared character, the sample, options and bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/render/capture.h"

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
      {"sample --impostor-budget 4", "--impostor-budget: only with --impostors", 2},
      {"sample --impostor-preview a.png", "--impostor-preview: only with --impostors", 2},
      {"sample --impostors --impostor-budget 0",
       "--impostor-budget 0: must be a number of MB in (0, 1024]", 2},
      {"sample --impostors --impostor-budget 0.001",
       "impostor: no layout fits a budget of 1048 bytes (the smallest takes ", 1},
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

TEST(BakeCli, ImpostorsFlagAddsTheImpostorAndInspectListsItLast) {
  const auto dir = test::makeTempDir("bake-impostors");
  const auto out = dir / "sample.throng";
  const auto preview = dir / "atlases.png";
  const test::CliResult r = test::runCli(
      "bake sample --fps 10 --impostors --impostor-budget 2 --json --impostor-preview " +
      test::shellQuoted(preview) + " -o " + test::shellQuoted(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Result<Package> package = readPackage(out.string());
  ASSERT_TRUE(package.ok()) << package.status().toString();
  const Impostor& m = package->impostor;
  ASSERT_FALSE(m.empty());
  EXPECT_LE(m.byteSize(), 2u << 20);
  EXPECT_EQ(m.clip_frames.size(), package->clips.size());
  const nlohmann::json baked = nlohmann::json::parse(r.output);
  EXPECT_EQ(baked["impostor"]["bytes"].get<uint64_t>(), m.byteSize());
  // The preview: colour atlas over normal atlas; a transparent texel shows grey, a covered one
  // its colour.
  Result<render::Image> png = render::readPng(preview.string());
  ASSERT_TRUE(png.ok()) << png.status().message();
  EXPECT_EQ(png->width, static_cast<int>(m.atlasWidth()));
  EXPECT_EQ(png->height, static_cast<int>(2 * m.atlasHeight()));
  for (size_t t = 0; t < m.color.size() / 4; t += 97) {
    if (m.color[t * 4 + 3] == 0) {
      EXPECT_EQ(png->rgba[t * 4], 96) << "texel " << t;
    } else if (m.color[t * 4 + 3] == 255) {
      EXPECT_EQ(png->rgba[t * 4], m.color[t * 4]) << "texel " << t;
    }
  }

  const test::CliResult inspect = test::runCli("inspect --json " + test::shellQuoted(out));
  ASSERT_EQ(inspect.exit_code, 0) << inspect.output;
  const nlohmann::json d = nlohmann::json::parse(inspect.output);
  const nlohmann::json& lods = d["lods"];
  ASSERT_EQ(lods.size(), package->lods.size() + 1);
  for (size_t l = 0; l + 1 < lods.size(); ++l) EXPECT_EQ(lods[l]["kind"], "mesh");
  const nlohmann::json& last = lods.back();
  EXPECT_EQ(last["kind"], "impostor");
  EXPECT_EQ(last["views"]["azimuths"].get<uint32_t>(), m.azimuths);
  EXPECT_EQ(last["views"]["elevations"].get<uint32_t>(), m.elevations);
  EXPECT_EQ(last["views"]["count"].get<uint32_t>(), m.viewCount());
  EXPECT_EQ(last["frames_per_clip"].get<std::vector<uint32_t>>(), m.clip_frames);
  EXPECT_EQ(last["atlas"]["width"].get<uint32_t>(), m.atlasWidth());
  EXPECT_EQ(last["atlas"]["height"].get<uint32_t>(), m.atlasHeight());
  EXPECT_EQ(last["atlas"]["bytes"].get<uint64_t>(), m.byteSize());
  EXPECT_FLOAT_EQ(last["max_error"].get<float>(), m.max_error / d["height"].get<float>());
  EXPECT_GT(last["max_error"].get<float>(), 0.0f);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
