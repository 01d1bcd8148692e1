// Runs the simulation for the CLI, turning plan errors into exit code 2.
#ifndef AQESIM_TOOLS_AQESIM_SIMULATE_H_
#define AQESIM_TOOLS_AQESIM_SIMULATE_H_

#include <vector>

#include "models/engine/query_execution.h"

namespace aqesim::cli {

/// Whether the runs keep every task's record (StageResult::task_results) once summarised.
enum class TaskRecords { kKeep, kDrop };

/// SimulateQuery once per entry of `adaptive` (AQE off = false, on = true), in that order,
/// with PlanError → InputError ("FILE: /pointer: message"); then prints the runs' warnings,
/// each distinct one once (the runs plan the same exchanges, so they warn alike). kDrop frees
/// each run's task records before the next run starts (64 bytes a task: 640 MB at 10^7).
std::vector<RunResult> SimulateOrThrow(const Scenario& scenario, const std::vector<bool>& adaptive,
                                       TaskRecords tasks = TaskRecords::kKeep);

/// One run: SimulateOrThrow(scenario, {adaptive}).
RunResult SimulateOrThrow(const Scenario& scenario, bool adaptive);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_SIMULATE_H_
