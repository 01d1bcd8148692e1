// What a replayed event log implies beyond its events (tools/eventlog/listener_event_replay.h
// records them as they come): per-stage totals over the successful task attempts, the map
// output of every shuffle map stage and the executed twin of every skipped stage; the
// cluster's shape; and, for SQL executions, the AQE shuffle reads and the join strategies of
// the final plan against the first.
#ifndef AQESIM_TOOLS_EVENTLOG_APPLICATION_RECONSTRUCTION_H_
#define AQESIM_TOOLS_EVENTLOG_APPLICATION_RECONSTRUCTION_H_

#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// Stage totals (successful tasks, the first success of each index), map_output_bytes and
/// missing_map_indexes, shuffle_map, and executed_as for skipped stages (the executed stage
/// with the same RDDs, else the one holding the skipped stage's last RDD). Stages that lost
/// tasks or never completed are named in `warnings`.
void ReconstructStages(RecordedApplication* app, std::vector<std::string>* warnings);

/// local_mode, max_concurrent_executors and executor_cores: from spark.master in local mode
/// (local[*]: the driver's cores), else the peak of concurrently registered executors and
/// the most common core count. Throws EventLogError, naming `master_where` (the environment
/// update that set it), for a spark.master Spark refuses.
void ReconstructCluster(RecordedApplication* app, const std::string& master_where);

/// shuffle_reads (every AQEShuffleRead / CustomShuffleReader of a final plan, with its
/// driver-side metrics) and joins (each join of an adaptive execution's first plan with the
/// strategy of the same join in the final plan).
void ReconstructAdaptiveExecutions(RecordedApplication* app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_APPLICATION_RECONSTRUCTION_H_
