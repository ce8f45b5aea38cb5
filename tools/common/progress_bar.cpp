// The CLI's progress bar: late, on terminals only, redrawn when the percentage moves.
#include "progress_bar.h"

#include <algorithm>
#include <chrono>

#include <fmt/core.h>
#include <unistd.h>

namespace throng::cli {
namespace {

double steadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ProgressBar::ProgressBar() : ProgressBar(stderr, isatty(fileno(stderr)) != 0, &steadySeconds) {}

ProgressBar::ProgressBar(std::FILE* out, bool terminal, Clock clock)
    : out_(out), terminal_(terminal), clock_(std::move(clock)) {
  if (terminal_) start_ = clock_();
}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::update(const std::string& step, double fraction, const std::string& detail) {
  if (!terminal_) return;
  if (step != step_) {
    step_ = step;
    best_ = 0.0;
    percent_ = -1;
  }
  best_ = std::max(best_, std::clamp(fraction, 0.0, 1.0));
  const int percent = static_cast<int>(100.0 * best_);
  if (percent == percent_ || clock_() - start_ < kProgressBarDelay) return;
  percent_ = percent;
  const int filled = percent * kProgressBarWidth / 100;
  // \033[K clears what a longer line before left behind.
  fmt::print(out_, "\r{} [{}{}] {:3}%{}{}\033[K", step, std::string(filled, '#'),
             std::string(kProgressBarWidth - filled, '.'), percent, detail.empty() ? "" : "  ",
             detail);
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::update(const std::string& step, uint64_t done, uint64_t total, const char* unit) {
  if (!terminal_) return;
  const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  update(step, fraction, fmt::format("{}/{} {}", done, total, unit));
}

void ProgressBar::finish() {
  if (!drawn_) return;
  fmt::print(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace throng::cli
