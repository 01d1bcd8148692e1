// Static planning: what Spark decides before anything runs.
//
//  * EnsureRequirements (sql/core/.../exchange/EnsureRequirements.scala): every shuffle gets
//    spark.sql.shuffle.partitions reducers, or coalescePartitions.initialPartitionNum when AQE
//    and coalescing are on; a user repartition(n) keeps n.
//  * EnsureRequirements inserts the shuffles a join or aggregate needs and the scenario left
//    out (ensure_requirements.h), after join selection.
//  * JoinSelection (sql/core/.../SparkStrategies.scala) on the planner's estimates: a
//    sort-merge or shuffled-hash join whose buildable side is estimated at most
//    spark.sql.autoBroadcastJoinThreshold becomes a broadcast hash join, and the shuffles
//    below it disappear (a broadcast join needs no co-partitioning).
//  * The true size matrix of every exchange, materialised at its reducer count.
#ifndef AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_
#define AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/plan/exec_node.h"
#include "models/plan/plan_error.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Most tasks one simulated run may schedule, all stages together (the engine holds about 140
/// bytes a task while it runs: 10^7 tasks, 1.4 GB). README "Input limits".
inline constexpr int64_t kMaxRunTasks = 10'000'000;

/// The tasks a planned run schedules, all stages together — the result stage (the root's
/// partitions), each map stage (an exchange's child) and each broadcast build — and the root of
/// the stage with the most.
struct PlannedTasks {
  int64_t total = 0;
  const ExecNode* largest_stage_root = nullptr;
};
PlannedTasks PlannedRunTasks(const ExecNode& root);

struct StaticPlan {
  std::unique_ptr<ExecNode> root;
  /// Scenario nodes of the exchanges EnsureRequirements inserted (ensure_requirements.h); the
  /// plan points at them, so they live as long as the plan is used.
  std::deque<PlanNode> inserted_sources;
  std::vector<Decision> decisions;    // static join selections
  std::vector<std::string> warnings;  // resampled matrices etc.
};

/// Plans `scenario` with `conf` (whose adaptive_enabled says which run this is).
/// Throws PlanError (models/plan/plan_error.h) for plans that cannot run.
StaticPlan PlanStatically(const Scenario& scenario, const SqlConf& conf);
/// Same for another plan of the scenario (a subquery's), with the scenario's configuration.
StaticPlan PlanStatically(const Scenario& scenario, const PlanNode& plan, const SqlConf& conf);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_
