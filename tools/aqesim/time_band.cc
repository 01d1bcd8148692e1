#include "tools/aqesim/time_band.h"

#include "tools/aqesim/simulate.h"

namespace aqesim::cli {

namespace {

/// True when the cost model timed at least one stage of `run`.
bool HasModelledStage(const RunResult& run) {
  for (const StageResult& s : run.stages) {
    if (s.time_source == "modelled") return true;
  }
  return false;
}

}  // namespace

std::optional<MakespanBand> SimulateBand(Scenario* scenario, const RunResult& run) {
  if (!HasModelledStage(run)) return std::nullopt;
  const double scale = scenario->cost.modelled_time_scale;
  const MakespanBand band = BandOf(scale, [&](double scaled) {
    scenario->cost.modelled_time_scale = scaled;
    return SimulateQuery(*scenario, run.adaptive).makespan_seconds;
  });
  scenario->cost.modelled_time_scale = scale;
  return band;
}

}  // namespace aqesim::cli
