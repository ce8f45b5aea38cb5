// Tests of the fast pose chain (PackedClip, SamplingContext, SamplePackedClipJob, SoaPaletteJob)
// against the reference jobs, on random skeletons and clips with every interpolation.
#include "throng/core/pose.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

// Where the fast sampler may differ from sampleTrack: LINEAR rotations only (the polynomial
// slerp against acos/sin, and against sampleTrack's nlerp for keys under 3.6 degrees apart).
constexpr float kRotationTolerance = 1e-6f;

glm::quat randomQuat(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
}

// A random tree of `joints` joints (parents first) with random rest poses and inverse binds;
// joint 5 gets a projective inverse bind row to check that the fast chain keeps the 4th row.
Skeleton randomSkeleton(int joints, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  RawSkeleton raw;
  for (int j = 0; j < joints; ++j) {
    RawJoint joint;
    joint.name = "j" + std::to_string(j);
    if (j > 0)
      joint.parent = "j" + std::to_string(std::uniform_int_distribution<int>(0, j - 1)(rng));
    joint.rest.translation = {u(rng), u(rng), u(rng)};
    joint.rest.rotation = randomQuat(rng);
    joint.rest.scale = glm::vec3(1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng), 1.0f);
    joint.inverse_bind = toMatrix({{u(rng), u(rng), u(rng)}, randomQuat(rng), glm::vec3(1.2f)});
    if (j == 5) joint.inverse_bind[2][3] = 0.25f;
    raw.joints.push_back(joint);
  }
  Result<Skeleton> s = buildSkeleton(raw, "random");
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return std::move(s).value();
}

template <typename T>
T randomValue(std::mt19937& rng);
template <>
glm::vec3 randomValue(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  return {u(rng), u(rng), u(rng)};
}
template <>
glm::quat randomValue(std::mt19937& rng) {
  return randomQuat(rng);
}

// Fills a track on `times` with random values; rotations walk in small steps with occasional
// jumps and hemisphere flips, so both slerp branches and the shortest-path flip are exercised.
template <typename T>
void randomTrack(Track<T>& track, const std::vector<float>& times, Interpolation mode,
                 std::mt19937& rng) {
  track.interpolation = mode;
  track.times = times;
  T previous = randomValue<T>(rng);
  for (size_t k = 0; k < times.size(); ++k) {
    T value = randomValue<T>(rng);
    if constexpr (std::is_same_v<T, glm::quat>) {
      const float step = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
      if (step < 0.7f)
        value = glm::normalize(previous * glm::angleAxis(0.1f * step, glm::vec3(0, 1, 0)));
      if (step < 0.2f) value = -value;
    }
    previous = value;
    if (mode == Interpolation::kCubicSpline) {
      track.values.push_back(randomValue<T>(rng) * 0.5f);
      track.values.push_back(value);
      track.values.push_back(randomValue<T>(rng) * 0.5f);
    } else {
      track.values.push_back(value);
    }
  }
}

// A clip over [0.2, 2.2] s mixing shared and private timelines, every interpolation, empty
// channels and single-key tracks.
Clip randomClip(int joints, std::mt19937& rng) {
  std::vector<std::vector<float>> timelines;
  std::vector<float> uniform;
  for (int k = 0; k <= 60; ++k) uniform.push_back(0.2f + k / 30.0f);
  timelines.push_back(uniform);
  timelines.push_back({0.2f, 0.5f, 0.9f, 1.7f, 2.2f});
  timelines.push_back({1.0f});
  Clip clip;
  clip.name = "random";
  clip.joints.resize(joints);
  std::uniform_int_distribution<int> pick(0, 9);
  const Interpolation modes[3] = {Interpolation::kLinear, Interpolation::kStep,
                                  Interpolation::kCubicSpline};
  for (int j = 0; j < joints; ++j) {
    auto choose = [&](auto& track) {
      const int p = pick(rng);
      if (p == 0) return;  // not animated
      std::vector<float> times = timelines[p < 6 ? 0 : p < 8 ? 1 : 2];
      if (p == 9) {  // a private timeline
        times.clear();
        float t = 0.2f;
        while (t < 2.2f) {
          times.push_back(t);
          t += std::uniform_real_distribution<float>(0.01f, 0.3f)(rng);
        }
      }
      randomTrack(track, times, modes[p % 3 == 0 ? 0 : pick(rng) % 3], rng);
    };
    choose(clip.joints[j].translation);
    choose(clip.joints[j].rotation);
    choose(clip.joints[j].scale);
  }
  updateClipRange(clip);
  return clip;
}

