// Tests of mesh simplification, bone reduction and the LOD chain builder on code-built fixtures.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <gtest/gtest.h>

#include "offline/lod_fixture.h"
#include "support/test_support.h"
#include "throng/core/lod_projection.h"
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

// The tube with every triangle's corners split off (flat normals, per-triangle UVs): every edge
// is a UV and normal seam, which locks an edge-collapse simplifier that is not welded first.
SkinnedMesh splitEveryTriangle(const SkinnedMesh& m) {
  SkinnedMesh out;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const glm::vec3 n =
        glm::normalize(glm::cross(m.positions[m.indices[t + 1]] - m.positions[m.indices[t]],
                                  m.positions[m.indices[t + 2]] - m.positions[m.indices[t]]));
    for (int c = 0; c < 3; ++c) {
      const uint32_t v = m.indices[t + c];
      out.indices.push_back(static_cast<uint32_t>(out.positions.size()));
      out.positions.push_back(m.positions[v]);
      out.normals.push_back(n);
      out.uvs.push_back(glm::vec2(static_cast<float>(t) / static_cast<float>(m.indices.size()),
                                  static_cast<float>(c)));
      out.joints.push_back(m.joints[v]);
      out.weights.push_back(m.weights[v]);
    }
  }
  out.submeshes.push_back({"split", 0, static_cast<uint32_t>(out.indices.size())});
  return out;
}

TEST(SimplifyMesh, SeamsDoNotLockTheSimplifier) {
  const Character c = test::makeTubeCharacter(8, 12);
  const SkinnedMesh split = splitEveryTriangle(c.mesh);
  ASSERT_TRUE(validateMesh(split, c.skeleton.jointCount(), "split").ok());
  SimplifyOptions options;
  options.triangle_ratio = 0.25f;
  options.max_relative_error = 1.0f;
  options.allow_sloppy = false;  // the edge collapses alone must get there
  Result<SimplifiedMesh> r = simplifyMesh(split, options);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_EQ(r->target_triangles, split.triangleCount() / 4);
  EXPECT_LE(static_cast<double>(r->mesh.triangleCount()),
            static_cast<double>(r->target_triangles) * (1.0 + kSimplifyTargetSlack));
  EXPECT_FALSE(r->sloppy);
  // Output vertices are input vertices, attributes and skin included.
  for (size_t v = 0; v < r->mesh.vertexCount(); ++v) {
    bool found = false;
    for (size_t s = 0; s < split.vertexCount() && !found; ++s)
      found = sameVertex(r->mesh, v, split, s);
    EXPECT_TRUE(found) << "vertex " << v;
  }
  // No tear: vertices at one position carry one skin (the source's skin there).
  for (size_t a = 0; a < r->mesh.vertexCount(); ++a) {
    for (size_t b = a + 1; b < r->mesh.vertexCount(); ++b) {
      if (r->mesh.positions[a] != r->mesh.positions[b]) continue;
      EXPECT_EQ(r->mesh.joints[a], r->mesh.joints[b]);
      EXPECT_EQ(r->mesh.weights[a], r->mesh.weights[b]);
    }
  }
}

