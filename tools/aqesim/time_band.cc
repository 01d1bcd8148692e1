#include "tools/aqesim/time_band.h"

#include "models/cost/defaults_band.h"
#include "tools/aqesim/simulate.h"

namespace aqesim::cli {

bool HasModelledStage(const RunResult& run) {
  for (const StageResult& s : run.stages) {
    if (s.time_source == "modelled") return true;
  }
  return false;
}

std::optional<MakespanBand> SimulateBand(Scenario* scenario, const RunResult& run) {
  if (!HasModelledStage(run)) return std::nullopt;
  const double scale = scenario->cost.modelled_time_scale;
  auto at = [&](double factor) {
    scenario->cost.modelled_time_scale = scale * factor;
    const double seconds = SimulateQuery(*scenario, run.adaptive).makespan_seconds;
    scenario->cost.modelled_time_scale = scale;
    return seconds;
  };
  MakespanBand band;
  band.low_seconds = at(kDefaultsBand.low);
  band.high_seconds = at(kDefaultsBand.high);
  return band;
}

}  // namespace aqesim::cli
