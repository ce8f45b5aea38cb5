// Tests of playback (frame pairs, wrap and clamp, cross-fades) and the CPU frame-palette blend.
#include "throng/crowd/playback.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/packing.hpp>

#include "throng/crowd/frame_palette.h"

namespace throng {
namespace {

BakedClip loopingClip() {
  BakedClip clip;
  clip.name = "walk";
  clip.first_frame = 10;
  clip.frame_count = 30;  // 1 s at 30 fps, last frame not stored
  clip.fps = 30.0f;
  clip.duration = 1.0f;
  clip.loop = true;
  return clip;
}

BakedClip clampedClip() {
  BakedClip clip = loopingClip();
  clip.name = "die";
  clip.first_frame = 40;
  clip.frame_count = 31;  // both ends stored
  clip.loop = false;
  return clip;
}

void expectSample(const FrameSample& s, uint32_t a, uint32_t b, float blend) {
  EXPECT_EQ(s.frame_a, a);
  EXPECT_EQ(s.frame_b, b);
  EXPECT_NEAR(s.blend, blend, 1e-4f);
}

TEST(SampleFrames, LoopingClipStepsThroughItsFrames) {
  const BakedClip clip = loopingClip();
  expectSample(sampleFrames(clip, 0.0f), 10, 11, 0.0f);
  expectSample(sampleFrames(clip, 0.5f), 25, 26, 0.0f);
  expectSample(sampleFrames(clip, 2.5f / 30.0f), 12, 13, 0.5f);
}

TEST(SampleFrames, LoopingClipWrapsFromLastFrameToFirst) {
  const BakedClip clip = loopingClip();
  expectSample(sampleFrames(clip, 29.5f / 30.0f), 39, 10, 0.5f);
  expectSample(sampleFrames(clip, 1.0f), 10, 11, 0.0f);
  expectSample(sampleFrames(clip, 3.0f + 29.25f / 30.0f), 39, 10, 0.25f);
  expectSample(sampleFrames(clip, -0.5f / 30.0f), 39, 10, 0.5f);  // negative time wraps too
}

TEST(SampleFrames, LoopWithFractionalFrameCountStretchesTheWrapStep) {
  BakedClip clip = loopingClip();
  clip.duration = 1.01f;  // 30.3 frame steps per cycle, 30 stored frames
  // From frame 29 (at 29/30 s) the pose returns to frame 0 at 1.01 s: a 1.3-frame step.
  expectSample(sampleFrames(clip, 29.65f / 30.0f), 39, 10, 0.65f / 1.3f);
  expectSample(sampleFrames(clip, 1.01f), 10, 11, 0.0f);
}

TEST(SampleFrames, ClampedClipHoldsItsEnds) {
  const BakedClip clip = clampedClip();
  expectSample(sampleFrames(clip, -1.0f), 40, 41, 0.0f);
  expectSample(sampleFrames(clip, 0.5f), 55, 56, 0.0f);
  expectSample(sampleFrames(clip, 29.5f / 30.0f), 69, 70, 0.5f);
  expectSample(sampleFrames(clip, 1.0f), 70, 70, 0.0f);
  expectSample(sampleFrames(clip, 100.0f), 70, 70, 0.0f);
}

TEST(SampleFrames, DegenerateClipsAndBadTimesGiveTheFirstFrame) {
  BakedClip clip = loopingClip();
  clip.frame_count = 1;
  expectSample(sampleFrames(clip, 0.7f), 10, 10, 0.0f);
  clip = loopingClip();
  clip.duration = 0.0f;
  expectSample(sampleFrames(clip, 0.7f), 10, 10, 0.0f);
  clip = loopingClip();
  expectSample(sampleFrames(clip, std::numeric_limits<float>::quiet_NaN()), 10, 11, 0.0f);
  expectSample(sampleFrames(clip, std::numeric_limits<float>::infinity()), 10, 11, 0.0f);
}

TEST(SampleFrames, BlendStaysInUnitRangeOverManyTimes) {
  const BakedClip clip = loopingClip();
  for (int i = -1000; i < 1000; ++i) {
    const FrameSample s = sampleFrames(clip, static_cast<float>(i) * 0.0137f);
    EXPECT_GE(s.blend, 0.0f);
    EXPECT_LE(s.blend, 1.0f);
    EXPECT_GE(s.frame_a, 10u);
    EXPECT_LT(s.frame_a, 40u);
    EXPECT_EQ(s.frame_b, s.frame_a == 39 ? 10u : s.frame_a + 1);
  }
}

TEST(PlaybackJob, ReadsTimesAsPlaybackSecondsAndCrossFades) {
  const BakedClip clips[2] = {loopingClip(), clampedClip()};
  std::vector<AgentPlayback> agents(3);
  agents[0].clip = 0;
  agents[0].time = 0.5f;
  agents[0].speed = 2.0f;  // already applied to time by whoever advanced it
  agents[1].clip = 1;
  agents[1].time = 0.5f;
  agents[1].previous_clip = 0;
  agents[1].previous_time = 2.5f / 30.0f;
  agents[1].fade = 0.25f;
  agents[2].clip = 0;
  agents[2].fade = 7.0f;  // clamped to 1
  agents[2].previous_clip = 1;
  std::vector<InstanceFrames> out(3);
  PlaybackJob job{clips, agents, out};
  ASSERT_TRUE(job.run());
  expectSample(out[0].primary, 25, 26, 0.0f);
  EXPECT_EQ(out[0].fade, 0.0f);
  expectSample(out[0].secondary, 25, 26, 0.0f);  // no fade: the same pose
  expectSample(out[1].primary, 55, 56, 0.0f);
  expectSample(out[1].secondary, 12, 13, 0.5f);
  EXPECT_FLOAT_EQ(out[1].fade, 0.25f);
  EXPECT_FLOAT_EQ(out[2].fade, 1.0f);
  expectSample(out[2].secondary, 40, 41, 0.0f);
}

TEST(PlaybackJob, RefusesBadInput) {
  const BakedClip clips[1] = {loopingClip()};
  std::vector<AgentPlayback> agents(2);
  std::vector<InstanceFrames> out(1);
  EXPECT_FALSE((PlaybackJob{clips, agents, out}.run()));  // sizes differ
  out.resize(2);
  agents[1].clip = 1;  // no such clip
  EXPECT_FALSE((PlaybackJob{clips, agents, out}.validate()));
  agents[1].clip = 0;
  agents[1].previous_clip = 3;
  EXPECT_FALSE((PlaybackJob{clips, agents, out}.validate()));
  agents[1].previous_clip = 0;
  EXPECT_TRUE((PlaybackJob{clips, agents, out}.run()));
}

TEST(Placement, HeadingTurnsAboutYAndZeroFacesPlusZ) {
  Placement p;
  p.position = {1, 2, 3};
  p.heading = 1.5707964f;
  p.scale = 2.0f;
  const glm::vec4 forward = placementMatrix(p) * glm::vec4(0, 0, 1, 0);
  EXPECT_NEAR(forward.x, 2.0f, 1e-5f);
  EXPECT_NEAR(forward.z, 0.0f, 1e-5f);
  const glm::vec4 origin = placementMatrix(p) * glm::vec4(0, 0, 0, 1);
  EXPECT_EQ(glm::vec3(origin), p.position);
  const glm::vec4 up = placementMatrix(Placement{}) * glm::vec4(0, 1, 0, 0);
  EXPECT_EQ(glm::vec3(up), glm::vec3(0, 1, 0));
}

// Joint j of frame f holds rows filled with the value 100 f + 10 j + r (in every channel).
AnimationTexture numberedTexture(TexelFormat format) {
  AnimationTexture t;
  t.format = format;
  t.joint_count = 2;
  t.frame_count = 5;
  t.frames_per_row = 2;
  t.width = 2 * 3 * 2 + 1;  // one spare texel per row
  t.height = 3;
  const size_t values = static_cast<size_t>(t.width) * t.height * 4;
  std::vector<float> texels(values, -1.0f);
  for (uint32_t f = 0; f < t.frame_count; ++f)
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
          texels[t.channelIndex(f, j, r) + c] = static_cast<float>(100 * f + 10 * j + r);
  if (format == TexelFormat::kRgba32F) {
    t.texels32 = texels;
  } else {
    for (float v : texels) t.texels16.push_back(static_cast<uint16_t>(glm::packHalf1x16(v)));
  }
  return t;
}

TEST(FramePaletteJob, BlendsFramesThenCrossFades) {
  for (TexelFormat format : {TexelFormat::kRgba32F, TexelFormat::kRgba16F}) {
    const AnimationTexture texture = numberedTexture(format);
    EXPECT_EQ(loadJointRows(texture, 3, 1).rows[2].x, 312.0f);
    std::vector<JointRows> palette(2);
    FramePaletteJob job;
    job.texture = &texture;
    job.frames.primary = {1, 2, 0.25f};   // 125 + 10 j + r
    job.frames.secondary = {4, 0, 0.5f};  // 200 + 10 j + r
    job.frames.fade = 0.5f;               // -> 162.5 + 10 j + r
    job.palette = palette;
    ASSERT_TRUE(job.run());
    for (int j = 0; j < 2; ++j)
      for (int r = 0; r < 3; ++r) EXPECT_FLOAT_EQ(palette[j].rows[r].w, 162.5f + 10.0f * j + r);
  }
}

TEST(FramePaletteJob, RefusesBadFramesAndSizes) {
  const AnimationTexture texture = numberedTexture(TexelFormat::kRgba32F);
  std::vector<JointRows> palette(2);
  FramePaletteJob job;
  job.texture = &texture;
  job.palette = palette;
  EXPECT_TRUE(job.validate());
  job.frames.secondary.frame_b = 5;
  EXPECT_FALSE(job.run());
  job.frames.secondary.frame_b = 0;
  std::vector<JointRows> short_palette(1);
  job.palette = short_palette;
  EXPECT_FALSE(job.validate());
  AnimationTexture truncated = texture;
  truncated.texels32.pop_back();
  job.palette = palette;
  job.texture = &truncated;
  EXPECT_FALSE(job.validate());
}

}  // namespace
}  // namespace throng
