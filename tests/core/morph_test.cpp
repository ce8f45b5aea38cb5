// Morph targets in core: MorphJob against the glTF formula written out here, weight sampling,
// copyVertices and validation.
#include "throng/core/morph.h"

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/character.h"
#include "throng/core/mesh.h"

namespace throng {
namespace {

MorphTarget target(const char* name, std::vector<glm::vec3> positions,
                   std::vector<glm::vec3> normals = {}, float default_weight = 0.0f) {
  MorphTarget t;
  t.name = name;
  t.group = "face";
  t.default_weight = default_weight;
  t.positions = std::move(positions);
  t.normals = std::move(normals);
  return t;
}

TEST(MorphJob, FollowsTheGltfFormula) {
  const std::vector<glm::vec3> base = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<glm::vec3> normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  std::vector<glm::vec4> tangents(3, glm::vec4(1, 0, 0, -1));
  std::vector<MorphTarget> targets = {
      target("a", {{0, 0, 1}, {0, 0, 0}, {0, 0, 2}}, {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}}),
      target("b", {{1, 0, 0}, {0, 2, 0}, {0, 0, 0}})};
  targets[1].tangents = {{0, 1, 0}, {0, 0, 0}, {0, 0, 0}};
  const std::vector<float> weights = {0.5f, -0.25f};
  std::vector<glm::vec3> p(3), n(3);
  std::vector<glm::vec4> t(3);
  ASSERT_TRUE((MorphJob{targets, weights, base, normals, tangents, p, n, t}.run()));
  for (size_t v = 0; v < 3; ++v) {
    // p = p0 + sum w dp; n = normalize(n0 + sum w dn); t = normalize(t0 + sum w dt), w kept.
    glm::vec3 ep = base[v], en = normals[v], et(tangents[v]);
    for (size_t k = 0; k < targets.size(); ++k) {
      ep += weights[k] * targets[k].positions[v];
      if (!targets[k].normals.empty()) en += weights[k] * targets[k].normals[v];
      if (!targets[k].tangents.empty()) et += weights[k] * targets[k].tangents[v];
    }
    EXPECT_NEAR(glm::distance(p[v], ep), 0.0f, 1e-6f) << v;
    EXPECT_NEAR(glm::distance(n[v], glm::normalize(en)), 0.0f, 1e-6f) << v;
    EXPECT_NEAR(glm::distance(glm::vec3(t[v]), glm::normalize(et)), 0.0f, 1e-6f) << v;
    EXPECT_EQ(t[v].w, -1.0f);
  }
}

TEST(MorphJob, RefusesMismatchedSizes) {
  const std::vector<glm::vec3> base(2, glm::vec3(0.0f));
  std::vector<MorphTarget> targets = {target("a", {{0, 0, 1}})};  // one delta for two vertices
  std::vector<float> weights = {1.0f};
  std::vector<glm::vec3> out(2);
  EXPECT_FALSE((MorphJob{targets, weights, base, {}, {}, out, {}, {}}.run()));
  targets[0].positions.resize(2);
  EXPECT_TRUE((MorphJob{targets, weights, base, {}, {}, out, {}, {}}.run()));
  weights.push_back(0.0f);  // a weight too many
  EXPECT_FALSE((MorphJob{targets, weights, base, {}, {}, out, {}, {}}.run()));
}

TEST(SampleMorphWeights, TracksOrDefaults) {
  const std::vector<MorphTarget> targets = {target("a", {}, {}, 0.25f), target("b", {}, {}, 0.5f)};
  Clip clip;
  clip.weights.resize(2);
  clip.weights[1].interpolation = Interpolation::kLinear;
  clip.weights[1].times = {0.0f, 2.0f};
  clip.weights[1].values = {0.0f, 1.0f};
  std::vector<float> w(2);
  sampleMorphWeights(targets, &clip, 0.5f, w);
  EXPECT_FLOAT_EQ(w[0], 0.25f);  // no track: the default
  EXPECT_FLOAT_EQ(w[1], 0.25f);
  sampleMorphWeights(targets, nullptr, 0.5f, w);
  EXPECT_FLOAT_EQ(w[1], 0.5f);
}

TEST(FloatTrack, StepLinearAndCubic) {
  FloatTrack t;
  t.times = {0.0f, 1.0f};
  t.values = {2.0f, 4.0f};
  t.interpolation = Interpolation::kStep;
  EXPECT_FLOAT_EQ(sampleTrack(t, 0.9f), 2.0f);
  t.interpolation = Interpolation::kLinear;
  EXPECT_FLOAT_EQ(sampleTrack(t, 0.25f), 2.5f);
  t.interpolation = Interpolation::kCubicSpline;
  t.values = {0.0f, 2.0f, 0.0f, 0.0f, 4.0f, 0.0f};  // flat tangents: smoothstep
  EXPECT_FLOAT_EQ(sampleTrack(t, 0.5f), 3.0f);
  EXPECT_FLOAT_EQ(sampleTrack(t, 0.25f), 2.0f + 2.0f * (3 * 0.0625f - 2 * 0.015625f));
}

TEST(CopyVertices, CarriesMorphTargets) {
  SkinnedMesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  mesh.normals.assign(3, glm::vec3(0, 0, 1));
  mesh.joints.assign(3, glm::u16vec4(0));
  mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  mesh.morph_targets = {target("a", {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}}, {}, 0.5f)};
  SkinnedMesh out;
  const std::vector<uint32_t> sources = {2, 2, 1};
  copyVertices(mesh, sources, out);
  ASSERT_EQ(out.morph_targets.size(), 1u);
  EXPECT_EQ(out.morph_targets[0].name, "a");
  EXPECT_EQ(out.morph_targets[0].default_weight, 0.5f);
  EXPECT_EQ(out.morph_targets[0].positions,
            (std::vector<glm::vec3>{{0, 2, 0}, {0, 2, 0}, {0, 1, 0}}));
  EXPECT_TRUE(out.morph_targets[0].normals.empty());
}

