// The 32-byte instance record: what it keeps of an instance, and how much it rounds.
#include "render/instance_record.h"

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace throng::render {
namespace {

constexpr float kPi = 3.14159265358979f;

// The angle between two headings, wrapped to [0, pi].
float headingError(float a, float b) {
  const float d = std::fmod(std::abs(a - b), 2.0f * kPi);
  return std::min(d, 2.0f * kPi - d);
}

TEST(InstanceRecord, KeepsEveryFieldWithinItsRounding) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int i = 0; i < 2000; ++i) {
    Instance in;
    in.placement.position = glm::vec3(unit(random), unit(random), unit(random)) * 2000.0f - 1000.0f;
    in.placement.heading = (unit(random) * 2.0f - 1.0f) * kPi;
    in.placement.scale = 0.25f + 3.0f * unit(random);
    in.frames.primary = {static_cast<uint32_t>(i * 7), static_cast<uint32_t>(i * 7 + 1),
                         unit(random)};
    in.frames.secondary = {static_cast<uint32_t>(i * 3), static_cast<uint32_t>(i * 3 + 1),
                           unit(random)};
    in.frames.fade = unit(random);
    in.tint = glm::vec4(unit(random), unit(random), unit(random), unit(random));
    in.variant = static_cast<uint16_t>(i % 40);
    in.state = static_cast<uint8_t>(i % 5);
    in.attachments = static_cast<uint32_t>(i * 37) & 0xffffu;
    const Instance out = decodeInstanceRecord(encodeInstanceRecord(in, 65535));
    EXPECT_EQ(out.placement.position, in.placement.position);  // full floats
    // Half a step of 1/65,536 of a turn.
    EXPECT_LE(headingError(out.placement.heading, in.placement.heading), kPi / 65536.0f * 1.01f);
    // A half float's rounding: 2^-11 of the value.
    EXPECT_LE(std::abs(out.placement.scale - in.placement.scale), in.placement.scale / 2048.0f);
    EXPECT_EQ(out.frames.primary.frame_a, in.frames.primary.frame_a);
    EXPECT_EQ(out.frames.primary.frame_b, in.frames.primary.frame_b);
    EXPECT_EQ(out.frames.secondary.frame_a, in.frames.secondary.frame_a);
    EXPECT_EQ(out.frames.secondary.frame_b, in.frames.secondary.frame_b);
    // Half a step of 1/255.
    constexpr float kByteRounding = 0.5f / 255.0f + 1e-6f;
    EXPECT_LE(std::abs(out.frames.primary.blend - in.frames.primary.blend), kByteRounding);
    EXPECT_LE(std::abs(out.frames.secondary.blend - in.frames.secondary.blend), kByteRounding);
    EXPECT_LE(std::abs(out.frames.fade - in.frames.fade), kByteRounding);
    for (int c = 0; c < 4; ++c) EXPECT_LE(std::abs(out.tint[c] - in.tint[c]), kByteRounding);
    EXPECT_EQ(out.variant, in.variant);
    EXPECT_EQ(out.state, in.state);
    EXPECT_EQ(out.attachments, in.attachments);  // every prop's bit, beside the state
  }
}

TEST(InstanceRecord, ClampsFramesAndOutOfRangeValues) {
  Instance in;
  in.frames.primary = {10, 500, 2.0f};
  in.frames.secondary = {100000, 3, std::numeric_limits<float>::quiet_NaN()};
  in.frames.fade = -1.0f;
  in.tint = glm::vec4(-0.5f, 2.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f);
  in.variant = 1000;
  in.placement.heading = std::numeric_limits<float>::infinity();
  in.attachments = 0xfff0005u;  // past kMaxAttachments bits: only those are kept
  const InstanceRecord record = encodeInstanceRecord(in, 299);
  EXPECT_EQ(decodeInstanceRecord(record).attachments, 0x0005u);
  EXPECT_EQ(record.reserved, 0);
  EXPECT_EQ(record.frames[0], 10);
  EXPECT_EQ(record.frames[1], 299);  // past the last frame: the last frame
  EXPECT_EQ(record.frames[2], 299);
  EXPECT_EQ(record.frames[3], 3);
  EXPECT_EQ(record.blends[0], 255);
  EXPECT_EQ(record.blends[1], 0);  // NaN
  EXPECT_EQ(record.fade, 0);
  EXPECT_EQ(record.tint[0], 0);
  EXPECT_EQ(record.tint[1], 255);
  EXPECT_EQ(record.tint[2], 0);
  EXPECT_EQ(record.tint[3], 255);
  EXPECT_EQ(record.appearance, kMaxRecordAppearances - 1);
  EXPECT_EQ(record.heading, 0);
}

TEST(InstanceRecord, WrapsHeadingsOfAnyTurn) {
  for (const float heading : {0.0f, 0.5f, -2.5f, kPi, -kPi, 3.0f * kPi + 0.25f, -40.0f, 1.0e5f}) {
    Instance in;
    in.placement.heading = heading;
    const Instance out = decodeInstanceRecord(encodeInstanceRecord(in, 0));
    EXPECT_GE(out.placement.heading, -kPi);
    EXPECT_LT(out.placement.heading, kPi);
    // The rounding grows with the float's own step for large headings.
    EXPECT_LE(headingError(out.placement.heading, heading), 2e-4f + std::abs(heading) * 1e-6f)
        << heading;
  }
}

TEST(InstanceRecord, UntintedAndUnscaledInstancesTakeTheirShortcuts) {
  Instance in;  // tint 1, scale 1
  const InstanceRecord record = encodeInstanceRecord(in, 0);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(record.tint[c], 255);
  EXPECT_EQ(decodeInstanceRecord(record).placement.scale, 1.0f);
}

}  // namespace
}  // namespace throng::render
