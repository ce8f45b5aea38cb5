// Props at joints, offline: materials shared or added, LODs keep props apart, bone reduction keeps
// or re-binds the carrying joint, the package round trip, and every error. (Posed props:
// tests/crowd/lod_pose_props_test.cpp.)
#include "throng/offline/attachments.h"

#include <cmath>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "offline/lod_error.h"
#include "offline/prop_fixture.h"
#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/offline/bone_reduction.h"
#include "throng/offline/mesh_simplify.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

TEST(Attachments, ASharedMaterialAddsNoSubMeshAndLodsKeepPropsApart) {
  const auto dir = test::makeTempDir("props");
  Character character = test::makeChainCharacter();
  const size_t submeshes = std::max<size_t>(character.mesh.submeshes.size(), 1);
  const std::vector<AttachmentSpec> specs = {{"tip", test::writePropBox(dir, "plain.gltf"), {}},
                                             {"mid", test::writePropBox(dir, "plain2.gltf"), {}}};
  ASSERT_TRUE(attachProps(character, specs, {}, "chain").ok());
  EXPECT_EQ(character.mesh.submeshes.size(), submeshes) << "default material shared";
  EXPECT_EQ(character.attachments.size(), 2u);
  SimplifyOptions options;
  options.triangle_ratio = 0.3f;
  const SimplifiedMesh lod = simplifyMesh(character.mesh, options).value();
  ASSERT_EQ(lod.mesh.attachments.size(), lod.mesh.vertexCount());
  std::array<int, 3> triangles{};
  for (size_t i = 0; i < lod.mesh.indices.size(); i += 3) {
    const uint8_t g = lod.mesh.attachments[lod.mesh.indices[i]];
    EXPECT_EQ(lod.mesh.attachments[lod.mesh.indices[i + 1]], g);
    EXPECT_EQ(lod.mesh.attachments[lod.mesh.indices[i + 2]], g);
    ++triangles[g];
  }
  EXPECT_GT(triangles[1], 0);
  EXPECT_GT(triangles[2], 0);
}

TEST(Attachments, BoneReductionKeepsTheCarryingJointOrCountsTheRebindsError) {
  // The chain (root, mid at y 1, tip at y 2; clip "bend" turns mid and tip 0.8 rad about z at
  // t = 0.5) with a box on tip, 0.5 right and 1 up of it. Dropping tip re-binds the box to mid, so
  // it misses tip's turn: a point q (from tip's origin, bind pose) moves by |R q - q| =
  // 2 sin(0.4) |q_xy|, largest at the corner (0.5 + 0.1, 1 + 0.1 + 0.16) of the box (the file
  // scales it 2 and lifts it 0.1).
  const auto dir = test::makeTempDir("props");
  Character character = test::makeChainCharacter();
  const AttachmentSpec spec{
      "tip", test::writePropBox(dir, "flag.gltf"), {{0.5f, 1.0f, 0.0f}, {}, 1.0f}};
  ASSERT_TRUE(attachProps(character, std::span(&spec, 1), {}, "chain").ok());
  const uint16_t tip = 2, mid = 1;
  const float prop_error = 2.0f * std::sin(0.4f) * std::hypot(0.6f, 1.26f);
  // Without the prop, dropping tip costs sqrt(0.29) sin(0.4) (MeasureReductionError's case) and
  // dropping mid about as much; with it, dropping tip costs far more, so tip stays.
  ASSERT_GT(prop_error, 3.0f * std::sqrt(0.29f) * std::sin(0.4f));
  const BoneReduction kept = reduceBones(character, character.mesh, 2).value();
  ASSERT_EQ(kept.palette_joints, (std::vector<uint16_t>{0, tip}));
  EXPECT_LT(kept.max_error, 0.5f * prop_error);
  size_t prop_vertices = 0;
  for (size_t v = 0; v < kept.mesh.vertexCount(); ++v) {
    if (kept.mesh.attachments[v] != 1) continue;
    ++prop_vertices;
    EXPECT_EQ(kept.mesh.joints[v][0], 1) << "slot 1 holds tip";
    EXPECT_EQ(kept.mesh.weights[v][0], 1.0f);
  }
  EXPECT_EQ(prop_vertices, test::propBoxCorners().size());

  // Keeping mid instead: the prop follows mid, and the error counts it.
  const std::vector<uint16_t> palette = {0, mid};
  const SkinnedMesh rebound = remapToPalette(character, character.mesh, palette).value();
  for (size_t v = 0; v < rebound.vertexCount(); ++v) {
    if (rebound.attachments[v] != 1) continue;
    EXPECT_EQ(rebound.joints[v][0], 1) << "slot 1 holds mid";
    EXPECT_EQ(rebound.weights[v][0], 1.0f);
  }
  const ReductionError error = measureReductionError(character, character.mesh, rebound, palette);
  EXPECT_NEAR(error.max, prop_error, 1e-4f);
}

