// Runs the simulation for the CLI, turning plan errors into exit code 2.
#ifndef AQESIM_TOOLS_AQESIM_SIMULATE_H_
#define AQESIM_TOOLS_AQESIM_SIMULATE_H_

#include "models/engine/query_execution.h"

namespace aqesim::cli {

/// SimulateQuery, with PlanError → InputError ("FILE: /pointer: message") and run warnings
/// printed once.
RunResult SimulateOrThrow(const Scenario& scenario, bool adaptive);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_SIMULATE_H_
