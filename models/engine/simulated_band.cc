#include "models/engine/simulated_band.h"

#include <vector>

#include "models/engine/query_execution.h"
#include "models/engine/run_time_source.h"

namespace aqesim {

bool HasModelledStage(const RunResult& run) {
  const StageTimeCounts c = CountStageTimes(run);
  return c.modelled + c.resized > 0;
}

std::optional<MakespanBand> SimulateBand(Scenario* scenario, const RunResult& run, ResourceBand* resources) {
  if (!HasModelledStage(run)) return std::nullopt;
  const double scale = scenario->cost.modelled_time_scale;
  std::vector<ResourceUsage> at;  // low, then high
  const MakespanBand band = BandOf(scale, [&](double scaled) {
    scenario->cost.modelled_time_scale = scaled;
    RunResult r = SimulateQuery(*scenario, run.adaptive);
    at.push_back(std::move(r.resources));
    return r.makespan_seconds;
  });
  scenario->cost.modelled_time_scale = scale;
  if (resources != nullptr) {
    resources->critical_path = {at[0].critical_path_seconds, at[1].critical_path_seconds};
    resources->ideal = {at[0].ideal_seconds, at[1].ideal_seconds};
  }
  return band;
}

}  // namespace aqesim
