// Tests of command scripts: the text format, its errors (naming the source and line), binding to
// a crowd, writing, and playing into a Crowd.
#include "throng/crowd/command_script.h"

#include <sstream>

#include <gtest/gtest.h>

namespace throng {
namespace {

std::vector<BakedClip> makeScriptClips() {
  const char* names[6] = {"idle", "walk", "run", "attack", "die", "wave hello"};
  std::vector<BakedClip> clips(6);
  for (int i = 0; i < 6; ++i) {
    clips[i].name = names[i];
    clips[i].duration = 1.0f;
    clips[i].loop = i < 3;
  }
  return clips;
}

constexpr const char* kScript = R"(# a fight
0      all     idle
0.5    3       walk-to 4.5 -2      # one agent
0.5    0..2    run-to  +1e1 0
1.25   7       attack
2      5       die
2.5    1..1    play "wave hello" loop
3      4       play 3
)";

TEST(CommandScript, ReadsEveryCommandGroupAndArgument) {
  Result<CommandScript> script = parseCommandScript(kScript, "fight.txt");
  ASSERT_TRUE(script.ok()) << script.status().toString();
  EXPECT_EQ(script->source, "fight.txt");
  const std::vector<ScriptCommand>& c = script->commands;
  ASSERT_EQ(c.size(), 7u);
  EXPECT_TRUE(c[0].agents.all);
  EXPECT_EQ(c[0].type, CommandType::kIdle);
  EXPECT_EQ(c[0].line, 2u);
  EXPECT_EQ(c[1].time, 0.5);
  EXPECT_EQ(c[1].agents.first, 3u);
  EXPECT_EQ(c[1].agents.last, 3u);
  EXPECT_EQ(c[1].type, CommandType::kWalkTo);
  EXPECT_EQ(c[1].target, glm::vec2(4.5f, -2.0f));
  EXPECT_EQ(c[2].agents.first, 0u);
  EXPECT_EQ(c[2].agents.last, 2u);
  EXPECT_EQ(c[2].type, CommandType::kRunTo);
  EXPECT_EQ(c[2].target, glm::vec2(10.0f, 0.0f));
  EXPECT_EQ(c[3].type, CommandType::kAttack);
  EXPECT_EQ(c[3].time, 1.25);
  EXPECT_EQ(c[4].type, CommandType::kDie);
  EXPECT_EQ(c[5].type, CommandType::kPlay);
  EXPECT_EQ(c[5].clip, "wave hello");
  EXPECT_TRUE(c[5].loop);
  EXPECT_EQ(c[6].clip, "3");
  EXPECT_FALSE(c[6].loop);  // once is the default
  EXPECT_EQ(c[6].line, 8u);
}

TEST(CommandScript, EveryErrorNamesTheSourceAndTheLine) {
  struct Case {
    std::string line;
    std::string needle;
  };
  const Case cases[] = {
      {"0 1", "time agents command"},
      {"soon 1 idle", "'soon' is not a time"},
      {"-1 1 idle", "'-1' is not a time"},
      {"nan 1 idle", "not a time"},
      {"0 x idle", "'x' is not an agent"},
      {"0 -3 idle", "is not an agent"},
      {"0 5..2 idle", "runs backwards"},
      {"0 1..z idle", "not an agent range"},
      {"0 1 jump",
       "unknown command 'jump' (idle, walk-to, run-to, attack, die, play, layer, stop-layer, "
       "attachments)"},
      {"0 1 walk-to 3", "walk-to takes a target"},
      {"0 1 run-to 3 inf", "run-to takes a target"},
      {"0 1 idle now", "idle takes no arguments"},
      {"0 1 play", "play takes a clip"},
      {"0 1 play wave twice", "neither once nor loop"},
      {"0 1 play \"wave", "no closing"},
      {std::string(kMaxScriptLineBytes + 1, ' '), "longer than"},
  };
  for (const Case& c : cases) {
    Result<CommandScript> r = parseCommandScript("# header\n\n" + c.line + "\n", "cmds.txt");
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_EQ(r.status().code(), ErrorCode::kParseError);
    EXPECT_EQ(r.status().message().rfind("cmds.txt:3: ", 0), 0u) << r.status().message();
    EXPECT_NE(r.status().message().find(c.needle), std::string::npos) << r.status().message();
  }
  Result<CommandScript> backwards = parseCommandScript("1 0 idle\n0.5 0 idle\n", "late.txt");
  ASSERT_FALSE(backwards.ok());
  EXPECT_NE(backwards.status().message().find("late.txt:2: time 0.5 comes before"),
            std::string::npos)
      << backwards.status().message();
}

TEST(CommandScript, ReadsFromAStreamLineByLine) {
  std::istringstream in("0 0 idle\r\n0.1 1 die\n\n   # only a comment\n0.2 all attack");
  Result<CommandScript> r = readCommandScript(in, "socket 127.0.0.1:9000");
  ASSERT_TRUE(r.ok()) << r.status().toString();
  ASSERT_EQ(r->commands.size(), 3u);
  EXPECT_EQ(r->commands[2].line, 5u);
  Result<std::optional<ScriptCommand>> one = parseScriptLine("  # nothing", 1, "x");
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one->has_value());
}

