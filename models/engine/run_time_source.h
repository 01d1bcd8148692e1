// How a run's seconds were timed, counted over its stages: the one label `tune`, `scale` and
// `sweep` give a run ("profiled", "modelled" or "mixed") and the counts `run`'s stage table and
// the report's "Seconds:" lines print.
//
// A stage is timed by the cost model ("modelled") or by the scenario's recorded profile of it
// ("profiled": the log's own task times). A profiled stage whose task count differs from the
// log's by kResizedMarkFactor or more is "resized" (StageResult::resized_by): the log's own
// rates applied to other sizes, so it is profiled from the log — it counts as profiled in the
// label — but it carries the cost model's band (models/engine/simulated_band.h), and where
// stages are counted it is named on its own ("1 resized from a profile").
//
//   label      "profiled"  no stage modelled (profiled stages, resized or not; also a run
//                          without stages: no second of it is the cost model's)
//              "modelled"  every stage modelled
//              "mixed"     both
#ifndef AQESIM_MODELS_ENGINE_RUN_TIME_SOURCE_H_
#define AQESIM_MODELS_ENGINE_RUN_TIME_SOURCE_H_

#include <cstddef>
#include <string>

#include "models/engine/run_result.h"

namespace aqesim {

/// A run's stages by how they were timed; profiled + resized + modelled = its stages.
struct StageTimeCounts {
  size_t profiled = 0;  // timed by their recorded profile as recorded (no resizing mark)
  size_t resized = 0;   // timed by a profile resized by kResizedMarkFactor or more
  size_t modelled = 0;  // timed by the cost model
  size_t stages() const { return profiled + resized + modelled; }
  StageTimeCounts& operator+=(const StageTimeCounts& o) {
    profiled += o.profiled;
    resized += o.resized;
    modelled += o.modelled;
    return *this;
  }
};

StageTimeCounts CountStageTimes(const RunResult& run);

/// The label of the header comment for `counts` (several runs' counts added: their label).
std::string TimeSourceLabel(const StageTimeCounts& counts);

/// TimeSourceLabel(CountStageTimes(run)).
std::string RunTimeSource(const RunResult& run);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RUN_TIME_SOURCE_H_
