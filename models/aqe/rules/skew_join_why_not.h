// Why OptimizeSkewedJoin left a join (or an aggregate's skewed input) as it was: the first
// early-out of OptimizeSkewedJoin.scala that stopped it, with the numbers (NotApplied entries,
// docs/aqe-behaviour.md §16). The per-join decision itself is skew_join_split.h's.
//
// Order, per join (the reported sizes are MapOutputStatistics.bytesByPartitionId; "true" is
// what an exact MapStatus would report, the bytes written × reportedSizeRatio):
//  1. partitionCountsDiffer: the two sides have different reducer counts;
//  2. a side's largest reported partition is above its skew threshold
//     (max(skewedPartitionThresholdInBytes, skewedPartitionFactor × median)) but:
//     joinTypeCannotSplit when no such side may be split for the join type (§6 table),
//     singleMapPartition when it may but createSkewPartitionSpecs made one piece;
//  3. no reported partition is skewed but a true one is: joinTypeCannotSplit when the side
//     cannot be split, else hiddenByMapStatus (HighlyCompressedMapStatus averaged it away);
//  4. belowSkewFactor / belowSkewThreshold: the largest partition of the side with the largest
//     one is at most factor × median / above it but at most the threshold; the message names
//     the larger bound, max(threshold, factor × median), as Spark's cut.
// An aggregate or window reading a skewed shuffle: notAJoin (the rule never looks at them); a
// sort reading a skewed range exchange: rangePartitioned (a key is never split across range
// partitions, and no rule splits a sort's); a join or aggregate reading a bucketed scan with a
// hot bucket: bucketedScan (no shuffle, nothing for AQE to split).
#ifndef AQESIM_MODELS_AQE_RULES_SKEW_JOIN_WHY_NOT_H_
#define AQESIM_MODELS_AQE_RULES_SKEW_JOIN_WHY_NOT_H_

#include <optional>
#include <string>
#include <vector>

#include "models/aqe/not_applied.h"
#include "models/aqe/rule.h"
#include "models/plan/exec_node.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {

/// Why the split of `join` (two materialized shuffles) came out empty (`result.specs` nullopt).
NotApplied SkewJoinWhyNot(const RuleContext& ctx, const ExecNode& join, const SkewJoinSplitResult& result,
                          const SkewJoinParams& params);

/// notAJoin entries: every materialized hash shuffle read directly (through filters, projects and
/// sorts) by an aggregate or window whose largest partition (reported or true) is above the skew
/// threshold; rangePartitioned entries: every materialized range exchange read by a sort whose
/// largest reported partition is above it; bucketedScan entries: every bucketed scan read by a
/// join or an aggregate (through filters and projects) whose largest task's bytes are above it.
std::vector<NotApplied> SkewedAggregateInputs(const RuleContext& ctx, ExecNode* plan,
                                              const SkewJoinParams& params);

/// The skew parameters of `conf` (session values).
SkewJoinParams SkewParamsOf(const SqlConf& conf);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_SKEW_JOIN_WHY_NOT_H_
