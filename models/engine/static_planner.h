// Static planning: what Spark decides before anything runs.
//
//  * EnsureRequirements (sql/core/.../exchange/EnsureRequirements.scala): every shuffle gets
//    spark.sql.shuffle.partitions reducers, or coalescePartitions.initialPartitionNum when AQE
//    and coalescing are on; a user repartition(n) keeps n.
//  * JoinSelection (sql/core/.../SparkStrategies.scala) on the planner's estimates: a
//    sort-merge or shuffled-hash join whose buildable side is estimated at most
//    spark.sql.autoBroadcastJoinThreshold becomes a broadcast hash join, and the shuffles
//    below it disappear (a broadcast join needs no co-partitioning).
//  * The true size matrix of every exchange, materialised at its reducer count.
#ifndef AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_
#define AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/aqe/decision.h"
#include "models/engine/exec_plan.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Thrown when the scenario's plan cannot be executed as given (e.g. join sides with
/// different partition counts); `pointer` names the node. what() is "POINTER: MESSAGE".
struct PlanError : std::runtime_error {
  PlanError(std::string where, std::string text)
      : std::runtime_error(where + ": " + text), pointer(std::move(where)), message(std::move(text)) {}
  std::string pointer;
  std::string message;
};

struct StaticPlan {
  std::unique_ptr<ExecNode> root;
  std::vector<Decision> decisions;    // static join selections
  std::vector<std::string> warnings;  // resampled matrices etc.
};

/// Plans `scenario` with `conf` (whose adaptive_enabled says which run this is).
/// Throws PlanError for plans that cannot run.
StaticPlan PlanStatically(const Scenario& scenario, const SqlConf& conf);

/// Recomputes planned_partitions and estimated_bytes of a subtree bottom-up.
void ComputePlannedProperties(ExecNode* node, const SqlConf& conf);

/// Whether a side of a join of this type may be the build side of a broadcast hash join
/// (JoinSelectionHelper.canBuildBroadcastLeft/Right).
bool CanBuildBroadcastLeft(JoinType t);
bool CanBuildBroadcastRight(JoinType t);
/// Whether a side may build a shuffled hash join (canBuildShuffledHashJoinLeft/Right).
bool CanBuildShuffledHashLeft(JoinType t);
bool CanBuildShuffledHashRight(JoinType t);

/// Changes the row (map task) count of a matrix: each old row spreads over the new rows its
/// interval overlaps; bytes are conserved exactly.
SizeMatrix ResampleMaps(const SizeMatrix& m, int new_maps);

/// Recomputes planned properties of `n` and its ancestors up to the next exchange (after a
/// rule changed the plan below them).
void RecomputeUpToExchange(ExecNode* n, const SqlConf& conf);

/// Index of the streamed (probe) child of a broadcast join: the one that is not built.
inline size_t StreamedChildIndex(BuildSide b) { return b == BuildSide::kLeft ? 1 : 0; }
inline size_t BuildChildIndex(BuildSide b) { return b == BuildSide::kLeft ? 0 : 1; }

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_STATIC_PLANNER_H_
