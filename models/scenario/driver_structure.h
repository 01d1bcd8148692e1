// DriverStructure: what a recorded query's driver did besides running stages, as the scenario's
// `driver` object gives it (the importer measures it): the time before its first stage could be
// submitted, after its last stage, and per AQE re-optimization. Seconds. Absent fields: the cost
// model's parameters (stageOverheadSeconds, replanSeconds) and no start or end time. `pools`: the
// scheduling pools of spark.scheduler.mode=FAIR by name (fairscheduler.xml's <pool>s; the importer
// writes the mode it observed, a scenario may give them or spark.scheduler.allocation.file).
#ifndef AQESIM_MODELS_SCENARIO_DRIVER_STRUCTURE_H_
#define AQESIM_MODELS_SCENARIO_DRIVER_STRUCTURE_H_

#include <map>
#include <optional>
#include <string>

#include "sim/task_scheduler.h"

namespace aqesim {

struct DriverStructure {
  /// JSON `startSeconds`: query start → its first stage may be submitted (planning, the first
  /// job's setup); >= 0.
  std::optional<double> start_seconds;
  /// JSON `endSeconds`: last stage completion → query end (result collection, cleanup); >= 0.
  std::optional<double> end_seconds;
  /// JSON `replanSeconds`: one AQE re-optimization on the driver, replacing the cost model's
  /// replanSeconds; >= 0.
  std::optional<double> replan_seconds;
  /// JSON `pools`: {"default": {"schedulingMode": "FAIR", "weight": 1, "minShare": 0}}; a pool not
  /// named is FIFO, weight 1, minShare 0 (what Spark creates for a pool it is not told about).
  std::map<std::string, PoolSpec> pools;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_DRIVER_STRUCTURE_H_
