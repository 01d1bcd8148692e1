// OptimizeSkewedJoin's pass over the join shapes Spark's rule does not take, when the ByteDance
// LAS shape variants are on (models/conf/variants.h): las.skewJoinAggWindowSides (a side that is
// an aggregate or window over its shuffle, las_skew_join_agg_window_sides.h) and
// las.multipleSkewedJoinsInStage (consecutive shuffled joins of one stage,
// las_multiple_skewed_joins_in_stage.h). optimize_skewed_join.cc runs it before Spark's per-join
// loop; the joins of a unit it split are then left out of that loop, and a unit it did not split
// is left to Spark's loop as if the variants were off (Spark's "why not" entries unchanged).
//
// A unit is decided on the same sizes as Spark's joins (the exact totals of
// las.exactReducerTotals / las.splitByExactTotals when on) by SplitSkewedSides
// (models/shuffle/las_skew_split_sides.h); its top join is what the rule's extra-shuffle check
// looks above. Each unit split is a decision that says "variant ... changed this decision" and
// what Spark did there.
#ifndef AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_SHAPES_H_
#define AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_SHAPES_H_

#include <map>
#include <set>
#include <vector>

#include "models/aqe/decision.h"
#include "models/aqe/rule.h"
#include "models/plan/exec_node.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {

/// True when a shape variant is on.
bool SkewShapeVariantsOn(const VariantSwitches& variants);

/// Read specs of a unit's inputs before the pass undid them, by top join.
using PreviousUnitSplits = std::map<const ExecNode*, std::vector<std::vector<ShufflePartitionSpec>>>;

/// Undoes the unit splits of joins whose stage is not created yet (Spark re-plans them at every
/// re-optimization) and returns them.
PreviousUnitSplits UndoSkewJoinUnits(ExecNode* plan, const VariantSwitches& variants);

struct SkewJoinUnitsOutcome {
  std::vector<ExecNode*> split_tops;  // top joins of the units split, plan pre-order
  std::set<const ExecNode*> handled;  // every join of those units (Spark's loop skips them)
  std::vector<Decision> decisions;    // one per unit split differently from before
  bool differs = false;               // a unit split differs from the one undone
};

/// Decides every unit of `plan` (pre-order: the largest unit first). `previous` loses the
/// entries decided again.
SkewJoinUnitsOutcome SplitSkewJoinUnits(const RuleContext& ctx, ExecNode* plan, const SkewJoinParams& params,
                                        PreviousUnitSplits* previous);

/// Withdraws the split of the unit whose top is `top` (the extra-shuffle check said no).
void WithdrawSkewJoinUnit(ExecNode* top, const VariantSwitches& variants);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_SHAPES_H_
