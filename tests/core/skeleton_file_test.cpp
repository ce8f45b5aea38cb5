// Tests of the skeleton file: bit-exact round trips, identical palettes, and every rejection rule.
#include "throng/core/skeleton_file.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "support/test_support.h"
#include "throng/core/pose.h"

namespace throng {
namespace {

RawJoint makeJoint(std::string name, std::string parent, glm::vec3 t, glm::quat r, glm::vec3 s) {
  RawJoint j;
  j.name = std::move(name);
  j.parent = std::move(parent);
  j.rest.translation = t;
  j.rest.rotation = glm::normalize(r);
  j.rest.scale = s;
  return j;
}

// A small tree with awkward names, non-trivial rotations, non-uniform scales and floats that have
// no short decimal form; inverse binds are the inverse rest model matrices.
Skeleton makeCodeSkeleton() {
  RawSkeleton raw;
  raw.joints = {
      makeJoint("root", "", {0.1f, 0.2f, 0.3f}, glm::quat(0.9f, 0.1f, -0.2f, 0.3f), {1, 1, 1}),
      makeJoint("left arm", "root", {1.0f / 3.0f, 2.0f / 7.0f, -1e-7f},
                glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3))), {1.5f, 0.75f, 1.0f}),
      makeJoint("he said \"hi\"\\", "left arm", {0.0f, 0.5f, 0.0f}, glm::quat(1, 0, 0, 0),
                {2.0f, 2.0f, 2.0f}),
      makeJoint("tab\there\nnewline", "root", {-0.25f, 1e-20f, 123456.789f},
                glm::angleAxis(-2.5f, glm::vec3(0, 1, 0)), {-1.0f, 1.0f, 1.0f}),
      makeJoint("utf8 \xc3\xa9l\xc3\xa9ment #1", "tab\there\nnewline", {0, -0.0f, 0.0f},
                glm::angleAxis(3.0f, glm::vec3(0, 0, 1)), {1, 1, 1}),
      makeJoint("second root", "", {5, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}),
  };
  // Inverse binds from the rest model matrices.
  Result<Skeleton> built = buildSkeleton(raw, "code");
  EXPECT_TRUE(built.ok()) << built.status().toString();
  std::vector<glm::mat4> models(built->jointCount());
  for (int i = 0; i < built->jointCount(); ++i) {
    const int p = built->parents()[i];
    models[i] = (p == kNoParent ? glm::mat4(1.0f) : models[p]) * toMatrix(built->restPoses()[i]);
  }
  RawSkeleton with_binds = toRaw(*built);
  for (size_t i = 0; i < with_binds.joints.size(); ++i) {
    with_binds.joints[i].inverse_bind = glm::inverse(models[i]);
  }
  Result<Skeleton> final_skeleton = buildSkeleton(with_binds, "code");
  EXPECT_TRUE(final_skeleton.ok()) << final_skeleton.status().toString();
  return std::move(final_skeleton).value();
}

template <typename T>
bool bitEqual(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

void expectSameSkeleton(const Skeleton& a, const Skeleton& b) {
  ASSERT_EQ(a.jointCount(), b.jointCount());
  for (int i = 0; i < a.jointCount(); ++i) {
    SCOPED_TRACE(a.names()[i]);
    EXPECT_EQ(a.names()[i], b.names()[i]);
    EXPECT_EQ(a.parents()[i], b.parents()[i]);
    EXPECT_TRUE(bitEqual(a.restPoses()[i].translation, b.restPoses()[i].translation));
    EXPECT_TRUE(bitEqual(a.restPoses()[i].rotation, b.restPoses()[i].rotation));
    EXPECT_TRUE(bitEqual(a.restPoses()[i].scale, b.restPoses()[i].scale));
    EXPECT_TRUE(bitEqual(a.inverseBinds()[i], b.inverseBinds()[i]));
  }
}

// Rest palette, and the palette of `clip` at several times, must be bitwise identical.
void expectSamePalettes(const Skeleton& a, const Skeleton& b, const Clip* clip) {
  ASSERT_EQ(a.jointCount(), b.jointCount());
  PoseScratch scratch_a, scratch_b;
  scratch_a.resize(a.jointCount());
  scratch_b.resize(b.jointCount());
  std::vector<JointRows> pa(a.jointCount()), pb(b.jointCount());
  std::vector<float> times = {0.0f};
  if (clip != nullptr) {
    for (int k = 0; k <= 8; ++k) times.push_back(clip->start_time + clip->duration() * k / 8.0f);
  }
  for (size_t t = 0; t < times.size(); ++t) {
    const Clip* c = t == 0 ? nullptr : clip;
    evaluatePalette(a, c, times[t], scratch_a, pa);
    evaluatePalette(b, c, times[t], scratch_b, pb);
    EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(JointRows)), 0)
        << "palettes differ at time " << times[t] << (c ? " of the clip" : " (rest pose)");
  }
}

