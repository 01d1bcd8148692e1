// Dynamic allocation's idle-timeout kills as a log shows them, and what they show of the
// cluster manager: each kill's own lag to the reported removal (the scenario's
// cluster.executorRemoveSecondsByKill) and how many kills came before a selection
// (cluster.executorKillsBeforeStart).
//
// The log records removals (SparkListenerExecutorRemoved), not kills. An executor removed
// "killed by driver" under dynamic allocation was killed when ExecutorAllocationManager found it
// idle for spark.dynamicAllocation.executorIdleTimeout (RecordedApplication::OffersTasksUntilMs:
// that long after its last task ended, or after its registration if it ran none); a removal
// reported before that moment was not an idle-timeout kill and is not counted. YARN reports a
// killed container once it has exited: 11.3-23.8 s after the kill on the dynamic_alloc log's
// cluster, 23.8 s for the one kill whose container outlived the others'.
//
// The kills are numbered in order of kill over the whole application run, the time before the
// first query and the gaps between queries included (ties: in order of registration, then of
// executor id), as the simulation counts its own: a query's first kill is the application's
// kill number executorKillsBeforeStart (or its allocationAtStart's killsMade), a gap's kills
// (models/engine/allocation_carry_over.h) continue the count.
#ifndef AQESIM_TOOLS_EVENTLOG_EXECUTOR_REMOVE_H_
#define AQESIM_TOOLS_EVENTLOG_EXECUTOR_REMOVE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

struct RecordedKill {
  std::string executor_id;
  int64_t killed_ms = 0;   // the allocation manager's decision
  int64_t removed_ms = 0;  // its SparkListenerExecutorRemoved
};

/// The application's idle-timeout kills in order of kill (see the header comment); empty when
/// spark.dynamicAllocation.enabled is not true or in local mode.
std::vector<RecordedKill> IdleTimeoutKills(const RecordedApplication& app);

/// Kill → ExecutorRemoved (ms) of every idle-timeout kill, in order of kill: the k-th entry is
/// the application's k-th kill (cluster.executorRemoveSecondsByKill).
std::vector<int64_t> ExecutorRemoveByKillMs(const RecordedApplication& app);

/// The idle-timeout kills made before `at_ms` (cluster.executorKillsBeforeStart of a selection
/// starting then).
int64_t ExecutorKillsBefore(const RecordedApplication& app, int64_t at_ms);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXECUTOR_REMOVE_H_