// A stream that fails part way (a socket that drops, a disk that errs) is an error naming the last
// line read, not a script cut short.
TEST(CommandScript, AStreamThatFailsIsAnErrorNamingTheLastLine) {
  // Hands out two lines, then fails as a broken device does (the stream sets its badbit).
  struct FailingBuffer : std::streambuf {
    std::string text = "0 0 idle\n0.5 1 die\n";
    bool handed_out = false;
    int_type underflow() override {
      if (handed_out) throw std::ios_base::failure("the device failed");
      handed_out = true;
      setg(text.data(), text.data(), text.data() + text.size());
      return traits_type::to_int_type(text[0]);
    }
  } buffer;
  std::istream in(&buffer);
  Result<CommandScript> r = readCommandScript(in, "socket 127.0.0.1:9000");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIoError);
  EXPECT_EQ(r.status().message(), "socket 127.0.0.1:9000: reading stopped after line 2");
}

TEST(CommandScript, BindingResolvesClipsAndChecksAgents) {
  const auto clips = makeScriptClips();
  CommandScript script = parseCommandScript(kScript, "fight.txt").value();
  ASSERT_TRUE(bindCommandScript(script, clips, 8).ok());
  EXPECT_EQ(script.commands[5].clip_index, 5);
  EXPECT_EQ(script.commands[6].clip_index, 3);

  CommandScript crowded = parseCommandScript(kScript, "fight.txt").value();
  const Status small = bindCommandScript(crowded, clips, 7);
  EXPECT_EQ(small.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(small.message().find("fight.txt:5: agent 7 is not in the crowd (agents 0..6)"),
            std::string::npos)
      << small.message();
  CommandScript unknown = parseCommandScript("0 0 play moonwalk\n", "m.txt").value();
  const Status missing = bindCommandScript(unknown, clips, 1);
  EXPECT_NE(missing.message().find("m.txt:1: no clip 'moonwalk' (clips: 0 idle, 1 walk"),
            std::string::npos)
      << missing.message();
}

TEST(CommandScript, WritesWhatItReads) {
  CommandScript script = parseCommandScript(kScript, "fight.txt").value();
  ScriptCommand odd;
  odd.time = 10.0 / 3.0;  // no short decimal: must still read back exactly
  odd.agents.first = odd.agents.last = 9;
  odd.type = CommandType::kWalkTo;
  odd.target = glm::vec2(0.1f, -1e-7f);
  script.commands.push_back(odd);
  const std::string text = formatCommandScript(script);
  Result<CommandScript> again = parseCommandScript(text, "again");
  ASSERT_TRUE(again.ok()) << again.status().toString() << "\n" << text;
  ASSERT_EQ(again->commands.size(), script.commands.size());
  for (size_t i = 0; i < script.commands.size(); ++i) {
    const ScriptCommand& a = script.commands[i];
    const ScriptCommand& b = again->commands[i];
    EXPECT_EQ(a.time, b.time) << i;
    EXPECT_EQ(a.agents.all, b.agents.all) << i;
    EXPECT_EQ(a.agents.first, b.agents.first) << i;
    EXPECT_EQ(a.agents.last, b.agents.last) << i;
    EXPECT_EQ(a.type, b.type) << i;
    EXPECT_EQ(a.target, b.target) << i;
    EXPECT_EQ(a.clip, b.clip) << i;
    EXPECT_EQ(a.loop, b.loop) << i;
  }
  EXPECT_NE(text.find("2.5 1 play \"wave hello\" loop"), std::string::npos) << text;
}

TEST(CommandScript, SubmitsEachCommandWhenItsTimeComes) {
  const auto clips = makeScriptClips();
  CommandScript script = parseCommandScript(kScript, "fight.txt").value();
  ASSERT_TRUE(bindCommandScript(script, clips, 8).ok());
  Crowd crowd(clips, clipSetByName(clips).value());
  for (int i = 0; i < 8; ++i) crowd.addAgent({});
  size_t next = 0;
  EXPECT_EQ(submitDueCommands(script, 0.0, &next, crowd), 8u);  // "all" is every agent
  EXPECT_EQ(next, 1u);
  crowd.update(0.1f);
  EXPECT_EQ(submitDueCommands(script, 0.4, &next, crowd), 0u);
  // 0.1 * 5 in floating point is not exactly 0.5: the epsilon makes it due anyway.
  EXPECT_EQ(submitDueCommands(script, 0.1 + 0.1 + 0.1 + 0.1 + 0.1 - 1e-9, &next, crowd), 4u);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[3], AgentState::kWalk);
  EXPECT_EQ(crowd.states()[1], AgentState::kRun);
  EXPECT_EQ(submitDueCommands(script, 10.0, &next, crowd), 4u);
  EXPECT_EQ(next, script.commands.size());
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[7], AgentState::kAttack);
  EXPECT_EQ(crowd.states()[5], AgentState::kDead);
  EXPECT_EQ(crowd.states()[1], AgentState::kPlay);
  EXPECT_EQ(crowd.playback()[1].clip, 5);
  EXPECT_EQ(crowd.states()[4], AgentState::kPlay);
  EXPECT_EQ(crowd.playback()[4].clip, 3);
}

}  // namespace
}  // namespace throng