TEST(SimplifyMesh, DifferentSkinsAtOnePositionStayApart) {
  // Two tubes end to end sharing the ring at y = 2 by position only: the lower one is skinned to
  // j0, the upper one to j1 (a hard seam that tears in the source too). No simplified triangle
  // may join the two: every triangle keeps vertices of one tube.
  SkinnedMesh m;
  const uint32_t ring = 8;
  auto addTube = [&](float y0, uint16_t joint) {
    const uint32_t first = static_cast<uint32_t>(m.positions.size());
    for (int r = 0; r <= 8; ++r) {
      for (uint32_t s = 0; s < ring; ++s) {
        const float a = static_cast<float>(s) * 6.2831853f / static_cast<float>(ring);
        m.positions.push_back(
            glm::vec3(0.3f * std::cos(a), y0 + 0.25f * static_cast<float>(r), 0.3f * std::sin(a)));
        m.normals.push_back(glm::vec3(std::cos(a), 0.0f, std::sin(a)));
        m.uvs.push_back(glm::vec2(0.0f));
        m.joints.push_back(glm::u16vec4(joint, 0, 0, 0));
        m.weights.push_back(glm::vec4(1, 0, 0, 0));
      }
    }
    for (uint32_t r = 0; r < 8; ++r) {
      for (uint32_t s = 0; s < ring; ++s) {
        const uint32_t a = first + r * ring + s, b = first + r * ring + (s + 1) % ring;
        m.indices.insert(m.indices.end(), {a, a + ring, b, b, a + ring, b + ring});
      }
    }
  };
  addTube(0.0f, 0);
  addTube(2.0f, 1);
  m.submeshes.push_back({"both", 0, static_cast<uint32_t>(m.indices.size())});
  Result<SimplifiedMesh> r = simplifyMesh(m, {0.25f, 1.0f, false});
  ASSERT_TRUE(r.ok()) << r.status().toString();
  EXPECT_LT(r->mesh.triangleCount(), m.triangleCount() / 2);
  for (size_t t = 0; t + 2 < r->mesh.indices.size(); t += 3) {
    const uint16_t joint = r->mesh.joints[r->mesh.indices[t]].x;
    for (int k = 1; k < 3; ++k) {
      EXPECT_EQ(r->mesh.joints[r->mesh.indices[t + k]].x, joint) << "triangle " << t / 3;
    }
  }
}

TEST(SimplifyMesh, FallsBackToSloppyWhenCollapsesStopShort) {
  // Every triangle its own skin: every vertex is a skin seam, so no edge can collapse; vertex
  // clustering still reaches the target.
  const Character c = test::makeTubeCharacter(8, 12);
  SkinnedMesh split = splitEveryTriangle(c.mesh);
  for (size_t v = 0; v < split.vertexCount(); ++v) {
    split.joints[v] = glm::u16vec4(static_cast<uint16_t>(v / 3 % 200), 0, 0, 0);
    split.weights[v] = glm::vec4(1, 0, 0, 0);
  }
  SimplifyOptions options{0.25f, 1.0f, false};
  Result<SimplifiedMesh> locked = simplifyMesh(split, options);
  ASSERT_TRUE(locked.ok());
  EXPECT_GT(locked->mesh.triangleCount(), split.triangleCount() / 2);
  options.allow_sloppy = true;
  Result<SimplifiedMesh> sloppy = simplifyMesh(split, options);
  ASSERT_TRUE(sloppy.ok());
  EXPECT_TRUE(sloppy->sloppy);
  EXPECT_GT(sloppy->mesh.triangleCount(), 0u);
  EXPECT_LE(sloppy->mesh.triangleCount(), sloppy->target_triangles);
  EXPECT_GT(sloppy->geometric_error, 0.0f);
  EXPECT_TRUE(validateMesh(sloppy->mesh, 200, "sloppy").ok());
}

TEST(SimplifyMesh, KeepsMaterialsVariantsColoursSecondUvsAndTangents) {
  Character c = test::makeTubeCharacter(8, 8);
  for (size_t v = 0; v < c.mesh.vertexCount(); ++v) {
    c.mesh.colors.emplace_back(static_cast<float>(v % 7) / 7.0f, 0.5f, 0.25f, 1.0f);
    c.mesh.uvs1.emplace_back(static_cast<float>(v), -static_cast<float>(v));
    const float a = static_cast<float>(v) * 0.1f;
    c.mesh.tangents.emplace_back(std::cos(a), 0.0f, std::sin(a), v % 2 == 0 ? 1.0f : -1.0f);
  }
  c.mesh.tangent_source = TangentSource::kGenerated;
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
    EXPECT_EQ(m.tangents[v], c.mesh.tangents[source]) << v;
  }
  EXPECT_EQ(m.tangent_source, TangentSource::kGenerated);
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
  // Meshes the caller did not validate: a joint the skeleton lacks, a vertex without weight.
  SkinnedMesh foreign = c.mesh;
  foreign.joints[0] = glm::u16vec4(40, 0, 0, 0);
  foreign.weights[0] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  const Result<SkinnedMesh> bad_joint = remapToPalette(c, foreign, kept);
  EXPECT_EQ(bad_joint.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(bad_joint.status().message(),
            "bone reduction: vertex 0 uses joint 40, the skeleton has " +
                std::to_string(c.skeleton.jointCount()));
  SkinnedMesh weightless = c.mesh;
  weightless.weights[3] = glm::vec4(0.0f);
  const Result<SkinnedMesh> no_weight = remapToPalette(c, weightless, kept);
  EXPECT_EQ(no_weight.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(no_weight.status().message(), "bone reduction: vertex 3 has no positive weight");
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
  // Stop j1 and j3 from moving: dropping them (and the unweighted branch) changes nothing, so
  // two of those three go before j2, the only joint that moves relative to its parent.
  for (const char* name : {"j1", "j3"}) c.clips[0].joints[c.skeleton.findJoint(name)] = {};
  Result<BoneReduction> r = reduceBones(c, c.mesh, 3);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->palette_joints.size(), 3u);
  EXPECT_EQ(r->palette_joints[0], 0);
  EXPECT_NE(
      std::find(r->palette_joints.begin(), r->palette_joints.end(), c.skeleton.findJoint("j2")),
      r->palette_joints.end());
  EXPECT_LT(r->max_error, 1e-5f);
  EXPECT_LE(r->p99_error, r->max_error);
  EXPECT_FALSE(r->capped);
}

