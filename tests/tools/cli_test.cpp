// End-to-end tests of the throng CLI: inspect, skeleton, sample and pose,
// success and failure.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/material_character.h"
#include "support/test_support.h"
#include "throng/core/package_format.h"
#include "throng/core/pose.h"
#include "throng/core/skeleton_file.h"
#include "throng/core/skinning.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/offline/tangents.h"

namespace throng {
namespace {

using test::runCli;

TEST(Cli, SampleWritesAGlbThatInspectDescribes) {
  const auto dir = test::makeTempDir("cli-sample");
  const std::string glb = (dir / "sample.glb").string();
  const test::CliResult written = runCli("sample -o '" + glb + "'");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  const test::CliResult shown = runCli("inspect '" + glb + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  const Character sample = makeSampleCharacter();
  EXPECT_NE(shown.output.find("joints: " + std::to_string(sample.skeleton.jointCount())),
            std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find(std::to_string(sample.mesh.vertexCount()) + " vertices"),
            std::string::npos);
  for (const Clip& clip : sample.clips) EXPECT_NE(shown.output.find(clip.name), std::string::npos);
}

TEST(Cli, SampleHumanoidWritesTheBenchmarkRig) {
  const auto dir = test::makeTempDir("cli-humanoid");
  const std::string glb = (dir / "humanoid.glb").string();
  const test::CliResult written = runCli("sample --humanoid -o '" + glb + "'");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  EXPECT_NE(written.output.find(std::to_string(kBenchmarkHumanoidJoints) + " joints"),
            std::string::npos)
      << written.output;
  const test::CliResult shown = runCli("inspect '" + glb + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("joints: " + std::to_string(kBenchmarkHumanoidJoints)),
            std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("index_03.L"), std::string::npos) << shown.output;
}

TEST(Cli, SamplePbrWritesTexturesWithoutTangentsThatInspectSaysAreGenerated) {
  const auto dir = test::makeTempDir("cli-sample-pbr");
  const std::string glb = (dir / "sample-pbr.glb").string();
  const test::CliResult written = runCli("sample --pbr -o '" + glb + "'");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  EXPECT_NE(written.output.find("no TANGENT"), std::string::npos) << written.output;
  // The GLB's JSON chunk (after the 12-byte header and the chunk's 8) names no TANGENT.
  const std::string bytes = test::readFile(glb);
  ASSERT_GT(bytes.size(), 20u);
  uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  const nlohmann::json gltf = nlohmann::json::parse(bytes.substr(20, json_length));
  for (const nlohmann::json& primitive : gltf["meshes"][0]["primitives"]) {
    EXPECT_TRUE(primitive["attributes"].contains("NORMAL"));
    EXPECT_FALSE(primitive["attributes"].contains("TANGENT"));
  }
  for (const nlohmann::json& material : gltf["materials"]) {
    EXPECT_TRUE(material.contains("normalTexture")) << material.dump();
    EXPECT_TRUE(material.contains("occlusionTexture")) << material.dump();
    EXPECT_TRUE(material["pbrMetallicRoughness"].contains("metallicRoughnessTexture"))
        << material.dump();
  }
  for (const nlohmann::json& image : gltf["images"]) EXPECT_EQ(image["mimeType"], "image/png");

  test::CliResult shown = runCli("inspect '" + glb + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_NE(shown.output.find("\ntangents: generated (MikkTSpace rules)\n"), std::string::npos)
      << shown.output;
  for (const char* part : {"normal texture image", "metallic-roughness texture image",
                           "occlusion texture image", "emissive (0.8, 1, 1) texture image"}) {
    EXPECT_NE(shown.output.find(part), std::string::npos) << part << "\n" << shown.output;
  }
  shown = runCli("inspect --json '" + glb + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  const nlohmann::json report = nlohmann::json::parse(shown.output);
  EXPECT_EQ(report["mesh"]["tangents"], "generated (MikkTSpace rules)");
  EXPECT_EQ(report["images"].size(), makeSamplePbrCharacter().images.size());

  // The plain sample has no normal textures, so no tangents.
  const std::string plain = (dir / "sample.glb").string();
  ASSERT_EQ(runCli("sample -o '" + plain + "'").exit_code, 0);
  shown = runCli("inspect --json '" + plain + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_EQ(nlohmann::json::parse(shown.output)["mesh"]["tangents"], "none");

  const test::CliResult both = runCli("sample --pbr --humanoid -o '" + glb + "'");
  EXPECT_EQ(both.exit_code, 2) << both.output;
  EXPECT_NE(both.output.find("--prop, --humanoid and --pbr: choose one"), std::string::npos)
      << both.output;
  std::filesystem::remove_all(dir);
}

TEST(Cli, SkeletonWritesAFileThatReadsBackToTheSameSkeleton) {
  const auto dir = test::makeTempDir("cli-skel");
  const std::string glb = (dir / "sample.glb").string(), skel = (dir / "sample.skel").string();
  ASSERT_EQ(runCli("sample -o '" + glb + "'").exit_code, 0);
  const test::CliResult r = runCli("skeleton '" + glb + "' -o '" + skel + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Result<Skeleton> read = readSkeletonFile(skel);
  ASSERT_TRUE(read.ok()) << read.status().toString();
  Result<Character> imported = importGltf(glb);
  ASSERT_TRUE(imported.ok());
  ASSERT_EQ(read->jointCount(), imported->skeleton.jointCount());
  for (int j = 0; j < read->jointCount(); ++j) {
    EXPECT_EQ(read->names()[j], imported->skeleton.names()[j]);
    EXPECT_EQ(read->parents()[j], imported->skeleton.parents()[j]);
  }
}

TEST(Cli, PoseWritesTheSkinnedMeshAtTheRequestedTime) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  const std::string file = test::assetPath("CesiumMan/CesiumMan.glb").string();
  const auto dir = test::makeTempDir("cli-pose");
  const std::string obj = (dir / "posed.obj").string();
  const test::CliResult r = runCli("pose '" + file + "' --clip 0 --time 0.5 -o '" + obj + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Character c = importGltf(file).value();
  PoseScratch scratch;
  std::vector<JointRows> palette(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, &c.clips[0], 0.5f, scratch, palette);
  std::vector<glm::vec3> expected(c.mesh.vertexCount());
  ASSERT_TRUE(
      (SkinJob{c.mesh.positions, {}, c.mesh.joints, c.mesh.weights, palette, expected, {}}.run()));
  const std::vector<glm::vec3> got = test::readObjPositions(obj);
  ASSERT_EQ(got.size(), expected.size());
  float worst = 0.0f;
  for (size_t v = 0; v < got.size(); ++v)
    worst = std::max(worst, glm::length(got[v] - expected[v]));
  EXPECT_LT(worst, 1e-6f * c.size());
  // Not the bind pose: the walk moves the legs.
  float moved = 0.0f;
  for (size_t v = 0; v < got.size(); ++v)
    moved = std::max(moved, glm::length(got[v] - c.mesh.positions[v]));
  EXPECT_GT(moved, 0.01f * c.size());
}

TEST(Cli, ErrorsNameTheFileAndExitNonZero) {
  const auto dir = test::makeTempDir("cli-errors");
  const std::string missing = (dir / "nothing.glb").string();
  test::CliResult r = runCli("inspect '" + missing + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("nothing.glb"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;

  const std::string garbage = (dir / "garbage.gltf").string();
  test::writeFile(garbage, "{ this is not json");
  r = runCli("pose '" + garbage + "' --time 0 -o '" + (dir / "x.obj").string() + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("garbage.gltf"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.obj"));

  const std::string glb = (dir / "sample.glb").string();
  ASSERT_EQ(runCli("sample -o '" + glb + "'").exit_code, 0);
  r = runCli("pose '" + glb + "' --clip nosuchclip -o '" + (dir / "y.obj").string() + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;  // an unknown clip is the command line's fault
  EXPECT_NE(r.output.find("--clip nosuchclip: no such clip"), std::string::npos) << r.output;
  r = runCli("frobnicate");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("frobnicate: no such command (commands: bake, demo"), std::string::npos)
      << r.output;
}

// Exit codes mean one thing: 2 for the command line (one line naming the flag), 1 for the
// input; --help succeeds.
TEST(Cli, UsageErrorsExitTwoAndHelpSucceeds) {
  struct Case {
    std::string args;
    std::string needle;
  };
  const Case cases[] = {
      {"", "A subcommand is required"},
      {"inspect", "file is required"},
      {"sample --frob", "--frob"},
      {"pose x.glb --time soon -o x.obj", "--time soon: must be a number"},
      {"skeleton x.glb", "--out is required"},
  };
  for (const Case& c : cases) {
    const test::CliResult r = runCli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_NE(r.output.find(c.needle), std::string::npos) << c.args << "\n" << r.output;
  }
  const test::CliResult help = runCli("render --help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_NE(help.output.find("--path"), std::string::npos) << help.output;
}

// Every command that writes a file takes both -o and --out.
TEST(Cli, EveryWritingCommandTakesDashOAndDashDashOut) {
  const auto dir = test::makeTempDir("cli-out");
  const std::string glb = (dir / "s.glb").string();
  ASSERT_EQ(runCli("sample --out '" + glb + "'").exit_code, 0);
  const std::string commands[] = {
      "sample",
      "skeleton '" + glb + "'",
      "pose '" + glb + "' --clip walk --time 0.2",
      "bake sample --fps 5",
      "render sample --agents 2 --width 32 --height 32",
      "demo --agents 2 --seconds 0.2 --width 32 --height 32",
  };
  int n = 0;
  for (const std::string& command : commands) {
    for (const char* flag : {"-o", "--out"}) {
      const auto out = dir / ("out" + std::to_string(n++));
      const test::CliResult r = runCli(command + " " + flag + " '" + out.string() + "'");
      EXPECT_EQ(r.exit_code, 0) << command << " " << flag << "\n" << r.output;
      EXPECT_TRUE(std::filesystem::exists(out)) << command << " " << flag;
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng

namespace throng {
namespace {

// A normal-mapped glTF without TANGENT: inspect says the tangents were generated; with them, that
// they come from the file. A kept package of each format version says its own version.
TEST(Cli, InspectSaysWhereTangentsComeFromAndWhichVersionAPackageIs) {
  Character c = test::makeMaterialCharacter();
  SourceImage normals = c.images[0];
  normals.name = "normals";
  c.images.push_back(normals);
  c.materials[1].normal_texture.image = static_cast<int>(c.images.size()) - 1;
  ASSERT_TRUE(generateTangents(c.mesh, c.materials).ok());
  const auto dir = test::makeTempDir("cli-inspect-tangents");
  const std::string gltf = (dir / "normals.gltf").string();
  ASSERT_TRUE(writeGltf(c, gltf).ok());
  test::CliResult r = runCli("inspect '" + gltf + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\ntangents: from the file\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("normal texture image"), std::string::npos) << r.output;
  nlohmann::json j = nlohmann::json::parse(test::readFile(gltf));
  for (nlohmann::json& primitive : j["meshes"][0]["primitives"]) {
    ASSERT_EQ(primitive["attributes"].erase("TANGENT"), 1u);
  }
  test::writeFile(gltf, j.dump());
  r = runCli("inspect '" + gltf + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\ntangents: generated (MikkTSpace rules)\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("tangents generated (MikkTSpace rules) for"), std::string::npos)
      << r.output;

  const std::filesystem::path kept =
      std::filesystem::path(THRONG_SOURCE_DIR) / "tests" / "core" / "data" / "packages";
  for (uint32_t version = kOldestReadablePackageVersion; version <= kPackageVersion; ++version) {
    const std::string package =
        (kept / ("sample-v" + std::to_string(version) + ".throng")).string();
    r = runCli("inspect --json '" + package + "'");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(nlohmann::json::parse(r.output)["format_version"], version) << package;
  }
  std::filesystem::remove_all(dir);
}

TEST(Cli, InspectDescribesAPackageAndReportsACorruptOne) {
  const auto dir = test::makeTempDir("cli-inspect-package");
  const std::string package = (dir / "sample.throng").string();
  ASSERT_EQ(test::runCli("bake sample -o '" + package + "'").exit_code, 0);
  test::CliResult r = test::runCli("inspect '" + package + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {"23 joints", "walk", "die", "RGBA32F", "texels"}) {
    EXPECT_NE(r.output.find(expected), std::string::npos) << expected << "\n" << r.output;
  }
  std::string bytes = test::readFile(package);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x40);
  const std::string corrupt = (dir / "corrupt.throng").string();
  test::writeFile(corrupt, bytes);
  r = test::runCli("inspect '" + corrupt + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("corrupt.throng"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("checksum"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace throng
