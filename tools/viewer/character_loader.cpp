// CharacterLoader: one worker thread at a time runs loadCrowdInput and reports its progress.
#include "character_loader.h"

#include <algorithm>

#include <fmt/core.h>

#include "throng/impostor/impostor_bake.h"

namespace throng::viewer {

Result<cli::CrowdInput> loadViewerInput(const std::string& path, bool impostors,
                                        const cli::LoadProgress& progress) {
  Result<cli::CrowdInput> input = cli::loadCrowdInput(path, progress);
  if (!input.ok() || !impostors || !input->package.impostor.empty()) return input;
  if (progress) progress(1.0f, "baking impostors");
  Result<Impostor> baked = impostor::bakeImpostors(input->package);
  if (!baked.ok()) {
    return Status(baked.status().code(),
                  fmt::format("{}: --impostors on: {}", path, baked.status().message()));
  }
  input->package.impostor = std::move(baked).value();
  return input;
}

CharacterLoader::~CharacterLoader() {
  if (worker_.joinable()) worker_.join();
}

void CharacterLoader::load(const std::string& path, bool impostors) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.emplace_back(path, impostors);
  if (!running_) startNext();
}

void CharacterLoader::startNext() {
  if (queue_.empty()) return;
  // The previous worker has finished (running_ is false): reap it before starting the next.
  if (worker_.joinable()) worker_.join();
  const auto [path, impostors] = queue_.front();
  queue_.pop_front();
  running_ = true;
  progress_ = {true, path, 0.0f, "starting", queue_.size()};
  worker_ = std::thread([this, path, impostors] {
    Result<cli::CrowdInput> input =
        loadViewerInput(path, impostors, [this](float done, const char* step) {
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
