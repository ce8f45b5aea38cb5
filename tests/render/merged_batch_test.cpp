// Tests of merged-batch capacity (uniform and 16-bit vertex limits) and the K-copy batch mesh.
#include <gtest/gtest.h>

#include "offline/lod_fixture.h"
#include "render/merged_batch.h"
#include "support/test_support.h"

namespace throng::render {
namespace {

TEST(BatchCapacity, SeedExamples) {
  // The seed: 256 vectors, ~35 bones left after the engine's own: 15 bones -> 2, 10 -> 3.
  const int other = 256 - 35 * kVec4PerJoint;
  EXPECT_EQ(computeBatchCapacity(256, other, 15, 100)->characters, 2);
  EXPECT_EQ(computeBatchCapacity(256, other, 10, 100)->characters, 3);
}

TEST(BatchCapacity, UniformBudgetJustBelowAndAboveAMultipleOf3xPlusTheTint) {
  const int x = 10, other = 8;  // a character costs 30 palette vectors + 1 tint
  for (int k = 1; k <= 8; ++k) {
    const int exact = other + k * (x * kVec4PerJoint + kVec4PerCharacter);
    EXPECT_EQ(computeBatchCapacity(exact, other, x, 10)->characters, k);
    const Result<BatchCapacity> below = computeBatchCapacity(exact - 1, other, x, 10);
    if (k == 1) {
      EXPECT_EQ(below.status().code(), ErrorCode::kLimitExceeded);
    } else {
      EXPECT_EQ(below->characters, k - 1) << "budget one below " << k << " characters";
    }
    EXPECT_EQ(computeBatchCapacity(exact + 1, other, x, 10)->characters, k);
    EXPECT_EQ(computeBatchCapacity(exact + 30, other, x, 10)->characters, k);
  }
  const Result<BatchCapacity> c = computeBatchCapacity(256, 16, 20, 10);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->characters, 3);  // 240 / 61
  EXPECT_EQ(c->palette_vectors, 183);
  EXPECT_LE(c->palette_vectors + 16, 256);
}

TEST(BatchCapacity, SixteenBitVertexLimit) {
  // 65,535 / 1000 = 65 characters by vertices, far fewer than the uniforms allow.
  Result<BatchCapacity> c = computeBatchCapacity(100000, 0, 1, 1000);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->by_vertices, 65);
  EXPECT_EQ(c->characters, 65);
  EXPECT_EQ(computeBatchCapacity(100000, 0, 1, kMaxBatchVertices)->characters, 1);
  EXPECT_EQ(computeBatchCapacity(100000, 0, 1, kMaxBatchVertices / 2)->characters, 2);
  EXPECT_EQ(computeBatchCapacity(100000, 0, 1, kMaxBatchVertices / 2 + 1)->characters, 1);
  const Result<BatchCapacity> too_big = computeBatchCapacity(100000, 0, 1, kMaxBatchVertices + 1);
  EXPECT_EQ(too_big.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(too_big.status().message().find("65535"), std::string::npos);
}

TEST(BatchCapacity, TooManyJointsIsAClearError) {
  // 128 vectors, 20 for the shader, 1 for the tint: 35 joints fit, 36 do not.
  EXPECT_EQ(computeBatchCapacity(kMinEs2VertexUniformVectors, 20, 35, 10)->characters, 1);
  const Result<BatchCapacity> r = computeBatchCapacity(kMinEs2VertexUniformVectors, 20, 36, 10);
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("at most 35 joints"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(computeBatchCapacity(128, 200, 1, 10).status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(computeBatchCapacity(128, 0, 0, 10).status().code(), ErrorCode::kInvalidArgument);
}

// 2 vec4 per joint: K = floor(budget / (2x + 1)), boundaries exact, and 53 joints fit 128 vectors
// where 35 did. On 256 vectors (17 taken by the shader's other uniforms) the sample's LODs (23,
// 15 and 10 joints) fit 1.4x the characters or more; the floors can cost a little elsewhere (24
// to 26 joints: 4 instead of 3, 1.33x; 60 or more: 1 either way).
TEST(BatchCapacity, QuatEncodingTakesTwoVectorsPerJoint) {
  const JointEncoding quat = JointEncoding::kQuatScale;
  for (int x : {1, 4, 23}) {
    const int exact = 17 + 3 * (x * 2 + kVec4PerCharacter);
    EXPECT_EQ(computeBatchCapacity(exact, 17, x, 10, quat)->characters, 3);
    EXPECT_EQ(computeBatchCapacity(exact - 1, 17, x, 10, quat)->characters, 2);
    EXPECT_EQ(computeBatchCapacity(exact, 17, x, 10, quat)->palette_vectors, exact - 17);
  }
  EXPECT_EQ(computeBatchCapacity(kMinEs2VertexUniformVectors, 20, 53, 10, quat)->characters, 1);
  const Result<BatchCapacity> r =
      computeBatchCapacity(kMinEs2VertexUniformVectors, 20, 54, 10, quat);
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("at most 53 joints"), std::string::npos)
      << r.status().message();
  for (int x : {10, 15, 23}) {
    const int rows = computeBatchCapacity(256, 17, x, 10)->characters;
    const int quats = computeBatchCapacity(256, 17, x, 10, quat)->characters;
    EXPECT_GE(quats, 1.4 * rows) << x << " joints: " << rows << " -> " << quats;
  }
  EXPECT_EQ(computeBatchCapacity(256, 17, 23, 10)->characters, 3);
  EXPECT_EQ(computeBatchCapacity(256, 17, 23, 10, quat)->characters, 5);
}

TEST(MergedBatchMesh, CopyKReferencesOnlyItsOwnPaletteRange) {
  const Character c = test::makeTubeCharacter(6, 8);
  const int x = c.skeleton.jointCount();
  const int k_count = 5;
  Result<MergedBatchMesh> r = buildMergedBatchMesh(c.mesh, x, k_count);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  const MergedBatchMesh& m = *r;
  ASSERT_EQ(m.vertices.size(), c.mesh.vertexCount() * k_count);
  ASSERT_EQ(m.indices.size(), c.mesh.indices.size() * k_count);
  ASSERT_EQ(m.ranges.size(), 1u);  // one material: the default
  const MaterialRange& range = m.ranges[0];
  EXPECT_EQ(range.index_count, c.mesh.indices.size());
  for (int k = 0; k < k_count; ++k) {
    // Every vertex reachable from copy k's index range uses only entries k*x .. k*x+x-1.
    for (uint32_t i = m.copyStart(range, k); i < m.copyStart(range, k + 1); ++i) {
      const uint32_t v = m.indices[i];
      ASSERT_GE(v, k * m.vertices_per_copy);
      ASSERT_LT(v, (k + 1) * m.vertices_per_copy);
      for (int slot = 0; slot < 4; ++slot) {
        const float joint = m.vertices[v].joints[slot];
        EXPECT_GE(joint, static_cast<float>(k * x));
        EXPECT_LE(joint, static_cast<float>(k * x + x - 1));
        EXPECT_EQ(joint - static_cast<float>(k * x),
                  static_cast<float>(c.mesh.joints[v - k * m.vertices_per_copy][slot]));
      }
      EXPECT_EQ(glm::vec3(m.vertices[v].position), c.mesh.positions[v - k * m.vertices_per_copy]);
    }
  }
  EXPECT_EQ(m.copyStart(range, 2), 2 * c.mesh.indices.size());
}

TEST(MergedBatchMesh, RejectsTooManyVerticesAndForeignJoints) {
  const Character c = test::makeTubeCharacter(6, 8);
  const int x = c.skeleton.jointCount();
  const int fit = static_cast<int>(kMaxBatchVertices / c.mesh.vertexCount());
  EXPECT_TRUE(buildMergedBatchMesh(c.mesh, x, fit).ok());
  EXPECT_EQ(buildMergedBatchMesh(c.mesh, x, fit + 1).status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(buildMergedBatchMesh(c.mesh, x - 2, 2).status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(buildMergedBatchMesh(c.mesh, x, 0).status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace throng::render