// Prop triangles of `mesh` (group `group`).
size_t propTriangles(const SkinnedMesh& mesh, uint8_t group) {
  size_t count = 0;
  for (size_t i = 0; i < mesh.indices.size(); i += 3)
    count += mesh.attachments[mesh.indices[i]] == group;
  return count;
}

// A box on the sample's head whose winding disagrees with its normals (exported inside out): the
// LOD error meter matches each of its points to its own surface (a closed piece's far side faces
// the same way as an inside-out near side), so the full mesh measures no error against itself
// and a halved body costs what it costs without the prop; the box, which cannot lose a triangle
// without an error far above the body's, keeps all 12 (a prop loses no more than the body).
TEST(Attachments, AnInsideOutPropIsMeasuredAgainstItselfAndKeepsItsShape) {
  const auto dir = test::makeTempDir("props");
  const Character plain = makeSampleCharacter();
  Character character = plain;
  const AttachmentSpec spec{"head", test::writePropBox(dir, "box.gltf"), {}};
  ASSERT_TRUE(attachProps(character, std::span(&spec, 1), {}, "sample").ok());
  SkinnedMesh& mesh = character.mesh;
  for (size_t i = 0; i < mesh.indices.size(); i += 3) {
    if (mesh.attachments[mesh.indices[i]] == 1) std::swap(mesh.indices[i + 1], mesh.indices[i + 2]);
  }
  ASSERT_EQ(propTriangles(mesh, 1), 12u);
  EXPECT_LT(measureLodError(character, mesh, {}).max, 1e-5f * character.size());

  SimplifyOptions options;
  options.triangle_ratio = 0.5f;
  options.measure_error = false;
  const SimplifiedMesh with_prop = simplifyMesh(mesh, options).value();
  const SimplifiedMesh without = simplifyMesh(plain.mesh, options).value();
  EXPECT_EQ(propTriangles(with_prop.mesh, 1), 12u);
  EXPECT_EQ(with_prop.mesh.triangleCount(), without.mesh.triangleCount() + 12);
  const float error = measureLodError(character, with_prop.mesh, {}).max;
  const float body_error = measureLodError(plain, without.mesh, {}).max;
  EXPECT_GT(body_error, 0.0f);
  EXPECT_NEAR(error, body_error, 1e-4f * character.size());
}

TEST(Attachments, PackageRoundTripKeepsPropsMasksAndGroups) {
  const auto dir = test::makeTempDir("props");
  Character character = makeSampleCharacter();
  const AttachmentSpec spec{
      "hand.R", test::writePropBox(dir, "club.gltf"), {{0, 0.1f, 0}, {0, 0, 90}, 2}};
  ASSERT_TRUE(attachProps(character, std::span(&spec, 1), {}, "sample").ok());
  ASSERT_TRUE(addJointMask(character, {"upper", "spine_01"}, "sample").ok());
  BakeOptions options;
  options.fps = 5.0f;
  const Package package = bakeCharacter(character, options).value();
  const std::string path = (dir / "sample.throng").string();
  ASSERT_TRUE(writePackage(package, path).ok());
  const Package read = readPackage(path).value();
  ASSERT_EQ(read.attachments.size(), 1u);
  EXPECT_EQ(read.attachments[0].name, "club");
  EXPECT_EQ(read.attachments[0].joint, character.skeleton.findJoint("hand.R"));
  EXPECT_EQ(read.attachments[0].offset.rotation_degrees, glm::vec3(0, 0, 90));
  EXPECT_EQ(read.attachments[0].offset.scale, 2.0f);
  ASSERT_EQ(read.masks.size(), 1u);
  EXPECT_EQ(read.masks[0].name, "upper");
  EXPECT_EQ(read.masks[0].root, character.skeleton.findJoint("spine_01"));
  EXPECT_EQ(read.lods[0].mesh.attachments, package.lods[0].mesh.attachments);
  // A prop group beyond the props is refused by the reader's check.
  Package bad = package;
  bad.lods[0].mesh.attachments[0] = 7;
  EXPECT_EQ(validatePackage(bad, "bad").message(),
            "bad LOD 0: vertex 0 belongs to prop 6, the character has 1 props");
}

