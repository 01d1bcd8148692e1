// The skew split of several shuffle reads that one query stage joins on the same key: the core of
// the ByteDance LAS shape variants las.skewJoinAggWindowSides and las.multipleSkewedJoinsInStage
// (models/aqe/rules/las_skew_join_shapes.h says which plans they apply to).
//
// It generalises the per-join step of OptimizeSkewedJoin (skew_join_split.h, docs/aqe-behaviour.md
// §6 "Per join") from two sides to N: every side keeps Spark's own statistics (median, threshold
// max(skewedPartitionThresholdInBytes, factor x median), target max(advisory, mean of the
// non-skewed sizes)); a reducer above a splittable side's threshold is split by
// createSkewPartitionSpecs; and reducer p runs one task per combination of the sides' pieces
// (the product of their piece counts), first side major. A side that is not split at p is read
// whole (CoalescedPartitionSpec(p, p+1)) by each of those tasks: it is replicated. With two
// sides and Spark's join-type flags the result is SplitSkewedJoin's, spec for spec.
//
// Sizes are bytes (int64). A side that is not splittable is never split, whatever its size.
#ifndef AQESIM_MODELS_SHUFFLE_LAS_SKEW_SPLIT_SIDES_H_
#define AQESIM_MODELS_SHUFFLE_LAS_SKEW_SPLIT_SIDES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/shuffle/partition_spec.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {

/// One shuffle read of the stage.
struct SkewSplitSide {
  std::string id;  // the exchange, for messages
  std::vector<int64_t> bytes_by_partition_id;
  MapSizesForReducerFn map_sizes;  // per-map block sizes of one reducer
  bool splittable = false;         // may its reducers be split by map ranges?
};

struct SkewSplitSidesResult {
  /// Per side (input order): its statistics and the reducers split (ascending).
  struct Side {
    SkewSideStats stats;
    std::vector<SkewJoinMeta::SplitReducer> splits;
  };
  std::vector<Side> sides;
  /// Per side, the read specs, all of one length (the stage's tasks); empty when nothing split.
  std::vector<std::vector<ShufflePartitionSpec>> specs;
  /// When nothing was split: why ("a1 has 5 partitions, a2 has 4", "no skewed partition could
  /// be split").
  std::string reason;

  bool split() const { return !specs.empty(); }
  int num_tasks() const { return specs.empty() ? 0 : static_cast<int>(specs[0].size()); }
};

/// The split of `sides` (at least two) under Spark's parameters.
SkewSplitSidesResult SplitSkewedSides(const std::vector<SkewSplitSide>& sides, const SkewJoinParams& params);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_LAS_SKEW_SPLIT_SIDES_H_
