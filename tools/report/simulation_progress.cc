#include "tools/report/simulation_progress.h"

#include <chrono>
#include <cstdio>
#include <utility>

namespace aqesim::report {

namespace {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string ElapsedText(double seconds) {
  const long s = seconds > 0 ? static_cast<long>(seconds) : 0;
  char b[48];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60)
    std::snprintf(b, sizeof b, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(b, sizeof b, "%ld s", s);
  return b;
}

SimulationProgress::SimulationProgress(std::ostream* out, std::function<double()> now_seconds)
    : out_(out), now_(now_seconds ? std::move(now_seconds) : std::function<double()>(SteadySeconds)) {
  start_ = now_();
}

void SimulationProgress::Begin(const std::string& what, std::optional<size_t> total) {
  const std::lock_guard<std::mutex> lock(mu_);
  what_ = what;
  total_ = total;
  done_ = 0;
}

void SimulationProgress::Tick() {
  const std::lock_guard<std::mutex> lock(mu_);
  TickLocked();
}

void SimulationProgress::TickIn(const std::string& what, std::optional<size_t> total) {
  const std::lock_guard<std::mutex> lock(mu_);
  if (what != what_) {
    what_ = what;
    total_ = total;
    done_ = 0;
  }
  TickLocked();
}

void SimulationProgress::TickLocked() {
  ++done_;
  if (out_ == nullptr) return;
  const double now = now_();
  if (now - start_ < kQuietSeconds) return;
  if (last_line_ && now - *last_line_ < kIntervalSeconds) return;
  last_line_ = now;
  *out_ << "report: simulated " << done_;
  if (total_) *out_ << " of " << *total_;
  *out_ << " " << what_ << " (" << ElapsedText(now - start_) << " so far)\n" << std::flush;
}

}  // namespace aqesim::report