// Times that cover every case: before, at and after the ends, exactly on keys, between keys,
// NaN, and a random spread.
std::vector<float> probeTimes(const Clip& clip, std::mt19937& rng) {
  std::vector<float> times = {-5.0f,
                              clip.start_time,
                              clip.end_time,
                              clip.end_time + 1.0f,
                              std::numeric_limits<float>::quiet_NaN(),
                              1.0f,
                              0.2f + 7.0f / 30.0f};
  std::uniform_real_distribution<float> u(clip.start_time - 0.1f, clip.end_time + 0.1f);
  for (int i = 0; i < 200; ++i) times.push_back(u(rng));
  return times;
}

struct Fixture {
  Skeleton skeleton;
  SoaSkeleton soa;
  Clip clip;
  PackedClip packed;
};

Fixture makeFixture(int joints, uint32_t seed) {
  std::mt19937 rng(seed);
  Fixture f;
  f.skeleton = randomSkeleton(joints, rng);
  f.soa = SoaSkeleton(f.skeleton);
  f.clip = randomClip(joints, rng);
  EXPECT_TRUE(validateClip(f.clip, joints, "random").ok());
  f.packed = packClip(f.clip, f.skeleton.restPoses());
  return f;
}

std::vector<Transform> samplePacked(const Fixture& f, float time, SamplingContext& context) {
  std::vector<SoaTransform> soa(f.packed.blockCount());
  EXPECT_TRUE((SamplePackedClipJob{&f.packed, time, &context, soa}.run()));
  std::vector<Transform> out(f.skeleton.jointCount());
  for (int j = 0; j < f.skeleton.jointCount(); ++j) out[j] = soaGet(soa.data(), j);
  return out;
}

