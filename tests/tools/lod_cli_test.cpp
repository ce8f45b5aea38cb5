// End-to-end tests of the LOD side of the CLI: `bake --lods` output, `inspect --json` LOD table,
// `pose --lod` from a package and from a glTF file.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/lod_pick.h"
#include "throng/crowd/playback.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"

namespace throng {
namespace {

std::string shellQuoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

// `mesh` (palette-slot joints) skinned by `palette` (skeleton joints) through `palette_joints`.
std::vector<glm::vec3> skinLod(const SkinnedMesh& mesh, std::span<const uint16_t> palette_joints,
                               std::span<const JointRows> palette) {
  std::vector<JointRows> slots(palette.begin(), palette.end());
  if (!palette_joints.empty()) {
    slots.resize(palette_joints.size());
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = palette[palette_joints[s]];
  }
  std::vector<glm::vec3> out(mesh.vertexCount());
  EXPECT_TRUE((SkinJob{mesh.positions, {}, mesh.joints, mesh.weights, slots, out, {}}.run()));
  return out;
}

void expectSamePositions(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  ASSERT_EQ(a.size(), b.size());
  float worst = 0.0f;
  for (size_t v = 0; v < a.size(); ++v) worst = std::max(worst, glm::distance(a[v], b[v]));
  EXPECT_LT(worst, 1e-5f);
}

class LodCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(test::makeTempDir("lod-cli"));
    package_ = new std::string((*dir_ / "sample.throng").string());
    const test::CliResult r = test::runCli("bake sample --lods -o " + shellQuoted(*package_));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    bake_output_ = new std::string(r.output);
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete package_;
    delete bake_output_;
  }
  static std::filesystem::path* dir_;
  static std::string* package_;
  static std::string* bake_output_;
};
std::filesystem::path* LodCli::dir_ = nullptr;
std::string* LodCli::package_ = nullptr;
std::string* LodCli::bake_output_ = nullptr;

TEST_F(LodCli, BakePrintsTheLodTableAndItsTime) {
  for (const char* expected :
       {"triangles/target", "max error", "p99 error", "picked from", "LODs: "}) {
    EXPECT_NE(bake_output_->find(expected), std::string::npos) << expected << "\n" << *bake_output_;
  }
}

TEST_F(LodCli, InspectJsonHoldsTheLodTable) {
  const test::CliResult r = test::runCli("inspect --json " + shellQuoted(*package_));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.output;
  Result<Package> package = readPackage(*package_);
  ASSERT_TRUE(package.ok());
  const float height = computeBounds(package->lods[0].mesh.positions).largestExtent();
  ASSERT_TRUE(j["lods"].is_array());
  ASSERT_EQ(j["lods"].size(), package->lods.size());
  EXPECT_EQ(j["joints"], package->skeleton.jointCount());
  double previous = -1.0;
  for (size_t l = 0; l < package->lods.size(); ++l) {
    const nlohmann::json& lod = j["lods"][l];
    const MeshLod& expected = package->lods[l];
    EXPECT_EQ(lod["triangles"], expected.mesh.triangleCount());
    EXPECT_EQ(lod["joints"], expected.palette_joints.empty()
                                 ? static_cast<size_t>(package->skeleton.jointCount())
                                 : expected.palette_joints.size());
    EXPECT_NEAR(lod["max_error"].get<double>(), expected.max_error / height, 1e-6);
    EXPECT_NEAR(lod["p99_error"].get<double>(), expected.p99_error / height, 1e-6);
    EXPECT_LE(lod["p99_error"].get<double>(), lod["max_error"].get<double>());
    // The distance at which it is first picked at 1080 px and 60 degrees.
    const double distance = lod["pick_distance"].get<double>();
    EXPECT_NEAR(distance, lodPickDistance(package->lods, static_cast<int>(l)),
                1e-4 * (1.0 + distance));
    EXPECT_NEAR(distance, l == 0 ? 0.0 : expected.max_error * 1080.0 / (2.0 * std::tan(0.5236)),
                1e-3 * (1.0 + distance));
    EXPECT_GT(distance, previous);
    previous = distance;
  }
  // A glTF file has its own JSON (warnings_cli_test); a missing one gets an error naming it.
  const test::CliResult gltf = test::runCli("inspect --json " + shellQuoted(*dir_ / "x.glb"));
  EXPECT_NE(gltf.exit_code, 0);
  EXPECT_NE(gltf.output.find("x.glb"), std::string::npos) << gltf.output;
  EXPECT_EQ(j["format_version"], kPackageVersion);
}

