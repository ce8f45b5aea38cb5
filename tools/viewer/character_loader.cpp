// CharacterLoader: one worker thread at a time runs loadCrowdInput and reports its progress.
#include "character_loader.h"

#include <algorithm>

namespace throng::viewer {

CharacterLoader::~CharacterLoader() {
  if (worker_.joinable()) worker_.join();
}

void CharacterLoader::load(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(path);
  if (!running_) startNext();
}

void CharacterLoader::startNext() {
  if (queue_.empty()) return;
  // The previous worker has finished (running_ is false): reap it before starting the next.
  if (worker_.joinable()) worker_.join();
  const std::string path = queue_.front();
  queue_.pop_front();
  running_ = true;
  progress_ = {true, path, 0.0f, "starting", queue_.size()};
  worker_ = std::thread([this, path] {
    Result<cli::CrowdInput> input = cli::loadCrowdInput(path, [this](float done, const char* step) {
      std::lock_guard<std::mutex> lock(mutex_);
      // Bake workers report out of order: the bar only moves forward.
      progress_.done = std::max(progress_.done, done);
      progress_.step = step;
    });
    std::lock_guard<std::mutex> lock(mutex_);
    finished_.push_back({path, std::move(input)});
    running_ = false;
    progress_.busy = false;
  });
}

CharacterLoader::Progress CharacterLoader::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Progress p = progress_;
  // A finished load not yet taken still counts: the caller has not shown it (or its error).
  p.busy = running_ || !queue_.empty() || !finished_.empty();
  p.queued = queue_.size();
  return p;
}

std::optional<CharacterLoader::Finished> CharacterLoader::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!running_) startNext();
  if (finished_.empty()) return std::nullopt;
  Finished f = std::move(finished_.front());
  finished_.pop_front();
  return f;
}

}  // namespace throng::viewer