TEST(Attachments, BadTextsSidecarsAndJointsAreClearErrors) {
  EXPECT_EQ(parseAttachmentSpec("hand").status().message(),
            "'hand' is not JOINT=PROP.glb[@tx,ty,tz,rx,ry,rz,s]");
  EXPECT_EQ(parseAttachmentSpec("hand=@1").status().message(), "'hand=@1' names no prop file");
  EXPECT_EQ(parseAttachmentSpec("hand=a.glb@1,2").status().message(),
            "'hand=a.glb@1,2': the offset after '@' takes 7 numbers tx,ty,tz,rx,ry,rz,s, found 2");
  EXPECT_EQ(parseAttachmentSpec("hand=a.glb@1,2,x,0,0,0,1").status().message(),
            "'hand=a.glb@1,2,x,0,0,0,1': offset number 3 ('x') is not a finite number");
  EXPECT_EQ(parseAttachmentSpec("hand=a.glb@0,0,0,0,0,0,0").status().message(),
            "'hand=a.glb@0,0,0,0,0,0,0': scale 0 is not positive");
  const AttachmentSpec ok = parseAttachmentSpec("hand=a@b.glb@1,2,3,4,5,6,0.5").value();
  EXPECT_EQ(ok.file, "a@b.glb");
  EXPECT_EQ(ok.offset.translation, glm::vec3(1, 2, 3));
  EXPECT_EQ(ok.offset.scale, 0.5f);
  EXPECT_EQ(parseMaskSpec("upper").status().message(), "'upper' is not NAME=JOINT");

  auto sidecar = [](const std::string& json) {
    return parseAttachmentsSidecar(json, "Hero.attachments.json", "dir").status().message();
  };
  EXPECT_EQ(sidecar("{"), "Hero.attachments.json: not valid JSON");
  EXPECT_EQ(sidecar("[]"), "Hero.attachments.json: the top level must be an object");
  EXPECT_EQ(sidecar(R"({"props": []})"),
            "Hero.attachments.json: unknown key 'props' (attachments, masks)");
  EXPECT_EQ(sidecar(R"({"attachments": [{"prop": "a.glb"}]})"),
            "Hero.attachments.json: attachments[0]: 'joint' must be a non-empty string");
  EXPECT_EQ(sidecar(R"({"attachments": [{"joint": "h", "prop": "a.glb", "scale": -1}]})"),
            "Hero.attachments.json: attachments[0]: 'scale' must be a positive number");
  EXPECT_EQ(sidecar(R"({"attachments": [{"joint": "h", "prop": "a.glb", "rotation": [1, 2]}]})"),
            "Hero.attachments.json: attachments[0]: 'rotation' must be an array of 3 numbers");
  EXPECT_EQ(sidecar(R"({"masks": [{"name": "upper"}]})"),
            "Hero.attachments.json: masks[0]: 'joint' must be a non-empty string");
  const AttachmentSidecar read =
      parseAttachmentsSidecar(
          R"({"attachments": [{"joint": "h", "prop": "a.glb", "translation": [1, 2, 3]}],
              "masks": [{"name": "upper", "joint": "spine"}]})",
          "x", "dir")
          .value();
  EXPECT_EQ(read.attachments[0].file, (std::filesystem::path("dir") / "a.glb").string());
  EXPECT_EQ(read.attachments[0].offset.translation, glm::vec3(1, 2, 3));
  EXPECT_EQ(read.masks[0].joint, "spine");

  Character character = test::makeChainCharacter();
  const Character prop = character;
  EXPECT_EQ(attachProp(character, "hand", prop, {}, "p", "p.glb", "chain").message(),
            "chain: prop 'p': no joint 'hand' in the skeleton (joints: root, mid, tip)");
  EXPECT_EQ(addJointMask(character, {"upper", "spine"}, "chain").message(),
            "chain: mask 'upper': no joint 'spine' in the skeleton (joints: root, mid, tip)");
  ASSERT_TRUE(addJointMask(character, {"upper", "mid"}, "chain").ok());
  EXPECT_EQ(addJointMask(character, {"upper", "tip"}, "chain").message(),
            "chain: mask name 'upper' is empty or already taken");
  EXPECT_EQ(jointRange(character.skeleton, 1).first, 1);
  EXPECT_EQ(jointRange(character.skeleton, 1).end, 3);
  EXPECT_EQ(jointRange(character.skeleton, 1).parent, 0);
}

