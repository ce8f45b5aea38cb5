// Tests of mesh simplification, bone reduction and the LOD chain builder on code-built fixtures.
#include <algorithm>
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "offline/lod_fixture.h"
#include "support/test_support.h"
#include "throng/offline/bone_reduction.h"
#include "throng/offline/lod.h"
#include "throng/offline/mesh_simplify.h"

namespace throng {
namespace {

bool sameVertex(const SkinnedMesh& a, size_t va, const SkinnedMesh& b, size_t vb) {
  return a.positions[va] == b.positions[vb] && a.normals[va] == b.normals[vb] &&
         a.uvs[va] == b.uvs[vb] && a.joints[va] == b.joints[vb] && a.weights[va] == b.weights[vb];
}

TEST(SimplifyMesh, HalvesTrianglesAndKeepsOriginalVertices) {
  const Character c = test::makeTubeCharacter(8, 12);
  Result<SimplifiedMesh> r = simplifyMesh(c.mesh, {0.5f, 1.0f});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  const SkinnedMesh& m = r->mesh;
  EXPECT_TRUE(validateMesh(m, c.skeleton.jointCount(), "lod").ok());
  EXPECT_LE(m.triangleCount(), c.mesh.triangleCount() / 2);
  EXPECT_GT(m.triangleCount(), 0u);
  EXPECT_LT(m.vertexCount(), c.mesh.vertexCount());
  ASSERT_EQ(m.submeshes.size(), 1u);
  EXPECT_EQ(m.submeshes[0].index_count, m.indices.size());
  // Every vertex (attributes and skin weights included) is a copy of a source vertex.
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    bool found = false;
    for (size_t s = 0; s < c.mesh.vertexCount() && !found; ++s) found = sameVertex(m, v, c.mesh, s);
    EXPECT_TRUE(found) << "vertex " << v;
  }
  EXPECT_GE(r->geometric_error, 0.0f);
  // The error is in model units: bounded by the mesh extent times the relative cap.
  EXPECT_LE(r->geometric_error, 1.0f * c.size());
}

TEST(SimplifyMesh, ErrorCapStopsEarlyAndIsReported) {
  const Character c = test::makeTubeCharacter(8, 12);
  // A straight tube collapses along its length for free; only collapsing its rings costs error.
  Result<SimplifiedMesh> loose = simplifyMesh(c.mesh, {0.01f, 1.0f});
  Result<SimplifiedMesh> tight = simplifyMesh(c.mesh, {0.01f, 1e-3f});
  ASSERT_TRUE(loose.ok() && tight.ok());
  EXPECT_GT(tight->mesh.triangleCount(), loose->mesh.triangleCount());
  EXPECT_GT(loose->geometric_error, tight->geometric_error);
  EXPECT_LE(tight->geometric_error, 1e-3f * c.size());
}

TEST(SimplifyMesh, RatioOneKeepsEveryTriangle) {
  const Character c = test::makeTubeCharacter(4, 8);
  Result<SimplifiedMesh> r = simplifyMesh(c.mesh, {1.0f, 0.05f});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mesh.triangleCount(), c.mesh.triangleCount());
  EXPECT_EQ(r->mesh.vertexCount(), c.mesh.vertexCount());
  EXPECT_EQ(r->geometric_error, 0.0f);
}

