// The animation baker: stored palettes, frame timing, loop rules, layout, error, determinism.
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"

#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "offline/lod_fixture.h"
#include "support/material_character.h"
#include "support/test_support.h"
#include "throng/core/half.h"
#include "throng/core/package_format.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/lod.h"
#include "throng/offline/package_info.h"
#include "throng/offline/tangents.h"
#include "throng/offline/texture_preview.h"

namespace throng {
namespace {

// The chain character with more clips: "bend" (loops: ends match, root steps up and back),
// "raise" (1.5 s on the timeline [2, 3.5], ends differ: clamped), "sway_loop" (ends differ but
// the name says loop), "still" (one key: zero length).
Character makeCharacter() {
  Character c = test::makeChainCharacter();
  Clip raise;
  raise.name = "raise";
  raise.joints.resize(3);
  QuatTrack& r = raise.joints[1].rotation;
  r.times = {2.0f, 3.5f};
  r.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(1.2f, glm::vec3(1, 0, 0))};
  Vec3Track& t = raise.joints[0].translation;
  t.times = {2.0f, 3.5f};
  t.values = {glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 3.0f)};
  updateClipRange(raise);
  c.clips.push_back(raise);
  Clip sway = raise;
  sway.name = "sway_loop";
  sway.joints[0].translation = {};
  c.clips.push_back(sway);
  Clip still;
  still.name = "still";
  still.joints.resize(3);
  still.joints[2].rotation.times = {0.25f};
  still.joints[2].rotation.values = {glm::angleAxis(0.3f, glm::vec3(0, 0, 1))};
  updateClipRange(still);
  c.clips.push_back(still);
  return c;
}

const BakedClip& findBaked(const Package& p, const std::string& name) {
  for (const BakedClip& b : p.clips) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no clip " << name;
  return p.clips.front();
}

std::vector<JointRows> sampled(const Character& c, const Clip& clip, float time) {
  PoseScratch scratch;
  std::vector<JointRows> palette(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, &clip, time, scratch, palette);
  return palette;
}

std::vector<JointRows> stored(const Package& p, uint32_t frame) {
  std::vector<JointRows> palette(p.animation.joint_count);
  for (uint32_t j = 0; j < p.animation.joint_count; ++j) {
    palette[j] = loadJointRows(p.animation, frame, j);
  }
  return palette;
}

bool bitwiseEqual(const std::vector<JointRows>& a, const std::vector<JointRows>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(JointRows)) == 0;
}

std::vector<glm::vec3> skinned(const SkinnedMesh& m, const std::vector<JointRows>& palette) {
  std::vector<glm::vec3> out(m.vertexCount());
  const SkinJob job{m.positions, {}, m.joints, m.weights, palette, out, {}};
  EXPECT_TRUE(job.run());
  return out;
}

Package bake(const Character& c, const BakeOptions& o, BakeReport* report = nullptr) {
  Result<Package> p = bakeCharacter(c, o, report);
  EXPECT_TRUE(p.ok()) << p.status().toString();
  return p.ok() ? std::move(p).value() : Package{};
}

TEST(Bake, StoredPalettesEqualSampledPalettesBitwiseInRgba32F) {
  const Character c = makeCharacter();
  BakeReport report;
  const Package p = bake(c, {}, &report);
  ASSERT_EQ(p.clips.size(), c.clips.size());
  for (size_t k = 0; k < c.clips.size(); ++k) {
    const BakedClip& b = p.clips[k];
    for (uint32_t i = 0; i < b.frame_count; ++i) {
      const float t = bakedFrameTime(c.clips[k], b, i);
      EXPECT_TRUE(bitwiseEqual(stored(p, b.first_frame + i), sampled(c, c.clips[k], t)))
          << b.name << " frame " << i;
    }
  }
  EXPECT_EQ(report.max_error, 0.0f);
  EXPECT_EQ(report.max_error_fraction, 0.0f);
  // The package's mesh is the character's, with the full skeleton.
  ASSERT_EQ(p.lods.size(), 1u);
  EXPECT_TRUE(p.lods[0].palette_joints.empty());
  EXPECT_EQ(p.lods[0].mesh.positions, c.mesh.positions);
  EXPECT_EQ(p.skeleton.jointCount(), 3);
}

