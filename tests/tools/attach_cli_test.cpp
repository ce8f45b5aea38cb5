// `throng bake --attach / --mask` and the sidecar, `throng pose --layer / --attachments`: what
// they write and how their mistakes read.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "offline/gltf_builder.h"
#include "support/test_support.h"
#include "throng/core/attachment.h"
#include "throng/core/package.h"

namespace throng {
namespace {

std::string writeProp(const std::filesystem::path& dir) {
  test::GltfBuilder g;
  const std::vector<float> positions = {0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0};
  g.json["scenes"][0]["nodes"].push_back(g.addNode(
      {{"mesh", g.addMesh(nlohmann::json::array(
                    {{{"attributes", {{"POSITION", g.addFloats(positions, "VEC3")}}}}}))}}));
  g.json["accessors"][0]["min"] = {0, 0, 0};
  g.json["accessors"][0]["max"] = {0.1, 0.1, 0};
  return g.write(dir, "flag.gltf");
}

TEST(AttachCli, BakeCarriesPropsAndMasksAndPoseLayersThem) {
  const auto dir = test::makeTempDir("attach_cli");
  const std::string prop = writeProp(dir);
  const std::string out = (dir / "s.throng").string();
  const test::CliResult bake = test::runCli("bake sample --fps 5 --attach hand.R=" + prop +
                                            "@0,0.1,0,0,0,90,2 --mask upper=spine_01 -o " + out);
  ASSERT_EQ(bake.exit_code, 0) << bake.output;
  const Package p = readPackage(out).value();
  ASSERT_EQ(p.attachments.size(), 1u);
  EXPECT_EQ(p.attachments[0].name, "flag");
  ASSERT_EQ(p.masks.size(), 1u);
  const std::string obj = (dir / "posed.obj").string();
  const test::CliResult pose =
      test::runCli("pose " + out +
                   " --clip 1 --time 0.3 --layer 2@spine_01 --layer-time 0.2 "
                   "--layer-weight 0.5 --attachments none --json -o " +
                   obj);
  ASSERT_EQ(pose.exit_code, 0) << pose.output;
  EXPECT_NE(pose.output.find("\"layer\": \"2@spine_01\""), std::string::npos) << pose.output;
  // The flag is the prop's only triangle: hidden, the posed mesh has one triangle less.
  auto triangles = [&](const std::string& shown) {
    const test::CliResult r = test::runCli("pose " + out + " --clip 1 --time 0.3 --attachments " +
                                           shown + " --json -o " + obj);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output.substr(r.output.find('{')))["triangles"].get<int>();
  };
  EXPECT_EQ(triangles("all"), triangles("none") + 1);
  EXPECT_EQ(triangles("flag"), triangles("all"));

