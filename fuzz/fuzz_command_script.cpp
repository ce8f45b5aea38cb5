// libFuzzer target: the command script reader. A script it accepts reads the same from a stream,
// writes back to text that reads to the same script, and binds to a crowd (or fails with one
// clean line) whose agents stay finite while it plays.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "throng/crowd/command_script.h"
#include "throng/crowd/crowd.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"

namespace {

// The crowd the scripts play on: the sample's clips, this many agents.
constexpr uint32_t kAgents = 8;
// Ticks a script plays for before the rest of it is submitted at once (keeps inputs fast).
constexpr int kMaxTicks = 64;

const std::vector<throng::BakedClip>& sampleClips() {
  static const std::vector<throng::BakedClip> clips = [] {
    throng::BakeOptions options;
    options.fps = 2.0f;
    options.threads = 1;
    return throng::bakeCharacter(throng::makeSampleCharacter(), options).value().clips;
  }();
  return clips;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace throng;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<CommandScript> script = parseCommandScript(text, "fuzz.txt");
  std::istringstream stream{std::string(text)};
  Result<CommandScript> streamed = readCommandScript(stream, "fuzz.txt");
  if (!script.ok()) {
    fuzz::checkError(script.status(), "fuzz.txt");
    // The stream reader refuses what the text reader refuses, with the same words.
    if (streamed.ok() || streamed.status().message() != script.status().message()) {
      __builtin_trap();
    }
    return 0;
  }
  const std::string written = formatCommandScript(*script);
  if (!streamed.ok() || formatCommandScript(*streamed) != written) __builtin_trap();
  Result<CommandScript> again = parseCommandScript(written, "again.txt");
  if (!again.ok() || formatCommandScript(*again) != written) __builtin_trap();

  CommandScript bound = std::move(script).value();
  const std::vector<BakedClip>& clips = sampleClips();
  if (Status s = bindCommandScript(bound, clips, kAgents); !s.ok()) {
    fuzz::checkError(s, "fuzz.txt");
    return 0;
  }
  Crowd crowd(clips, clipSetByName(clips).value());
  for (uint32_t a = 0; a < kAgents; ++a) {
    Placement p;
    p.position = glm::vec3(static_cast<float>(a), 0.0f, 0.0f);
    crowd.addAgent(p);
  }
  size_t next = 0;
  double now = 0.0;
  for (int tick = 0; tick < kMaxTicks && next < bound.commands.size(); ++tick) {
    submitDueCommands(bound, now, &next, crowd);
    crowd.update(1.0f / 30.0f);
    now += 1.0 / 30.0;
  }
  submitDueCommands(bound, std::numeric_limits<double>::infinity(), &next, crowd);
  if (next != bound.commands.size()) __builtin_trap();
  crowd.update(1.0f / 30.0f);
  for (const Placement& p : crowd.placements()) {
    if (!std::isfinite(p.position.x) || !std::isfinite(p.position.z) || !std::isfinite(p.heading))
      __builtin_trap();
  }
  return 0;
}
