// Tests of animation events from a sidecar JSON: parsing, matching by clip name, import and bake.
#include "offline/clip_events.h"

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

TEST(ClipEvents, SidecarPathReplacesTheExtension) {
  EXPECT_EQ(clipEventsSidecarPath("dir/Hero.glb"), "dir/Hero.events.json");
  EXPECT_EQ(clipEventsSidecarPath("a.b/Hero.gltf"), "a.b/Hero.events.json");
  EXPECT_EQ(clipEventsSidecarPath("a.b/Hero"), "a.b/Hero.events.json");
}

TEST(ClipEvents, ParsesAndAddsEventsSortedByTime) {
  Result<ClipEventTable> table = parseClipEvents(
      R"({"events": {"bend": [{"name": "late", "time": 0.75}, {"name": "early", "time": 0.25}]}})",
      "chain.events.json");
  ASSERT_TRUE(table.ok()) << table.status().toString();
  Character chain = test::makeChainCharacter();
  ASSERT_TRUE(addClipEvents(chain, *table, "chain.events.json").ok());
  ASSERT_EQ(chain.clips[0].events.size(), 2u);
  EXPECT_EQ(chain.clips[0].events[0].name, "early");
  EXPECT_EQ(chain.clips[0].events[1].name, "late");
  EXPECT_FLOAT_EQ(chain.clips[0].events[1].time, 0.75f);
}

TEST(ClipEvents, ErrorsNameTheFileTheClipAndTheEvent) {
  struct Case {
    const char* json;
    ErrorCode code;
    const char* needle;
  };
  const Case cases[] = {
      {"{", ErrorCode::kParseError, "e.json: not valid JSON"},
      {R"({"bend": []})", ErrorCode::kParseError, "\"events\" object"},
      {R"({"events": {"bend": 3}})", ErrorCode::kParseError, "clip 'bend': expected a list"},
      {R"({"events": {"bend": [{"name": "x"}]}})", ErrorCode::kParseError, "clip 'bend' event 0"},
      {R"({"events": {"bend": [{"name": "", "time": 0}]}})", ErrorCode::kInvalidData, "empty name"},
      {R"({"events": {"bend": [{"name": "x", "time": -1}]}})", ErrorCode::kInvalidData,
       "event 0 ('x'): time must be seconds >= 0"},
      {R"({"events": {"jump": [{"name": "x", "time": 0}]}})", ErrorCode::kInvalidArgument,
       "e.json: events for clip 'jump', which the character lacks (clips: bend)"},
      {R"({"events": {"bend": [{"name": "x", "time": 5}]}})", ErrorCode::kInvalidData,
       "clip 'bend' event 0 ('x'): time 5 s is outside the clip"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    Character chain = test::makeChainCharacter();
    Result<ClipEventTable> table = parseClipEvents(c.json, "e.json");
    const Status s = table.ok() ? addClipEvents(chain, *table, "e.json") : table.status();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), c.code) << s.toString();
    EXPECT_NE(s.message().find(c.needle), std::string::npos) << s.message();
  }
}

TEST(ClipEvents, ImportReadsTheSidecarAndTheBakeKeepsTheEvents) {
  const auto dir = test::makeTempDir("clip-events");
  const std::string glb = (dir / "chain.glb").string();
  ASSERT_TRUE(writeGltf(test::makeChainCharacter(), glb).ok());
  Result<Character> plain = importGltf(glb);
  ASSERT_TRUE(plain.ok()) << plain.status().toString();
  EXPECT_TRUE(plain->clips[0].events.empty());

  test::writeFile(dir / "chain.events.json",
                  R"({"events": {"bend": [{"name": "tip", "time": 0.5}]}})");
  Result<Character> with = importGltf(glb);
  ASSERT_TRUE(with.ok()) << with.status().toString();
  ASSERT_EQ(with->clips[0].events.size(), 1u);
  EXPECT_EQ(with->clips[0].events[0].name, "tip");
  ImportOptions no_sidecar;
  no_sidecar.event_sidecar = false;
  EXPECT_TRUE(importGltf(glb, no_sidecar)->clips[0].events.empty());

  Result<Package> package = bakeCharacter(*with, BakeOptions{});
  ASSERT_TRUE(package.ok()) << package.status().toString();
  ASSERT_EQ(package->clips[0].events.size(), 1u);
  EXPECT_FLOAT_EQ(package->clips[0].events[0].time, 0.5f);

  test::writeFile(dir / "chain.events.json", R"({"events": {"nope": []}})");
  Result<Character> bad = importGltf(glb);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("chain.events.json: events for clip 'nope'"),
            std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace throng
