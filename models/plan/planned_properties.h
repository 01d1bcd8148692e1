// Planned properties of plan nodes: how many partitions a node outputs as planned without AQE
// (scan splits, reducers, a join's streamed side, a union's sum) and the planner's estimate of
// its output bytes (what static broadcast decisions and the runtime JoinSelection of a side
// that has not run compare with the thresholds).
#ifndef AQESIM_MODELS_PLAN_PLANNED_PROPERTIES_H_
#define AQESIM_MODELS_PLAN_PLANNED_PROPERTIES_H_

#include <cstdint>

#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"

namespace aqesim {

/// Most tasks a planned operator may have (scan splits, CartesianProduct partitions): the
/// scheduler holds about 100 bytes a task (10^8 tasks reached 11 GB). README "Input limits".
inline constexpr int64_t kMaxPlannedTasks = 10'000'000;

/// Sets planned_partitions and estimated_bytes of `node` from its children's (which must be
/// set). Throws PlanError (plan_error.h) beyond kMaxPlannedTasks.
void ComputePlannedProperties(ExecNode* node, const SqlConf& conf);

/// Bytes `n` outputs as its data says, not as the planner estimates: a scan's bytes; an
/// exchange's sizes once planned (else its child's); a join (left + right) × selectivity, a
/// union the sum of its children, any other node its child × selectivity. A node's
/// `estimatedBytes` is not used: it steers static planning only (broadcast decisions), the
/// data follows the scan and the selectivities. What an exchange without `sizes` writes
/// (static_planner.cc) and a range exchange splits. Saturates at 2^62.
int64_t DataBytes(const ExecNode& n);

/// Recomputes planned properties of `n` and its ancestors up to the next exchange (after a
/// rule changed the plan below them).
void RecomputeUpToExchange(ExecNode* n, const SqlConf& conf);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_PLANNED_PROPERTIES_H_
