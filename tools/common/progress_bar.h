// A progress bar on stderr for work that lasts: drawn only on a terminal, and only once the work
// has run for a while, so that quick runs and piped output get nothing extra.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace throng::cli {

// Work shorter than this gets no bar (seconds).
inline constexpr double kProgressBarDelay = 1.0;
// Characters between the brackets.
inline constexpr int kProgressBarWidth = 30;

class ProgressBar {
 public:
  // Seconds on a monotonic clock.
  using Clock = std::function<double()>;

  // A bar on stderr when it is a terminal (isatty), timed by the steady clock.
  ProgressBar();
  // A bar on `out`, drawn when `terminal`, timed by `clock` (tests).
  ProgressBar(std::FILE* out, bool terminal, Clock clock);
  ~ProgressBar();  // finish()
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // `fraction` (0..1) of the work done, in `step` ("baking clips"), with `detail` ("40/120
  // frames"). Draws "\r<step> [#####.....]  45% <detail>" once kProgressBarDelay has passed
  // since the bar was made, when the percentage or the step changed; cheap otherwise. The
  // fraction shown never goes backwards within a step.
  void update(const std::string& step, double fraction, const std::string& detail = "");
  // update() with done / total and "<done>/<total> <unit>".
  void update(const std::string& step, uint64_t done, uint64_t total, const char* unit);
  // Erases the bar (when drawn) so that what follows starts on a clean line.
  void finish();

  bool drawn() const { return drawn_; }

 private:
  std::FILE* out_;
  bool terminal_;
  Clock clock_;
  double start_ = 0.0;
  double best_ = 0.0;
  int percent_ = -1;
  std::string step_;
  bool drawn_ = false;
};

}  // namespace throng::cli
