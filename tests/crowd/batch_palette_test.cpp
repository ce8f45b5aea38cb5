// Tests of the merged-batch palette sources: tree evaluation and baked-frame copy.
#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include "support/test_support.h"
#include "throng/crowd/batch_palette.h"

namespace throng {
namespace {

void expectRowsNear(const JointRows& a, const JointRows& b, float tolerance) {
  for (int r = 0; r < kVec4PerJoint; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(a.rows[r][c], b.rows[r][c], tolerance) << r << c;
  }
}

// A placement-like affine matrix: translate, turn about +Y, scale uniformly.
glm::mat4 placement() {
  const glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(3.0f, 0.5f, -2.0f));
  return glm::scale(glm::rotate(t, 0.7f, glm::vec3(0, 1, 0)), glm::vec3(1.5f));
}

TEST(PlaceRows, EqualsTheMatrixProduct) {
  const glm::mat4 m = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)), 0.4f,
                                  glm::normalize(glm::vec3(1, 1, 0)));
  const glm::mat4 p = placement();
  expectRowsNear(placeRows(p, packRows(m)), packRows(p * m), 1e-5f);
}

TEST(TreePalette, EqualsEvaluatePaletteThenPlacement) {
  const Character c = test::makeChainCharacter();
  const glm::mat4 p = placement();
  PoseScratch scratch;
  std::vector<JointRows> full(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, &c.clips[0], 0.3f, scratch, full);
  const std::vector<uint16_t> slots = {0, 2};
  std::vector<JointRows> out(2);
  PoseScratch tree_scratch;
  treePalette(c.skeleton, &c.clips[0], 0.3f, p, slots, tree_scratch, out);
  expectRowsNear(out[0], placeRows(p, full[0]), 1e-5f);
  expectRowsNear(out[1], placeRows(p, full[2]), 1e-5f);
  // Empty palette_joints: identity slots; null clip: the rest pose (identity palette here).
  std::vector<JointRows> rest(c.skeleton.jointCount());
  treePalette(c.skeleton, nullptr, 0.0f, glm::mat4(1.0f), {}, tree_scratch, rest);
  for (const JointRows& rows : rest) expectRowsNear(rows, packRows(glm::mat4(1.0f)), 1e-6f);
}

// A 2-joint, 4-frame texture, 3 frames per row of 24 texels: frame f, joint j holds the
// translation (f, j, 0) so blends are easy to predict.
AnimationTexture makeTexture(TexelFormat format) {
  AnimationTexture t;
  t.format = format;
  t.joint_count = 2;
  t.frame_count = 4;
  t.frames_per_row = 3;
  t.width = 18;
  t.height = 2;
  std::vector<float> texels(t.width * t.height * 4, 0.0f);
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < t.joint_count; ++j) {
      glm::mat4 m(1.0f);
      m[3] = glm::vec4(static_cast<float>(f), static_cast<float>(j), 0.0f, 1.0f);
      const JointRows rows = packRows(m);
      for (uint32_t r = 0; r < 3; ++r) {
        const size_t texel = t.channelIndex(f, j, r);
        for (int ch = 0; ch < 4; ++ch) texels[texel + ch] = rows.rows[r][ch];
      }
    }
  }
  if (format == TexelFormat::kRgba32F) {
    t.texels32 = texels;
  } else {
    for (float v : texels) t.texels16.push_back(static_cast<uint16_t>(glm::packHalf1x16(v)));
  }
  return t;
}

// The fast tree source (packed clip, key cursors) against the reference tree source.
TEST(TreePalette, FastChainEqualsTheReference) {
  const Character c = test::makeChainCharacter();
  const SoaSkeleton soa(c.skeleton);
  const PackedClip packed = packClip(c.clips[0], c.skeleton.restPoses());
  SamplingContext context;
  PoseScratch reference_scratch, scratch;
  const std::vector<uint16_t> slots = {2, 0};
  std::vector<JointRows> expected(2), out(2);
  for (int k = 0; k <= 20; ++k) {
    const float t = 0.05f * k;
    treePalette(c.skeleton, &c.clips[0], t, placement(), slots, reference_scratch, expected);
    treePalette(soa, &packed, t, context, placement(), slots, scratch, out);
    for (size_t s = 0; s < slots.size(); ++s) expectRowsNear(out[s], expected[s], 1e-5f);
  }
}

TEST(BakedPalette, BlendsFramePairsAndFades) {
  for (TexelFormat format : {TexelFormat::kRgba32F, TexelFormat::kRgba16F}) {
    const AnimationTexture t = makeTexture(format);
    InstanceFrames frames;
    frames.primary = {1, 3, 0.25f};   // x = 1.5
    frames.secondary = {0, 2, 0.5f};  // x = 1
    frames.fade = 0.5f;               // x = 1.25
    const std::vector<uint16_t> slots = {1};
    std::vector<JointRows> out(1);
    bakedPalette(t, frames, glm::mat4(1.0f), slots, out);
    glm::mat4 expected(1.0f);
    expected[3] = glm::vec4(1.25f, 1.0f, 0.0f, 1.0f);
    expectRowsNear(out[0], packRows(expected), 1e-3f);

    frames.fade = 0.0f;
    const glm::mat4 p = placement();
    std::vector<JointRows> both(2);
    bakedPalette(t, frames, p, {}, both);
    expected[3] = glm::vec4(1.5f, 0.0f, 0.0f, 1.0f);
    expectRowsNear(both[0], packRows(p * expected), 1e-3f);

    // A placement that tilts +Y (not a crowd's upright placement) takes the general product.
    const glm::mat4 tilted = glm::rotate(p, 0.3f, glm::normalize(glm::vec3(1, 0, 1)));
    bakedPalette(t, frames, tilted, {}, both);
    expectRowsNear(both[0], packRows(tilted * expected), 1e-3f);
    expected[3] = glm::vec4(1.5f, 1.0f, 0.0f, 1.0f);
    expectRowsNear(both[1], packRows(tilted * expected), 1e-3f);
  }
}

}  // namespace
}  // namespace throng