TEST(SimplifyMesh, RejectsBadOptionsAndBadMeshes) {
  const Character c = test::makeTubeCharacter(4, 8);
  EXPECT_EQ(simplifyMesh(c.mesh, {0.0f, 0.05f}).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(simplifyMesh(c.mesh, {1.5f, 0.05f}).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(simplifyMesh(c.mesh, {0.5f, -1.0f}).status().code(), ErrorCode::kInvalidArgument);
  SkinnedMesh broken = c.mesh;
  broken.indices.push_back(static_cast<uint32_t>(broken.vertexCount()));
  broken.indices.push_back(0);
  broken.indices.push_back(1);
  EXPECT_EQ(simplifyMesh(broken, {0.5f, 0.05f}).status().code(), ErrorCode::kInvalidData);
}

TEST(SimplifyMesh, KeepsSubMeshesSeparate) {
  Character c = test::makeTubeCharacter(8, 8);
  const uint32_t half = static_cast<uint32_t>(c.mesh.indices.size() / 6) * 3;
  c.mesh.submeshes = {{"lower", 0, half},
                      {"upper", half, static_cast<uint32_t>(c.mesh.indices.size()) - half}};
  Result<SimplifiedMesh> r = simplifyMesh(c.mesh, {0.5f, 1.0f});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->mesh.submeshes.size(), 2u);
  EXPECT_EQ(r->mesh.submeshes[0].name, "lower");
  EXPECT_EQ(r->mesh.submeshes[1].first_index, r->mesh.submeshes[0].index_count);
  EXPECT_EQ(r->mesh.submeshes[0].index_count + r->mesh.submeshes[1].index_count,
            r->mesh.indices.size());
}

TEST(SimplifyMesh, KeepsMaterialsVariantsColoursAndSecondUvs) {
  Character c = test::makeTubeCharacter(8, 8);
  for (size_t v = 0; v < c.mesh.vertexCount(); ++v) {
    c.mesh.colors.emplace_back(static_cast<float>(v % 7) / 7.0f, 0.5f, 0.25f, 1.0f);
    c.mesh.uvs1.emplace_back(static_cast<float>(v), -static_cast<float>(v));
  }
  const uint32_t half = static_cast<uint32_t>(c.mesh.indices.size() / 6) * 3;
  c.mesh.submeshes = {{"lower", 0, half, 1, {0}},
                      {"upper", half, static_cast<uint32_t>(c.mesh.indices.size()) - half, 0, {1}}};
  Result<SimplifiedMesh> r = simplifyMesh(c.mesh, {0.5f, 1.0f});
  ASSERT_TRUE(r.ok());
  const SkinnedMesh& m = r->mesh;
  ASSERT_EQ(m.submeshes.size(), 2u);
  EXPECT_EQ(m.submeshes[0].material, 1u);
  EXPECT_EQ(m.submeshes[0].variant_materials, std::vector<uint32_t>{0});
  EXPECT_EQ(m.submeshes[1].material, 0u);
  ASSERT_EQ(m.colors.size(), m.vertexCount());
  ASSERT_EQ(m.uvs1.size(), m.vertexCount());
  // Each kept vertex keeps its own colour and second uv (uvs1.x is its source index).
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    const size_t source = static_cast<size_t>(m.uvs1[v].x);
    ASSERT_LT(source, c.mesh.vertexCount());
    EXPECT_TRUE(sameVertex(m, v, c.mesh, source)) << v;
    EXPECT_EQ(m.colors[v], c.mesh.colors[source]) << v;
  }
}

TEST(ChooseJoints, KeepsTheRootAndPrefersJointsThatMoveWeight) {
  const Character c = test::makeTubeCharacter(8, 8);
  Result<std::vector<uint16_t>> one = chooseJoints(c, c.mesh, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, std::vector<uint16_t>{0});
  // The unweighted branch joint is never worth keeping while weighted joints remain.
  const int branch = c.skeleton.findJoint("branch");
  for (int x = 1; x < c.skeleton.jointCount(); ++x) {
    Result<std::vector<uint16_t>> kept = chooseJoints(c, c.mesh, x);
    ASSERT_TRUE(kept.ok());
    EXPECT_EQ(kept->size(), static_cast<size_t>(x));
    EXPECT_TRUE(std::is_sorted(kept->begin(), kept->end()));
    EXPECT_EQ(std::count(kept->begin(), kept->end(), branch), 0) << "x = " << x;
  }
  Result<std::vector<uint16_t>> all = chooseJoints(c, c.mesh, 100);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), static_cast<size_t>(c.skeleton.jointCount()));
}

TEST(ChooseJoints, RejectsTooFewJointsForTheRoots) {
  Character c = test::makeTubeCharacter(4, 8);
  EXPECT_EQ(chooseJoints(c, c.mesh, 0).status().code(), ErrorCode::kInvalidArgument);
  RawSkeleton raw = toRaw(c.skeleton);
  RawJoint second_root;
  second_root.name = "second_root";
  raw.joints.push_back(second_root);
  c.skeleton = std::move(buildSkeleton(raw).value());
  for (Clip& clip : c.clips) clip.joints.resize(c.skeleton.jointCount());
  Result<std::vector<uint16_t>> r = chooseJoints(c, c.mesh, 1);
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("roots"), std::string::npos);
  EXPECT_TRUE(chooseJoints(c, c.mesh, 2).ok());
}

TEST(RemapToPalette, MovesWeightToTheNearestKeptAncestor) {
  const Character c = test::makeTubeCharacter(4, 8);
  // Keep j0 and j2: j1's weight goes to j0 (slot 0), j3's to j2 (slot 1).
  const std::vector<uint16_t> kept = {0, 2};
  Result<SkinnedMesh> r = remapToPalette(c, c.mesh, kept);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_TRUE(validateMesh(*r, 2, "reduced").ok());
  for (size_t v = 0; v < c.mesh.vertexCount(); ++v) {
    float expected_slot1 = 0.0f;
    for (int i = 0; i < 4; ++i) {
      const int j = c.mesh.joints[v][i];
      if (j >= 2) expected_slot1 += c.mesh.weights[v][i];
    }
    float slot1 = 0.0f;
    for (int i = 0; i < 4; ++i) {
      if ((*r).joints[v][i] == 1) slot1 += (*r).weights[v][i];
    }
    EXPECT_NEAR(slot1, expected_slot1, 1e-5f) << "vertex " << v;
  }
  const std::vector<uint16_t> no_root = {1, 2};
  EXPECT_EQ(remapToPalette(c, c.mesh, no_root).status().code(), ErrorCode::kInvalidArgument);
  const std::vector<uint16_t> unsorted = {0, 3, 2};
  EXPECT_EQ(remapToPalette(c, c.mesh, unsorted).status().code(), ErrorCode::kInvalidArgument);
}

