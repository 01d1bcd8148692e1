// Variant las.skewJoinsUnderUnion (ByteDance LAS, 2022; models/conf/variants.h): a Union whose
// children contain skewed sort-merge joins.
//
// What Spark 4.0 already does: OptimizeSkewedJoin takes every candidate join of the plan,
// bottom-up, so the joins under a Union are each split on their own (ByteDance built this on
// Spark 3.0, whose rule gave up on a plan with more than two shuffle stages). What it still
// does not: its extra-shuffle check is over the whole plan and all-or-nothing (docs/aqe-behaviour.md
// §6): when the split of one join would need an extra shuffle (an aggregate above it in the same
// stage), every split of the plan is withdrawn, those of the other union branches included
// (needsExtraShuffle on each).
//
// The variant checks joins under a Union per union branch: a union's children are independent
// parts of its stage (a Union requires no distribution of them, and its own output partitioning
// is unknown, so no operator above relies on a branch's partitioning), so a branch whose split
// needs a shuffle is left whole and the others keep their splits. A join's branch is the child
// of the nearest Union above it in the same stage (nested unions: the innermost); joins under
// no union keep Spark's all-or-nothing check among themselves.
#ifndef AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOINS_UNDER_UNION_H_
#define AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOINS_UNDER_UNION_H_

#include <string>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

/// The union branch of `join`: "<union id>#<child index>" for the nearest Union above it in the
/// same stage, "" when there is none.
std::string UnionBranchOf(const ExecNode& join);

/// Of `rewritten` (split joins), the ones whose split must be withdrawn when `broken` need an
/// extra shuffle: those sharing a union branch with a broken join, and every join under no
/// union when a broken one is under none.
std::vector<ExecNode*> WithdrawnWithUnionBranches(const std::vector<ExecNode*>& rewritten,
                                                  const std::vector<ExecNode*>& broken);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOINS_UNDER_UNION_H_