// A clip that moves every joint of `skeleton`: rotations about varying axes over 1 second.
Clip makeWiggleClip(const Skeleton& skeleton) {
  Clip clip;
  clip.name = "wiggle";
  clip.joints.resize(skeleton.jointCount());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    QuatTrack& track = clip.joints[j].rotation;
    for (int k = 0; k <= 10; ++k) {
      const float t = k / 10.0f;
      track.times.push_back(t);
      track.values.push_back(skeleton.restPoses()[j].rotation *
                             glm::angleAxis(0.3f * std::sin(6.0f * t + j),
                                            glm::normalize(glm::vec3(1.0f, j + 1.0f, 0.5f))));
    }
  }
  updateClipRange(clip);
  return clip;
}

TEST(SkeletonFile, RoundTripIsBitExactOnACodeBuiltSkeleton) {
  const Skeleton skeleton = makeCodeSkeleton();
  const std::string text = formatSkeletonText(skeleton);
  EXPECT_EQ(text.rfind("throng-skeleton 1\njoints 6\n", 0), 0u) << text;
  Result<Skeleton> back = parseSkeletonText(text, "code.skel");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSameSkeleton(skeleton, *back);
  EXPECT_EQ(formatSkeletonText(*back), text);
  const Clip clip = makeWiggleClip(skeleton);
  expectSamePalettes(skeleton, *back, &clip);
}

TEST(SkeletonFile, RoundTripOnTheChainCharacterKeepsItsClipPalettes) {
  const Character chain = test::makeChainCharacter();
  Result<Skeleton> back = parseSkeletonText(formatSkeletonText(chain.skeleton), "chain.skel");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSameSkeleton(chain.skeleton, *back);
  ASSERT_FALSE(chain.clips.empty());
  for (const Clip& clip : chain.clips) expectSamePalettes(chain.skeleton, *back, &clip);
}

