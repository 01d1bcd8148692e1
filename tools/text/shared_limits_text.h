// The lines `run` and `explain --format table` print for the stages a shared limit of the
// cluster slowed (models/engine/shared_limits.h): which limit, which stage, how long. Nothing
// when no limit bound (or none is set). Header-only, like table_text.h.
#ifndef AQESIM_TOOLS_TEXT_SHARED_LIMITS_TEXT_H_
#define AQESIM_TOOLS_TEXT_SHARED_LIMITS_TEXT_H_

#include <string>
#include <vector>

#include "models/engine/run_result.h"
#include "tools/text/table_text.h"

namespace aqesim {

/// "stage 0 (scan): storage throughput (cluster.storageBytesPerSecond) bound 100 of 100 tasks
/// from 0.000 s to 10.000 s, +500.000 task-seconds; the driver (cluster.driverSecondsPerTask /
/// PerStage) kept free slots waiting 1.200 s" — one line per stage a limit slowed; the seconds
/// are the limits' model, as trustworthy as the parameters set.
inline std::vector<std::string> SharedLimitsLines(const RunResult& run) {
  std::vector<std::string> lines;
  for (const StageResult& s : run.stages) {
    if (!s.limits) continue;
    const SharedLimitUse& u = *s.limits;
    std::string line = "stage " + std::to_string(s.id) + " (" + s.name + "):";
    if (u.storage_bound_tasks > 0)
      line += " storage throughput (cluster.storageBytesPerSecond) bound " +
              std::to_string(u.storage_bound_tasks) + " of " + std::to_string(s.tasks) + " tasks from " +
              Fixed(u.storage_bound_from_seconds, 3) + " s to " + Fixed(u.storage_bound_to_seconds, 3) +
              " s, +" + Fixed(u.storage_seconds_added, 3) + " task-seconds" +
              (u.driver_wait_seconds > 0 ? ";" : "");
    if (u.driver_wait_seconds > 0)
      line += " the driver (cluster.driverSecondsPerTask / driverSecondsPerStage) kept free slots waiting " +
              Fixed(u.driver_wait_seconds, 3) + " s";
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_SHARED_LIMITS_TEXT_H_
