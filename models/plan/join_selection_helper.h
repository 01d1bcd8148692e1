// Join helpers shared by static planning (models/engine/static_planner.h) and the runtime
// rules (models/aqe/rules/join_selection.h, dynamic_join_selection.h): which child streams and
// which builds, which sides a join type lets build, and the choice of build side — Spark's
// JoinSelectionHelper (sql/catalyst/.../optimizer/joins.scala: canBuildBroadcastLeft/Right,
// canBuildShuffledHashJoinLeft/Right, canBroadcastBySize, getBroadcastBuildSide/getSmallerSide).
#ifndef AQESIM_MODELS_PLAN_JOIN_SELECTION_HELPER_H_
#define AQESIM_MODELS_PLAN_JOIN_SELECTION_HELPER_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "models/plan/exec_node.h"

namespace aqesim {

/// Index of the streamed (probe) child of a hash join: the one that is not built.
inline size_t StreamedChildIndex(BuildSide b) { return b == BuildSide::kLeft ? 1 : 0; }
inline size_t BuildChildIndex(BuildSide b) { return b == BuildSide::kLeft ? 0 : 1; }
/// The streamed / build child of a join whose build side is set.
ExecNode& StreamedChild(const ExecNode& join);
ExecNode& BuildChild(const ExecNode& join);

/// Whether a side of a join of this type may be the build side of a broadcast hash join
/// (canBuildBroadcastLeft/Right).
bool CanBuildBroadcastLeft(JoinType t);
bool CanBuildBroadcastRight(JoinType t);
/// Whether a side may build a shuffled hash join (canBuildShuffledHashJoinLeft/Right).
bool CanBuildShuffledHashLeft(JoinType t);
bool CanBuildShuffledHashRight(JoinType t);

/// canBroadcastBySize: a known size (>= 0) at most the threshold (a negative threshold
/// disables broadcasting). Static planning passes the planner's estimate and
/// spark.sql.autoBroadcastJoinThreshold; re-planning a materialized side its runtime size and
/// the adaptive threshold.
bool CanBroadcastBySize(int64_t size_bytes, int64_t threshold_bytes);

/// The build side among the sides that may build (getBroadcastBuildSide / getSmallerSide):
/// the only one, or the smaller of two (the right on a tie); nullopt when neither may.
std::optional<BuildSide> ChooseBuildSide(bool left_may_build, bool right_may_build, int64_t left_bytes,
                                         int64_t right_bytes);

/// A broadcast join planned without a build side builds the right side when the join type
/// allows it, else the left.
BuildSide DefaultBroadcastBuildSide(JoinType t);

/// A broadcast hash join needs no co-partitioning: the ENSURE_REQUIREMENTS shuffles directly
/// below `join` whose stage has not been created are removed (their children take their
/// place). A shuffle that has already run stays (Spark reuses the stage).
void DropCoPartitioningShuffles(ExecNode* join);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_JOIN_SELECTION_HELPER_H_
