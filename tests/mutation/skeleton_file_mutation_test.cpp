// Mutation test of the skeleton file reader: damaged bytes, lost and repeated lines, hostile
// numbers and counts, each ending in a skeleton that round-trips or one clear line.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mutation/mutator.h"
#include "support/test_support.h"
#include "throng/core/skeleton_file.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string join(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

// Line-level damage: a line lost, repeated or moved, or one of its words replaced by a hostile
// number (counts a billion or negative, floats out of range or not numbers).
std::string mutateLines(const std::string& text, std::mt19937_64& rng) {
  std::vector<std::string> ls = lines(text);
  if (ls.empty()) return text;
  const size_t i = rng() % ls.size();
  switch (rng() % 5) {
    case 0:
      ls.erase(ls.begin() + static_cast<long>(i));
      break;
    case 1:
      ls.insert(ls.begin() + static_cast<long>(i), ls[rng() % ls.size()]);
      break;
    case 2:
      std::swap(ls[i], ls[rng() % ls.size()]);
      break;
    default: {
      static const char* kWords[] = {
          "1000000000", "-1", "4294967296",           "nan",  "inf", "1e39", "-0", "0x10",
          "\"x\"",      "",   "99999999999999999999", "1e-46"};
      std::vector<std::string> words;
      std::istringstream in(ls[i]);
      for (std::string w; in >> w;) words.push_back(w);
      if (words.size() < 2) break;
      words[1 + rng() % (words.size() - 1)] = kWords[rng() % std::size(kWords)];
      std::string line;
      for (const std::string& w : words) line += (line.empty() ? "" : " ") + w;
      ls[i] = line;
      break;
    }
  }
  return join(ls);
}

// Shared characters whose skeleton files are mutated too (required: THRONG_REQUIRE_ASSET).
constexpr const char* kSkeletonAssets[] = {"CesiumMan/CesiumMan.glb",
                                           "QuaterniusCharacter/Character.glb"};

std::vector<std::pair<std::string, std::string>> skeletonFiles() {
  std::vector<std::pair<std::string, std::string>> out = {
      {"sample.skel", formatSkeletonText(makeSampleCharacter().skeleton)},
      {"chain.skel", formatSkeletonText(test::makeChainCharacter().skeleton)}};
  for (const char* asset : kSkeletonAssets) {
    Result<Character> c = importGltf(test::assetPath(asset).string());
    EXPECT_TRUE(c.ok()) << c.status().toString();
    if (c.ok()) out.emplace_back(std::string(asset) + ".skel", formatSkeletonText(c->skeleton));
  }
  return out;
}

TEST(SkeletonFileMutation, EveryMutationEndsInARoundTripOrOneClearLine) {
  for (const char* asset : kSkeletonAssets) THRONG_REQUIRE_ASSET(asset);
  for (const auto& [name, text] : skeletonFiles()) {
    int ok = 0;
    for (int i = 0; i < test::kMutationsPerInput; ++i) {
      std::mt19937_64 rng = test::mutationRng(name, i);
      const std::string label = name + " mutation " + std::to_string(i);
      const std::string mutated =
          rng() % 2 == 0 ? test::mutateBytes(text, rng) : mutateLines(text, rng);
      test::expectWithinTimeLimit(
          [&] {
            Result<Skeleton> s = parseSkeletonText(mutated, name);
            test::expectCleanOutcome(s.ok(), s.status(), name, label);
            if (s.ok()) {
              ++ok;
              // What the reader accepts, the writer writes back to text that reads the same.
              const std::string again = formatSkeletonText(*s);
              Result<Skeleton> reread = parseSkeletonText(again, name);
              ASSERT_TRUE(reread.ok()) << label << ": " << reread.status().message();
              EXPECT_EQ(formatSkeletonText(*reread), again) << label;
            }
          },
          label);
      if (HasFailure()) return;
    }
    RecordProperty(name, ok);
  }
}

TEST(SkeletonFileMutation, ABillionJointsOrChildrenAreRefusedBeforeAllocation) {
  const std::string text = formatSkeletonText(test::makeChainCharacter().skeleton);
  std::string joints = text;
  joints.replace(joints.find("joints 3"), 8, "joints 1000000000");
  Result<Skeleton> a = parseSkeletonText(joints, "big.skel");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(a.status().message(), "big.skel:2: 1000000000 joints is more than the limit of 1024");
  std::string children = text;
  children.replace(children.find("children 1"), 10, "children 1000000000");
  Result<Skeleton> b = parseSkeletonText(children, "big.skel");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(),
            "big.skel:5: joint \"root\" declares 1000000000 children but "
            "lists 1");
}

}  // namespace
}  // namespace throng