TEST(Bake, Rgba16FStaysWithinTheReportedError) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.format = TexelFormat::kRgba16F;
  BakeReport report;
  const Package p = bake(c, o, &report);
  EXPECT_TRUE(p.animation.texels32.empty());
  EXPECT_GT(report.max_error, 0.0f);
  EXPECT_LT(report.max_error_fraction, 1e-3f);  // halves: ~3 decimal digits
  EXPECT_NEAR(report.max_error_fraction, report.max_error / c.size(), 1e-9f);
  float worst = 0.0f;
  for (size_t k = 0; k < c.clips.size(); ++k) {
    const BakedClip& b = p.clips[k];
    float clip_worst = 0.0f;
    for (uint32_t i = 0; i < b.frame_count; ++i) {
      const auto ref = skinned(c.mesh, sampled(c, c.clips[k], bakedFrameTime(c.clips[k], b, i)));
      const auto got = skinned(c.mesh, stored(p, b.first_frame + i));
      for (size_t v = 0; v < ref.size(); ++v) {
        clip_worst = std::max(clip_worst, glm::distance(ref[v], got[v]));
      }
    }
    EXPECT_EQ(clip_worst, report.clips[k].max_error) << b.name;
    worst = std::max(worst, clip_worst);
  }
  EXPECT_EQ(worst, report.max_error);
}

TEST(Bake, FrameIIsThePoseAtIOverFps) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.fps = 24.0f;
  const Package p = bake(c, o);
  for (size_t k = 0; k < c.clips.size(); ++k) {
    const Clip& clip = c.clips[k];
    const BakedClip& b = p.clips[k];
    for (uint32_t i = 0; i < b.frame_count; ++i) {
      const float expected = clip.start_time + static_cast<float>(i) / b.fps;
      EXPECT_NEAR(bakedFrameTime(clip, b, i), expected, 1e-5f) << b.name << " " << i;
    }
  }
}

TEST(Bake, LoopingClipsStoreRoundDurationTimesFpsFramesAndWrapSeamlessly) {
  const Character c = makeCharacter();
  for (float fps : {10.0f, 30.0f, 29.97f, 60.0f}) {
    BakeOptions o;
    o.fps = fps;
    const Package p = bake(c, o);
    const BakedClip& b = findBaked(p, "bend");  // 1 s
    EXPECT_TRUE(b.loop);
    EXPECT_EQ(b.frame_count, static_cast<uint32_t>(std::lround(1.0 * fps)));
    EXPECT_FLOAT_EQ(b.fps, static_cast<float>(b.frame_count) / 1.0f);
    EXPECT_EQ(b.duration, 1.0f);
    // The frame after the last is the clip's end, which is the first frame again.
    EXPECT_TRUE(
        bitwiseEqual(sampled(c, c.clips[0], c.clips[0].end_time), stored(p, b.first_frame)));
    EXPECT_NEAR(bakedFrameTime(c.clips[0], b, b.frame_count - 1) + 1.0f / b.fps,
                c.clips[0].end_time, 1e-5f);
  }
}

TEST(Bake, ClampedClipsKeepBothEndsExactly) {
  const Character c = makeCharacter();
  for (float fps : {10.0f, 30.0f, 7.0f}) {
    BakeOptions o;
    o.fps = fps;
    const Package p = bake(c, o);
    const Clip& clip = c.clips[1];  // "raise": [2, 3.5]
    const BakedClip& b = findBaked(p, "raise");
    EXPECT_FALSE(b.loop);
    EXPECT_EQ(b.frame_count, static_cast<uint32_t>(std::lround(1.5 * fps)) + 1);
    EXPECT_EQ(bakedFrameTime(clip, b, 0), 2.0f);
    EXPECT_EQ(bakedFrameTime(clip, b, b.frame_count - 1), 3.5f);
    EXPECT_TRUE(bitwiseEqual(stored(p, b.first_frame), sampled(c, clip, 2.0f)));
    EXPECT_TRUE(bitwiseEqual(stored(p, b.first_frame + b.frame_count - 1), sampled(c, clip, 3.5f)));
    // The actual rate spreads whole frames over the clip.
    EXPECT_FLOAT_EQ(b.fps, static_cast<float>(b.frame_count - 1) / 1.5f);
  }
}