  // inspect (text and JSON) and bake --json list the props and masks.
  const std::string joints = std::to_string(jointRange(p.skeleton, p.masks[0].root).end -
                                            jointRange(p.skeleton, p.masks[0].root).first);
  const test::CliResult text = test::runCli("inspect " + out);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(
      text.output.find("props: 1\n  flag on joint hand.R from " + prop + ", triangles per LOD 1"),
      std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("masks: 1\n  upper from joint spine_01, " + joints + " joints\n"),
            std::string::npos)
      << text.output;
  const test::CliResult json = test::runCli("inspect " + out + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json d = nlohmann::json::parse(json.output);
  ASSERT_EQ(d["props"].size(), 1u) << json.output;
  EXPECT_EQ(d["props"][0]["name"], "flag");
  EXPECT_EQ(d["props"][0]["joint"], "hand.R");
  EXPECT_EQ(d["props"][0]["source"], prop);
  EXPECT_EQ(d["props"][0]["triangles"].size(), p.lods.size());
  EXPECT_EQ(d["props"][0]["triangles"][0], 1);
  ASSERT_EQ(d["masks"].size(), 1u);
  EXPECT_EQ(d["masks"][0]["name"], "upper");
  EXPECT_EQ(d["masks"][0]["root"], "spine_01");
  EXPECT_EQ(d["masks"][0]["joints"].get<int>(), std::stoi(joints));
  const test::CliResult baked =
      test::runCli("bake sample --fps 5 --lods --json --attach hand.R=" + prop +
                   " --mask upper=spine_01 -o " + out);
  ASSERT_EQ(baked.exit_code, 0) << baked.output;
  const nlohmann::json b = nlohmann::json::parse(baked.output.substr(baked.output.find('{')));
  const Package with_lods = readPackage(out).value();
  ASSERT_GT(with_lods.lods.size(), 1u);
  ASSERT_EQ(b["props"].size(), 1u) << baked.output;
  EXPECT_EQ(b["props"][0]["name"], "flag");
  EXPECT_EQ(b["props"][0]["joint"], "hand.R");
  ASSERT_EQ(b["props"][0]["triangles"].size(), with_lods.lods.size());
  EXPECT_EQ(b["props"][0]["triangles"][0], 1);
  EXPECT_EQ(b["masks"], d["masks"]);
}

TEST(AttachCli, PoseLayerAndAttachmentMistakesAreUsageErrors) {
  const auto dir = test::makeTempDir("attach_cli");
  const std::string prop = writeProp(dir);
  const std::string out = (dir / "s.throng").string();
  ASSERT_EQ(test::runCli("bake sample --fps 5 --attach hand.R=" + prop + " -o " + out).exit_code,
            0);
  const std::string obj = (dir / "posed.obj").string();
  auto pose = [&](const std::string& input, const std::string& flags) {
    return test::runCli("pose " + input + " --clip 1 --time 0.3 " + flags + " -o " + obj);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--layer spine_01", "--layer spine_01: must be CLIP@JOINT"},
      {"--layer 2@chest", "--layer 2@chest: no joint 'chest' in " + out + " (joints: root, "},
      {"--layer 2@spine", "--layer 2@spine: no joint 'spine' in " + out +
                              " (did you mean 'spine_01', 'spine_02' or 'spine_03'?)"},
      {"--layer wave@spine_01", "--layer wave: no such clip in " + out + " (clips: 0 "},
      {"--layer 2@spine_01 --layer-weight 2", "--layer-weight 2: must be a number in 0..1"},
      {"--layer 2@spine_01 --layer-time nan", "--layer-time nan is not a number of seconds"},
      {"--attachments sword", "--attachments sword: no prop 'sword' (props: 0 flag)"},
  };
  for (const auto& [flags, message] : cases) {
    const test::CliResult r = pose(out, flags);
    EXPECT_EQ(r.exit_code, 2) << flags << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << flags << "\n" << r.output;
  }
  const test::CliResult gltf = pose(prop, "--attachments none");
  EXPECT_EQ(gltf.exit_code, 2) << gltf.output;
  EXPECT_NE(gltf.output.find("--attachments none: a .glb/.gltf carries no props; bake it with "
                             "--attach and pose the package"),
            std::string::npos)
      << gltf.output;
}

TEST(AttachCli, MistakesNameTheirFlagOrFile) {
  const auto dir = test::makeTempDir("attach_cli");
  const std::string prop = writeProp(dir);
  const std::string out = (dir / "s.throng").string();
  auto run = [&](const std::string& flags) {
    return test::runCli("bake sample --fps 5 " + flags + " -o " + out);
  };
  test::CliResult r = run("--attach hand.R");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--attach 'hand.R' is not JOINT=PROP.glb"), std::string::npos)
      << r.output;
  r = run("--attach hand_r=" + prop);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--attach hand_r=" + prop +
                          ": no joint 'hand_r' in sample (did you mean "
                          "'hand.R'?)"),
            std::string::npos)
      << r.output;
  r = run("--attach hand.R=" + (dir / "missing.glb").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("missing.glb"), std::string::npos) << r.output;
  r = run("--mask upper");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--mask 'upper' is not NAME=JOINT"), std::string::npos) << r.output;
  r = run("--mask upper=chest");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--mask upper=chest: sample: mask 'upper': no joint 'chest'"),
            std::string::npos)
      << r.output;

  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  std::filesystem::copy_file(test::assetPath("CesiumMan/CesiumMan.glb"), dir / "Hero.glb");
  test::writeFile(dir / "Hero.attachments.json", R"({"attachments": [{"joint": 3}]})");
  r = test::runCli("bake " + (dir / "Hero.glb").string() + " -o " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("Hero.attachments.json: attachments[0]: 'joint' must be a non-empty "
                          "string"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace throng
