// Tests of throng-viewer from the outside: bad input and usage (no display needed), a missing
// display, and under Xvfb a screenshot that is not empty, on ES 3 and ES 2.0, with a broken and a
// good character dropped in. Without the viewer or xvfb-run: THRONG_REQUIRE (fails in CI).
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/render/capture.h"

namespace throng {
namespace {

#ifdef THRONG_VIEWER_PATH

test::CliResult runViewer(const std::string& args, const std::string& prefix = "") {
  const std::string command = prefix + "'" + THRONG_VIEWER_PATH + "' " + args;
  test::CliResult r = test::runShell(command);
  // xvfb-run sometimes fails to remove its own temporary directory (exit 5) while other test
  // processes run Xvfb: that is the harness, not the viewer, so the run is repeated once.
  if (r.output.find("xvfb-run: error: problem while cleaning up") != std::string::npos) {
    r = test::runShell(command);
  }
  return r;
}

bool haveXvfb() {
  return std::system("command -v xvfb-run > /dev/null 2>&1") == 0;
}

// xvfb-run with a screen of its own (-a picks a free display number, so tests may run at once).
const char* const kXvfb = "xvfb-run -a -s '-screen 0 800x600x24' ";

// "Not empty": the frame holds the panels, the ground and characters, not one flat colour.
void expectAPicture(const std::filesystem::path& png, int width, int height) {
  Result<render::Image> image = render::readPng(png.string());
  ASSERT_TRUE(image.ok()) << image.status().toString();
  EXPECT_EQ(image->width, width);
  EXPECT_EQ(image->height, height);
  std::set<uint32_t> colours;
  size_t differing = 0, translucent = 0;
  const uint8_t* first = image->rgba.data();
  for (size_t i = 0; i < image->rgba.size(); i += 4) {
    const uint8_t* p = &image->rgba[i];
    translucent += p[3] != 255;
    colours.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
    differing += p[0] != first[0] || p[1] != first[1] || p[2] != first[2];
  }
  EXPECT_GT(colours.size(), 200u) << "a flat or nearly flat picture";
  EXPECT_GT(differing, image->rgba.size() / 4 / 4) << "most of the frame is one colour";
  EXPECT_EQ(translucent, 0u) << "the window's picture is opaque";
}

TEST(ViewerCli, ABadCharacterFileExitsOneNamingIt) {
  const auto dir = test::makeTempDir("viewer-bad");
  const test::CliResult missing = runViewer("/nonexistent-folder/hero.glb");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("throng-viewer: "), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent-folder/hero.glb"), std::string::npos);
  test::writeFile(dir / "broken.glb", "glTF this is not a binary glTF file");
  const test::CliResult broken = runViewer(test::shellQuoted(dir / "broken.glb"));
  EXPECT_EQ(broken.exit_code, 1) << broken.output;
  EXPECT_NE(broken.output.find("broken.glb"), std::string::npos) << broken.output;
  std::filesystem::remove_all(dir);
}

TEST(ViewerCli, UsageErrorsExitTwo) {
  for (const char* args : {"--agents 0", "--agents 2000000", "--path warp", "--frames -1",
                           "--width 0", "--impostors maybe", "--no-such-flag"}) {
    const test::CliResult r = runViewer(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("throng-viewer: "), std::string::npos) << r.output;
  }
  const test::CliResult path = runViewer("--path warp");
  EXPECT_NE(path.output.find("auto, instanced, merged, per-character"), std::string::npos)
      << path.output;
  const test::CliResult impostors = runViewer("--impostors maybe");
  EXPECT_NE(impostors.output.find("--impostors maybe: must be auto, on or off"), std::string::npos)
      << impostors.output;
}

// --impostors on bakes the sample's impostor in memory and the far agents of a wide crowd are
// drawn with it; off (the same crowd and camera) bakes and draws none.
TEST(ViewerCli, ImpostorsOnDrawTheFarAgentsAndOffDrawsNone) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-impostors");
  const auto png = dir / "viewer.png";
  // Every agent an impostor (--lod past the meshes is not a viewer flag: a wide crowd at a small
  // window puts the far ones under the impostor's switch size).
  const std::string args =
      "--agents 5000 --width 160 --height 120 --frames 2 --screenshot " + test::shellQuoted(png);
  const test::CliResult on = runViewer("--impostors on " + args, kXvfb);
  ASSERT_EQ(on.exit_code, 0) << on.output;
  const size_t at = on.output.find("impostors: ");
  ASSERT_NE(at, std::string::npos) << on.output;
  EXPECT_NE(on.output.find("drawn as LOD", at), std::string::npos) << on.output;
  EXPECT_EQ(on.output.find("impostors: 0 drawn"), std::string::npos) << on.output;
  expectAPicture(png, 160, 120);
  const test::CliResult off = runViewer("--impostors off " + args, kXvfb);
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("impostors: 0 drawn ("), std::string::npos) << off.output;
  std::filesystem::remove_all(dir);
}