TEST(Attachments, SidecarShapesLimitsAndDamagedListsAreClearErrors) {
  auto sidecar = [](const std::string& json) {
    return parseAttachmentsSidecar(json, "Hero.attachments.json", "dir").status().message();
  };
  EXPECT_EQ(sidecar(R"({"masks": {}})"), "Hero.attachments.json: 'masks' must be an array");
  EXPECT_EQ(sidecar(R"({"attachments": 1})"),
            "Hero.attachments.json: 'attachments' must be an array");
  EXPECT_EQ(sidecar(R"({"attachments": [3]})"),
            "Hero.attachments.json: attachments[0]: must be an object");
  EXPECT_EQ(sidecar(R"({"attachments": [{"joint": "h", "prop": "a.glb", "size": 2}]})"),
            "Hero.attachments.json: attachments[0]: unknown key 'size' (joint, prop, translation, "
            "rotation, scale)");
  EXPECT_EQ(sidecar(R"({"attachments": [{"joint": "h", "prop": ""}]})"),
            "Hero.attachments.json: attachments[0]: 'prop' must be a non-empty string");
  EXPECT_EQ(
      sidecar(R"({"attachments": [{"joint": "h", "prop": "a", "translation": [1, "a", 2]}]})"),
      "Hero.attachments.json: attachments[0]: 'translation' must be an array of 3 finite "
      "numbers");
  EXPECT_EQ(sidecar(R"({"masks": [[]]})"), "Hero.attachments.json: masks[0]: must be an object");
  EXPECT_EQ(sidecar(R"({"masks": [{"joint": "spine"}]})"),
            "Hero.attachments.json: masks[0]: 'name' must be a non-empty string");

  // Attaching: a name taken or empty, and the 16-prop limit.
  const auto dir = test::makeTempDir("props");
  const Character prop = importGltf(test::writePropBox(dir, "box.gltf")).value();
  Character character = test::makeChainCharacter();
  ASSERT_TRUE(attachProp(character, "tip", prop, {}, "box", "box.gltf", "chain").ok());
  EXPECT_EQ(attachProp(character, "tip", prop, {}, "box", "box.gltf", "chain").message(),
            "chain: prop name 'box' is empty or already taken");
  EXPECT_EQ(attachProp(character, "tip", prop, {}, "", "box.gltf", "chain").message(),
            "chain: prop name '' is empty or already taken");
  for (int i = 1; i < kMaxAttachments; ++i) {
    ASSERT_TRUE(
        attachProp(character, "mid", prop, {}, fmt::format("box{}", i), "box.gltf", "chain").ok());
  }
  EXPECT_EQ(attachProp(character, "mid", prop, {}, "one-more", "box.gltf", "chain").message(),
            "chain: prop 'one-more': the character already carries 16 props, the limit");
  Character masked = test::makeChainCharacter();
  for (int i = 0; i < kMaxJointMasks; ++i) {
    ASSERT_TRUE(addJointMask(masked, {fmt::format("m{}", i), "mid"}, "chain").ok());
  }
  EXPECT_EQ(addJointMask(masked, {"one-more", "mid"}, "chain").message(),
            "chain: more than 255 masks");

  // A package's lists as validatePackage's check reads them.
  const Skeleton& skeleton = character.skeleton;
  auto check = [&](std::vector<Attachment> props, std::vector<JointMask> masks) {
    const Status s = validateAttachments(props, masks, skeleton, "p.throng");
    return fmt::format("{} {}", s.code() == ErrorCode::kLimitExceeded ? "limit" : "data",
                       s.message());
  };
  const Attachment ok{"a", 1, {}, "a.glb"};
  EXPECT_TRUE(validateAttachments(std::span(&ok, 1), {}, skeleton, "p").ok());
  EXPECT_EQ(check(std::vector<Attachment>(17, ok), {}),
            "limit p.throng: 17 props, more than the limit of 16");
  EXPECT_EQ(check({}, std::vector<JointMask>(256, JointMask{"m", 0})),
            "limit p.throng: 256 masks, more than the limit of 255");
  EXPECT_EQ(check({ok, ok}, {}), "data p.throng: prop 1 ('a'): its name is empty or repeated");
  EXPECT_EQ(check({{"b", 3, {}, ""}}, {}),
            "data p.throng: prop 0 ('b'): joint 3 is not in the skeleton (3 joints)");
  EXPECT_EQ(check({{"b", 1, {{}, {}, 0.0f}, ""}}, {}),
            "data p.throng: prop 0 ('b'): its offset is not finite or its scale is not positive");
  EXPECT_EQ(check({{"b", 1, {{NAN, 0, 0}, {}, 1.0f}, ""}}, {}),
            "data p.throng: prop 0 ('b'): its offset is not finite or its scale is not positive");
  EXPECT_EQ(check({}, {{"m", 0}, {"m", 1}}),
            "data p.throng: mask 1 ('m'): its name is empty or repeated");
  EXPECT_EQ(check({}, {{"m", 5}}),
            "data p.throng: mask 0 ('m'): joint 5 is not in the skeleton (3 joints)");
}

}  // namespace
}  // namespace throng
