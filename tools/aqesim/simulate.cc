#include "tools/aqesim/simulate.h"

#include "models/engine/static_planner.h"
#include "tools/aqesim/cli_support.h"

namespace aqesim::cli {

RunResult SimulateOrThrow(const Scenario& scenario, bool adaptive) {
  try {
    RunResult r = SimulateQuery(scenario, adaptive);
    for (const std::string& w : r.warnings) Warn(scenario.path + ": " + w);
    return r;
  } catch (const PlanError& e) {
    throw InputError(scenario.path + ": " + e.pointer + ": " + e.message);
  }
}

}  // namespace aqesim::cli
