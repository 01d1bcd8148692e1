// Questions the AQE rules ask of an ExecPlan: is this a materialized shuffle stage, may it be
// coalesced / read locally, does an operator above rely on a partitioning.
#ifndef AQESIM_MODELS_AQE_PLAN_QUERIES_H_
#define AQESIM_MODELS_AQE_PLAN_QUERIES_H_

#include <functional>
#include <vector>

#include "models/engine/exec_plan.h"

namespace aqesim {

/// An exchange whose map stage has completed and whose MapOutputStatistics exist.
bool IsMaterializedShuffle(const ExecNode& n);
/// An exchange whose map stage has been created (running or done).
bool HasStage(const ExecNode& n);
bool IsBroadcastJoin(const ExecNode& n);

/// Visits the operators of one stage's subtree: stops at exchanges (visited: they are the
/// stage's reads) and at broadcast build sides (another stage).
void VisitStage(ExecNode* root, const std::function<void(ExecNode*)>& visit);
/// The exchange reads of a stage subtree, left to right.
std::vector<ExecNode*> StageReads(ExecNode* root);

/// Joins of the plan whose stage has not been created yet (the ones re-planning may change),
/// in pre-order.
std::vector<ExecNode*> JoinsNotYetRunning(ExecNode* plan);

/// True when an operator between `n` and the stage boundary above it (the next exchange, or
/// the root) needs the hash partitioning `n` outputs: a sort-merge / shuffled hash join or an
/// aggregate (EnsureRequirements would have to add a shuffle if n's partitioning changed).
bool PartitioningRequiredAbove(const ExecNode& n);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_PLAN_QUERIES_H_
