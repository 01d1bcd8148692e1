// The scenario's `driver.pools`: the scheduling pools of spark.scheduler.mode=FAIR, keyed by
// name as in Spark's fairscheduler.xml (core/.../scheduler/SchedulableBuilder.scala):
// `{"default": {"schedulingMode": "FAIR", "weight": 1, "minShare": 0}}` (README "Scenario
// format"). A pool the scenario does not name is what Spark creates for a pool it is not told
// about: FIFO, weight 1, minShare 0.
#ifndef AQESIM_MODELS_SCENARIO_SCHEDULING_POOLS_READER_H_
#define AQESIM_MODELS_SCENARIO_SCHEDULING_POOLS_READER_H_

#include <map>
#include <string>

#include "models/scenario/json_reader.h"
#include "sim/task_scheduler.h"

namespace aqesim {

/// Reads the object at `pointer` (pool name -> {schedulingMode: FIFO | FAIR (case-insensitive),
/// weight: integer >= 0, minShare: integer >= 0}, each optional) into `out`, name set;
/// problems go to `sink`.
void ReadSchedulingPools(const Json& v, const std::string& pointer, std::map<std::string, PoolSpec>* out,
                         DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SCHEDULING_POOLS_READER_H_