TEST(SkeletonFile, NamesAreQuotedAndEscaped) {
  const Skeleton skeleton = makeCodeSkeleton();
  const std::string text = formatSkeletonText(skeleton);
  EXPECT_NE(text.find("joint \"left arm\"\n"), std::string::npos);
  EXPECT_NE(text.find("joint \"he said \\\"hi\\\"\\\\\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("joint \"tab\\x09here\\x0anewline\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("parent -\n"), std::string::npos);
}

TEST(SkeletonFile, WritesThroughATempFileAndReadsBack) {
  const auto dir = test::makeTempDir("skeleton_file");
  const std::string path = (dir / "rig.skel").string();
  const Skeleton skeleton = makeCodeSkeleton();
  ASSERT_TRUE(writeSkeletonFile(skeleton, path).ok());
  // Only the file itself is left in the folder (no temporary file).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  // Overwriting an existing file works too.
  ASSERT_TRUE(writeSkeletonFile(skeleton, path).ok());
  Result<Skeleton> back = readSkeletonFile(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSameSkeleton(skeleton, *back);
  EXPECT_EQ(test::readFile(path), formatSkeletonText(skeleton));
}

TEST(SkeletonFile, ReportsIoErrors) {
  const auto dir = test::makeTempDir("skeleton_file_io");
  const std::string missing_dir = (dir / "no" / "such" / "rig.skel").string();
  const Status write = writeSkeletonFile(makeCodeSkeleton(), missing_dir);
  EXPECT_EQ(write.code(), ErrorCode::kIoError);
  EXPECT_NE(write.message().find(missing_dir), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(missing_dir));
  Result<Skeleton> read = readSkeletonFile((dir / "absent.skel").string());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), ErrorCode::kIoError);
  EXPECT_NE(read.status().message().find("absent.skel"), std::string::npos);
}

TEST(SkeletonFile, AcceptsCommentsBlankLinesCrLfAndAnyJointOrder) {
  const std::string text =
      "# a hand-written file\r\n"
      "throng-skeleton 1\r\n"
      "\r\n"
      "joints 2\r\n"
      "joint \"tip\"\r\n"
      "  parent \"base\"\r\n"
      "  children 0\r\n"
      "  translation 0 1 0\r\n"
      "  rotation 0 0 0 1\r\n"
      "  scale 1 1 1\r\n"
      "  matrix 1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1\r\n"
      "  inverse_bind 1 0 0 0 0 1 0 -1 0 0 1 0 0 0 0 1\r\n"
      "joint \"base\"\r\n"
      "  parent -\r\n"
      "  children 1 \"tip\"\r\n"
      "  translation 0 0 0\r\n"
      "  rotation 0 0 0 1\r\n"
      "  scale 1 1 1\r\n"
      "  matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\r\n"
      "  inverse_bind 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\r\n"
      "end\r\n"
      "# trailing comment\r\n";
  Result<Skeleton> s = parseSkeletonText(text, "hand.skel");
  ASSERT_TRUE(s.ok()) << s.status().toString();
  ASSERT_EQ(s->jointCount(), 2);
  EXPECT_EQ(s->names()[0], "base");
  EXPECT_EQ(s->names()[1], "tip");
  EXPECT_EQ(s->parents()[1], 0);
  EXPECT_EQ(s->inverseBinds()[1][3][1], -1.0f);
}

TEST(SkeletonFile, ChildListsSetTheSiblingOrder) {
  const std::string text = R"(throng-skeleton 1
joints 3
joint "r"
parent -
children 2 "b" "a"
translation 0 0 0
rotation 0 0 0 1
scale 1 1 1
matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
inverse_bind 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
joint "a"
parent "r"
children 0
translation 0 0 0
rotation 0 0 0 1
scale 1 1 1
matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
inverse_bind 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
joint "b"
parent "r"
children 0
translation 0 0 0
rotation 0 0 0 1
scale 1 1 1
matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
inverse_bind 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
end
)";
  Result<Skeleton> s = parseSkeletonText(text, "order.skel");
  ASSERT_TRUE(s.ok()) << s.status().toString();
  EXPECT_EQ(s->names()[1], "b");
  EXPECT_EQ(s->names()[2], "a");
}

// ---------------------------------------------------------------------------------------------
// Rejections: each edits one line of a valid file and expects the code and "file:line: ".

// A 3-joint chain: "root" -> "mid" -> "tip". Lines (1-based):
//  1 magic, 2 joints, 3-10 root, 11-18 mid, 19-26 tip, 27 end.
// Within a joint block starting at line b: b joint, b+1 parent, b+2 children, b+3 translation,
// b+4 rotation, b+5 scale, b+6 matrix, b+7 inverse_bind.
std::vector<std::string> validLines() {
  RawSkeleton raw;
  raw.joints = {makeJoint("root", "", {0, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}),
                makeJoint("mid", "root", {0, 1, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}),
                makeJoint("tip", "mid", {0, 1, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1})};
  Result<Skeleton> s = buildSkeleton(raw);
  EXPECT_TRUE(s.ok());
  std::vector<std::string> lines;
  std::istringstream in(formatSkeletonText(*s));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines.size(), 27u);
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

void expectRejected(const std::string& text, ErrorCode code, int line,
                    const std::string& fragment) {
  Result<Skeleton> s = parseSkeletonText(text, "rig.skel");
  ASSERT_FALSE(s.ok()) << "accepted:\n" << text;
  EXPECT_EQ(s.status().code(), code) << s.status().toString();
  const std::string prefix = "rig.skel:" + std::to_string(line) + ": ";
  EXPECT_EQ(s.status().message().rfind(prefix, 0), 0u)
      << "expected prefix '" << prefix << "' in: " << s.status().message();
  EXPECT_NE(s.status().message().find(fragment), std::string::npos) << s.status().message();
}

// Replaces line `number` (1-based) and checks the rejection.
void expectLineRejected(int number, const std::string& replacement, ErrorCode code,
                        const std::string& fragment, int error_line = 0) {
  std::vector<std::string> lines = validLines();
  lines[number - 1] = replacement;
  expectRejected(joinLines(lines), code, error_line ? error_line : number, fragment);
}