TEST(ViewerCli, NoDisplayIsAClearError) {
  const test::CliResult r =
      runViewer("--frames 1", "env -u DISPLAY -u WAYLAND_DISPLAY XDG_SESSION_TYPE=none ");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot open a window"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no display"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("xvfb-run"), std::string::npos) << r.output;
}

TEST(ViewerCli, AScreenshotUnderXvfbShowsTheCrowd) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-shot");
  const auto png = dir / "viewer.png";
  const test::CliResult r = runViewer(
      "--agents 300 --width 480 --height 320 --frames 4 --screenshot " + test::shellQuoted(png),
      kXvfb);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // auto: gpu where the context has compute (Mesa: ES 3.2), with the default mapped shadows.
  EXPECT_NE(r.output.find("path: gpu"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("agents: 300"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("frame time: "), std::string::npos) << r.output;
  expectAPicture(png, 480, 320);
  std::filesystem::remove_all(dir);
}

// The inspect panel on the gpu path reads the agent's draw info (a stall: the GPU's lists read
// back) when the agent is first inspected and then every 30 draws (kGpuDrawInfoEvery), not every
// frame; the CPU paths read it every draw. The crowd is tinted by state by the renderer.
TEST(ViewerCli, TheInspectPanelDoesNotStallEveryFrameOnTheGpuPath) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-inspect");
  const auto png = dir / "viewer.png";
  const std::string args =
      "--agents 50 --width 320 --height 240 --frames 61 --inspect 3 "
      "--screenshot " +
      test::shellQuoted(png);
  const test::CliResult gpu = runViewer("--path gpu " + args, kXvfb);
  ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
  EXPECT_NE(gpu.output.find("path: gpu"), std::string::npos) << gpu.output;
  // Draws 1, 31 and 61 read it.
  EXPECT_NE(gpu.output.find("inspected agent 3: draw info read 3 times in 61 draws"),
            std::string::npos)
      << gpu.output;
  expectAPicture(png, 320, 240);
  const test::CliResult instanced = runViewer("--path instanced " + args, kXvfb);
  ASSERT_EQ(instanced.exit_code, 0) << instanced.output;
  EXPECT_NE(instanced.output.find("inspected agent 3: draw info read 61 times in 61 draws"),
            std::string::npos)
      << instanced.output;
  const test::CliResult bad = runViewer("--agents 5 --inspect 5");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--inspect 5: must be an agent in 0..4"), std::string::npos)
      << bad.output;
  std::filesystem::remove_all(dir);
}

TEST(ViewerCli, Es2GivesAnEs2ContextAndMergedBatches) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-es2");
  const auto png = dir / "viewer.png";
  const test::CliResult r =
      runViewer("--es2 --agents 100 --width 320 --height 240 --frames 3 --screenshot " +
                    test::shellQuoted(png),
                std::string("env -u MESA_GLES_VERSION_OVERRIDE ") + kXvfb);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("path: merged (OpenGL ES 2.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("OpenGL ES 2.0"), std::string::npos) << r.output;
  expectAPicture(png, 320, 240);
  std::filesystem::remove_all(dir);
}