TEST(Bake, FrameCountRules) {
  EXPECT_EQ(bakedFrameCount(1.0f, 30.0f, true), 30u);
  EXPECT_EQ(bakedFrameCount(1.0f, 30.0f, false), 31u);
  EXPECT_EQ(bakedFrameCount(0.0f, 30.0f, false), 1u);
  EXPECT_EQ(bakedFrameCount(0.0f, 30.0f, true), 1u);
  EXPECT_EQ(bakedFrameCount(0.01f, 30.0f, true), 1u);   // never zero frames
  EXPECT_EQ(bakedFrameCount(0.01f, 30.0f, false), 2u);  // both ends, even when very short
  EXPECT_EQ(bakedFrameCount(0.51f, 10.0f, false), 6u);
  EXPECT_FLOAT_EQ(bakedFrameRate(0.51f, 6, false, 10.0f), 5.0f / 0.51f);
  EXPECT_EQ(bakedFrameRate(0.0f, 1, false, 24.0f), 24.0f);
}

// Keys a rounding error apart (a fuzzed file's clip lasted 1e-39 s): one pose, at the requested
// rate, in a package its own validation accepts; before kMinClipSeconds the rate was inf.
TEST(Bake, AClipShorterThanTheMinimumBakesAsOnePose) {
  EXPECT_EQ(bakedFrameCount(1e-39f, 2.0f, false), 1u);
  EXPECT_EQ(bakedFrameRate(1e-39f, 1, false, 2.0f), 2.0f);
  EXPECT_EQ(bakedFrameCount(kMinClipSeconds, 2.0f, false), 2u);
  EXPECT_TRUE(std::isfinite(bakedFrameRate(kMinClipSeconds, 2, false, 2.0f)));
  Character c = makeCharacter();
  Clip blink;
  blink.name = "blink";
  blink.joints.resize(3);
  blink.joints[2].rotation.times = {0.5f, std::nextafter(0.5f, 1.0f)};
  blink.joints[2].rotation.values = {glm::quat(1, 0, 0, 0),
                                     glm::angleAxis(0.3f, glm::vec3(0, 0, 1))};
  updateClipRange(blink);
  ASSERT_GT(blink.duration(), 0.0f);
  c.clips.push_back(blink);
  EXPECT_EQ(detectLoop(c, blink), LoopReason::kZeroDuration);
  BakeOptions o;
  o.fps = 2.0f;
  const Package p = bake(c, o);
  EXPECT_EQ(findBaked(p, "blink").frame_count, 1u);
  EXPECT_EQ(findBaked(p, "blink").fps, 2.0f);
  EXPECT_TRUE(validatePackage(p, "blink.throng").ok());
}

