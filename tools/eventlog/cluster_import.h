// The scenario's `cluster` from the executors of the log: how many were registered at once
// while the selection ran (dynamic allocation: the peak in its own window), their cores and
// memory, the timeline of executors added and removed (`executorTimeline`) with the time an
// executor registering during the selection takes to be offered tasks (`executorLaunchSeconds`,
// executor_launch.h), and which JVMs were warm (`warmExecutors`, `warmCodeExecutors`).
#ifndef AQESIM_TOOLS_EVENTLOG_CLUSTER_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_CLUSTER_IMPORT_H_

#include <nlohmann/json.hpp>

#include "tools/eventlog/import_context.h"

namespace aqesim::eventlog {

struct ImportedCluster {
  nlohmann::json cluster;  // the scenario's `cluster` object
  int executors = 0;       // as written
  int cores = 0;
  /// `executors` is the peak within the selection's time window, not the application's.
  bool windowed = false;
};

/// The cluster for the selected `execution` or `job` (one of them non-null). Estimated
/// values go to ctx's `estimated`, notes to its warnings.
ImportedCluster ImportCluster(ImportContext& ctx, const RecordedSqlExecution* execution,
                              const RecordedJob* job);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_CLUSTER_IMPORT_H_