// The first removal is the joint whose removal alone moves vertices least (the largest
// displacement over every frame), checked against every candidate by brute force.
TEST(ChooseJoints, RemovesTheJointWhoseRemovalCostsLeast) {
  Character c = test::makeTubeCharacter(6, 8);
  const int joints = c.skeleton.jointCount();
  Result<std::vector<uint16_t>> kept = chooseJoints(c, c.mesh, joints - 2);
  ASSERT_TRUE(kept.ok());
  // The branch carries nothing: it goes first. The second removal is checked here.
  const int branch = c.skeleton.findJoint("branch");
  EXPECT_EQ(std::count(kept->begin(), kept->end(), branch), 0);
  float best = INFINITY;
  int best_joint = -1;
  for (int j = 1; j < joints; ++j) {
    if (j == branch) continue;
    std::vector<uint16_t> palette;
    for (int k = 0; k < joints; ++k) {
      if (k != j && k != branch) palette.push_back(static_cast<uint16_t>(k));
    }
    Result<SkinnedMesh> reduced = remapToPalette(c, c.mesh, palette);
    ASSERT_TRUE(reduced.ok());
    const float error = measureReductionError(c, c.mesh, *reduced, palette).max;
    if (error < best) {
      best = error;
      best_joint = j;
    }
  }
  EXPECT_EQ(std::count(kept->begin(), kept->end(), best_joint), 0)
      << "expected to drop " << best_joint;
}

// A joint that carries many vertices and moves them far stays; light joints go first, even when
// they move further (their removal moves few vertices, but the largest displacement decides).
TEST(ChooseJoints, HeavyMovingJointsStay) {
  Character c = test::makeTubeCharacter(4, 8);
  // A "finger" off j1 with 3 vertices that swings 0.2 rad, and j3 (the tip, a quarter of the
  // tube) that swings 0.4 rad relative to j2.
  const int branch = c.skeleton.findJoint("branch");
  QuatTrack& r = c.clips[0].joints[branch].rotation;
  r.interpolation = Interpolation::kLinear;
  r.times = {0.0f, 0.5f, 1.0f};
  r.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.2f, glm::vec3(0, 0, 1)),
              glm::quat(1, 0, 0, 0)};
  for (int i = 0; i < 3; ++i) {
    c.mesh.positions.push_back(glm::vec3(0.6f + 0.05f * static_cast<float>(i), 1.0f, 0.0f));
    c.mesh.normals.push_back(glm::vec3(1, 0, 0));
    c.mesh.uvs.push_back(glm::vec2(0.0f));
    c.mesh.joints.push_back(glm::u16vec4(branch, 0, 0, 0));
    c.mesh.weights.push_back(glm::vec4(1, 0, 0, 0));
  }
  const uint32_t n = static_cast<uint32_t>(c.mesh.vertexCount());
  c.mesh.indices.insert(c.mesh.indices.end(), {n - 3, n - 2, n - 1});
  c.mesh.submeshes[0].index_count = static_cast<uint32_t>(c.mesh.indices.size());
  ASSERT_TRUE(validateCharacter(c, "finger").ok());
  Result<std::vector<uint16_t>> kept = chooseJoints(c, c.mesh, c.skeleton.jointCount() - 1);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(std::count(kept->begin(), kept->end(), branch), 0);
}