TEST(Bake, LoopRulesAndOverrides) {
  const Character c = makeCharacter();
  EXPECT_EQ(detectLoop(c, c.clips[0]), LoopReason::kPosesMatch);
  EXPECT_EQ(detectLoop(c, c.clips[1]), LoopReason::kPosesDiffer);
  EXPECT_EQ(detectLoop(c, c.clips[2]), LoopReason::kName);
  EXPECT_EQ(detectLoop(c, c.clips[3]), LoopReason::kZeroDuration);
  EXPECT_EQ(loopMismatch(c, c.clips[0]), 0.0f);
  EXPECT_GT(loopMismatch(c, c.clips[1]), kLoopPoseTolerance);
  EXPECT_EQ(loopMismatch(c, c.clips[3]), 0.0f);
  // The name rule: "walk" (any case) loops even when the ends differ.
  Clip walk = c.clips[1];
  walk.name = "Walk_Forward";
  EXPECT_EQ(detectLoop(c, walk), LoopReason::kName);
  // A one-off action clamps even when its ends match.
  Clip attack = c.clips[0];
  attack.name = "Sword_Attack";
  EXPECT_EQ(detectLoop(c, attack), LoopReason::kOneShotName);
  // Moving the whole figure does not stop a clip from looping: root motion is removed first.
  Clip travel = c.clips[1];
  travel.joints[1].rotation = {};
  EXPECT_EQ(detectLoop(c, travel), LoopReason::kPosesMatch);
  BakeReport report;
  Package p = bake(c, {}, &report);
  EXPECT_TRUE(findBaked(p, "bend").loop);
  EXPECT_FALSE(findBaked(p, "raise").loop);
  EXPECT_TRUE(findBaked(p, "sway_loop").loop);
  EXPECT_FALSE(findBaked(p, "still").loop);
  EXPECT_EQ(findBaked(p, "still").frame_count, 1u);
  EXPECT_EQ(report.clips[2].loop_reason, LoopReason::kName);

  BakeOptions o;
  o.loop = {"raise"};
  o.no_loop = {"bend", "sway_loop"};
  p = bake(c, o, &report);
  EXPECT_FALSE(findBaked(p, "bend").loop);
  EXPECT_EQ(findBaked(p, "bend").frame_count, 31u);
  EXPECT_TRUE(findBaked(p, "raise").loop);
  EXPECT_EQ(findBaked(p, "raise").frame_count, 45u);
  EXPECT_FALSE(findBaked(p, "sway_loop").loop);
  EXPECT_EQ(report.clips[0].loop_reason, LoopReason::kForcedClamp);
  EXPECT_EQ(report.clips[1].loop_reason, LoopReason::kForcedLoop);
  // A forced loop whose ends differ shows the jump in its interpolation error.
  EXPECT_GT(report.clips[1].interpolation_error, 0.5f);

  o = {};
  o.loop = {"nope"};
  Result<Package> bad = bakeCharacter(c, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos);
  o = {};
  o.loop = {"bend"};
  o.no_loop = {"bend"};
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(Bake, ClipSelectionAndLayout) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.clips = {"raise", "0"};     // by name and by index, in this order
  o.max_width = 3 * 3 * 4 + 2;  // 4 frames of 3 joints per row, 2 spare texels
  const Package p = bake(c, o);
  ASSERT_EQ(p.clips.size(), 2u);
  EXPECT_EQ(p.clips[0].name, "raise");
  EXPECT_EQ(p.clips[1].name, "bend");
  EXPECT_EQ(p.clips[0].first_frame, 0u);
  EXPECT_EQ(p.clips[1].first_frame, 46u);
  const AnimationTexture& t = p.animation;
  EXPECT_EQ(t.frame_count, 76u);
  EXPECT_EQ(t.frames_per_row, 4u);
  EXPECT_EQ(t.width, 36u);
  EXPECT_EQ(t.height, 19u);
  EXPECT_EQ(t.texelX(5, 2, 1), 1 * 9 + 6 + 1);
  EXPECT_EQ(t.texelY(5, 2), 1u);
  EXPECT_EQ(t.texels32.size(), 36u * 19u * 4u);

  // Fewer frames than fit in a row: the texture is one row, exactly as wide as needed.
  o = {};
  o.clips = {"still"};
  const Package one = bake(c, o);
  EXPECT_EQ(one.animation.width, 9u);
  EXPECT_EQ(one.animation.height, 1u);

  // A frame (9 texels) wider than the texture spans rows of whole joints: 2 joints per row.
  o = {};
  o.max_width = 8;
  const Package narrow = bake(c, o);
  const AnimationTexture& n = narrow.animation;
  EXPECT_EQ(n.width, 6u);
  EXPECT_EQ(n.frames_per_row, 1u);
  EXPECT_EQ(n.rowsPerFrame(), 2u);
  EXPECT_EQ(n.height, 2 * n.frame_count);
  // The same palettes as the one-row layout, frame by frame.
  o.max_width = 4096;
  const Package wide = bake(c, o);
  for (uint32_t f = 0; f < n.frame_count; f += 7) {
    for (uint32_t j = 0; j < n.joint_count; ++j) {
      const JointRows a = loadJointRows(n, f, j), b = loadJointRows(wide.animation, f, j);
      for (int r = 0; r < 3; ++r) EXPECT_EQ(a.rows[r], b.rows[r]) << f << " " << j;
    }
  }

  o = {};
  o.clips = {"missing"};
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(Bake, BadOptionsAreRejected) {
  const Character c = makeCharacter();
  for (float fps : {0.0f, -1.0f, NAN, 5000.0f}) {
    BakeOptions o;
    o.fps = fps;
    EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument) << fps;
  }
  BakeOptions o;
  o.threads = -1;
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
  o = {};
  o.max_width = 2;
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
  o = {};
  o.max_error = NAN;
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
  o = {};
  o.format = static_cast<TexelFormat>(7);
  EXPECT_EQ(bakeCharacter(c, o).status().code(), ErrorCode::kInvalidArgument);
  Character none = c;
  none.clips.clear();
  EXPECT_EQ(bakeCharacter(none, {}).status().code(), ErrorCode::kInvalidArgument);
  Character broken = c;
  broken.mesh.joints[0].x = 7;
  EXPECT_EQ(bakeCharacter(broken, {}).status().code(), ErrorCode::kInvalidData);
}

