// The scheduling pool of an imported selection (spark.scheduler.mode=FAIR): its
// name (spark.scheduler.pool, a job property) and its mode as the log shows it
// (scheduling_pools.h: the allocation file that set it is not in the log),
// written into the scenario's conf and `driver.pools` (README "Scenario
// format").
#ifndef AQESIM_TOOLS_EVENTLOG_POOL_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_POOL_IMPORT_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// Under spark.scheduler.mode=FAIR: sets the scenario's conf
/// spark.scheduler.pool to the pool of the jobs running `stage_ids` (the one
/// most of them ran in; left out when "default") and `driver.pools` to that
/// pool with the mode it was observed to have: {"etl": {"schedulingMode":
/// "FAIR"}}. Nothing in FIFO mode.
void ImportPools(const RecordedApplication &app, const std::vector<int> &stage_ids, nlohmann::json *doc);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_POOL_IMPORT_H_
