// The scenario's `conf` from the log's Spark Properties: the keys the simulator reads (AQE's,
// the partition counts, broadcast and file-split thresholds, MapStatus and locality settings),
// verbatim; spark.sql.adaptive.enabled, when the log does not set it, from the plan (an
// AdaptiveSparkPlan node) or, for an RDD job, Spark's default for the version (estimated).
// Under dynamic allocation, when the scenario records an executor timeline, also the policy's
// keys (spark.dynamicAllocation.*, the shuffle service, spark.executor.instances), so that a
// what-if which replaces the timeline starts from the recorded policy; the timeline still drives
// a plain replay. Without a timeline (the executors did not change during the selection) the
// keys would make the replay run the policy instead, so they are left out.
#ifndef AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_

#include <nlohmann/json.hpp>

#include "tools/eventlog/import_context.h"

namespace aqesim::eventlog {

nlohmann::json ImportConf(ImportContext& ctx, const RecordedSqlExecution* execution, bool executor_timeline);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_