// Clips too long for one texture are refused before anything is allocated: one clip past the frame
// limit, or clips that together need more rows than a texture may have.
TEST(Bake, ClipsTooLongForATextureAreRefusedBeforeAllocating) {
  Character c = makeCharacter();
  Clip& clip = c.clips[0];
  for (JointTracks& t : clip.joints) {
    for (float& time : t.rotation.times) time *= 1e8f;
    for (float& time : t.translation.times) time *= 1e8f;
    for (float& time : t.scale.times) time *= 1e8f;
  }
  updateClipRange(clip);
  BakeOptions o;
  o.clips = {clip.name};
  Result<Package> endless = bakeCharacter(c, o);
  EXPECT_EQ(endless.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(endless.status().message().find("too many frames at 30 fps"), std::string::npos)
      << endless.status().message();
  // 1,000 fps over a clip of 2e4 s: 2e7 frames, under the clip limit, but at 3 joints (9 texels)
  // per frame and 455 frames per 4,096-texel row, 43,956 rows.
  for (JointTracks& t : clip.joints) {
    for (float& time : t.rotation.times) time *= 2e-4f;
    for (float& time : t.translation.times) time *= 2e-4f;
    for (float& time : t.scale.times) time *= 2e-4f;
  }
  updateClipRange(clip);
  o.fps = 1000.0f;
  Result<Package> tall = bakeCharacter(c, o);
  EXPECT_EQ(tall.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(tall.status().message().find("rows high, more than the limit of 32768"),
            std::string::npos)
      << tall.status().message();
}

TEST(Bake, BoundsHoldEveryFrameAndRootMotionIsRecorded) {
  const Character c = makeCharacter();
  const Package p = bake(c, {});
  for (size_t k = 0; k < c.clips.size(); ++k) {
    const BakedClip& b = p.clips[k];
    for (uint32_t i = 0; i < b.frame_count; ++i) {
      for (const glm::vec3& v : skinned(c.mesh, stored(p, b.first_frame + i))) {
        EXPECT_TRUE(glm::all(glm::lessThanEqual(b.bounds.min, v)) &&
                    glm::all(glm::lessThanEqual(v, b.bounds.max)))
            << b.name;
      }
    }
  }
  // "bend" steps the root up by 0.1 from 0.5 s (STEP) and back at 1 s; "raise" moves it 3 units
  // along z; "sway_loop" and "still" keep it still.
  const BakedClip& bend = findBaked(p, "bend");
  ASSERT_EQ(bend.root_motion.size(), bend.frame_count);
  EXPECT_EQ(bend.root_motion[0], glm::vec3(0.0f));
  EXPECT_EQ(bend.root_motion[14], glm::vec3(0.0f));
  EXPECT_NEAR(bend.root_motion[15].y, 0.1f, 1e-6f);
  const BakedClip& raise = findBaked(p, "raise");
  ASSERT_EQ(raise.root_motion.size(), raise.frame_count);
  EXPECT_NEAR(raise.root_motion.back().z, 3.0f, 1e-6f);
  EXPECT_GE(raise.bounds.max.z, 3.0f);
  EXPECT_TRUE(findBaked(p, "sway_loop").root_motion.empty());
  EXPECT_TRUE(findBaked(p, "still").root_motion.empty());
}

TEST(Bake, MotionJointIsTheTopmostTranslatedJoint) {
  const Character c = makeCharacter();
  EXPECT_EQ(motionJoint(c.skeleton, c.clips[0]), 0);
  EXPECT_EQ(motionJoint(c.skeleton, c.clips[2]), -1);  // rotations only
  Clip tip_and_mid = c.clips[2];
  tip_and_mid.joints[2].translation.times = {2.0f};
  tip_and_mid.joints[2].translation.values = {glm::vec3(0, 1, 0)};
  EXPECT_EQ(motionJoint(c.skeleton, tip_and_mid), 2);
  tip_and_mid.joints[1].translation = tip_and_mid.joints[2].translation;
  EXPECT_EQ(motionJoint(c.skeleton, tip_and_mid), 1);
}

TEST(Bake, InterpolationErrorShrinksWithFps) {
  const Character c = makeCharacter();
  BakeReport slow, fast;
  BakeOptions o;
  o.clips = {"bend"};
  o.fps = 5.0f;
  (void)bake(c, o, &slow);
  o.fps = 60.0f;
  (void)bake(c, o, &fast);
  EXPECT_GT(slow.interpolation_error, 0.0f);
  EXPECT_LT(fast.interpolation_error, slow.interpolation_error);
  EXPECT_NEAR(fast.interpolation_error_fraction, fast.interpolation_error / c.size(), 1e-9f);
}

TEST(Bake, MaxErrorFailsTheBake) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.format = TexelFormat::kRgba16F;
  o.max_error = 1e-9f;
  BakeReport report;
  const Result<Package> r = bakeCharacter(c, o, &report);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("allowed error"), std::string::npos);
  EXPECT_GT(report.max_error, 1e-9f);  // the report is filled anyway
  o.max_error = report.max_error;
  EXPECT_TRUE(bakeCharacter(c, o).ok());
  o.format = TexelFormat::kRgba32F;
  o.max_error = 0.0f;
  EXPECT_TRUE(bakeCharacter(c, o).ok());
}