// A broken file dropped in is a message (window and standard error), never a crash; a good one
// joins the crowd as a second character.
TEST(ViewerCli, DroppedFilesLoadOrSayWhyNot) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-drop");
  test::writeFile(dir / "broken.glb", std::string("glTF\x02\0\0\0garbage", 16));
  ASSERT_EQ(test::runCli("sample -o " + test::shellQuoted(dir / "hero.glb")).exit_code, 0);
  const auto png = dir / "viewer.png";
  const test::CliResult r =
      runViewer("--agents 50 --width 320 --height 240 --frames 2 --drop " +
                    test::shellQuoted(dir / "broken.glb") + " --drop " +
                    test::shellQuoted(dir / "hero.glb") + " --screenshot " + test::shellQuoted(png),
                kXvfb);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("could not load"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("broken.glb"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("showing " + (dir / "hero.glb").string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("crowd: 2 characters (sample, " + (dir / "hero.glb").string() + ")"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::exists(png));
  std::filesystem::remove_all(dir);
}

// Two inputs make one mixed crowd, agent i of input i % 2, both in the picture.
TEST(ViewerCli, TwoInputsMakeOneMixedCrowd) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const auto dir = test::makeTempDir("viewer-mixed");
  ASSERT_EQ(test::runCli("sample -o " + test::shellQuoted(dir / "hero.glb")).exit_code, 0);
  const auto png = dir / "viewer.png";
  const test::CliResult r = runViewer(
      "sample " + test::shellQuoted(dir / "hero.glb") +
          " --agents 60 --width 320 --height 240 --frames 3 --screenshot " + test::shellQuoted(png),
      kXvfb);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("crowd: 2 characters (sample, " + (dir / "hero.glb").string() + ")"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("agents: 60"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("path: gpu"), std::string::npos) << r.output;
  expectAPicture(png, 320, 240);
  std::filesystem::remove_all(dir);
}

// A creature animated by morph targets (a vertex-frame character) joins a skinned one in one crowd
// on the default (gpu) path; on ES 2.0 the merged path draws it (vertex texture fetch, float
// textures: llvmpipe has both; docs/morph.md).
TEST(ViewerCli, AMorphCreatureJoinsTheCrowdOnEveryPath) {
  THRONG_REQUIRE(haveXvfb(), "xvfb-run is not installed (scripts/install-deps.sh)");
  const std::string cube = "feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb";
  THRONG_REQUIRE_ASSET(cube);
  const std::string cube_path = test::assetPath(cube).string();
  const auto dir = test::makeTempDir("viewer-morph");
  const auto png = dir / "viewer.png";
  const test::CliResult r = runViewer(test::shellQuoted(cube_path) +
                                          " sample --agents 40 --width 320 --height 240 "
                                          "--frames 3 --screenshot " +
                                          test::shellQuoted(png),
                                      kXvfb);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("crowd: 2 characters (" + cube_path + ", sample)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("path: gpu"), std::string::npos) << r.output;
  expectAPicture(png, 320, 240);

  const test::CliResult es2 =
      runViewer("--es2 " + test::shellQuoted(cube_path) +
                    " --agents 4 --width 320 --height 240 --frames 1 --screenshot " +
                    test::shellQuoted(dir / "es2.png"),
                std::string("env -u MESA_GLES_VERSION_OVERRIDE ") + kXvfb);
  ASSERT_EQ(es2.exit_code, 0) << es2.output;
  EXPECT_NE(es2.output.find("path: merged"), std::string::npos) << es2.output;
  expectAPicture(dir / "es2.png", 320, 240);
  std::filesystem::remove_all(dir);
}

#else

TEST(ViewerCli, NotBuilt) {
  THRONG_REQUIRE(false,
                 "throng-viewer is not built (GLFW or Dear ImGui missing, or "
                 "THRONG_BUILD_VIEWER=OFF)");
}

#endif

}  // namespace
}  // namespace throng
