// A scenario `cost` object in which a task costs exactly its launch: every per-byte, per-request
// and per-stage term 0, so a schedule can be computed by hand from task counts and slots.
#ifndef AQESIM_TESTS_SUPPORT_LAUNCH_ONLY_COST_H_
#define AQESIM_TESTS_SUPPORT_LAUNCH_ONLY_COST_H_

#include <nlohmann/json.hpp>

namespace aqesim::testing {

inline nlohmann::json LaunchOnlyCost(double task_launch_seconds) {
  nlohmann::json c = {
      {"taskLaunchSeconds", task_launch_seconds},
      {"stageOverheadSeconds", 0},
      {"replanSeconds", 0},
      // Warm executors and compiled code (the fitted defaults charge fresh JVMs and cold code).
      {"executorStartupSeconds", 0},
      {"executorStageWarmupSeconds", 0},
      {"coldCodeSlowdown", 0}};
  for (const char* k :
       {"remoteFetchRequestSeconds", "localFetchRequestSeconds", "scanSecondsPerByte",
        "shuffleWriteSecondsPerByte", "shuffleReadSecondsPerByte", "sortSecondsPerByte",
        "hashBuildSecondsPerByte", "joinProbeSecondsPerByte", "aggregateSecondsPerByte",
        "streamSecondsPerByte", "broadcastBuildSecondsPerByte", "mapStatusAggregateSecondsPerBlock"})
    c[k] = 0;
  return c;
}

/// One executor with `cores` slots and networks and disks too fast to matter, for schedules
/// computed by hand from task counts.
inline nlohmann::json InstantIoCluster(int cores) {
  return {{"executors", 1},
          {"executorCores", cores},
          {"executorMemory", "64g"},
          {"networkBytesPerSecond", "1p"},
          {"diskBytesPerSecond", "1p"},
          {"driverNetworkBytesPerSecond", "1p"}};
}

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_SUPPORT_LAUNCH_ONLY_COST_H_
