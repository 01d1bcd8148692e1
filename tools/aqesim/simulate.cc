#include "tools/aqesim/simulate.h"

#include <set>
#include <string>
#include <utility>

#include "models/engine/static_planner.h"
#include "models/scenario/shown_pointer.h"
#include "tools/aqesim/cli_support.h"

namespace aqesim::cli {

std::vector<RunResult> SimulateOrThrow(const Scenario& scenario, const std::vector<bool>& adaptive,
                                       TaskRecords tasks) {
  std::vector<RunResult> runs;
  try {
    for (const bool a : adaptive) {
      runs.push_back(SimulateQuery(scenario, a));
      if (tasks == TaskRecords::kDrop) DropTaskRecords(&runs.back());
    }
  } catch (const PlanError& e) {
    throw InputError(scenario.path + ": " + ShownPointer(e.pointer) + ": " + e.message);
  }
  std::set<std::string> printed;
  for (const RunResult& r : runs)
    for (const std::string& w : r.warnings)
      if (printed.insert(w).second) Warn(scenario.path + ": " + w);
  return runs;
}

RunResult SimulateOrThrow(const Scenario& scenario, bool adaptive) {
  return std::move(SimulateOrThrow(scenario, std::vector<bool>{adaptive}).front());
}

}  // namespace aqesim::cli
