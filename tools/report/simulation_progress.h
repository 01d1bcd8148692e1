// Progress of a long report on stderr. A scenario report simulates the scenario many times
// (the executor counts of `aqesim scale`, the probe grid's sweep, each recommended line checked
// against tune's guardrails) and a big scenario can take minutes at each: once the report has run
// kQuietSeconds, a line at most every kIntervalSeconds says where it is:
//
//   report: simulated 4 of 9 executor counts (aqesim scale) (1m05s so far)
//   report: simulated 12 of 24 points of the probe grid's sweep (2m10s so far)
//   report: simulated 3 checks of the recommendation (tune's guardrails) (3m40s so far)
//
// Lines go to the stream given (stderr), never to stdout or the report: a report written to
// stdout stays clean. Shorter reports print nothing. Thread-safe: the sweep's points tick from
// several threads.
#ifndef AQESIM_TOOLS_REPORT_SIMULATION_PROGRESS_H_
#define AQESIM_TOOLS_REPORT_SIMULATION_PROGRESS_H_

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

namespace aqesim::report {

class SimulationProgress {
 public:
  static constexpr double kQuietSeconds = 5;
  static constexpr double kIntervalSeconds = 5;

  /// `out` null: silent. `now_seconds`: a monotonic clock in seconds (default: steady_clock);
  /// the report's start is its value at construction.
  explicit SimulationProgress(std::ostream* out, std::function<double()> now_seconds = {});

  /// A new phase: `what` names its units ("points of the probe grid's sweep"), `total` how many
  /// there will be (nullopt: unknown, the line counts them alone).
  void Begin(const std::string& what, std::optional<size_t> total);
  /// One unit of the current phase done; may print a line.
  void Tick();
  /// One unit of phase `what` done: Begin(what, total) first when `what` is not the current phase.
  void TickIn(const std::string& what, std::optional<size_t> total = std::nullopt);

 private:
  void TickLocked();

  std::ostream* out_;
  std::function<double()> now_;
  std::mutex mu_;
  double start_ = 0;
  std::optional<double> last_line_;
  std::string what_;
  std::optional<size_t> total_;
  size_t done_ = 0;
};

/// "45 s", "1m05s", "2h03m": elapsed time in a progress line.
std::string ElapsedText(double seconds);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_SIMULATION_PROGRESS_H_
