// ResourceUsage: what one run did with the cluster's cores — Qubole Sparklens'
// OneCoreComputeHours view, per run and per stage — and the two lower bounds of its wall clock.
//
//   available      the executors' cores × the time each was registered within the run
//                  [0, makespan]: a static cluster, executors × cores × makespan; a recorded
//                  timeline, each entry from its `add` (0 at the latest) to its `remove`, or its
//                  last task's end when that is later (it finishes its running tasks), or the
//                  end; dynamic allocation, the registered executors as they changed
//                  (RunResult::executors) × cores
//   used           Σ over tasks of (end − start) × spark.task.cpus
//   idle           available − used; utilization = used ÷ available (0 when nothing was available)
//   per stage      available: the cores registered during [submit, complete] — shared with the
//                  stages running beside it, so stages' idle figures overlap —; used: its tasks'
//   critical path  the longest chain of stages through the stage DAG (a stage after the stages
//                  whose output it reads: exchanges and broadcasts), each stage taking its
//                  longest task: the wall clock if every task got a slot at once (infinite
//                  executors, each task as long as in this run); driver time between stages is
//                  not counted, so it is a lower bound of the makespan
//   ideal          max(critical path, used ÷ peak registered cores): every core busy from
//                  start to end (Sparklens' "ideal application time" without driver time)
#ifndef AQESIM_MODELS_ENGINE_RESOURCE_USAGE_H_
#define AQESIM_MODELS_ENGINE_RESOURCE_USAGE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "models/cluster/cluster.h"

namespace aqesim {

struct RunResult;
struct StageResult;

/// Core-hours, as JSON carries them (so a result read back prints the same bytes).
struct CoreTime {
  double available_core_hours = 0;
  double used_core_hours = 0;
  double idle_core_hours() const { return available_core_hours - used_core_hours; }
  double utilization() const { return available_core_hours > 0 ? used_core_hours / available_core_hours : 0; }
};

struct ResourceUsage {
  CoreTime run;
  int peak_cores = 0;  // the most cores registered at once
  double critical_path_seconds = 0;
  double ideal_seconds = 0;
};

/// The resource view of `run` (a run on `cluster` with spark.task.cpus `task_cpus`; see the file
/// comment): sets run->resources and every stage's `resources` from the stages' parents, task
/// records and RunResult::executors.
void ComputeResourceUsage(const ClusterSpec& cluster, int task_cpus, RunResult* run);

/// The run's figures as JSON: {cores, coreHoursAvailable, coreHoursUsed, coreHoursIdle,
/// utilization, criticalPathSeconds, idealSeconds}.
nlohmann::ordered_json ResourceUsageJson(const ResourceUsage& usage);
/// One stage's: {coreHoursAvailable, coreHoursUsed, coreHoursIdle, utilization}.
nlohmann::ordered_json CoreTimeJson(const CoreTime& t);

/// Read back (models/engine/run_result_reader.h) from a stage object of `run` JSON: its
/// `parents` and `resources`; from a run object: its `resources` (idle and utilization are
/// derived, not read). "" when they are absent or as the writers put them, else what is wrong
/// ("resources: expected ...").
std::string StageResourcesFromJson(const nlohmann::json& stage_json, StageResult* stage);
std::string RunResourcesFromJson(const nlohmann::json& run_json, RunResult* run);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RESOURCE_USAGE_H_
