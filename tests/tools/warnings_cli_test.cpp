// The CLI respects the terminal: warnings of one kind on one line (-v: all, -q: none), as data in
// every command's --json, and no progress bar when stderr is not a terminal.
#include <algorithm>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "offline/gltf_builder.h"
#include "support/test_support.h"

namespace throng {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Lines of `text` that contain `needle`.
int linesWith(const std::string& text, const std::string& needle) {
  int count = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    count += text.substr(begin, end - begin).find(needle) != std::string::npos;
    begin = end + 1;
  }
  return count;
}

constexpr int kRobotJoints = 16;
constexpr int kRobotAnimations = 14;
const char* const kRobotNames[] = {"Hips", "Spine",    "Chest", "Neck",
                                   "Head", "Shoulder", "Arm",   "Hand"};

// A noisy robot like the held-out one of issue 28: a chain of 16 joints whose 8 names come twice
// (8 joints renamed), a skinned quad, and 14 animations that each turn a joint and carry a
// morph-target weights channel (14 animations with weights channels skipped): 22 warnings.
fs::path writeNoisyRobot(const fs::path& dir) {
  test::GltfBuilder gltf;
  gltf.addNode({{"name", "robot"}, {"children", {1}}});
  for (int j = 1; j <= kRobotJoints; ++j) {
    json node = {{"name", kRobotNames[(j - 1) % 8]}};
    if (j < kRobotJoints) node["children"] = {j + 1};
    if (j > 1) node["translation"] = {0.0, 0.1, 0.0};
    gltf.addNode(node);
  }
  const int body = gltf.addNode({{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  gltf.json["scenes"][0]["nodes"] = {0, body};
  const int positions = gltf.addFloats({0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 2, 0}, "VEC3");
  const int joints = gltf.add(std::vector<uint16_t>(16, 0), 5123, "VEC4");
  const int weights = gltf.addFloats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  const int indices = gltf.add(std::vector<uint16_t>{0, 1, 2, 2, 1, 3}, 5123, "SCALAR");
  std::vector<float> binds;
  for (int j = 0; j < kRobotJoints; ++j) {
    const float up = -0.1f * static_cast<float>(j);
    binds.insert(binds.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, up, 0, 1});
  }
  const int ibm = gltf.addFloats(binds, "MAT4");
  gltf.addMesh(json::array(
      {{{"attributes", {{"POSITION", positions}, {"JOINTS_0", joints}, {"WEIGHTS_0", weights}}},
        {"indices", indices}}}));
  json skin_joints = json::array();
  for (int j = 1; j <= kRobotJoints; ++j) skin_joints.push_back(j);
  gltf.json["skins"] = {{{"joints", skin_joints}, {"inverseBindMatrices", ibm}}};
  const int times = gltf.addFloats({0.0f, 1.0f}, "SCALAR");
  const int turns = gltf.addFloats({0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f}, "VEC4");
  json animations = json::array();
  for (int a = 0; a < kRobotAnimations; ++a) {
    const json sampler = {{"input", times}, {"output", turns}, {"interpolation", "LINEAR"}};
    animations.push_back(
        {{"name", "Move" + std::to_string(a)},
         {"samplers", {sampler}},
         {"channels",
          {{{"sampler", 0}, {"target", {{"node", 1 + a % kRobotJoints}, {"path", "rotation"}}}},
           {{"sampler", 0}, {"target", {{"node", body}, {"path", "weights"}}}}}}});
  }
  gltf.json["animations"] = animations;
  return gltf.write(dir, "robot.gltf");
}

class WarningsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::makeTempDir("cli-warnings");
    robot_ = writeNoisyRobot(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  fs::path robot_;
};

TEST_F(WarningsCli, OneLinePerKindWithTheCountAndTheFirstExamples) {
  const test::CliResult r = test::runCli("bake " + test::shellQuoted(robot_) + " -o " +
                                         test::shellQuoted(dir_ / "robot.throng"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(linesWith(r.output, "throng: warning: "), 2) << r.output;
  EXPECT_NE(r.output.find("throng: warning: " + robot_.string() +
                          ": 8 joints renamed (duplicate names): Hips -> Hips#9, Spine -> "
                          "Spine#10, Chest -> Chest#11, ... (-v lists all)\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("throng: warning: " + robot_.string() +
                          ": 14 animations with morph-target weights channels skipped: 'Move0' "
                          "(1), 'Move1' (1), 'Move2' (1), ... (-v lists all)\n"),
            std::string::npos)
      << r.output;
  // A kind that occurs once keeps its own message.
  const test::CliResult lods = test::runCli("bake " + test::shellQuoted(robot_) + " --lods -o " +
                                            test::shellQuoted(dir_ / "robot-lods.throng"));
  ASSERT_EQ(lods.exit_code, 0) << lods.output;
  EXPECT_EQ(linesWith(lods.output, "joints renamed"), 1) << lods.output;
}

TEST_F(WarningsCli, VerboseListsEveryWarningAndQuietNoneButErrorsStillPrint) {
  for (const std::string& command :
       {"bake -v " + test::shellQuoted(robot_) + " -o " + test::shellQuoted(dir_ / "v.throng"),
        "-v bake " + test::shellQuoted(robot_) + " -o " + test::shellQuoted(dir_ / "v.throng"),
        "bake --verbose " + test::shellQuoted(robot_) + " -o " +
            test::shellQuoted(dir_ / "v.throng")}) {
    SCOPED_TRACE(command);
    const test::CliResult r = test::runCli(command);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(linesWith(r.output, "throng: warning: "), 22) << r.output;
    EXPECT_NE(r.output.find("throng: warning: " + robot_.string() +
                            ": node 16: name 'Hand' is used by another joint; the joint is "
                            "called 'Hand#16'\n"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("throng: warning: " + robot_.string() +
                            ": animation 13 ('Move13'): 1 morph-target weights channels "
                            "skipped\n"),
              std::string::npos)
        << r.output;
  }
  for (const std::string flag : {"-q", "--quiet"}) {
    const test::CliResult quiet = test::runCli("bake " + flag + " " + test::shellQuoted(robot_) +
                                               " -o " + test::shellQuoted(dir_ / "q.throng"));
    ASSERT_EQ(quiet.exit_code, 0) << quiet.output;
    EXPECT_EQ(quiet.output.find("throng: warning"), std::string::npos) << quiet.output;
    EXPECT_NE(quiet.output.find("baked " + robot_.string()), std::string::npos) << quiet.output;
  }
  const test::CliResult error = test::runCli("bake -q " + test::shellQuoted(dir_ / "missing.glb") +
                                             " -o " + test::shellQuoted(dir_ / "q.throng"));
  EXPECT_EQ(error.exit_code, 1);
  EXPECT_NE(error.output.find("throng: io error: "), std::string::npos) << error.output;
  const test::CliResult both =
      test::runCli("-q -v bake sample -o " + test::shellQuoted(dir_ / "q.throng"));
  EXPECT_EQ(both.exit_code, 2) << both.output;
}

TEST_F(WarningsCli, TheOtherCommandsGroupTheirsToo) {
  const std::string robot = test::shellQuoted(robot_);
  for (const std::string& command :
       {"skeleton " + robot + " -o " + test::shellQuoted(dir_ / "robot.skel"),
        "pose " + robot + " --clip Move3 --time 0.5 -o " + test::shellQuoted(dir_ / "robot.obj")}) {
    SCOPED_TRACE(command);
    const test::CliResult r = test::runCli(command);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(linesWith(r.output, "throng: warning: "), 2) << r.output;
    EXPECT_EQ(linesWith(r.output, ": 8 joints renamed (duplicate names): "), 1) << r.output;
    EXPECT_EQ(linesWith(test::runCli("-q " + command).output, "throng: warning"), 0);
  }
  // inspect's own section: the count, then the same grouping (-v: every message).
  const test::CliResult inspect = test::runCli("inspect " + robot);
  ASSERT_EQ(inspect.exit_code, 0) << inspect.output;
  EXPECT_NE(inspect.output.find("warnings: 22\n  " + robot_.string() + ": 8 joints renamed"),
            std::string::npos)
      << inspect.output;
  EXPECT_EQ(linesWith(test::runCli("inspect -v " + robot).output, "is used by another joint"), 8);
}

// One JSON object on stdout, nothing else, its warnings as data: kind, message, subject, details.
json runJson(const std::string& command) {
  const test::CliResult r = test::runCli(command);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const json out = json::parse(r.output, nullptr, false);
  EXPECT_FALSE(out.is_discarded()) << "not one JSON object: " << r.output;
  return out;
}

TEST_F(WarningsCli, EveryCommandsJsonCarriesItsWarningsAsData) {
  const std::string robot = test::shellQuoted(robot_);
  const json commands[] = {
      runJson("bake " + robot + " --json -o " + test::shellQuoted(dir_ / "j.throng")),
      runJson("bake " + robot + " --lods --json -o " + test::shellQuoted(dir_ / "j.throng")),
      runJson("pose " + robot + " --clip 2 --time 0.5 --json -o " +
              test::shellQuoted(dir_ / "j.obj")),
      runJson("skeleton " + robot + " --json -o " + test::shellQuoted(dir_ / "j.skel")),
      runJson("inspect " + robot + " --json"),
  };
  for (const json& out : commands) {
    ASSERT_TRUE(out.contains("warnings")) << out.dump();
    const json& warnings = out["warnings"];
    ASSERT_GE(warnings.size(), 22u) << out.dump();
    int renamed = 0, skipped = 0;
    for (const json& w : warnings) {
      renamed += w["kind"] == "joint_renamed";
      skipped += w["kind"] == "weights_channels_skipped";
    }
    EXPECT_EQ(renamed, 8);
    EXPECT_EQ(skipped, kRobotAnimations);
    const json& first = warnings[0];
    EXPECT_EQ(first["kind"], "joint_renamed");
    EXPECT_EQ(first["message"], robot_.string() +
                                    ": node 9: name 'Hips' is used by another joint; the joint "
                                    "is called 'Hips#9'");
    EXPECT_EQ(first["subject"], "Hips -> Hips#9");
    EXPECT_EQ(first["details"]["file"], robot_.string());
    EXPECT_EQ(first["details"]["node"], 9);
    EXPECT_EQ(first["details"]["joint"], "Hips");
    EXPECT_EQ(first["details"]["renamed"], "Hips#9");
  }
  // What each command did, besides.
  EXPECT_EQ(commands[0]["clips"].size(), static_cast<size_t>(kRobotAnimations));
  EXPECT_TRUE(commands[0]["lods"].is_null());
  EXPECT_FALSE(commands[1]["lods"]["levels"].empty());
  EXPECT_EQ(commands[2]["clip"], "Move2");
  EXPECT_EQ(commands[2]["vertices"], 4);
  EXPECT_EQ(commands[3]["joints"], kRobotJoints + 1);  // the armature node is a joint too
  EXPECT_EQ(commands[4]["joints"].size(), static_cast<size_t>(kRobotJoints + 1));
  EXPECT_EQ(commands[4]["joints"][9]["name"], "Hips#9");
  EXPECT_EQ(commands[4]["clips"].size(), static_cast<size_t>(kRobotAnimations));
  // -q leaves the data alone: it silences stderr only.
  EXPECT_EQ(runJson("-q skeleton " + robot + " --json -o " +
                    test::shellQuoted(dir_ / "j.skel"))["warnings"]
                .size(),
            22u);
  const json sample = runJson("sample --json -o " + test::shellQuoted(dir_ / "s.glb"));
  EXPECT_EQ(sample["output"], (dir_ / "s.glb").string());
  EXPECT_TRUE(sample["warnings"].empty());
  EXPECT_GT(sample["joints"], 0);
}

TEST_F(WarningsCli, PipedOutputHasNoProgressBar) {
  // The benchmark humanoid's bake and LOD chain take a while; stderr here is a pipe.
  const fs::path humanoid = dir_ / "humanoid.glb";
  ASSERT_EQ(test::runCli("sample --humanoid -o " + test::shellQuoted(humanoid)).exit_code, 0);
  const test::CliResult r =
      test::runCli("bake " + test::shellQuoted(humanoid) + " --lods --threads 1 -o " +
                   test::shellQuoted(dir_ / "humanoid.throng"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find('\r'), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("\033["), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("[###"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace throng