TEST(Bake, HalfRangeOverflowIsAnError) {
  Character c = makeCharacter();
  c.clips[1].joints[0].translation.values[1] = glm::vec3(0.0f, 0.0f, 1e6f);
  BakeOptions o;
  o.format = TexelFormat::kRgba16F;
  const Result<Package> r = bakeCharacter(c, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(r.status().message().find("raise"), std::string::npos);
  o.format = TexelFormat::kRgba32F;
  EXPECT_TRUE(bakeCharacter(c, o).ok());
}

TEST(Bake, DeterministicWhateverTheThreadCount) {
  const Character c = makeCharacter();
  const auto dir = test::makeTempDir("bake");
  std::string files[3];
  const int threads[3] = {1, 4, 3};
  for (int k = 0; k < 3; ++k) {
    BakeOptions o;
    o.threads = threads[k];
    o.fps = 120.0f;
    o.format = k == 2 ? TexelFormat::kRgba32F : TexelFormat::kRgba16F;
    BakeReport report;
    const Package p = bake(c, o, &report);
    EXPECT_EQ(report.threads, threads[k]);
    const std::string path = (dir / ("p" + std::to_string(k) + ".throng")).string();
    ASSERT_TRUE(writePackage(p, path).ok());
    files[k] = test::readFile(path);
  }
  EXPECT_FALSE(files[0].empty());
  EXPECT_EQ(files[0], files[1]);
  std::filesystem::remove_all(dir);
}

TEST(Bake, ProgressCountsEveryFrame) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.threads = 2;
  uint32_t calls = 0, last_total = 0, most = 0;
  o.progress = [&](uint32_t done, uint32_t total) {
    ++calls;
    last_total = total;
    most = std::max(most, done);
  };
  const Package p = bake(c, o);
  EXPECT_EQ(calls, p.animation.frame_count);
  EXPECT_EQ(last_total, p.animation.frame_count);
  EXPECT_EQ(most, p.animation.frame_count);
}

TEST(Bake, ProgressRisesByOneFromOneToTheTotalWhateverTheThreads) {
  const Character c = makeCharacter();
  for (int threads : {1, 4}) {
    SCOPED_TRACE(threads);
    BakeOptions o;
    o.threads = threads;
    std::vector<uint32_t> done;  // the calls are serialised
    uint32_t total = 0;
    o.progress = [&](uint32_t d, uint32_t t) {
      done.push_back(d);
      total = t;
    };
    const Package p = bake(c, o);
    ASSERT_EQ(done.size(), p.animation.frame_count);
    EXPECT_EQ(total, p.animation.frame_count);
    for (size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i + 1);
  }
}

TEST(Bake, PackageRoundTripsAndDescribes) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.source = "chain.glb";
  o.format = TexelFormat::kRgba16F;
  const Package p = bake(c, o);
  const auto dir = test::makeTempDir("bake");
  const std::string path = (dir / "chain.throng").string();
  ASSERT_TRUE(writePackage(p, path).ok());
  const Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->source, "chain.glb");
  EXPECT_EQ(back->animation.texels16, p.animation.texels16);

  const std::string text = describePackage(*back);
  for (const char* s : {"bend", "raise", "sway_loop", "still", "RGBA16F", "3 joints"}) {
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
  }
  bool ok = false;
  std::string file_text = describePackageFile(path, &ok);
  EXPECT_TRUE(ok);
  EXPECT_NE(file_text.find("ANIM"), std::string::npos) << file_text;
  EXPECT_NE(file_text.find("bend"), std::string::npos);

  std::string damaged = test::readFile(path);
  damaged[damaged.size() / 2] ^= 0x40;
  test::writeFile(path, damaged);
  file_text = describePackageFile(path, &ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(file_text.find("error"), std::string::npos) << file_text;
  std::filesystem::remove_all(dir);
}

