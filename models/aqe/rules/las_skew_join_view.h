// What OptimizeSkewedJoin decides on when skew variants are on (models/conf/variants.h: the
// ByteDance LAS ones and Intel–Baidu's intel.skewByRowCount), and which variant changed its
// decision.
//
// Spark's rule (optimize_skewed_join.h, spec §6) reads, per side, the shuffle's
// bytesByPartitionId (MapOutputStatistics) and, for a skewed reducer, every map's reported
// block size. The variants replace those inputs:
//  * las.exactReducerTotals: bytesByPartitionId = the driver's exact per-reducer totals
//    (models/shuffle/las_exact_reducer_totals.h): medians, thresholds, targets and the skew
//    test use them;
//  * las.splitByExactTotals: the per-map sizes of a skewed reducer rebuilt from its exact
//    total (models/shuffle/las_split_by_exact_totals.h).
//  * intel.skewByRowCount: a reducer Spark's size test leaves whole is also split when its
//    records say it is skewed, as Intel and Baidu's adaptive execution split it
//    (models/shuffle/intel_row_count_skew.h).
// The split algorithm itself (thresholds, target, splitSizeListByTargetSize, the cross
// product) is Spark's, unchanged, for every reducer Spark's size test finds skewed.
#ifndef AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_VIEW_H_
#define AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_VIEW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/aqe/rule.h"  // SqlConf and its VariantSwitches
#include "models/plan/exec_node.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {

struct VariantSkewJoinDecision {
  /// The decision with the enabled variants (Spark's when none is on).
  SkewJoinSplitResult result;
  /// Variants that changed it from Spark's (empty: the same as Spark's, or none on).
  std::vector<std::string> changed_by;
  /// Spark's own decision, when changed_by is not empty.
  std::optional<SkewJoinSplitResult> spark;
};

/// The sizes OptimizeSkewedJoin decides on for one side: the driver's exact totals under
/// las.exactReducerTotals, else bytesByPartitionId.
const std::vector<int64_t>& SkewDecisionBytes(const ShuffleData& d, const VariantSwitches& variants);
/// The per-map sizes a skewed reducer of that side is split by: rebuilt from its exact total
/// under las.splitByExactTotals, else as reported.
MapSizesForReducerFn SkewDecisionMapSizes(const ShuffleData& d, const VariantSwitches& variants,
                                          int64_t accurate_block_threshold_bytes);

/// The per-join decision over two materialized shuffles under `variants`. A variant changed
/// the decision when Spark's specs (or no split) differ from the variants'; it is named when
/// turning it alone off changes the outcome (all enabled skew variants are named when only
/// their combination does).
VariantSkewJoinDecision SplitSkewedJoinWithVariants(JoinType join_type, const ShuffleData& left,
                                                    const ShuffleData& right, const SkewJoinParams& params,
                                                    const VariantSwitches& variants,
                                                    int64_t accurate_block_threshold_bytes);

/// " — variant las.exactReducerTotals changed this decision (Spark: 2 tasks)": the explain
/// wording; "" when no variant changed it.
std::string VariantChangeNote(const VariantSkewJoinDecision& d);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_LAS_SKEW_JOIN_VIEW_H_
