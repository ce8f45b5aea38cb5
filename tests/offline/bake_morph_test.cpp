// bakeMorphAnimation's refusals: each names the package, the LOD and what does not fit.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/morph.h"
#include "throng/offline/bake.h"

namespace throng {
namespace {

// The chain character (20 vertices, clip "bend") with one target, "lift", raising every vertex
// by `lift` at its default weight 1. Rigid (every vertex on one joint): baked to vertex frames;
// else to target deltas.
Character liftedChain(bool rigid, float lift = 0.1f) {
  Character c = test::makeChainCharacter();
  if (rigid) {
    for (glm::vec4& w : c.mesh.weights) w = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
  }
  MorphTarget t;
  t.name = "lift";
  t.group = "tube";
  t.default_weight = 1.0f;
  t.positions.assign(c.mesh.vertexCount(), glm::vec3(0.0f, lift, 0.0f));
  c.mesh.morph_targets = {t};
  return c;
}

// The chain package (source "chain", clip "bend") whose LOD is `c`'s mesh with its targets, as
// buildLodChain's meshes have them.
Package packageOf(const Character& c, TexelFormat format = TexelFormat::kRgba32F) {
  Package p = test::makeChainPackage(format);
  p.lods[0].mesh = c.mesh;
  return p;
}

void expectRefused(const Status& s, ErrorCode code, const std::string& message) {
  EXPECT_EQ(s.code(), code) << s.toString();
  EXPECT_EQ(s.message(), message);
}

TEST(BakeMorph, ErrorsNameTheLodAndTheProblem) {
  const Character skinned = liftedChain(false), rigid = liftedChain(true);
  ASSERT_EQ(chooseMorphBakeKind(skinned), MorphBakeKind::kTargetDeltas);
  ASSERT_EQ(chooseMorphBakeKind(rigid), MorphBakeKind::kVertexFrames);
  // Baked once, the LOD keeps no targets: a second bake has none to read.
  Package baked = packageOf(skinned);
  ASSERT_TRUE(bakeMorphAnimation(skinned, baked, 4096).ok());
  expectRefused(bakeMorphAnimation(skinned, baked, 4096), ErrorCode::kInvalidArgument,
                "chain: LOD 0 has 0 morph targets, the character 1 (bake the morph animation "
                "from meshes that still have them)");
  Package renamed = packageOf(skinned);
  renamed.clips[0].name = "moonwalk";
  expectRefused(bakeMorphAnimation(skinned, renamed, 4096), ErrorCode::kInvalidArgument,
                "chain: baked clip 'moonwalk' is not a clip of the character");
  // Both kinds read every target's deltas of every vertex, and vertex frames the normals.
  for (const Character* c : {&skinned, &rigid}) {
    Package p = packageOf(*c);
    p.lods[0].mesh.morph_targets[0].positions.pop_back();
    expectRefused(bakeMorphAnimation(*c, p, 4096), ErrorCode::kInvalidData,
                  "chain: LOD 0 morph: morph target 0 ('lift'): 19 position deltas for 20 "
                  "vertices");
  }
  Package bare = packageOf(rigid);
  bare.lods[0].mesh.normals.clear();
  expectRefused(bakeMorphAnimation(rigid, bare, 4096), ErrorCode::kInvalidData,
                "chain: LOD 0 morph: 0 normals for 20 vertices");
}

TEST(BakeMorph, LimitsNameTheLodAndWhatToChange) {
  // Half floats hold at most 65504: a frame (vertex frames) or a target (deltas) beyond it.
  const Character far_rigid = liftedChain(true, 1e5f), far_skinned = liftedChain(false, 1e5f);
  Package frames16 = packageOf(far_rigid, TexelFormat::kRgba16F);
  expectRefused(bakeMorphAnimation(far_rigid, frames16, 4096), ErrorCode::kLimitExceeded,
                "chain: LOD 0 morph frame 0: a value is outside the half-float range (+-65504); "
                "bake with rgba32f");
  Package deltas16 = packageOf(far_skinned, TexelFormat::kRgba16F);
  expectRefused(bakeMorphAnimation(far_skinned, deltas16, 4096), ErrorCode::kLimitExceeded,
                "chain: LOD 0 morph target 'lift': a value is outside the half-float range "
                "(+-65504); bake with rgba32f");
  Package frames32 = packageOf(far_rigid);
  EXPECT_TRUE(bakeMorphAnimation(far_rigid, frames32, 4096).ok());
  // 20 vertices x 1700 active targets in rows of one vertex (2 texels): 34000 rows.
  Character many = liftedChain(false);
  many.mesh.morph_targets.assign(1700, many.mesh.morph_targets[0]);
  Package tall = packageOf(many);
  expectRefused(bakeMorphAnimation(many, tall, 2), ErrorCode::kLimitExceeded,
                "chain: LOD 0 morph: 20 vertices x 1700 targets need a texture 34000 rows high, "
                "more than the limit of 32768 (lower the frame rate or bake fewer clips)");
  Package wide = packageOf(many);
  EXPECT_TRUE(bakeMorphAnimation(many, wide, 4096).ok());
}

// Finite weights times finite deltas past the float range (a fuzzed file): one line naming the
// frame and vertex, never a texture of infinities that the package's validation then refuses.
TEST(BakeMorph, AMorphedVertexPastTheFloatRangeNamesTheFrameAndVertex) {
  Character rigid = liftedChain(true, 1e30f);
  rigid.mesh.morph_targets[0].default_weight = 1e10f;
  Package p = packageOf(rigid);
  expectRefused(bakeMorphAnimation(rigid, p, 4096), ErrorCode::kInvalidData,
                "chain: LOD 0 morph frame 0: the morph targets move vertex 0 to a position or "
                "normal that is not finite (weights times deltas overflow a float)");
  // Deltas (skinned): the error bound sums weight x rounding, which overflows the same way.
  // A half float rounds 60010 by 10 (its step there is 32): times a weight of 3e38, past the
  // float range.
  Character skinned = liftedChain(false, 60010.0f);
  skinned.mesh.morph_targets[0].default_weight = 3e38f;
  Package q = packageOf(skinned, TexelFormat::kRgba16F);
  expectRefused(bakeMorphAnimation(skinned, q, 4096), ErrorCode::kInvalidData,
                "chain: LOD 0 morph: the weights times the deltas' rounding overflow a float (the "
                "error bound is not finite)");
  // Cubic-spline weights whose finite keys and tangents interpolate past the float range.
  Character spline = liftedChain(true);
  FloatTrack weight;
  weight.interpolation = Interpolation::kCubicSpline;
  weight.times = {0.0f, 1.0f};
  weight.values = {0.0f, 3e38f, 3e38f, 3e38f, 3e38f, 0.0f};
  Clip& bend = spline.clips[0];
  bend.weights = {weight};
  Package r = packageOf(spline);
  expectRefused(bakeMorphAnimation(spline, r, 4096), ErrorCode::kInvalidData,
                "chain: clip 'bend' frame 1: morph target 0 gets a weight that is not finite "
                "(its keys overflow a float)");
}

}  // namespace
}  // namespace throng
