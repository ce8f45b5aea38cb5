// Tests of `throng render`: every input kind and path, every option meaning the same on every
// path (the images agree), the JSON report, and errors that mean one thing (exit 2 or 1).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "offline/prop_fixture.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/require.h"
#include "support/test_support.h"
#include "test_package.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_export.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace render_cli_test {

// (auto is the gpu path on Mesa's ES 3.2: the tests compare it with these.)
const char* const kPaths[] = {"instanced", "merged", "per-character"};

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

int lineCount(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::string writeChainPackage(const std::filesystem::path& dir) {
  Character character = test::makeChainCharacter();
  character.clips.push_back(test::makeChainTwistClip());
  Result<Package> package = bakeCharacter(character, BakeOptions{});
  EXPECT_TRUE(package.ok()) << package.status().toString();
  const std::string path = (dir / "chain.throng").string();
  EXPECT_TRUE(writePackage(*package, path).ok());
  return path;
}

TEST(RenderCli, APackageGivesThePngThePathWhyAndTheDrawCalls) {
  const auto dir = test::makeTempDir("render-cli");
  const std::string package = writeChainPackage(dir);
  const std::string png = (dir / "crowd.png").string();
  const test::CliResult result =
      test::runCli("render " + package + " --agents 30 --out " + png +
                   " --width 96 --height 64 --clip twist --frames 2 --seed 3");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // auto: render's default shadows are a shadow map, which every path draws: the gpu path,
  // saying why, and the shadow pass's own line.
  EXPECT_NE(result.output.find("path: gpu (OpenGL ES 3"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("shadows: map: 2048x2048 depth texture"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("draw calls: 1\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("triangles: 960\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("playing 'twist' (clip 1)"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("median of 2 frame(s)"), std::string::npos) << result.output;
  const render::Image image = test::readTestPng(png);
  EXPECT_EQ(image.width, 96);
  EXPECT_EQ(image.height, 64);
  std::filesystem::remove_all(dir);
}

// The issue's acceptance test: one scene, every path, the same picture.
TEST(RenderCli, EveryPathDrawsTheSameImage) {
  const auto dir = test::makeTempDir("render-cli-paths");
  for (const char* view : {"overview", "street"}) {
    const std::string common = std::string(" --agents 25 --clip walk --seed 4 --frames 3 --view ") +
                               view + " --width 200 --height 150";
    const auto reference = dir / (std::string(view) + "-auto.png");
    const test::CliResult r =
        test::runCli("render " + test::bakedSamplePackage() + common + " -o " + quoted(reference));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // auto: gpu where the context has compute (Mesa: ES 3.2), the shadow map on every path.
    EXPECT_NE(r.output.find("path: gpu"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("shadows: map"), std::string::npos) << r.output;
    const render::Image expected = test::readTestPng(reference);
    int lit = 0;
    for (size_t px = 0; px < expected.rgba.size(); px += 4) lit += expected.rgba[px] > 60;
    EXPECT_GT(lit, 200 * 150 / 50) << view << ": the crowd is in view";
    for (const char* path : kPaths) {
      const auto png = dir / (std::string(view) + "-" + path + ".png");
      const test::CliResult p = test::runCli("render " + test::bakedSamplePackage() + common +
                                             " --path " + path + " --out " + quoted(png));
      ASSERT_EQ(p.exit_code, 0) << p.output;
      EXPECT_NE(p.output.find(std::string("path: ") + path + " (asked for)"), std::string::npos)
          << p.output;
      EXPECT_LE(test::pathBadShare(expected, test::readTestPng(png)), test::kPathMaxBadPixelShare)
          << view << " " << path;
    }
  }
  std::filesystem::remove_all(dir);
}

// --tint off shows the materials as authored, the same on every path; on (the default) the
// agents' tints change the picture.
TEST(RenderCli, TintOffIsTheSameOnEveryPathAndDiffersFromTintOn) {
  const auto dir = test::makeTempDir("render-cli-tint");
  const std::string common =
      " --agents 9 --clip walk --seed 2 --view street --width 160 --height 120";
  const auto tinted = dir / "tinted.png";
  const test::CliResult on =
      test::runCli("render " + test::bakedSamplePackage() + common + " -o " + quoted(tinted));
  ASSERT_EQ(on.exit_code, 0) << on.output;
  render::Image reference;
  for (const char* path : kPaths) {
    const auto png = dir / (std::string("plain-") + path + ".png");
    const test::CliResult r = test::runCli("render " + test::bakedSamplePackage() + common +
                                           " --tint off --path " + path + " -o " + quoted(png));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    if (reference.rgba.empty()) {
      reference = test::readTestPng(png);
      // Tints move most of the crowd's pixels.
      EXPECT_GT(test::pathBadShare(reference, test::readTestPng(tinted)), 0.01)
          << "--tint off changes nothing";
    } else {
      EXPECT_LE(test::pathBadShare(reference, test::readTestPng(png)), test::kPathMaxBadPixelShare)
          << path;
    }
  }
  std::filesystem::remove_all(dir);
}

// --attachments: a package carrying a prop in each hand draws them all, none or a subset per
// agent, alike on every path (demo takes the same flag: DemoCli's usage test).
TEST(RenderCli, AttachmentsAllNoneOrRandomOnEveryPath) {
  const auto dir = test::makeTempDir("render-cli-attachments");
  const float red[4] = {0.9f, 0.05f, 0.05f, 1.0f};
  const std::string box = test::writePropBox(dir, "box.gltf", red);
  const std::string package = quoted(dir / "props.throng");
  const test::CliResult bake =
      test::runCli("bake sample --fps 10 --attach hand.R=" + box +
                   "@0,0.1,0,0,0,0,3 --attach hand.L=" + box + "@0,0.1,0,0,0,0,3 -o " + package);
  ASSERT_EQ(bake.exit_code, 0) << bake.output;
  const std::string common =
      " --agents 16 --clip walk --seed 3 --view street --width 160 "
      "--height 120 --tint off --shadows off";
  // The red boxes' hard edges against the blue crowd: the paths' float rounding (and the merged
  // path's joint encoding) moves more edge pixels than a crowd of plain materials has.
  constexpr double kPropsBadPixelShare = 0.004;
  std::map<std::string, render::Image> first;  // by --attachments, of the first path
  for (const char* path : kPaths) {
    for (const char* shown : {"all", "none", "random"}) {
      const auto png = dir / (std::string(shown) + "-" + path + ".png");
      const test::CliResult r = test::runCli("render " + package + common + " --path " + path +
                                             " --attachments " + shown + " -o " + quoted(png));
      ASSERT_EQ(r.exit_code, 0) << r.output;
      const render::Image image = test::readTestPng(png);
      if (!first.contains(shown)) {
        first[shown] = image;
      } else {
        EXPECT_LE(test::pathBadShare(first[shown], image), kPropsBadPixelShare)
            << path << " " << shown;
      }
    }
  }
  // Red boxes against a crowd of plain materials: each choice shows a different set.
  std::printf("  all/none differ in %.2f%% of the pixels, all/random %.2f%%, none/random %.2f%%\n",
              100.0 * test::pathBadShare(first["all"], first["none"]),
              100.0 * test::pathBadShare(first["all"], first["random"]),
              100.0 * test::pathBadShare(first["none"], first["random"]));
  EXPECT_GT(test::pathBadShare(first["all"], first["none"]), 5 * kPropsBadPixelShare);
  EXPECT_GT(test::pathBadShare(first["all"], first["random"]), kPropsBadPixelShare);
  EXPECT_GT(test::pathBadShare(first["none"], first["random"]), kPropsBadPixelShare);
  std::filesystem::remove_all(dir);
}

// --clip, --seed and --frames change the picture on every path, and the same options give the
// same bytes.
TEST(RenderCli, ClipSeedAndFramesMeanTheSameOnEveryPath) {
  const auto dir = test::makeTempDir("render-cli-options");
  const std::string base = " --agents 9 --width 96 --height 72";
  for (const char* path : kPaths) {
    auto render = [&](const std::string& name, const std::string& options) {
      const auto png = dir / (std::string(path) + "-" + name + ".png");
      const test::CliResult r =
          test::runCli("render " + test::bakedSamplePackage() + " --path " + std::string(path) +
                       base + options + " -o " + quoted(png));
      EXPECT_EQ(r.exit_code, 0) << r.output;
      return test::readFile(png);
    };
    const std::string a = render("a", " --clip run --seed 1 --frames 1");
    EXPECT_EQ(a, render("again", " --clip run --seed 1 --frames 1")) << path;
    EXPECT_NE(a, render("clip", " --clip walk --seed 1 --frames 1")) << path;
    EXPECT_NE(a, render("seed", " --clip run --seed 2 --frames 1")) << path;
    EXPECT_NE(a, render("frames", " --clip run --seed 1 --frames 4")) << path;
  }
  std::filesystem::remove_all(dir);
}

TEST(RenderCli, JsonIsOneObjectWithTheStatsOfEachPath) {
  const auto dir = test::makeTempDir("render-cli-json");
  for (const char* path : {"auto", "gpu", "instanced", "merged", "per-character"}) {
    const test::CliResult r =
        test::runCli(std::string("render " + test::bakedSamplePackage() +
                                 " --json --agents 16 --width 64 --height 48 --palette-pass on "
                                 "--path ") +
                     path + " -o " + quoted(dir / "j.png"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(lineCount(r.output), 1) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output, nullptr, false);
    ASSERT_TRUE(json.is_object()) << r.output;
    if (std::string(path) == "auto") {  // mapped shadows (render's default): the gpu path
      EXPECT_EQ(json["path"], "gpu");
      EXPECT_NE(json["path_reason"].get<std::string>().find("compute shaders"), std::string::npos);
    } else {
      EXPECT_EQ(json["path"], path);
    }
    EXPECT_FALSE(json["path_reason"].get<std::string>().empty());
    EXPECT_EQ(json["agents"], 16);
    EXPECT_GT(json["draw_calls"].get<int>(), 0);
    EXPECT_GT(json["triangles"].get<int64_t>(), 0);
    // --palette-pass on: the instanced path blends palettes in their own pass; others ignore it.
    EXPECT_EQ(json["palette_pass"], json["path"] == "instanced") << path;
    ASSERT_EQ(json["lods"].size(), 4u);
    int per_lod = 0;
    for (const auto& lod : json["lods"]) per_lod += lod["agents"].get<int>();
    EXPECT_EQ(per_lod, json["visible"].get<int>());
    for (const char* phase : {"update", "playback", "cull", "lod", "pack_upload", "submit"}) {
      EXPECT_TRUE(json["cpu_ms"][phase].is_number()) << phase;
    }
    EXPECT_EQ(json["frame_ms"]["frames"], 1);
    // The merged paths' palette uniforms: the sample's rigid rig takes 2 vec4 per joint.
    const std::string drawn = json["path"];
    if (drawn != "merged" && drawn != "per-character") {
      EXPECT_TRUE(json["joint_encoding"].is_null());
    } else {
      EXPECT_EQ(json["joint_encoding"]["vec4_per_joint"], 2) << r.output;
      EXPECT_EQ(json["joint_encoding"]["name"], "quat+translation+scale (2 vec4)");
      EXPECT_LT(json["joint_encoding"]["quat_error_share_of_height"].get<double>(), 1e-5);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(RenderCli, AFixedLodDrawsEveryAgentWithIt) {
  const auto dir = test::makeTempDir("render-cli-lod");
  const test::CliResult r = test::runCli(
      "render sample --json --agents 9 --lod 3 --width 64 "
      "--height 48 -o " +
      quoted(dir / "l.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json json = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_TRUE(json.is_object()) << r.output;
  EXPECT_EQ(json["lods"][3]["agents"], json["visible"]);
  // One instanced draw per material of LOD 3 (the sample's clothes, skin and shoes).
  EXPECT_EQ(json["lods"][3]["materials"], 3);
  EXPECT_EQ(json["draw_calls"], 3);
  std::filesystem::remove_all(dir);
}

TEST(RenderCli, GltfInputIsBakedInMemoryAndBakedLodsDrawMerged) {
  const auto dir = test::makeTempDir("render-cli-inputs");
  const auto glb = dir / "sample.glb";
  ASSERT_EQ(test::runCli("sample -o " + quoted(glb)).exit_code, 0);
  test::CliResult r = test::runCli("render " + quoted(glb) + " --agents 4 --width 64 --height 48 " +
                                   "-o " + quoted(dir / "g.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("glTF, baked in memory: 5 clips, 4 LODs"), std::string::npos) << r.output;
  const auto package = dir / "lods.throng";
  ASSERT_EQ(test::runCli("bake sample --lods -o " + quoted(package)).exit_code, 0);
  r = test::runCli("render " + quoted(package) + " --path merged --agents 30 --width 64 " +
                   "--height 64 --out " + quoted(dir / "m.png"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("OpenGL ES 2.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("10 joints"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("joint encoding: quat+translation+scale (2 vec4): error "),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "m.png"));
  std::filesystem::remove_all(dir);
}

// --lod-threshold is the screen error the LOD rule allows: more pixels, coarser LODs.
TEST(RenderCli, LodThresholdMovesTheLodSwitches) {
  const auto dir = test::makeTempDir("render-cli-threshold");
  auto meanLod = [&](const std::string& extra, int* last_lod_agents) {
    const test::CliResult r =
        test::runCli("render " + test::bakedSamplePackage() + " --json --view street --agents 25 " +
                     extra + " --width 96 --height 256 -o " + quoted(dir / "t.png"));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output, nullptr, false);
    EXPECT_TRUE(json.is_object()) << r.output;
    if (!json.is_object()) return -1.0;
    double sum = 0.0;
    for (size_t l = 0; l < json["lods"].size(); ++l)
      sum += static_cast<double>(l) * json["lods"][l]["agents"].get<int>();
    *last_lod_agents = json["lods"].back()["agents"].get<int>() - json["visible"].get<int>();
    return sum / json["visible"].get<int>();
  };
  int rest_default = 0, rest_coarse = 0;
  const double fine = meanLod("", &rest_default);
  const double coarse = meanLod("--lod-threshold 1000", &rest_coarse);
  EXPECT_LT(fine, coarse);
  EXPECT_EQ(rest_coarse, 0);  // every visible agent on the last LOD
  std::filesystem::remove_all(dir);
}

// --lod-tint colours each agent by its LOD (lodDebugColor): LOD 0 green, LOD 3 orange.
TEST(RenderCli, LodTintColoursAgentsByTheirLod) {
  const auto dir = test::makeTempDir("render-cli-tint");
  render::Image images[2];
  const int lods[2] = {0, 3};
  for (int i = 0; i < 2; ++i) {
    const auto png = dir / ("tint" + std::to_string(lods[i]) + ".png");
    const test::CliResult r =
        test::runCli("render " + test::bakedSamplePackage() +
                     " --agents 1 --lod-tint --view street --width 64 --height 96 "
                     "--lod " +
                     std::to_string(lods[i]) + " -o " + quoted(png));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    images[i] = test::readTestPng(png);
    ASSERT_GT(images[i].width, 0);
  }
  ASSERT_EQ(images[0].rgba.size(), images[1].rgba.size());
  // Where the two pictures differ is the character (same pose, same camera): there red minus
  // green follows each tint's.
  long long red_minus_green[2] = {0, 0};
  int differing = 0;
  for (size_t p = 0; p < images[0].rgba.size(); p += 4) {
    if (std::abs(images[0].rgba[p] - images[1].rgba[p]) < 32) continue;
    ++differing;
    for (int i = 0; i < 2; ++i) red_minus_green[i] += images[i].rgba[p] - images[i].rgba[p + 1];
  }
  EXPECT_GT(differing, 50);
  for (int i = 0; i < 2; ++i) {
    const glm::vec4 tint = render::lodDebugColor(lods[i]);
    EXPECT_EQ(red_minus_green[i] > 0, tint.r > tint.g) << "LOD " << lods[i];
  }
  std::filesystem::remove_all(dir);
}

// --shader: one file draws the same picture on every path and changes it from the built-in look;
// a broken one exits 1 naming its line; --shadows and --light change the picture and are said.
TEST(RenderCli, ShaderShadowsAndLightOptions) {
  const auto dir = test::makeTempDir("render-cli-shader");
  test::writeFile(dir / "toon.glsl",
                  "vec4 throngShade(ThrongSurface s) {\n"
                  "  float lit = max(dot(s.normal, -throng_light_direction), 0.0) * "
                  "throngShadow(s);\n"
                  "  return vec4(s.base_color.rgb * (lit > 0.4 ? 1.0 : 0.35), 1.0);\n}\n");
  test::writeFile(dir / "broken.glsl",
                  "vec4 throngShade(ThrongSurface s) {\n  return vec4(nope, 1.0);\n}\n");
  const std::string common =
      " --agents 9 --clip walk --seed 2 --view street --width 120 "
      "--height 90";
  const auto draw = [&](const std::string& name, const std::string& options) {
    const auto png = dir / (name + ".png");
    const test::CliResult r = test::runCli("render " + test::bakedSamplePackage() + common +
                                           options + " -o " + quoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return std::make_pair(test::readTestPng(png), r.output);
  };
  const auto toon = draw("toon-auto", " --shader " + quoted(dir / "toon.glsl"));
  for (const char* path : kPaths) {
    const auto other = draw(std::string("toon-") + path,
                            " --shader " + quoted(dir / "toon.glsl") + " --path " + path);
    EXPECT_LE(test::pathBadShare(toon.first, other.first), test::kPathMaxBadPixelShare) << path;
  }
  const auto builtin = draw("builtin", "");
  EXPECT_NE(builtin.second.find("shadows: map"), std::string::npos) << builtin.second;
  EXPECT_GT(test::pathBadShare(toon.first, builtin.first), 0.01);
  const auto blob = draw("blob", " --shadows blob");
  EXPECT_NE(blob.second.find("shadows: blob"), std::string::npos) << blob.second;
  const auto off = draw("off", " --shadows off");
  EXPECT_NE(off.second.find("shadows: off"), std::string::npos) << off.second;
  EXPECT_GT(test::pathBadShare(off.first, blob.first), 0.005);
  EXPECT_GT(test::pathBadShare(off.first, builtin.first), 0.005);
  const auto overhead = draw("overhead", " --light 0,-1,0");
  EXPECT_GT(test::pathBadShare(overhead.first, builtin.first), 0.005);

  const test::CliResult broken =
      test::runCli("render " + test::bakedSamplePackage() + " --shader " +
                   quoted(dir / "broken.glsl") + " -o " + quoted(dir / "broken.png"));
  EXPECT_EQ(broken.exit_code, 1) << broken.output;
  EXPECT_NE(broken.output.find("broken.glsl:2"), std::string::npos) << broken.output;
  EXPECT_EQ(test::runCli("render " + test::bakedSamplePackage() + " --shadows soft -o " +
                         quoted(dir / "x.png"))
                .exit_code,
            2);
  const test::CliResult no_light = test::runCli("render " + test::bakedSamplePackage() +
                                                " --light 0,0,0 -o " + quoted(dir / "x.png"));
  EXPECT_EQ(no_light.exit_code, 2) << no_light.output;
  EXPECT_NE(no_light.output.find("--light 0,0,0: must be the direction"), std::string::npos)
      << no_light.output;
  std::filesystem::remove_all(dir);
}

// A usage error: exit 2, one line naming the flag and what it allows, nothing written.
// Events from a glTF's sidecar, and from the package baked from it: each agent crosses the
// looping clip's one event once per second of frames, printed per frame, the same both ways.
TEST(RenderCli, EventsArePrintedPerFrameFromTheSidecarOrThePackage) {
  const auto dir = test::makeTempDir("cli-render-events");
  const auto glb = dir / "chain.glb";
  ASSERT_TRUE(writeGltf(test::makeChainCharacter(), glb.string()).ok());
  test::writeFile(dir / "chain.events.json",
                  R"({"events": {"bend": [{"name": "tip", "time": 0.5}]}})");
  const std::string common =
      " --agents 3 --frames 31 --width 48 --height 48 --events -o " + quoted(dir / "e.png");
  const test::CliResult from_gltf = test::runCli("render " + quoted(glb) + common);
  ASSERT_EQ(from_gltf.exit_code, 0) << from_gltf.output;
  EXPECT_NE(from_gltf.output.find("events: 3 crossed in 31 frames (1 events in the package's "
                                  "clips)"),
            std::string::npos)
      << from_gltf.output;
  for (int agent = 0; agent < 3; ++agent) {
    const std::string needle =
        ": agent " + std::to_string(agent) + " 'tip' (clip 'bend' at 0.500 s, weight 1.00)\n";
    const size_t at = from_gltf.output.find(needle);
    ASSERT_NE(at, std::string::npos) << from_gltf.output;
    EXPECT_EQ(from_gltf.output.find(needle, at + 1), std::string::npos) << from_gltf.output;
  }

  const auto package = dir / "chain.throng";
  ASSERT_EQ(test::runCli("bake " + quoted(glb) + " -o " + quoted(package)).exit_code, 0);
  const test::CliResult from_package = test::runCli("render " + quoted(package) + common);
  ASSERT_EQ(from_package.exit_code, 0) << from_package.output;
  const auto events = [](const std::string& output) {
    return output.substr(output.find("events: "));
  };
  EXPECT_EQ(events(from_gltf.output), events(from_package.output));

  const test::CliResult json = test::runCli("render " + quoted(package) + common + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json report = nlohmann::json::parse(json.output);
  ASSERT_EQ(report["events"].size(), 3u) << json.output;
  EXPECT_EQ(report["events"][0]["event"], "tip");
}

// --events no longer keeps the crowd on the CPU: auto picks the gpu path, whose compute pass
// gathers the events, and every frame's events are those the instanced path prints.
TEST(RenderCli, EventsAreTheSameOnTheGpuPathAsOnTheInstancedPath) {
  THRONG_REQUIRE(test::gpuPathMissing().empty(), test::gpuPathMissing());
  const auto dir = test::makeTempDir("cli-render-gpu-events");
  const auto glb = dir / "chain.glb";
  ASSERT_TRUE(writeGltf(test::makeChainCharacter(), glb.string()).ok());
  test::writeFile(
      dir / "chain.events.json",
      R"({"events": {"bend": [{"name": "tip", "time": 0.5}, {"name": "top", "time": 0.1}]}})");
  const std::string common = "render " + quoted(glb) +
                             " --agents 20 --frames 45 --width 48 --height 48 --events -o " +
                             quoted(dir / "e.png");
  const test::CliResult instanced = test::runCli(common + " --path instanced");
  const test::CliResult gpu = test::runCli(common + " --path gpu");
  ASSERT_EQ(instanced.exit_code, 0) << instanced.output;
  ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
  const auto events = [](const std::string& output) {
    const size_t at = output.find("events: ");
    return at == std::string::npos ? std::string() : output.substr(at);
  };
  const std::string listed = events(instanced.output);
  size_t crossings = 0;
  for (size_t at = listed.find("'t"); at != std::string::npos; at = listed.find("'t", at + 1)) {
    ++crossings;
  }
  EXPECT_GT(crossings, 20u) << instanced.output;
  EXPECT_EQ(events(gpu.output), events(instanced.output));
  const test::CliResult json = test::runCli(common + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json report = nlohmann::json::parse(json.output);
  EXPECT_EQ(report["path"], "gpu") << "auto with --events";
  EXPECT_EQ(report["events_lost"], 0);
  EXPECT_GT(report["events"].size(), 20u);
  std::filesystem::remove_all(dir);
}

// `render a.throng b.glb`: a mixed crowd, agent i of input i % 2 in one of the tint variants;
// one draw per (character, LOD in use, material), and every path draws the same picture.
TEST(RenderCli, SeveralInputsMakeAMixedCrowdDrawnTheSameOnEveryPath) {
  const auto dir = test::makeTempDir("render-cli-mixed");
  const std::string package = writeChainPackage(dir);
  const std::string common = " " + quoted(std::filesystem::path(package)) +
                             " sample --agents 16 --seed 3 --frames 2 --lod 0 --width 160 "
                             "--height 120";
  const auto reference = dir / "mixed-instanced.png";
  test::CliResult r = test::runCli("render" + common + " --path instanced -o " + quoted(reference));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // One table, a row per character: index, input, clips, LODs, agents, ..., the clip playing.
  EXPECT_NE(r.output.find("\n#  input "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n0  " + package + " "), std::string::npos) << r.output;
  const size_t row = r.output.find("\n1  sample ");
  ASSERT_NE(row, std::string::npos) << r.output;
  const std::string sample_row = r.output.substr(row + 1, r.output.find('\n', row + 1) - row - 1);
  EXPECT_NE(sample_row.find("       8 "), std::string::npos) << sample_row;  // agents
  EXPECT_NE(sample_row.find("'idle' (clip 0)"), std::string::npos) << sample_row;
  EXPECT_EQ(r.output.find("character 1: "), std::string::npos) << r.output;  // no block each
  // --lod 0: one instanced draw per (character, material): the chain character has one
  // material, the sample three (clothes, skin, shoes).
  EXPECT_NE(r.output.find("mixed crowd: 16 agents of 2 characters, 8 tint variants; draw calls: "
                          "4 in all"),
            std::string::npos)
      << r.output;
  const render::Image expected = test::readTestPng(reference);
  for (const char* path : {"merged", "per-character"}) {
    const auto png = dir / (std::string("mixed-") + path + ".png");
    const test::CliResult p =
        test::runCli("render" + common + " --path " + path + " -o " + quoted(png));
    ASSERT_EQ(p.exit_code, 0) << p.output;
    EXPECT_LE(test::pathBadShare(expected, test::readTestPng(png)), test::kPathMaxBadPixelShare)
        << path;
  }
  // The mix differs from either character alone.
  const auto alone = dir / "alone.png";
  ASSERT_EQ(test::runCli("render sample --agents 16 --seed 3 --frames 2 --lod 0 --width 160 "
                         "--height 120 --path instanced -o " +
                         quoted(alone))
                .exit_code,
            0);
  EXPECT_GT(test::pathBadShare(expected, test::readTestPng(alone)), 0.01);

  r = test::runCli("render" + common + " --path instanced --json -o " + quoted(reference));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json json = nlohmann::json::parse(r.output);
  EXPECT_EQ(json["draw_calls"], 4);
  ASSERT_EQ(json["characters"].size(), 2u);
  EXPECT_EQ(json["characters"][1]["agents"], 8);
  // Both characters' animation textures in one: bound once (or not at all, when the previous
  // frame left it bound).
  EXPECT_EQ(json["animation_texture_shared"], true);
  EXPECT_LE(json["animation_texture_binds"], 1);
}

TEST(RenderCli, UsageErrorsExitTwoNamingTheFlag) {
  const auto dir = test::makeTempDir("render-cli-usage");
  const std::string png = quoted(dir / "x.png");
  struct Case {
    std::string args;
    std::string needle;
  };
  const Case cases[] = {
      {"--agents 0", "--agents 0: must be a whole number in 1..1000000"},
      {"--agents -5", "--agents -5: must be a whole number in 1..1000000"},
      {"--agents many", "--agents"},
      {"--frames 0", "--frames 0: must be a whole number in 1..100000"},
      {"--seed -1", "--seed -1: must be a whole number >= 0"},
      {"--clip nope", "--clip nope: no such clip in sample (clips: 0 idle, 1 walk"},
      {"--clip 9", "--clip 9: no such clip"},
      {"--path warp", "--path warp: must be auto, gpu, instanced, merged or per-character"},
      {"--variants some", "--variants some: must be random, none or an appearance index"},
      {"--lod 4", "--lod 4: sample has LODs 0..3 (or auto)"},
      {"--lod near", "--lod near: must be auto or a LOD index"},
      {"--lod-threshold 0", "--lod-threshold 0: must be a number of pixels in [0.01, 1000]"},
      {"--view sideways", "--view sideways: must be overview or street"},
      {"--tint dim", "--tint dim: must be on or off"},
      {"--palette-pass always", "--palette-pass always: must be auto, on or off"},
      {"--attachments some", "--attachments some: must be all, none or random"},
      {"--impostors maybe", "--impostors maybe: must be auto, on or off"},
      {"--width 0", "--width 0: must be a whole number in 1..16384"},
      {"--frobnicate", "--frobnicate"},
  };
  for (const Case& c : cases) {
    const test::CliResult r = test::runCli("render sample " + c.args + " -o " + png);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_EQ(lineCount(r.output), 1) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.png")) << c.args;
  }
  const test::CliResult none = test::runCli("render");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("input"), std::string::npos) << none.output;
  std::filesystem::remove_all(dir);
}

// An input or run-time error: exit 1, one line naming the file and the place.
TEST(RenderCli, InputErrorsExitOneNamingTheFile) {
  const auto dir = test::makeTempDir("render-cli-input");
  const std::string png = quoted(dir / "x.png");
  test::CliResult r = test::runCli("render " + quoted(dir / "missing.throng") + " -o " + png);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(lineCount(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("missing.throng"), std::string::npos) << r.output;
  const std::string package = writeChainPackage(dir);
  std::string bytes = test::readFile(package);
  bytes.resize(bytes.size() / 2);
  test::writeFile(dir / "short.throng", bytes);
  r = test::runCli("render " + quoted(dir / "short.throng") + " -o " + png);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(lineCount(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("short.throng"), std::string::npos) << r.output;
  r = test::runCli("render sample --agents 1 -o " + quoted(dir / "no-such-folder" / "x.png"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no-such-folder"), std::string::npos) << r.output;
  test::writeFile(dir / "garbage.glb", "not a glTF file");
  r = test::runCli("render " + quoted(dir / "garbage.glb") + " -o " + png);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("garbage.glb"), std::string::npos) << r.output;
  // A package's clips are baked in: clip files apply to glTF input only.
  r = test::runCli("render " + package + " --clips-from " + quoted(dir / "garbage.glb") + " -o " +
                   png);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(": a package's clips are baked in; more clip files apply to glTF input "
                          "only"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
  std::filesystem::remove_all(dir);
}

// With Mesa held to ES 2.0 (the user's override), auto falls back to an ES 2.0 context and the
// merged path, and an instanced request fails as a run-time error naming what is missing.
TEST(RenderCli, AutoFallsBackToMergedOnAnEs2OnlyMachine) {
  THRONG_REQUIRE(!std::getenv("MESA_GLES_VERSION_OVERRIDE"), "the user's override is set");
  const auto dir = test::makeTempDir("render-cli-es2");
  setenv("MESA_GLES_VERSION_OVERRIDE", "2.0", 1);
  const test::CliResult automatic =
      test::runCli("render sample --agents 4 --width 64 --height 48 -o " + quoted(dir / "a.png"));
  const test::CliResult instanced =
      test::runCli("render sample --agents 4 --path instanced --width 64 --height 48 -o " +
                   quoted(dir / "i.png"));
  unsetenv("MESA_GLES_VERSION_OVERRIDE");
  EXPECT_EQ(automatic.exit_code, 0) << automatic.output;
  EXPECT_NE(automatic.output.find("path: merged (OpenGL ES 2.0: no instancing"), std::string::npos)
      << automatic.output;
  EXPECT_EQ(instanced.exit_code, 1) << instanced.output;
  EXPECT_EQ(lineCount(instanced.output), 1) << instanced.output;
  EXPECT_NE(instanced.output.find("OpenGL ES 3"), std::string::npos) << instanced.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "i.png"));
  std::filesystem::remove_all(dir);
}

// Under Mesa's no-op driver the PNG is blank: render says so (and still writes it); a real driver
// gets no such warning.
TEST(RenderCli, WarnsUnderMesasNoOpDriver) {
  THRONG_REQUIRE(!std::getenv("GALLIUM_NOOP"), "the user runs under the no-op driver");
  const auto dir = test::makeTempDir("render-cli-noop");
  const std::string args = "render sample --agents 4 --width 64 --height 48 -o ";
  const test::CliResult real = test::runCli(args + quoted(dir / "real.png"));
  setenv("GALLIUM_NOOP", "1", 1);
  const test::CliResult noop = test::runCli(args + quoted(dir / "noop.png"));
  unsetenv("GALLIUM_NOOP");
  ASSERT_EQ(real.exit_code, 0) << real.output;
  EXPECT_EQ(real.output.find("no-op driver"), std::string::npos) << real.output;
  ASSERT_EQ(noop.exit_code, 0) << noop.output;
  EXPECT_NE(noop.output.find("warning: the GL renderer is Mesa's no-op driver"), std::string::npos)
      << noop.output;
  std::filesystem::remove_all(dir);
}

}  // namespace render_cli_test
}  // namespace throng
