// How long the cluster manager took from the driver's request for an executor to its
// registration (the scenario's cluster.executorStartSeconds), as far as the log shows it.
//
// The log records registrations (SparkListenerExecutorAdded), not requests. Under dynamic
// allocation Spark's ExecutorAllocationManager (core/.../ExecutorAllocationManager.scala)
// requests the first executor of a ramp spark.dynamicAllocation.schedulerBacklogTimeout
// (default 1 s) after tasks began to wait for a slot (onSchedulerBacklogged sets addTime). So:
//   backlog    at any moment, the tasks of submitted, not yet completed stages that have not
//              finished (pending + running) outnumber the registered executors' slots
//              (RecordedApplication::SlotsOf; default resource profile)
//   ramp       a maximal stretch of backlog; its start r
//   sample     for the first executor registered within a ramp (at a, after the application's
//              first stage was submitted): a − (r + schedulerBacklogTimeout), when > 0
// The log's value is the median of the samples (rounded down to a millisecond); nullopt when
// spark.dynamicAllocation.enabled is not true or no executor qualifies. Later executors of a
// ramp are not sampled: their requests' times depend on the doubling rounds and the target.
#ifndef AQESIM_TOOLS_EVENTLOG_EXECUTOR_START_H_
#define AQESIM_TOOLS_EVENTLOG_EXECUTOR_START_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// The samples of the header comment (ms, in registration order).
std::vector<int64_t> ExecutorStartSamplesMs(const RecordedApplication& app);

/// Median of ExecutorStartSamplesMs, or nullopt when there is none (or no dynamic allocation).
std::optional<int64_t> ExecutorStartMs(const RecordedApplication& app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXECUTOR_START_H_
