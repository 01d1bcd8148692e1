// QueryExecution: simulates one query on the modelled cluster, with AQE off or on.
//
// AQE off: Spark's DAGScheduler runs one job (plus a job per broadcast): every stage is
// created up front and runs when its parents finish.
// AQE on: the adaptive loop of sql/core/.../adaptive/AdaptiveSparkPlanExec.scala (spec §2):
// exchanges become query stages bottom-up once their children are materialized (broadcast
// stages first); each stage completion triggers a re-optimization (DynamicJoinSelection,
// runtime JoinSelection, OptimizeSkewedJoin, the cost gate); every new stage's subtree goes
// through the query-stage rules (OptimizeSkewInRebalancePartitions →
// CoalesceShufflePartitions → OptimizeShuffleWithLocalRead); the final stage last.
// Decisions use the statistics as the driver sees them (MapStatus); tasks run on true sizes.
#ifndef AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_
#define AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_

#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Simulates `scenario` with spark.sql.adaptive.enabled forced to `adaptive`.
/// Throws PlanError (models/engine/static_planner.h) for plans that cannot run.
RunResult SimulateQuery(const Scenario& scenario, bool adaptive);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_QUERY_EXECUTION_H_
