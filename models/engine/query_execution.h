// QueryExecution: simulates one query on the modelled cluster, with AQE off or on — the wiring
// of the engine's parts on one discrete-event simulator (sim/):
//
//   static_planner.h      the plan before anything runs (reducer counts, static broadcasts)
//   stage_graph.h         the query stages and their dependencies (AQE off: all up front)
//   adaptive_planner.h    AQE on: AdaptiveSparkPlanExec's loop (stages as inputs materialize,
//                         re-optimization, the final stage)
//   task_work.h           what each task reads, sorts, builds, probes, writes: the cost model's
//                         inputs (models/cost/cost_model.h turns them into seconds)
//   map_output.h          a finished map stage's rows as its tasks wrote them
//   preferred_locations.h reduce-task locality for the scheduler's delay scheduling
//   executor_state.h      JVM and code warmth per executor
//   run_result_builder.h  the RunResult
//
// AQE off: Spark's DAGScheduler runs one job (plus a job per broadcast): every stage is
// created up front and runs when its parents finish. AQE on: decisions use the statistics as
// the driver sees them (MapStatus); tasks run on true sizes.
#ifndef AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_
#define AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_

#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Longest simulated run, seconds: 2^62 µs (about 146,000 years). Simulated time saturates
/// at 2^63 µs; a run that lasts longer is refused rather than printed with saturated times.
inline constexpr double kMaxSimulatedSeconds = 4611686018427.387904;

/// Simulates `scenario` with spark.sql.adaptive.enabled forced to `adaptive`.
/// Throws PlanError (models/plan/plan_error.h) for plans that cannot run, and for a run
/// longer than kMaxSimulatedSeconds.
RunResult SimulateQuery(const Scenario& scenario, bool adaptive);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_
