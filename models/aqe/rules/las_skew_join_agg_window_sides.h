// Variant las.skewJoinAggWindowSides (ByteDance LAS, 2022; models/conf/variants.h): a skewed
// sort-merge or shuffled hash join one of whose sides is an aggregate or a window directly over
// its shuffle, where Spark's OptimizeSkewedJoin matches only a sort over a shuffle query stage
// on both sides (docs/aqe-behaviour.md §6 "When it applies"), so Spark leaves such a join whole
// and says nothing about it.
//
// The variant's split (what a Spark engineer can check is correct):
//  * the other side's skewed reducer is split by map ranges, exactly as Spark would split it;
//  * the aggregate or window side is never split: it is hash-partitioned by its grouping (window
//    partition) keys, which the join's keys include (else EnsureRequirements would have put a
//    shuffle between it and the join), so one reducer holds every row of each of its groups.
//    Each piece's task reads that reducer whole and runs the aggregate or window over it: every
//    group is complete in every task, each row of the split side meets the full result, and an
//    inner join's output is the same as unsplit. The aggregate or window runs once per piece
//    (its shuffle read and CPU are replicated, and the simulator charges them);
//  * splitting the aggregate or window side itself would cut groups into partial results, so a
//    skew on that side is left alone (Spark's own limit for the non-splittable side of an outer
//    join, §6 table, applies on top: a left outer join with the aggregate on the left splits
//    nothing).
// Filters and projects are not looked through: the side must be the aggregate or window whose
// child is the exchange (ByteDance's shape). The rule-level pass is las_skew_join_shapes.h.
#ifndef AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_AGG_WINDOW_SIDES_H_
#define AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_AGG_WINDOW_SIDES_H_

#include "models/plan/exec_node.h"

namespace aqesim {

/// The exchange under `side` when `side` is a grouped aggregate or a window whose child is an
/// exchange: a side the variant replicates and never splits. nullptr otherwise.
ExecNode* AggWindowSideExchange(const ExecNode& side);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_AGG_WINDOW_SIDES_H_