TEST(ReduceBones, NeverPassesTheErrorCap) {
  const Character c = test::makeTubeCharacter(8, 8);
  const Result<BoneReduction> free = reduceBones(c, c.mesh, 1);
  ASSERT_TRUE(free.ok());
  for (float share : {0.02f, 0.1f, 0.3f}) {
    const float cap = share * free->max_error;
    Result<BoneReduction> capped = reduceBones(c, c.mesh, 1, cap);
    ASSERT_TRUE(capped.ok());
    EXPECT_TRUE(capped->capped);
    EXPECT_GT(capped->palette_joints.size(), 1u);
    EXPECT_LE(capped->max_error, cap) << share;
    // One joint fewer (the next removal of the same greedy sequence) would pass the cap.
    Result<BoneReduction> next =
        reduceBones(c, c.mesh, static_cast<int>(capped->palette_joints.size()) - 1);
    ASSERT_TRUE(next.ok());
    EXPECT_GT(next->max_error, cap) << share;
  }
  EXPECT_EQ(reduceBones(c, c.mesh, 3, -1.0f).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(reduceBones(c, c.mesh, 3, NAN).status().code(), ErrorCode::kInvalidArgument);
}

// Long clips: the search strides over at most kMaxReductionSearchFrames frames, yet the cap
// holds on every frame (a removal that breaks it between the search frames is undone).
TEST(ReduceBones, CapHoldsOnEveryFrameOfLongClips) {
  Character c = test::makeTubeCharacter(6, 6);
  Clip& clip = c.clips[0];
  // 20 s at 30 fps: 601 frames. A one-frame-wide jerk of j3 between two search frames.
  for (JointTracks& t : clip.joints) {
    for (float& time : t.rotation.times) time *= 20.0f;
  }
  QuatTrack& jerk = clip.joints[c.skeleton.findJoint("j3")].rotation;
  jerk.times = {0.0f, 10.01f, 10.0333f, 10.0566f, 20.0f};
  jerk.values = {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0),
                 glm::angleAxis(1.2f, glm::vec3(0, 0, 1)), glm::quat(1, 0, 0, 0),
                 glm::quat(1, 0, 0, 0)};
  updateClipRange(clip);
  ASSERT_TRUE(validateCharacter(c, "long").ok());
  const Result<BoneReduction> free = reduceBones(c, c.mesh, 1);
  ASSERT_TRUE(free.ok());
  for (float share : {0.05f, 0.2f, 0.5f}) {
    const float cap = share * free->max_error;
    Result<BoneReduction> r = reduceBones(c, c.mesh, 1, cap);
    ASSERT_TRUE(r.ok());
    EXPECT_LE(r->max_error, cap) << share;
  }
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
  LodChainReport report;
  Result<std::vector<MeshLod>> r = buildLodChain(c, options, &report);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  const std::vector<MeshLod>& lods = *r;
  ASSERT_GE(lods.size(), 2u);
  ASSERT_EQ(report.levels.size(), 4u);
  EXPECT_FLOAT_EQ(report.character_size, c.size());
  EXPECT_TRUE(lods[0].palette_joints.empty());
  EXPECT_EQ(lods[0].mesh.triangleCount(), c.mesh.triangleCount());
  EXPECT_EQ(lods[0].max_error, 0.0f);
  EXPECT_EQ(lods.back().max_distance, 0.0f);
  for (const LodLevelReport& level : report.levels) {
    const float cap = options.levels[level.level].max_error * c.size();
    EXPECT_LE(level.max_error, cap + 1e-6f) << "level " << level.level;
    EXPECT_LE(level.p99_error, level.max_error);
    EXPECT_GE(level.joints, level.target_joints);
    if (level.lod < 0) continue;
    const MeshLod& lod = lods[level.lod];
    EXPECT_EQ(lod.mesh.triangleCount(), level.triangles);
    EXPECT_EQ(level.max_error, lod.max_error);
    // The whole LOD's measured error: at least each part's, at most about their sum.
    EXPECT_GE(lod.max_error + 1e-6f, lod.geometric_error);
    EXPECT_LE(lod.max_error, 1.01f * (lod.geometric_error + lod.skinning_error) + 1e-6f);
    EXPECT_TRUE(validateMesh(lod.mesh, level.joints, "lod").ok());
  }
  for (size_t i = 1; i < lods.size(); ++i) {
    EXPECT_LE(lods[i].mesh.triangleCount(), lods[i - 1].mesh.triangleCount());
    // Errors grow along the chain, and LOD i-1 is used until LOD i's error is a pixel.
    EXPECT_GT(lods[i].max_error, lods[i - 1].max_error);
    // (max_distance is to the agent's origin: the pick distance plus the mesh's reach.)
    float reach = 0.0f;
    for (const glm::vec3& p : c.mesh.positions) reach = std::max(reach, glm::length(p));
    EXPECT_FLOAT_EQ(lods[i - 1].max_distance,
                    reach + errorDistance(lods[i].max_error, options.projection, 1.0f));
  }
}