TEST_F(LodCli, PosesALodOfAPackage) {
  Result<Package> package = readPackage(*package_);
  ASSERT_TRUE(package.ok());
  const int lod = 3;
  const std::string obj = (*dir_ / "posed.obj").string();
  const test::CliResult r = test::runCli("pose " + shellQuoted(*package_) +
                                         " --lod 3 --clip walk --time 0.45 -o " + shellQuoted(obj));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The runtime's palette for that clip time: the baked frames blended, as PlaybackJob plays them.
  const BakedClip* walk = nullptr;
  for (const BakedClip& c : package->clips) walk = c.name == "walk" ? &c : walk;
  ASSERT_NE(walk, nullptr);
  InstanceFrames frames;
  frames.primary = sampleFrames(*walk, 0.45f);
  frames.secondary = frames.primary;
  std::vector<JointRows> palette(package->skeleton.jointCount());
  ASSERT_TRUE((FramePaletteJob{&package->animation, frames, palette}.run()));
  const MeshLod& chosen = package->lods[lod];
  expectSamePositions(test::readObjPositions(obj),
                      skinLod(chosen.mesh, chosen.palette_joints, palette));
  // --out is the same option.
  const std::string again = (*dir_ / "again.obj").string();
  ASSERT_EQ(test::runCli("pose " + shellQuoted(*package_) +
                         " --lod 3 --clip walk --time 0.45 --out " + shellQuoted(again))
                .exit_code,
            0);
  EXPECT_EQ(test::readFile(obj), test::readFile(again));
  // A LOD that does not exist is a usage error naming the flag, with the count.
  const test::CliResult bad = test::runCli("pose " + shellQuoted(*package_) + " --lod 9 -o " +
                                           shellQuoted(*dir_ / "bad.obj"));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--lod 9: no such LOD in"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("(4 LODs;"), std::string::npos) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(*dir_ / "bad.obj"));
}

TEST_F(LodCli, PosesALodOfAGltfFileWithTheDefaultChain) {
  const std::string glb = (*dir_ / "sample.glb").string();
  ASSERT_EQ(test::runCli("sample -o " + shellQuoted(glb)).exit_code, 0);
  const std::string obj = (*dir_ / "gltf-lod.obj").string();
  const test::CliResult r = test::runCli("pose " + shellQuoted(glb) +
                                         " --lod 2 --clip run --time 0.3 -o " + shellQuoted(obj));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Result<Character> c = importGltf(glb);
  ASSERT_TRUE(c.ok());
  Result<std::vector<MeshLod>> lods = buildLodChain(*c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok());
  PoseScratch scratch;
  std::vector<JointRows> palette(c->skeleton.jointCount());
  evaluatePalette(c->skeleton, &c->clips[c->findClip("run")], 0.3f, scratch, palette);
  const MeshLod& chosen = (*lods)[2];
  EXPECT_EQ(chosen.palette_joints.size(), 15u);
  expectSamePositions(test::readObjPositions(obj),
                      skinLod(chosen.mesh, chosen.palette_joints, palette));
}

TEST(LodCliAssets, BakeWarnsAboutADroppedLevel) {
  THRONG_REQUIRE_ASSET("SimpleSkin/SimpleSkin.gltf");
  const auto dir = test::makeTempDir("lod-cli-drop");
  const test::CliResult r =
      test::runCli("bake " + shellQuoted(test::assetPath("SimpleSkin/SimpleSkin.gltf")) +
                   " --lods -o " + shellQuoted(dir / "simple.throng"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("throng: warning: LOD level 1 dropped"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
