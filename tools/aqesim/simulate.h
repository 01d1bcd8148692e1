// Runs the simulation for the CLI, turning plan errors into exit code 2.
#ifndef AQESIM_TOOLS_AQESIM_SIMULATE_H_
#define AQESIM_TOOLS_AQESIM_SIMULATE_H_

#include <vector>

#include "models/engine/query_execution.h"

namespace aqesim::cli {

/// SimulateQuery once per entry of `adaptive` (AQE off = false, on = true), in that order,
/// with PlanError → InputError ("FILE: /pointer: message"); then prints the runs' warnings,
/// each distinct one once (the runs plan the same exchanges, so they warn alike).
std::vector<RunResult> SimulateOrThrow(const Scenario& scenario, const std::vector<bool>& adaptive);

/// One run: SimulateOrThrow(scenario, {adaptive}).
RunResult SimulateOrThrow(const Scenario& scenario, bool adaptive);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_SIMULATE_H_
