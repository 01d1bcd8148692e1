// How long a registered executor takes before the driver offers it tasks, as the log shows it.
//
// Since Spark 3.0 (CoarseGrainedSchedulerBackend), an executor registers with no free cores
// (SparkListenerExecutorAdded is posted then) and gets them — and its first resource offer —
// only when it reports LaunchedExecutor, after its Executor (and any executor plugin, e.g. a
// GPU plugin) has started. The event log records the registration, not the launch; a replay
// that offers slots from ExecutorAdded on hands tasks to executors Spark could not use yet.
//
// Measured: for each executor that registered while tasks of its resource profile were
// pending (their stage submitted, not yet launched) and whose own first task launched before
// any of those pending tasks launched on another executor, first launch − registration. The
// log's value is the median of these samples (rounded down to a millisecond), nullopt when no
// executor qualifies (executors all present before the work, Spark 1.x/2.x logs alike).
#ifndef AQESIM_TOOLS_EVENTLOG_EXECUTOR_LAUNCH_H_
#define AQESIM_TOOLS_EVENTLOG_EXECUTOR_LAUNCH_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// The samples of the header comment (ms, in executor order).
std::vector<int64_t> ExecutorLaunchSamplesMs(const RecordedApplication& app);

/// Median of ExecutorLaunchSamplesMs, or nullopt when there is none.
std::optional<int64_t> ExecutorLaunchMs(const RecordedApplication& app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXECUTOR_LAUNCH_H_
