// Variant las.multipleSkewedJoinsInStage (ByteDance LAS, 2022; models/conf/variants.h): several
// consecutive sort-merge / shuffled hash joins in one stage, a key joined to many tables:
// join2(join1(a, b), c) with a, b, c shuffles on the same key. Spark's OptimizeSkewedJoin takes
// join1 (both children are shuffle stages) but not join2 (its left child is a join), and
// splitting join1 alone makes its output partitioning unknown, which join2 needs: the
// extra-shuffle check withdraws every split of the plan (needsExtraShuffle).
//
// The variant splits the joins of such a chain together, as one unit: reducer p of every input
// is read by the same tasks. A skewed input's reducer p is split by map ranges (Spark's
// threshold, target and createSkewPartitionSpecs, per input), every other input's reducer p is
// read whole by each piece, and when several inputs are skewed at p the tasks are every
// combination of their pieces (las_skew_split_sides.h). Each task then joins, for its piece,
// complete partitions of every other table on the key: the output is the same as unsplit, the
// joins above the chain's bottom keep their co-partitioned inputs, and the chain's top join is
// what the extra-shuffle check looks above.
//
// Which inputs may be split: an input is splittable when, at every join between it and the
// top, it is on a side that join's type lets Spark split (§6 table: inner both, left outer /
// semi / anti the left, right outer the right, full outer neither); the others are only
// replicated. All inputs must have the same reducer count.
//
// CollectSkewJoinUnit also gathers the sides of las.skewJoinAggWindowSides
// (las_skew_join_agg_window_sides.h) when that variant is on: an aggregate or window over an
// input is a side never split.
#ifndef AQESIM_MODELS_AQE_RULES_LAS_MULTIPLE_SKEWED_JOINS_IN_STAGE_H_
#define AQESIM_MODELS_AQE_RULES_LAS_MULTIPLE_SKEWED_JOINS_IN_STAGE_H_

#include <optional>
#include <string>
#include <vector>

#include "models/aqe/rule.h"  // SqlConf and its VariantSwitches
#include "models/plan/exec_node.h"

namespace aqesim {

/// One shuffle read of a unit.
struct SkewJoinUnitInput {
  ExecNode* exchange = nullptr;
  /// The aggregate or window between the exchange and its join (las.skewJoinAggWindowSides),
  /// else nullptr.
  ExecNode* agg_or_window = nullptr;
  bool splittable = false;
};

/// Joins a skew split takes together, and their inputs, left to right.
struct SkewJoinUnit {
  ExecNode* top = nullptr;
  std::vector<ExecNode*> joins;  // bottom-up, the top last
  std::vector<SkewJoinUnitInput> inputs;
  /// The variants the unit's shape needs ("las.skewJoinAggWindowSides",
  /// "las.multipleSkewedJoinsInStage"); empty: a join Spark's rule takes itself.
  std::vector<std::string> variants;
};

/// True for a sort-merge or shuffled hash join.
bool IsShuffledJoin(const ExecNode& n);

/// The unit whose top join is `top`, under the enabled shape variants: nullopt when `top` is
/// not a shuffled join whose stage is still to be created, when an input is not a finished
/// ENSURE_REQUIREMENTS shuffle (`allow_read_specs`: one whose read has specs counts, to undo an
/// earlier split), or when the shape needs a variant that is off.
std::optional<SkewJoinUnit> CollectSkewJoinUnit(ExecNode* top, const VariantSwitches& variants,
                                                bool allow_read_specs = false);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_LAS_MULTIPLE_SKEWED_JOINS_IN_STAGE_H_
