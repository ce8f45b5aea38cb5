// End-to-end tests of `throng demo`: the crowd demo headless on the front end, its commands
// recorded and replayed, and its errors.
#include <algorithm>
#include <regex>

#include <gtest/gtest.h>

#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/offline/gltf_export.h"

namespace throng {
namespace {

TEST(DemoCli, RendersASmallCrowdWithOneDrawCallPerLodAndMaterialInUse) {
  const auto dir = test::makeTempDir("cli-demo");
  const std::string png = (dir / "crowd.png").string();
  const test::CliResult r = test::runCli(
      "demo --agents 25 --seconds 2 --width 160 --height 120 --path instanced --out '" + png + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("25 agents"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("path: instanced ("), std::string::npos) << r.output;
  // One instanced draw per (LOD level that has agents, material), whatever the number of agents;
  // every LOD of the sample has its three materials (clothes, skin, shoes).
  std::smatch draws;
  ASSERT_TRUE(std::regex_search(r.output, draws, std::regex("draw calls: (\\d+)\n"))) << r.output;
  const std::string lod_line = r.output.substr(r.output.find("lods (agents per level):"));
  int levels_in_use = 0;
  const std::regex level(" \\d+: (\\d+) \\(");
  for (std::sregex_iterator it(lod_line.begin(), lod_line.end(), level);
       it != std::sregex_iterator(); ++it) {
    levels_in_use += std::stoi((*it)[1]) > 0;
  }
  EXPECT_GE(levels_in_use, 1);
  EXPECT_EQ(std::stoi(draws[1]), 3 * levels_in_use) << r.output;
  const std::string bytes = test::readFile(png);
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

// The GPU-driven path: one indirect draw per (LOD, material) (the GPU fills their counts), the
// crowd read back for the summary.
TEST(DemoCli, GpuPathDrawsOneIndirectDrawPerLodAndMaterial) {
  const auto dir = test::makeTempDir("cli-demo-gpu");
  const test::CliResult r =
      test::runCli("demo --agents 25 --seconds 2 --width 160 --height 120 --path gpu -o " +
                   test::shellQuoted(dir / "g.png"));
  // The driver is asked first: a run that fails where the driver has what the path needs is the
  // path's failure (a compute shader that does not compile fails here, it does not skip).
  const std::string missing = test::gpuPathMissing();
  THRONG_REQUIRE(missing.empty(), missing);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("path: gpu (asked for)"), std::string::npos) << r.output;
  // The sample character: 4 LODs of 3 materials (clothes, skin, shoes).
  EXPECT_NE(r.output.find("draw calls: 12\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("25 agents"), std::string::npos) << r.output;
}

TEST(DemoCli, MergedPathDrawsTheSameCrowdInBatches) {
  const auto dir = test::makeTempDir("cli-demo-merged");
  const test::CliResult r =
      test::runCli("demo --agents 40 --seconds 1 --width 96 --height 64 --path merged -o " +
                   test::shellQuoted(dir / "m.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("path: merged (asked for)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("OpenGL ES 2.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" per draw)"), std::string::npos) << r.output;
}

TEST(DemoCli, RejectsBadArgumentsWithExitTwo) {
  struct Case {
    std::string args;
    std::string needle;
  };
  const Case cases[] = {
      {"--agents 0", "--agents 0: must be a whole number in 1..1000000"},
      {"--seconds -1", "--seconds -1: must be a number in 0..3600"},
      {"--view sideways", "--view sideways: must be overview or street"},
      {"--path warp", "--path warp: must be auto, gpu, instanced, merged or per-character"},
      {"--attachments most", "--attachments most: must be all, none or random"},
      {"--lod 7", "--lod 7: sample has LODs 0..3"},
  };
  for (const Case& c : cases) {
    const test::CliResult r = test::runCli("demo " + c.args + " --out /dev/null");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_EQ(test::lineCount(r.output), 1) << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << r.output;
  }
}

TEST(DemoCli, StreetViewCullsTheAgentsOutsideTheFrustum) {
  const auto dir = test::makeTempDir("cli-demo-street");
  const test::CliResult r =
      test::runCli("demo " + test::bakedSamplePackage() +
                   " --agents 100 --seconds 1 --width 160 --height 120 --view street --out '" +
                   (dir / "street.png").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("culling: (\\d+) of 100 agents visible")))
      << r.output;
  EXPECT_GT(std::stoi(m[1]), 0);
  EXPECT_LT(std::stoi(m[1]), 100);
}

// A package with an upper-body mask and props: the made-up commands include the attack clip on
// the mask (walkers swing what they carry as they go), recorded as layer lines that replay to
// the same image; the plain sample makes none.
TEST(DemoCli, WithAMaskWalkersPlayTheAttackOnTheirUpperBody) {
  const auto dir = test::makeTempDir("cli-demo-layers");
  const auto club = dir / "club.gltf";
  test::CliResult r = test::runCli("sample --prop -o " + test::shellQuoted(club));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto package = dir / "walkers.throng";
  r = test::runCli("bake sample --fps 10 --attach hand.R=" + test::shellQuoted(club) +
                   "@0,0,0,90,0,0,1 --mask upper=spine_01 -o " + test::shellQuoted(package));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string common = " --agents 24 --seconds 2 --seed 4 --width 128 --height 96";
  const auto script = dir / "commands.txt";
  r = test::runCli("demo " + test::shellQuoted(package) + common + " --record " +
                   test::shellQuoted(script) + " -o " + test::shellQuoted(dir / "made-up.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string text = test::readFile(script);
  EXPECT_NE(text.find(" layer attack upper "), std::string::npos) << text;
  r = test::runCli("demo " + test::shellQuoted(package) + common + " --commands " +
                   test::shellQuoted(script) + " -o " + test::shellQuoted(dir / "replayed.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(test::readFile(dir / "made-up.png"), test::readFile(dir / "replayed.png"));
  const auto plain = dir / "plain.txt";
  r = test::runCli("demo " + test::bakedSamplePackage() + common + " --record " +
                   test::shellQuoted(plain) + " -o " + test::shellQuoted(dir / "plain.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(test::readFile(plain).find(" layer "), std::string::npos);
  r = test::runCli("sample --prop --humanoid -o " + test::shellQuoted(club));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--prop, --humanoid and --pbr: choose one"), std::string::npos)
      << r.output;
  r = test::runCli("sample --prop -o " + test::shellQuoted(dir / "no-such-folder" / "club.gltf"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("club.gltf: cannot write the prop"), std::string::npos) << r.output;
}

// The recorded script replays to the same crowd: the same image, byte for byte, with no commands
// made up; and a script written by hand (playing named clips) replays the same way twice.
TEST(DemoCli, ARecordedScriptReplaysToTheSameImageBytes) {
  const auto dir = test::makeTempDir("cli-demo-record");
  // The sample baked once (the in-memory bake is the other tests' business).
  const std::string common = " " + test::bakedSamplePackage() +
                             " --agents 30 --seconds 2 --seed 5 --width 128 --height 96";
  const auto script = dir / "commands.txt";
  test::CliResult r = test::runCli("demo" + common + " --record " + test::shellQuoted(script) +
                                   " -o " + test::shellQuoted(dir / "made-up.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string text = test::readFile(script);
  EXPECT_NE(text.find("# throng command script"), std::string::npos) << text;
  EXPECT_NE(text.find("walk-to"), std::string::npos) << text;
  r = test::runCli("demo" + common + " --commands " + test::shellQuoted(script) + " -o " +
                   test::shellQuoted(dir / "replayed.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("from " + script.string()), std::string::npos) << r.output;
  EXPECT_EQ(test::readFile(dir / "made-up.png"), test::readFile(dir / "replayed.png"));
  // A different seed makes different commands, hence another picture.
  r = test::runCli("demo " + test::bakedSamplePackage() +
                   " --agents 30 --seconds 2 --seed 6 --width 128 --height 96 -o " +
                   test::shellQuoted(dir / "other.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(test::readFile(dir / "made-up.png"), test::readFile(dir / "other.png"));

  const auto hand = dir / "hand.txt";
  test::writeFile(hand,
                  "# everyone waves, then a few run off\n"
                  "0    all    play attack loop\n"
                  "0.5  0..9   run-to 3 -2\n"
                  "1    12     play die once\n");
  for (const char* name : {"hand-a.png", "hand-b.png"}) {
    r = test::runCli("demo" + common + " --commands " + test::shellQuoted(hand) + " -o " +
                     test::shellQuoted(dir / name));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  EXPECT_NE(r.output.find("41 commands"), std::string::npos) << r.output;  // 30 + 10 + 1
  EXPECT_EQ(test::readFile(dir / "hand-a.png"), test::readFile(dir / "hand-b.png"));
  EXPECT_NE(test::readFile(dir / "hand-a.png"), test::readFile(dir / "replayed.png"));
}

TEST(DemoCli, ABadScriptExitsOneNamingTheFileAndLine) {
  const auto dir = test::makeTempDir("cli-demo-bad-script");
  const auto script = dir / "bad.txt";
  struct Case {
    std::string text;
    std::string needle;
  };
  const Case cases[] = {
      {"0 0 idle\n0.5 3 jump\n", "bad.txt:2: unknown command 'jump'"},
      {"0 0 idle\n\n0.5 50 die\n", "bad.txt:3: agent 50 is not in the crowd (agents 0..29)"},
      {"0 all play moonwalk\n", "bad.txt:1: no clip 'moonwalk' (clips: 0 idle"},
  };
  for (const Case& c : cases) {
    test::writeFile(script, c.text);
    const test::CliResult r =
        test::runCli("demo " + test::bakedSamplePackage() + " --agents 30 --commands " +
                     test::shellQuoted(script) + " -o " + test::shellQuoted(dir / "x.png"));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(test::lineCount(r.output), 1) << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
  }
  const test::CliResult missing =
      test::runCli("demo --commands " + test::shellQuoted(dir / "none.txt") + " -o " +
                   test::shellQuoted(dir / "x.png"));
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("none.txt"), std::string::npos) << missing.output;
}

// The chain character with its one clip copied under other names.
std::filesystem::path writeChain(const std::filesystem::path& dir,
                                 std::initializer_list<const char*> names) {
  Character chain = test::makeChainCharacter();
  const Clip bend = chain.clips[0];
  chain.clips.clear();
  for (const char* name : names) {
    chain.clips.push_back(bend);
    chain.clips.back().name = name;
  }
  const auto glb = dir / "chain.glb";
  EXPECT_TRUE(writeGltf(chain, glb.string()).ok());
  return glb;
}

TEST(DemoCli, ACharacterWithOneClipPlaysItForEveryStateWithAWarning) {
  const auto dir = test::makeTempDir("cli-demo-one-clip");
  const auto glb = writeChain(dir, {"bend"});
  const test::CliResult r = test::runCli("demo " + test::shellQuoted(glb) +
                                         " --agents 9 --seconds 1 --width 64 --height 48 -o " +
                                         test::shellQuoted(dir / "x.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + glb.string() +
                          ": one clip ('bend'): it plays for every "
                          "state"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("clips: idle=bend walk=bend run=bend attack=bend die=bend;"),
            std::string::npos)
      << r.output;
}

TEST(DemoCli, ClipsMapsStatesToClipsAndABadMapExitsTwo) {
  const auto dir = test::makeTempDir("cli-demo-clip-map");
  const auto glb = writeChain(dir, {"Survey", "Walk", "Run"});
  const std::string common = "demo " + test::shellQuoted(glb) +
                             " --agents 9 --seconds 1 --width 64 --height 48 -o " +
                             test::shellQuoted(dir / "x.png");
  test::CliResult r = test::runCli(common + " --clips idle=Survey,walk=Walk,run=Run,run_speed=2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("clips: idle=Survey walk=Walk run=Run attack=Survey die=Survey; "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("run 2.00/s (clip map)"), std::string::npos) << r.output;
  // Two fallbacks of one kind: one line with the count and the examples.
  EXPECT_NE(r.output.find("warning: " + glb.string() +
                          ": 2 states playing another state's clip: attack -> 'Survey', die -> "
                          "'Survey' (-v lists all)"),
            std::string::npos)
      << r.output;
  // A mixed crowd of the character twice, a map per input: the first input's map, and none for
  // the second (''), where no clip is named idle: the first clip idles, and the names find the
  // rest (walk and run at the map-less default speeds).
  r = test::runCli("demo " + test::shellQuoted(glb) + " " + test::shellQuoted(glb) +
                   " --agents 9 --seconds 1 --width 64 --height 48 -o " +
                   test::shellQuoted(dir / "x.png") +
                   " --clips idle=Survey,walk=Walk,run=Run,run_speed=2 --clips ''");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // One table, a row per character: the second row is the second input's.
  const size_t second = r.output.find("\n1  " + glb.string() + " ");
  ASSERT_NE(second, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("run 2.00/s (clip map)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("run 2.00/s (clip map)", second), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" idle=Survey walk=Walk run=Run ", second), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("mixed crowd: 9 agents of 2 characters; draw calls: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("animation texture: one "), std::string::npos) << r.output;
  // Maps for some inputs but not all: a usage error naming the flag.
  r = test::runCli("demo " + test::shellQuoted(glb) +
                   " sample sample --clips walk=Walk --clips '' -o " +
                   test::shellQuoted(dir / "x.png"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--clips: given 2 times for 3 inputs"), std::string::npos) << r.output;

  struct Case {
    std::string map;
    std::string needle;
  };
  const Case cases[] = {
      {"fly=Walk", "--clips: clip map entry 'fly=Walk': unknown state 'fly'"},
      {"walk=Sprint", "--clips: " + glb.string() +
                          ": clip map: no clip 'Sprint' for the 'walk' "
                          "state (clips: 0 Survey, 1 Walk, 2 Run)"},
  };
  for (const Case& c : cases) {
    r = test::runCli(common + " --clips " + c.map);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(test::lineCount(r.output), 1) << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << r.output;
  }
}

// Every glTF file in the shared assets runs in the demo: states without a clip fall back, a file
// without clips stands in its rest pose; the mannequin also with its clip files and a map.
TEST(DemoCli, RunsOnEverySharedAsset) {
  THRONG_REQUIRE(std::filesystem::is_directory(test::assetsDir()),
                 "no shared assets in " + test::assetsDir().string());
  for (const char* file : {"KayKitMannequin/manny_med_mod.gltf", "KayKitMannequin/Med_General.glb",
                           "KayKitMannequin/Med_MovementBasic.glb"}) {
    THRONG_REQUIRE_ASSET(file);
  }
  std::vector<std::string> inputs;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::assetsDir())) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".glb" || ext == ".gltf") inputs.push_back(test::shellQuoted(entry.path()));
  }
  std::sort(inputs.begin(), inputs.end());
  inputs.push_back(
      test::shellQuoted(test::assetPath("KayKitMannequin/manny_med_mod.gltf")) + " --clips-from " +
      test::shellQuoted(test::assetPath("KayKitMannequin/Med_General.glb")) + " --clips-from " +
      test::shellQuoted(test::assetPath("KayKitMannequin/Med_MovementBasic.glb")) +
      " --clips walk=Walking_A,run=Running_A,attack=Throw");
  ASSERT_FALSE(inputs.empty());
  const auto dir = test::makeTempDir("cli-demo-assets");
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input);
    const test::CliResult r =
        test::runCli("demo " + input + " --agents 6 --seconds 1 --width 64 --height 48 -o " +
                     test::shellQuoted(dir / "x.png"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\nclips: idle="), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("draw calls: "), std::string::npos) << r.output;
    if (input.find("--clips walk=Walking_A") != std::string::npos) {
      EXPECT_NE(r.output.find("clips: idle=Idle_A walk=Walking_A run=Running_A attack=Throw "
                              "die=Death_A;"),
                std::string::npos)
          << r.output;
    }
  }
}

}  // namespace
}  // namespace throng