TEST(ValidateMorphTargets, NamesTheTargetAndTheProblem) {
  std::vector<MorphTarget> targets = {target("smile", {{0, 0, 0}, {0, 0, 0}})};
  EXPECT_TRUE(validateMorphTargets(targets, 2, "face.glb").ok());
  EXPECT_EQ(validateMorphTargets(targets, 3, "face.glb").message(),
            "face.glb: morph target 0 ('smile'): 2 position deltas for 3 vertices");
  targets[0].normals = {{0, 0, 0}, {0, NAN, 0}};
  EXPECT_EQ(validateMorphTargets(targets, 2, "face.glb").message(),
            "face.glb: morph target 0 ('smile'): normal delta of vertex 1 is not finite");
  targets[0].normals.clear();
  targets[0].default_weight = INFINITY;
  EXPECT_EQ(validateMorphTargets(targets, 2, "face.glb").message(),
            "face.glb: morph target 0 ('smile'): default weight inf is not finite");
}

// A clip's weights tracks are one per morph target of the mesh, checked like joint tracks.
TEST(ValidateMorphTargets, ClipWeightsTracksMatchTheMeshTargets) {
  Character c = test::makeChainCharacter();
  c.mesh.morph_targets = {target("smile", std::vector<glm::vec3>(c.mesh.vertexCount()))};
  FloatTrack track;
  track.times = {0.0f, 1.0f};
  track.values = {0.0f, 1.0f};
  c.clips[0].weights = {track};
  EXPECT_TRUE(validateCharacter(c, "chain").ok());
  c.clips[0].weights.push_back(track);
  const Status two = validateCharacter(c, "chain");
  EXPECT_EQ(two.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(two.message(),
            "chain: clip 'bend' has weights tracks for 2 morph targets, the mesh has 1");
  c.clips[0].weights = {track};
  c.clips[0].weights[0].values.pop_back();
  EXPECT_EQ(validateCharacter(c, "chain").message(),
            "chain: clip 'bend', joint 0, morph weight: 1 values for 2 keys");
}

}  // namespace
}  // namespace throng