TEST(Bake, MaterialsAndImageChainsGoIntoThePackage) {
  const Character c = test::makeMaterialCharacter();
  BakeReport report;
  Result<Package> p = bakeCharacter(c, {}, &report);
  ASSERT_TRUE(p.ok()) << p.status().toString();
  ASSERT_EQ(p->materials.size(), 4u);
  EXPECT_EQ(p->materials[2].alpha_mode, AlphaMode::kMask);
  EXPECT_EQ(p->variants, c.variants);
  ASSERT_EQ(p->lods[0].mesh.submeshes.size(), 4u);
  EXPECT_EQ(p->lods[0].mesh.submeshes[3].material, 3u);
  EXPECT_EQ(p->lods[0].mesh.colors, c.mesh.colors);
  ASSERT_EQ(p->images.size(), 2u);
  // Power-of-two sources: full chains, no copies.
  EXPECT_EQ(p->images[0].mips.size(), 3u);  // 4x4, 2x2, 1x1
  EXPECT_EQ(p->images[0].mips[0].rgba, c.images[0].pixels.rgba);
  EXPECT_TRUE(p->images[0].pot_mips.empty());
  EXPECT_EQ(p->images[1].mips.size(), 2u);
  EXPECT_EQ(report.image_bytes, (16u + 4u + 1u + 4u + 1u) * 4u);
  EXPECT_EQ(report.materials, 4u);
  EXPECT_EQ(report.images, 2u);
  const auto dir = test::makeTempDir("bake-looks");
  const std::string path = (dir / "looks.throng").string();
  ASSERT_TRUE(writePackage(*p, path).ok());
  Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->images[0].mips[1].rgba, p->images[0].mips[1].rgba);
  const std::string text = describePackage(*back);
  for (const char* s : {"materials: 4", "cutout: colour (1, 1, 1, 1), texture image 1 uv0",
                        "MASK 0.5, double-sided", "variants: 2", "checker: 4 x 4, 3 mip levels"}) {
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
  }
  std::filesystem::remove_all(dir);
}

