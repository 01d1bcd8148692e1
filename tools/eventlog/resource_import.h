// The cluster's resources as an event log records them, written into an imported scenario: GPUs
// per executor and per task (spark.executor/task.resource.gpu.amount, or resource profile 0) and
// the other stage-level resource profiles its executor timeline refers to (Spark 3.1+:
// SparkListenerResourceProfileAdded; core/.../resource/ResourceProfile.scala). Together with
// spark.task.cpus they give each executor's task slots (README "Scenario format").
#ifndef AQESIM_TOOLS_EVENTLOG_RESOURCE_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_RESOURCE_IMPORT_H_

#include <nlohmann/json.hpp>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// The `resourceProfile` of an executor timeline entry: its recorded profile id, 0 when default.
int TimelineProfileOf(const RecordedExecutor& executor);

/// Adds to the scenario's `cluster` its `executorGpus` and `resourceProfiles` (those its
/// `executorTimeline` entries name) and to its `conf` spark.task.resource.gpu.amount, when tasks
/// of the default profile take GPUs and the log says how many each executor has. A profile's
/// cores fall back on those of its executors when the profile does not list them.
void ImportResources(const RecordedApplication& app, nlohmann::json* cluster, nlohmann::json* conf);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_RESOURCE_IMPORT_H_
