// The scenario's `conf` from the log's Spark Properties: the keys the simulator reads (AQE's,
// the partition counts, broadcast and file-split thresholds, MapStatus and locality settings),
// verbatim; spark.sql.adaptive.enabled, when the log does not set it, from the plan (an
// AdaptiveSparkPlan node) or, for an RDD job, Spark's default for the version (estimated).
#ifndef AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_

#include <nlohmann/json.hpp>

#include "tools/eventlog/import_context.h"

namespace aqesim::eventlog {

nlohmann::json ImportConf(ImportContext& ctx, const RecordedSqlExecution* execution);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_CONF_IMPORT_H_