bool sameBits(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

TEST(PackedClip, SharesTimelinesAndKeepsRestForUntrackedChannels) {
  const Fixture f = makeFixture(23, 1);
  // Three shared timelines plus the private ones, each stored once.
  int privates = 0;
  std::vector<const std::vector<float>*> seen;
  for (const JointTracks& t : f.clip.joints) {
    for (const std::vector<float>* times :
         {&t.translation.times, &t.rotation.times, &t.scale.times}) {
      if (times->empty()) continue;
      bool found = false;
      for (const auto* s : seen) found = found || *s == *times;
      if (!found) {
        seen.push_back(times);
        ++privates;
      }
    }
  }
  EXPECT_EQ(f.packed.timelineCount(), privates);
  EXPECT_EQ(f.packed.jointCount(), 23);
  EXPECT_EQ(f.packed.blockCount(), 6);
  EXPECT_FALSE(f.packed.restBlocks().empty());
  EXPECT_GT(f.packed.byteSize(), 0u);
  // Unfolded, every track lands in exactly one block lane of one group; folded, the constant
  // (single-key, not CUBICSPLINE) tracks leave their groups.
  int tracks = 0, constant = 0;
  for (const JointTracks& t : f.clip.joints) {
    tracks += !t.translation.empty() + !t.rotation.empty() + !t.scale.empty();
    auto single = [](const auto& track) {
      return track.times.size() == 1 && track.interpolation != Interpolation::kCubicSpline;
    };
    constant += single(t.translation) + single(t.rotation) + single(t.scale);
  }
  ASSERT_GT(constant, 0);
  auto lanes = [](const PackedClip& p) {
    int n = 0;
    for (const PackedClip::Block& b : p.blocks()) n += __builtin_popcount(b.track_lanes);
    return n;
  };
  const PackedClip unfolded =
      packClip(f.clip, f.skeleton.restPoses(), {.fold_constant_tracks = false});
  EXPECT_EQ(lanes(unfolded), tracks);
  EXPECT_EQ(lanes(f.packed), tracks - constant);
}

// Constant tracks of many keys (exporters key still joints too) fold into the base values and
// sample as the reference does.
TEST(PackedClip, FoldsConstantTracks) {
  Fixture f = makeFixture(11, 21);
  for (JointTracks& t : f.clip.joints) {
    if (!t.translation.empty() && t.translation.interpolation != Interpolation::kCubicSpline) {
      std::fill(t.translation.values.begin(), t.translation.values.end(), glm::vec3(0.5f, 1, 2));
    }
    if (!t.rotation.empty() && t.rotation.interpolation != Interpolation::kCubicSpline) {
      std::fill(t.rotation.values.begin(), t.rotation.values.end(),
                glm::normalize(glm::quat(0.9f, 0.1f, -0.3f, 0.2f)));
    }
  }
  const PackedClip folded = packClip(f.clip, f.skeleton.restPoses());
  const PackedClip unfolded =
      packClip(f.clip, f.skeleton.restPoses(), {.fold_constant_tracks = false});
  EXPECT_LT(folded.byteSize(), unfolded.byteSize());
  EXPECT_LT(folded.blocks().size(), unfolded.blocks().size());
  std::vector<Transform> reference(f.skeleton.jointCount());
  std::vector<SoaTransform> soa(folded.blockCount());
  SamplingContext context;
  for (const float time : {0.0f, 0.3f, 0.77f, 1.5f, 3.0f}) {
    ASSERT_TRUE((SampleClipJob{&f.clip, time, f.skeleton.restPoses(), reference}.run()));
    ASSERT_TRUE((SamplePackedClipJob{&folded, time, &context, soa}.run()));
    for (int j = 0; j < f.skeleton.jointCount(); ++j) {
      const Transform t = soaGet(soa.data(), j);
      EXPECT_EQ(t.translation, reference[j].translation) << j;
      EXPECT_EQ(t.scale, reference[j].scale) << j;
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(t.rotation[c], reference[j].rotation[c], 2e-7f) << j;
    }
  }
}

TEST(SamplePackedClipJob, MatchesTheReferenceSampler) {
  for (const uint32_t seed : {1u, 2u, 3u}) {
    const Fixture f = makeFixture(37, seed);
    std::mt19937 rng(seed + 100);
    SamplingContext context;
    std::vector<Transform> reference(f.skeleton.jointCount());
    float worst = 0.0f;
    for (const float time : probeTimes(f.clip, rng)) {
      ASSERT_TRUE((SampleClipJob{&f.clip, time, f.skeleton.restPoses(), reference}.run()));
      const std::vector<Transform> fast = samplePacked(f, time, context);
      for (int j = 0; j < f.skeleton.jointCount(); ++j) {
        SCOPED_TRACE(testing::Message() << "seed " << seed << " joint " << j << " time " << time);
        // Translations, scales and STEP/CUBICSPLINE rotations: the same floats.
        EXPECT_EQ(fast[j].translation, reference[j].translation);
        EXPECT_EQ(fast[j].scale, reference[j].scale);
        const QuatTrack& r = f.clip.joints[j].rotation;
        if (r.empty() || r.interpolation != Interpolation::kLinear) {
          EXPECT_EQ(fast[j].rotation, reference[j].rotation);
        } else {
          for (int c = 0; c < 4; ++c) {
            worst = std::max(worst, std::abs(fast[j].rotation[c] - reference[j].rotation[c]));
          }
        }
      }
    }
    std::printf("seed %u: largest LINEAR rotation difference %.3g\n", seed, worst);
    EXPECT_LT(worst, kRotationTolerance) << "seed " << seed;
    EXPECT_GT(worst, 0.0f);  // the two slerps really are different code
  }
}

// The cursor is only a starting point: any order of sampling gives what a fresh context gives.
TEST(SamplePackedClipJob, CursorsGiveTheSameResultsAsAFreshContext) {
  const Fixture f = makeFixture(41, 7);
  const float d = f.clip.duration();
  std::vector<float> times;
  for (int i = 0; i <= 240; ++i) times.push_back(f.clip.start_time + d * i / 240.0f);  // forward
  for (int i = 240; i >= 0; --i) times.push_back(f.clip.start_time + d * i / 170.0f);  // backward
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> seek(-3.0f, 3.0f);
  for (int i = 0; i < 300; ++i) times.push_back(clipTime(f.clip, seek(rng) * d, true));  // seeks
  for (int i = 0; i < 400; ++i) times.push_back(clipTime(f.clip, i * 0.0123f, true));    // loops
  for (int i = 0; i < 100; ++i) times.push_back(clipTime(f.clip, i * 0.05f, false));     // clamps
  SamplingContext kept(f.packed.timelineCount());
  for (const float t : times) {
    SamplingContext fresh;
    ASSERT_TRUE(sameBits(samplePacked(f, t, kept), samplePacked(f, t, fresh))) << "time " << t;
  }
  // One context switching between two clips.
  const Fixture g = makeFixture(41, 8);
  for (int i = 0; i < 50; ++i) {
    SamplingContext fresh_f, fresh_g;
    const float t = f.clip.start_time + d * i / 50.0f;
    ASSERT_TRUE(sameBits(samplePacked(f, t, kept), samplePacked(f, t, fresh_f)));
    ASSERT_TRUE(sameBits(samplePacked(g, t, kept), samplePacked(g, t, fresh_g)));
  }
}

TEST(SamplingContext, DoesNotReallocateOnceReserved) {
  const Fixture f = makeFixture(20, 4);
  SamplingContext context(f.packed.timelineCount());
  const uint32_t* data = context.cursorsFor(f.packed).data();
  for (int i = 0; i < 10; ++i) samplePacked(f, 0.3f * i, context);
  EXPECT_EQ(context.cursorsFor(f.packed).data(), data);
  EXPECT_EQ(context.cursorsFor(f.packed).size(), static_cast<size_t>(f.packed.timelineCount()));
}

std::vector<SoaTransform> toSoa(const std::vector<Transform>& locals) {
  std::vector<SoaTransform> soa((locals.size() + kSoaWidth - 1) / kSoaWidth);
  for (size_t j = 0; j < soa.size() * kSoaWidth; ++j) {
    soaSet(soa.data(), static_cast<int>(j), j < locals.size() ? locals[j] : Transform{});
  }
  return soa;
}

glm::mat4 placementMatrix() {
  return toMatrix({{3.0f, 0.5f, -2.0f}, glm::angleAxis(0.7f, glm::vec3(0, 1, 0)), glm::vec3(1.5f)});
}

TEST(SoaPaletteJob, EqualsTheReferenceJobsBitForBit) {
  const Fixture f = makeFixture(30, 5);
  const int n = f.skeleton.jointCount();
  std::vector<Transform> locals(n);
  ASSERT_TRUE((SampleClipJob{&f.clip, 1.1f, f.skeleton.restPoses(), locals}.run()));
  const std::vector<SoaTransform> soa = toSoa(locals);
  for (const glm::mat4& root : {glm::mat4(1.0f), placementMatrix()}) {
    std::vector<glm::mat4> models(n);
    std::vector<JointRows> reference(n);
    ASSERT_TRUE((LocalToModelJob{f.skeleton.parents(), locals, root, models}.run()));
    ASSERT_TRUE((PaletteJob{models, f.skeleton.inverseBinds(), reference}.run()));
    std::vector<JointRows> model_rows(n), palette(n);
    ASSERT_TRUE((SoaPaletteJob{&f.soa, soa, root, model_rows, {}, palette}.run()));
    EXPECT_EQ(std::memcmp(palette.data(), reference.data(), n * sizeof(JointRows)), 0);
    for (int j = 0; j < n; ++j) {
      const JointRows expected = packRows(models[j]);
      EXPECT_EQ(std::memcmp(&model_rows[j], &expected, sizeof(JointRows)), 0) << j;
    }
    // A subset of slots, in any order.
    const std::vector<uint16_t> slots = {7, 0, 29, 5, 5};
    std::vector<JointRows> subset(slots.size());
    ASSERT_TRUE((SoaPaletteJob{&f.soa, soa, root, model_rows, slots, subset}.run()));
    for (size_t s = 0; s < slots.size(); ++s) {
      EXPECT_EQ(std::memcmp(&subset[s], &reference[slots[s]], sizeof(JointRows)), 0) << s;
    }
  }
}

// Streaming (non-temporal) palette stores write the same bytes, aligned or not (the fallback).
TEST(SoaPaletteJob, StreamingStoresWriteTheSameBytes) {
  const Fixture f = makeFixture(26, 6);
  const int n = f.skeleton.jointCount();
  std::vector<Transform> locals(n);
  ASSERT_TRUE((SampleClipJob{&f.clip, 0.9f, f.skeleton.restPoses(), locals}.run()));
  const std::vector<SoaTransform> soa = toSoa(locals);
  std::vector<JointRows> models(n), cached(n), streamed(n);
  ASSERT_TRUE((SoaPaletteJob{&f.soa, soa, placementMatrix(), models, {}, cached}.run()));
  SoaPaletteJob job{&f.soa, soa, placementMatrix(), models, {}, streamed, PaletteStore::kStreaming};
  ASSERT_TRUE(job.run());
  EXPECT_EQ(std::memcmp(streamed.data(), cached.data(), n * sizeof(JointRows)), 0);
  struct Misaligned {
    float pad;
    JointRows rows[26];
  } misaligned{};
  job.palette = misaligned.rows;
  ASSERT_NE(reinterpret_cast<uintptr_t>(misaligned.rows) % 16, 0u);
  ASSERT_TRUE(job.run());
  EXPECT_EQ(std::memcmp(misaligned.rows, cached.data(), n * sizeof(JointRows)), 0);
}

TEST(EvaluatePalette, FastChainMatchesTheReferenceChain) {
  const Fixture f = makeFixture(45, 11);
  PoseScratch reference_scratch, scratch;
  SamplingContext context;
  const int n = f.skeleton.jointCount();
  std::vector<JointRows> expected(n), palette(n);
  std::mt19937 rng(12);
  for (const float time : probeTimes(f.clip, rng)) {
    evaluatePalette(f.skeleton, &f.clip, time, reference_scratch, expected);
    evaluatePalette(f.soa, &f.packed, time, context, scratch, palette,
                    time > 1.0f ? PaletteStore::kStreaming : PaletteStore::kCached);
    for (int j = 0; j < n; ++j) {
      for (int r = 0; r < kVec4PerJoint; ++r) {
        for (int c = 0; c < 4; ++c) {
          // Rotation errors grow with the translations and scales down the tree.
          const float scale = 1.0f + std::abs(expected[j].rows[r][c]);
          ASSERT_NEAR(palette[j].rows[r][c], expected[j].rows[r][c], 2e-4f * scale)
              << "time " << time << " joint " << j;
        }
      }
    }
  }
  // The rest pose (null clip) is the reference's, bit for bit.
  evaluatePalette(f.skeleton, nullptr, 0.0f, reference_scratch, expected);
  evaluatePalette(f.soa, nullptr, 0.0f, context, scratch, palette);
  EXPECT_EQ(std::memcmp(palette.data(), expected.data(), n * sizeof(JointRows)), 0);
}

TEST(EvaluatePalette, ChainCharacterFastEqualsReference) {
  const Character c = test::makeChainCharacter();
  const SoaSkeleton soa(c.skeleton);
  const PackedClip packed = packClip(c.clips[0], c.skeleton.restPoses());
  PoseScratch a, b;
  SamplingContext context;
  std::vector<JointRows> expected(c.skeleton.jointCount()), palette(c.skeleton.jointCount());
  for (int i = 0; i <= 40; ++i) {
    const float t = clipTime(c.clips[0], 0.037f * i, true);
    evaluatePalette(c.skeleton, &c.clips[0], t, a, expected);
    evaluatePalette(soa, &packed, t, context, b, palette);
    for (size_t j = 0; j < expected.size(); ++j) {
      EXPECT_LT(maxAbsDifference(unpackRows(palette[j]), unpackRows(expected[j])), 1e-6f);
    }
  }
}

TEST(PoseJobs, FastJobsRefuseBadSpans) {
  const Fixture f = makeFixture(9, 3);
  SamplingContext context;
  std::vector<SoaTransform> soa(f.packed.blockCount()), short_soa(1);
  EXPECT_FALSE((SamplePackedClipJob{nullptr, 0.0f, &context, soa}.run()));
  EXPECT_FALSE((SamplePackedClipJob{&f.packed, 0.0f, nullptr, soa}.run()));
  EXPECT_FALSE((SamplePackedClipJob{&f.packed, 0.0f, &context, short_soa}.run()));
  std::vector<JointRows> models(9), palette(9), short_rows(8);
  EXPECT_TRUE((SoaPaletteJob{&f.soa, soa, glm::mat4(1.0f), models, {}, palette}.run()));
  EXPECT_FALSE((SoaPaletteJob{nullptr, soa, glm::mat4(1.0f), models, {}, palette}.run()));
  EXPECT_FALSE((SoaPaletteJob{&f.soa, short_soa, glm::mat4(1.0f), models, {}, palette}.run()));
  EXPECT_FALSE((SoaPaletteJob{&f.soa, soa, glm::mat4(1.0f), short_rows, {}, palette}.run()));
  EXPECT_FALSE((SoaPaletteJob{&f.soa, soa, glm::mat4(1.0f), models, {}, short_rows}.run()));
  const std::vector<uint16_t> bad = {9};
  std::vector<JointRows> one(1);
  EXPECT_FALSE((SoaPaletteJob{&f.soa, soa, glm::mat4(1.0f), models, bad, one}.run()));
}

}  // namespace
}  // namespace throng