TEST(SkeletonFileRejects, TheValidBaseFileIsAccepted) {
  Result<Skeleton> s = parseSkeletonText(joinLines(validLines()), "rig.skel");
  ASSERT_TRUE(s.ok()) << s.status().toString();
  EXPECT_EQ(s->jointCount(), 3);
}

TEST(SkeletonFileRejects, WrongMagic) {
  expectLineRejected(1, "throng-skelly 1", ErrorCode::kParseError, "not a throng skeleton file");
  expectRejected("", ErrorCode::kParseError, 1, "empty file");
}

TEST(SkeletonFileRejects, UnknownVersion) {
  expectLineRejected(1, "throng-skeleton 2", ErrorCode::kVersionMismatch, "version 2");
  expectLineRejected(1, "throng-skeleton one", ErrorCode::kParseError, "not a non-negative");
}

TEST(SkeletonFileRejects, MissingParent) {
  expectLineRejected(12, "parent \"ghost\"", ErrorCode::kInvalidData, "\"ghost\" of joint \"mid\"");
}

TEST(SkeletonFileRejects, MissingChild) {
  expectLineRejected(5, "children 1 \"ghost\"", ErrorCode::kInvalidData,
                     "child \"ghost\" of joint \"root\" is not a joint");
}

TEST(SkeletonFileRejects, ChildCountMismatch) {
  expectLineRejected(5, "children 2 \"mid\"", ErrorCode::kInvalidData, "declares 2 children");
  expectLineRejected(5, "children 0 \"mid\"", ErrorCode::kInvalidData, "declares 0 children");
}

TEST(SkeletonFileRejects, ChildListedUnderTheWrongParent) {
  // root lists tip (whose parent is mid) as well as mid.
  expectLineRejected(5, "children 2 \"mid\" \"tip\"", ErrorCode::kInvalidData,
                     "lists child \"tip\", but the parent of \"tip\" is \"mid\"");
}

TEST(SkeletonFileRejects, ParentThatDoesNotListItsChild) {
  expectLineRejected(13, "children 0", ErrorCode::kInvalidData,
                     "\"mid\" does not list its child \"tip\"");
}

TEST(SkeletonFileRejects, DuplicateChildInAList) {
  expectLineRejected(5, "children 2 \"mid\" \"mid\"", ErrorCode::kInvalidData, "twice");
}

TEST(SkeletonFileRejects, DuplicateJointName) {
  // Rename "tip" to "mid" consistently (the duplicate is found first).
  std::vector<std::string> lines = validLines();
  lines[18] = "joint \"mid\"";
  lines[12] = "children 1 \"mid\"";
  expectRejected(joinLines(lines), ErrorCode::kInvalidData, 19, "duplicate joint name \"mid\"");
}

TEST(SkeletonFileRejects, Cycle) {
  // root becomes a child of tip: parents and child lists agree, but there is no root.
  std::vector<std::string> lines = validLines();
  lines[3] = "parent \"tip\"";
  lines[20] = "children 1 \"root\"";
  expectRejected(joinLines(lines), ErrorCode::kInvalidData, 4, "cycle");
  // A joint that is its own parent.
  lines = validLines();
  lines[19] = "parent \"tip\"";
  lines[20] = "children 1 \"tip\"";
  lines[12] = "children 0";
  expectRejected(joinLines(lines), ErrorCode::kInvalidData, 20, "cycle");
}

TEST(SkeletonFileRejects, NonFiniteNumbers) {
  expectLineRejected(14, "translation 0 nan 0", ErrorCode::kInvalidData, "not finite");
  expectLineRejected(15, "rotation 0 0 0 inf", ErrorCode::kInvalidData, "not finite");
  expectLineRejected(16, "scale 1 -inf 1", ErrorCode::kInvalidData, "not finite");
  expectLineRejected(18, "inverse_bind 1 0 0 0 0 1 0 -1 0 0 1 0 0 0 0 NaN", ErrorCode::kInvalidData,
                     "not finite");
  // A number too large for a float overflows: also rejected, never read as inf.
  expectLineRejected(14, "translation 0 1e39 0", ErrorCode::kInvalidData, "out of the float range");
}

