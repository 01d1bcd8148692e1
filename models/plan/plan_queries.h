// Questions the AQE rules (and the engine) ask of an ExecNode plan: is this a materialized
// shuffle stage, which joins may still change, does an operator above rely on a partitioning.
#ifndef AQESIM_MODELS_PLAN_PLAN_QUERIES_H_
#define AQESIM_MODELS_PLAN_PLAN_QUERIES_H_

#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

/// An exchange whose map stage has completed and whose MapOutputStatistics exist.
bool IsMaterializedShuffle(const ExecNode& n);
/// An exchange whose map stage has been created (running or done).
bool HasStage(const ExecNode& n);

/// Joins of the plan whose stage has not been created yet (the ones re-planning may change),
/// in pre-order.
std::vector<ExecNode*> JoinsNotYetRunning(ExecNode* plan);

/// True when an operator between `n` and the stage boundary above it (the next exchange, or
/// the root) needs the hash partitioning `n` outputs: a sort-merge / shuffled hash join or an
/// aggregate (EnsureRequirements would have to add a shuffle if n's partitioning changed).
bool PartitioningRequiredAbove(const ExecNode& n);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_PLAN_QUERIES_H_