TEST(LodChain, DropsALevelThatRemovesTooLittleAndSaysSo) {
  const Character c = test::makeTubeCharacter(4, 8);
  LodChainOptions options;
  // Level 1 removes 10% of the triangles and no joint: dropped. Level 2 removes half.
  options.levels = {{1.0f, 0, 0.0f}, {0.9f, 0, 1.0f}, {0.5f, 0, 1.0f}};
  LodChainReport report;
  Result<std::vector<MeshLod>> r = buildLodChain(c, options, &report);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(report.levels[1].lod, -1);
  EXPECT_EQ(report.levels[2].lod, 1);
  bool named = false;
  for (const Warning& w : report.warnings)
    named = named || w.message.find("level 1 dropped") == 0 ||
            w.message.find("LOD level 1 dropped") == 0;
  EXPECT_TRUE(named) << (report.warnings.empty() ? "no warning" : report.warnings[0].message);
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_EQ(report.warnings[0].kind, WarningKind::kLodLevelDropped);
  EXPECT_EQ(report.warnings[0].subject, "level 1");
  EXPECT_EQ(std::get<int64_t>(*report.warnings[0].find("level")), 1);
  EXPECT_EQ(std::get<std::string>(*report.warnings[0].find("reason")), "too_close");
  // Removing joints alone is enough to keep a level.
  options.levels = {{1.0f, 0, 0.0f}, {1.0f, 3, 1.0f}};
  ASSERT_TRUE(buildLodChain(c, options, &report).ok());
  EXPECT_EQ(report.levels[1].lod, 1);
}

TEST(LodChain, ProgressRisesByOneLevelAtATimeToTheLevelCount) {
  const Character c = test::makeTubeCharacter(4, 8);
  LodChainOptions options = defaultLodChainOptions();
  std::vector<uint32_t> done;
  uint32_t total = 0;
  options.progress = [&](uint32_t d, uint32_t t) {
    done.push_back(d);
    total = t;
  };
  ASSERT_TRUE(buildLodChain(c, options).ok());
  ASSERT_EQ(done.size(), options.levels.size());
  EXPECT_EQ(total, options.levels.size());
  for (size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i + 1);
}

TEST(LodChain, RejectsLevelsThatAddDetail) {
  const Character c = test::makeTubeCharacter(4, 8);
  LodChainOptions options;
  options.levels = {{1.0f, 0, 0.0f}, {0.5f, 3, 0.1f}, {0.7f, 2, 0.1f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{1.0f, 0, 0.0f}, {0.5f, 3, 0.1f}, {0.2f, 4, 0.1f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{1.0f, 0, 0.0f}, {0.5f, 3, -0.1f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{0.5f, 0, 0.0f}};
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options.levels = {{1.0f, 0, 0.0f}};
  EXPECT_TRUE(buildLodChain(c, options).ok());
  options.threshold_px = 0.0f;
  EXPECT_EQ(buildLodChain(c, options).status().code(), ErrorCode::kInvalidArgument);
  options = {};
  options.levels.clear();
  EXPECT_EQ(buildLodChain(c, options).status().message(), "lod chain: no levels");
}

}  // namespace
}  // namespace throng
