// Loads characters (packages, glTF files baked in memory) on a worker thread, one at a time, so
// the window stays live; the main thread polls the progress and takes finished loads.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "crowd_input.h"
#include "throng/core/status.h"

namespace throng::viewer {

// loadCrowdInput, and with `impostors` an impostor baked in memory (impostor::bakeImpostors, on a
// headless device of the calling thread's own) when the input has none; the bake's error names
// the input.
Result<cli::CrowdInput> loadViewerInput(const std::string& path, bool impostors,
                                        const cli::LoadProgress& progress = {});

class CharacterLoader {
 public:
  CharacterLoader() = default;
  ~CharacterLoader();  // waits for the load under way (loads cannot be interrupted)
  CharacterLoader(const CharacterLoader&) = delete;
  CharacterLoader& operator=(const CharacterLoader&) = delete;

  // Queues `path` (loaded after those queued before it); `impostors` as loadViewerInput.
  void load(const std::string& path, bool impostors);

  struct Progress {
    bool busy = false;  // a load is queued, under way, or finished and not yet taken
    std::string path;   // the one under way
    float done = 0.0f;  // 0..1
    std::string step;   // "importing", "baking clips", ...
    size_t queued = 0;  // waiting behind it
  };
  Progress progress() const;

  struct Finished {
    std::string path;
    Result<cli::CrowdInput> input;
  };
  // The oldest finished load, if any (success or failure); starts the next queued one.
  std::optional<Finished> take();

 private:
  void startNext();  // with mutex_ held

  mutable std::mutex mutex_;
  std::deque<std::pair<std::string, bool>> queue_;  // path, impostors
  std::deque<Finished> finished_;
  std::thread worker_;
  bool running_ = false;
  Progress progress_;
};

}  // namespace throng::viewer