TEST(ReduceBones, ErrorIsZeroWithEveryJointAndGrowsAsJointsGo) {
  const Character c = test::makeTubeCharacter(8, 8);
  Result<BoneReduction> full = reduceBones(c, c.mesh, c.skeleton.jointCount());
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->max_error, 0.0f);
  float previous = 0.0f;
  for (int x = c.skeleton.jointCount() - 1; x >= 1; --x) {
    Result<BoneReduction> r = reduceBones(c, c.mesh, x);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->palette_joints.size(), static_cast<size_t>(x));
    EXPECT_TRUE(validateMesh(r->mesh, x, "reduced").ok());
    EXPECT_GE(r->max_error + 1e-5f, previous) << "x = " << x;
    EXPECT_NEAR(r->error_fraction, r->max_error / c.size(), 1e-6f);
    previous = r->max_error;
  }
  EXPECT_GT(previous, 0.1f);  // root only: the whole tube stays straight while the clip bends it
}

TEST(ReduceBones, RigidJointsCostNothing) {
  Character c = test::makeTubeCharacter(4, 8);
  // Stop j1 and j3 from moving: dropping them changes nothing.
  for (const char* name : {"j1", "j3"}) c.clips[0].joints[c.skeleton.findJoint(name)] = {};
  Result<BoneReduction> r = reduceBones(c, c.mesh, 3);
  ASSERT_TRUE(r.ok());
  // Roots first, then j2 (the only joint that moves relative to its kept ancestor), then the
  // weighted j3 before the unweighted branch on the tie.
  EXPECT_EQ(r->palette_joints, (std::vector<uint16_t>{0, 2, 3}));
  EXPECT_LT(r->max_error, 1e-5f);
}

TEST(MeasureReductionError, MatchesAHandComputedDeviation) {
  // The chain character without "tip": at t = 0.5 mid and tip are each bent 0.8 rad about Z.
  // Ring 3 (y = 1.5, half mid / half tip) moves by 0.5 * |R q - q| with q = p - tip origin, whose
  // largest value (q = (0.2, -0.5, 0)) is |q| * sin(0.4); ring 4 moves less (0.4 * sin(0.4)).
  const Character c = test::makeChainCharacter();
  Result<BoneReduction> r = reduceBones(c, c.mesh, 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->palette_joints, (std::vector<uint16_t>{0, 1}));
  EXPECT_NEAR(r->max_error, std::sqrt(0.29f) * std::sin(0.4f), 1e-4f);
}

TEST(LodChain, DefaultChainOnTheTube) {
  const Character c = test::makeTubeCharacter(12, 12);
  LodChainOptions options = defaultLodChainOptions();
  options.levels[1].joint_count = 8;  // the tube has 13 joints
  options.levels[2].joint_count = 5;
  options.levels[3].joint_count = 3;
  Result<std::vector<MeshLod>> r = buildLodChain(c, options);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  ASSERT_EQ(r->size(), 4u);
  const std::vector<MeshLod>& lods = *r;
  EXPECT_TRUE(lods[0].palette_joints.empty());
  EXPECT_EQ(lods[0].mesh.triangleCount(), c.mesh.triangleCount());
  EXPECT_EQ(lods[0].skinning_error, 0.0f);
  EXPECT_FLOAT_EQ(lods[0].max_distance, 10.0f * c.size());
  EXPECT_EQ(lods[3].max_distance, 0.0f);
  const size_t expected_joints[4] = {0, 8, 5, 3};
  for (size_t i = 1; i < lods.size(); ++i) {
    EXPECT_EQ(lods[i].palette_joints.size(), expected_joints[i]);
    EXPECT_LE(lods[i].mesh.triangleCount(), lods[i - 1].mesh.triangleCount());
    EXPECT_TRUE(validateMesh(lods[i].mesh, static_cast<int>(expected_joints[i]), "lod").ok());
    EXPECT_GE(lods[i].skinning_error, lods[i - 1].skinning_error);
    EXPECT_GT(lods[i].max_distance == 0.0f ? 1e9f : lods[i].max_distance, lods[i - 1].max_distance);
  }
}

TEST(LodChain, RejectsLevelsThatAddDetail) {
  const Character c = test::makeTubeCharacter(4, 8);
  LodChainOptions options;
  options.levels = {{1.0f, 0, 10.0f}, {0.5f, 3, 20.0f}, {0.7f, 2, 0.0f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{1.0f, 0, 10.0f}, {0.5f, 3, 5.0f}, {0.2f, 2, 0.0f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{0.5f, 0, 0.0f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{1.0f, 0, 0.0f}};
  EXPECT_TRUE(buildLodChain(c, options).ok());
}

}  // namespace
}  // namespace throng