TEST(SkeletonFileRejects, GarbageNumbers) {
  expectLineRejected(14, "translation 0 1x 0", ErrorCode::kParseError, "('1x') is not a number");
  expectLineRejected(14, "translation 0 abc 0", ErrorCode::kParseError, "not a number");
  expectLineRejected(14, "translation 0 \"1\" 0", ErrorCode::kParseError, "not a number");
  expectLineRejected(2, "joints -3", ErrorCode::kParseError, "not a non-negative integer");
}

TEST(SkeletonFileRejects, WrongCountOfNumbers) {
  expectLineRejected(14, "translation 0 1", ErrorCode::kParseError, "expected 3 numbers");
  expectLineRejected(15, "rotation 0 0 0 1 0", ErrorCode::kParseError, "expected 4 numbers");
  expectLineRejected(17, "matrix 1 0 0 0", ErrorCode::kParseError, "expected 16 numbers");
}

TEST(SkeletonFileRejects, Truncation) {
  const std::vector<std::string> lines = validLines();
  // Cut inside the last joint block: after its translation line (line 22).
  std::vector<std::string> cut(lines.begin(), lines.begin() + 22);
  expectRejected(joinLines(cut), ErrorCode::kParseError, 22, "truncated");
  // Cut in the middle of a line of numbers.
  cut = std::vector<std::string>(lines.begin(), lines.begin() + 26);
  cut.back() = cut.back().substr(0, cut.back().size() / 2);
  expectRejected(joinLines(cut), ErrorCode::kParseError, 26, "expected 16 numbers");
  // Missing 'end'.
  cut = std::vector<std::string>(lines.begin(), lines.end() - 1);
  expectRejected(joinLines(cut), ErrorCode::kParseError, 26, "expected 'end'");
  // 'end' after two of three joints.
  cut = std::vector<std::string>(lines.begin(), lines.begin() + 18);
  cut.push_back("end");
  expectRejected(joinLines(cut), ErrorCode::kInvalidData, 19, "fewer joints than the 3");
}

TEST(SkeletonFileRejects, MoreJointsThanDeclared) {
  expectLineRejected(2, "joints 2", ErrorCode::kInvalidData, "more joints than the 2", 19);
}

TEST(SkeletonFileRejects, TooManyJoints) {
  expectLineRejected(2, "joints " + std::to_string(kMaxJoints + 1), ErrorCode::kLimitExceeded,
                     "limit");
}

TEST(SkeletonFileRejects, MatrixThatDisagreesWithTrs) {
  expectLineRejected(17, "matrix 1 0 0 0 0 1 0 1.5 0 0 1 0 0 0 0 1", ErrorCode::kInvalidData,
                     "disagrees");
}

TEST(SkeletonFileRejects, NonInvertibleInverseBind) {
  expectLineRejected(18, "inverse_bind 1 0 0 0 0 0 0 0 0 0 1 0 0 0 0 1", ErrorCode::kInvalidData,
                     "not invertible");
}

TEST(SkeletonFileRejects, BadQuaternion) {
  expectLineRejected(15, "rotation 0 0 0 0", ErrorCode::kInvalidData, "unit quaternion");
}

TEST(SkeletonFileRejects, BadNames) {
  expectLineRejected(11, "joint mid", ErrorCode::kParseError, "double quotes");
  expectLineRejected(11, "joint \"mid", ErrorCode::kParseError, "unterminated");
  expectLineRejected(11, "joint \"m\\qid\"", ErrorCode::kParseError, "bad escape");
  expectLineRejected(11, "joint \"m\\x4gid\"", ErrorCode::kParseError, "two hex digits");
  expectLineRejected(11, "joint \"\"", ErrorCode::kInvalidData, "empty joint name");
  expectLineRejected(11, "joint \"mid\" \"extra\"", ErrorCode::kParseError, "exactly one");
}

TEST(SkeletonFileRejects, UnexpectedKeywordAndTrailingText) {
  expectLineRejected(14, "translate 0 1 0", ErrorCode::kParseError, "expected 'translation'");
  std::vector<std::string> lines = validLines();
  lines.push_back("joint \"extra\"");
  expectRejected(joinLines(lines), ErrorCode::kParseError, 28, "after 'end'");
}

}  // namespace
}  // namespace throng
