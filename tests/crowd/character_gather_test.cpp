// Tests of mixed crowds: agents of several characters with their own clips and ClipSets, and
// CharacterGatherJob gathering one character's agents for its renderer.
#include "throng/crowd/character_gather.h"

#include <gtest/gtest.h>

#include "throng/crowd/crowd.h"

namespace throng {
namespace {

std::vector<BakedClip> clipsNamed(std::initializer_list<const char*> names, float duration) {
  std::vector<BakedClip> clips;
  for (const char* name : names) {
    BakedClip clip;
    clip.name = name;
    clip.duration = duration;
    clips.push_back(clip);
  }
  return clips;
}

TEST(MixedCrowd, EachAgentPlaysItsOwnCharactersClipsAndSpeeds) {
  auto knight = clipsNamed({"Idle", "Walk", "Run", "Attack", "Die"}, 1.0f);
  knight[3].events = {{"hit", 0.5f}};
  knight[3].loop = false;
  const auto ghost = clipsNamed({"Float"}, 2.0f);  // one clip: every state
  ClipSet knight_set = clipSetByName(knight).value();
  knight_set.walk_speed = 2.0f;
  ClipSet ghost_set = clipSetByName(ghost).value();
  ghost_set.walk_speed = 0.5f;
  const CrowdCharacter characters[] = {{knight, knight_set}, {ghost, ghost_set}};
  Crowd crowd(characters);
  ASSERT_EQ(crowd.characterCount(), 2);
  const uint32_t k = crowd.addAgent({}, 0.0f, 0, 3);
  const uint32_t g = crowd.addAgent({}, 0.0f, 1, 5);
  EXPECT_EQ(crowd.agentCharacters()[g], 1);
  EXPECT_EQ(crowd.variants()[k], 3);
  EXPECT_EQ(crowd.variants()[g], 5);
  EXPECT_EQ(crowd.clips(1).size(), 1u);
  EXPECT_EQ(crowd.clips(0)[3].name, "Attack");

  crowd.submit({k, CommandType::kWalkTo, glm::vec2(0, 10)});
  crowd.submit({g, CommandType::kWalkTo, glm::vec2(0, 10)});
  crowd.submit({g, CommandType::kPlay, {}, 2});  // the ghost has no clip 2: dropped
  crowd.update(1.0f);
  EXPECT_EQ(crowd.droppedCommands(), 1u);
  EXPECT_NEAR(crowd.placements()[k].position.z, 2.0f, 1e-5f);
  EXPECT_NEAR(crowd.placements()[g].position.z, 0.5f, 1e-5f);
  EXPECT_EQ(crowd.playback()[k].clip, 1);  // the knight's walk
  EXPECT_EQ(crowd.playback()[g].clip, 0);  // the ghost's only clip

  crowd.submit({k, CommandType::kAttack});
  crowd.update(0.6f);
  ASSERT_EQ(crowd.events().size(), 1u);
  EXPECT_EQ(crowd.events()[0].agent, k);
  EXPECT_EQ(crowd.clips(crowd.agentCharacters()[k])[crowd.events()[0].clip].name, "Attack");
}

// removeAgent moves the last agent into the removed one's index: its character and appearance
// move with it (they used to stay behind, giving the moved agent the removed one's).
TEST(MixedCrowd, RemovingAnAgentMovesTheLastAgentsCharacterAndAppearance) {
  const auto knight = clipsNamed({"Idle", "Walk"}, 1.0f);
  const auto ghost = clipsNamed({"Float"}, 2.0f);
  const CrowdCharacter characters[] = {{knight, clipSetByName(knight).value()},
                                       {ghost, clipSetByName(ghost).value()}};
  Crowd crowd(characters);
  crowd.addAgent({}, 0.0f, 0, 1);
  crowd.addAgent({}, 0.0f, 0, 2);
  crowd.addAgent({}, 0.0f, 1, 7);  // the ghost, last
  crowd.removeAgent(0);
  ASSERT_EQ(crowd.agentCount(), 2u);
  ASSERT_EQ(crowd.agentCharacters().size(), 2u);
  ASSERT_EQ(crowd.variants().size(), 2u);
  EXPECT_EQ(crowd.agentCharacters()[0], 1);  // the ghost moved into index 0
  EXPECT_EQ(crowd.variants()[0], 7);
  EXPECT_EQ(crowd.agentCharacters()[1], 0);
  EXPECT_EQ(crowd.variants()[1], 2);
  crowd.update(0.5f);  // the ghost plays its own (only) clip
  EXPECT_EQ(crowd.playback()[0].clip, 0);
}

TEST(CharacterGather, CopiesOneCharactersAgentsInOrder) {
  const std::vector<uint16_t> characters = {1, 0, 1, 1, 0};
  std::vector<Placement> placements(5);
  std::vector<AgentPlayback> playback(5);
  std::vector<glm::vec4> tints(5);
  for (int a = 0; a < 5; ++a) {
    placements[a].position.x = static_cast<float>(a);
    playback[a].time = 0.1f * static_cast<float>(a);
    tints[a] = glm::vec4(static_cast<float>(a));
  }
  std::vector<Placement> out_placements(5);
  std::vector<AgentPlayback> out_playback(5);
  std::vector<glm::vec4> out_tints(5);
  std::vector<uint32_t> out_agents(5);
  const std::vector<uint16_t> variants = {9, 8, 7, 6, 5};
  std::vector<uint16_t> out_variants(5);
  uint32_t count = 99;
  CharacterGatherJob job{1,          characters,     placements,   playback,
                         tints,      out_placements, out_playback, out_tints,
                         out_agents, &count,         variants,     out_variants};
  ASSERT_TRUE(job.run());
  ASSERT_EQ(count, 3u);
  EXPECT_EQ(out_agents[0], 0u);
  EXPECT_EQ(out_agents[1], 2u);
  EXPECT_EQ(out_agents[2], 3u);
  EXPECT_EQ(out_placements[1].position.x, 2.0f);
  EXPECT_FLOAT_EQ(out_playback[2].time, 0.3f);
  EXPECT_EQ(out_tints[2], glm::vec4(3.0f));
  EXPECT_EQ(out_variants[0], 9);
  EXPECT_EQ(out_variants[2], 6);

  job.character = 7;  // nobody
  ASSERT_TRUE(job.run());
  EXPECT_EQ(count, 0u);
  job.out_variants = std::span(out_variants).first(4);  // too small for five agents
  EXPECT_FALSE(job.validate());
  job.out_variants = out_variants;
  job.out_agents = std::span(out_agents).first(4);
  EXPECT_FALSE(job.validate());
  EXPECT_FALSE(job.run());
}

}  // namespace
}  // namespace throng
