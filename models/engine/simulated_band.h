// The uncertainty band of a run's modelled seconds: the run simulated again with every
// modelled task's duration × the band's low and high factors (cost modelledTimeScale;
// models/cost/defaults_band.h says where the factors come from). Stages timed by a recorded
// profile keep their times — but for a stage marked resized (an extrapolated profile,
// models/cost/stage_profile.h), which scales too —, so a run whose stages are all profiled as
// recorded has no band. Used by `run` and `scale`.
#ifndef AQESIM_MODELS_ENGINE_SIMULATED_BAND_H_
#define AQESIM_MODELS_ENGINE_SIMULATED_BAND_H_

#include <optional>

#include "models/cost/defaults_band.h"
#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// True when the cost model timed at least one stage of `run` (StageResult::time_source) or a
/// stage's profile was resized (StageResult::resized_by).
bool HasModelledStage(const RunResult& run);

/// The critical path and ideal time (resource_usage.h) of the runs at the band's factors.
struct ResourceBand {
  MakespanBand critical_path;
  MakespanBand ideal;
};

/// `run` (a run of `scenario` with AQE as run.adaptive) simulated again at the band's factors;
/// nullopt when no stage of it is modelled. The scenario's cost scale is restored before return.
/// With `resources`, also their critical paths and ideal times.
std::optional<MakespanBand> SimulateBand(Scenario* scenario, const RunResult& run,
                                         ResourceBand* resources = nullptr);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SIMULATED_BAND_H_