// What `throng bake --lods` does, for a normal-mapped character: the tangents generated for the
// full mesh reach every LOD of the chain (each LOD vertex keeps its source vertex's tangent) and
// the package; the metallic-roughness looks are stored; the data image's chain is averaged as
// data.
TEST(Bake, TangentsAndMetallicRoughnessLooksGoThroughTheLodChainIntoThePackage) {
  Character c = test::makeTubeCharacter(8, 12);
  Material skin;
  skin.name = "skin";
  skin.metallic_factor = 0.25f;
  skin.roughness_factor = 0.5f;
  skin.normal_texture.image = 0;
  skin.normal_scale = 0.5f;
  skin.occlusion_texture.image = 0;
  skin.occlusion_strength = 0.75f;
  skin.emissive_factor = glm::vec3(0.5f, 0.25f, 0.0f);
  c.materials = {skin};
  SourceImage orm{"orm", {4, 4, {}}};
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const auto r = static_cast<uint8_t>(60 * x), g = static_cast<uint8_t>(60 * y);
      orm.pixels.rgba.insert(orm.pixels.rgba.end(), {r, g, 255, 0});
    }
  }
  c.images = {orm};
  Result<TangentReport> tangents = generateTangents(c.mesh, c.materials);
  ASSERT_TRUE(tangents.ok()) << tangents.status().toString();
  EXPECT_GT(tangents->split, 0u);  // the tube's uv seam runs backwards: mirrored triangles
  ASSERT_TRUE(validateCharacter(c, "tube").ok());

  Result<Package> baked = bakeCharacter(c, {});
  ASSERT_TRUE(baked.ok()) << baked.status().toString();
  Result<std::vector<MeshLod>> lods = buildLodChain(c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  ASSERT_GE(lods->size(), 2u);
  baked->lods = std::move(lods).value();
  const auto dir = test::makeTempDir("bake-tangents");
  const std::string path = (dir / "tube.throng").string();
  ASSERT_TRUE(writePackage(*baked, path).ok());
  Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();

  const SkinnedMesh& full = c.mesh;
  for (size_t l = 0; l < back->lods.size(); ++l) {
    SCOPED_TRACE("LOD " + std::to_string(l));
    const SkinnedMesh& m = back->lods[l].mesh;
    ASSERT_EQ(m.tangents.size(), m.vertexCount());
    EXPECT_EQ(m.tangent_source, TangentSource::kGenerated);
    for (size_t v = 0; v < m.vertexCount(); ++v) {
      bool found = false;
      for (size_t s = 0; s < full.vertexCount() && !found; ++s) {
        found = m.positions[v] == full.positions[s] && m.normals[v] == full.normals[s] &&
                m.uvs[v] == full.uvs[s] && m.tangents[v] == full.tangents[s];
      }
      EXPECT_TRUE(found) << "vertex " << v;
    }
  }
  const Material& m = back->materials[0];
  EXPECT_EQ(m.metallic_factor, 0.25f);
  EXPECT_EQ(m.roughness_factor, 0.5f);
  EXPECT_EQ(m.normal_texture.image, 0);
  EXPECT_EQ(m.normal_scale, 0.5f);
  EXPECT_EQ(m.occlusion_texture.image, 0);
  EXPECT_EQ(m.occlusion_strength, 0.75f);
  EXPECT_EQ(m.emissive_factor, glm::vec3(0.5f, 0.25f, 0.0f));
  // Level 1 texel (0, 0) is the plain mean of the 2x2 texels above it: red (0 + 60) / 2, and
  // the zero alpha weighs nothing (as colour, red would be decoded from sRGB first: about 42).
  ASSERT_EQ(back->images.size(), 1u);
  ASSERT_EQ(back->images[0].mips.size(), 3u);
  const std::vector<uint8_t>& level1 = back->images[0].mips[1].rgba;
  EXPECT_NEAR(level1[0], 30, 1);
  EXPECT_NEAR(level1[1], 30, 1);
  EXPECT_EQ(level1[2], 255);
  EXPECT_EQ(level1[3], 0);
  const std::string text = describePackage(*back);
  for (const char* s : {"tangents generated (MikkTSpace rules)", "metallic 0.25 roughness 0.5",
                        "normal texture image 0 uv0", "scale 0.5", "strength 0.75",
                        "emissive (0.5, 0.25, 0)", "linear data"}) {
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
  }
  std::filesystem::remove_all(dir);
}

TEST(Bake, PreviewIsAPngTwiceAsTallAsTheTexture) {
  const Character c = makeCharacter();
  BakeOptions o;
  o.max_width = 90;
  const Package p = bake(c, o);
  const auto dir = test::makeTempDir("bake");
  const std::string path = (dir / "preview.png").string();
  ASSERT_TRUE(writeTexturePreview(p.animation, path).ok());
  const std::string png = test::readFile(path);
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  auto be32 = [&](size_t at) {
    return (uint32_t{static_cast<uint8_t>(png[at])} << 24) |
           (uint32_t{static_cast<uint8_t>(png[at + 1])} << 16) |
           (uint32_t{static_cast<uint8_t>(png[at + 2])} << 8) | static_cast<uint8_t>(png[at + 3]);
  };
  EXPECT_EQ(be32(16), p.animation.width);
  EXPECT_EQ(be32(20), 2 * p.animation.height);
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);  // no temporary file left
  EXPECT_EQ(writeTexturePreview(p.animation, "/nonexistent/p.png").code(), ErrorCode::kIoError);
  const Status empty = writeTexturePreview(AnimationTexture{}, (dir / "empty.png").string());
  EXPECT_EQ(empty.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(empty.message(), (dir / "empty.png").string() + ": the animation texture is empty");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng

namespace throng {
namespace {

TEST(Bake, SampleCharacterLoopsItsCyclesAndPlaysItsActionsOnce) {
  const Character sample = makeSampleCharacter();
  Result<Package> p = bakeCharacter(sample, {});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  for (const BakedClip& clip : p->clips) {
    const bool cycle = clip.name == "idle" || clip.name == "walk" || clip.name == "run";
    EXPECT_EQ(clip.loop, cycle) << clip.name;
  }
}

}  // namespace
}  // namespace throng
