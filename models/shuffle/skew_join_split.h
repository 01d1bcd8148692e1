// The per-join core of OptimizeSkewedJoin: which reducers of a sort-merge / shuffled-hash join
// are skewed, how each skewed side is split by map ranges, and the left-major cross product of
// the resulting specs.
//
// Mirrors the per-join part of
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/OptimizeSkewedJoin.scala
// (docs/aqe-behaviour.md §6 "Per join" and the side table). The plan-level parts (candidate joins, the
// extra-shuffle check, the cost gate) belong to the rule, not here. Sizes are bytes (int64).
#ifndef AQESIM_MODELS_SHUFFLE_SKEW_JOIN_SPLIT_H_
#define AQESIM_MODELS_SHUFFLE_SKEW_JOIN_SPLIT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/plan/plan.h"
#include "models/shuffle/map_output_statistics.h"
#include "models/shuffle/partition_spec.h"

namespace aqesim {

struct SkewJoinParams {
  /// spark.sql.adaptive.advisoryPartitionSizeInBytes (the session value, not a per-stage one).
  int64_t advisory_partition_size_bytes = 64LL << 20;
  /// spark.sql.adaptive.skewJoin.skewedPartitionFactor (>= 0).
  double skewed_partition_factor = 5.0;
  /// spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes.
  int64_t skewed_partition_threshold_bytes = 256LL << 20;
};

/// Which side of a join may be split (docs/aqe-behaviour.md §6 table): Inner/Cross both; LeftOuter/LeftSemi/
/// LeftAnti left only; RightOuter right only; FullOuter neither.
bool CanSplitLeftSide(JoinType type);
bool CanSplitRightSide(JoinType type);

/// One side's statistics as the rule computes them (docs/aqe-behaviour.md §6 "Per join").
struct SkewSideStats {
  int64_t median = 1;     // §3.4 median, >= 1
  int64_t threshold = 0;  // max(skewedPartitionThresholdInBytes, (long)(median * factor))
  int64_t target = 0;     // max(advisory, mean of the sizes at or below the threshold)
};
SkewSideStats ComputeSkewSideStats(const std::vector<int64_t>& sizes, const SkewJoinParams& params);

/// What was computed for the join, whether or not anything was split.
struct SkewJoinMeta {
  struct SplitReducer {
    int reducer = 0;
    int num_pieces = 0;
    bool operator==(const SplitReducer&) const = default;
  };
  std::vector<int64_t> left_sizes_bytes;  // left bytesByPartitionId
  std::vector<int64_t> right_sizes_bytes;
  int64_t left_median_bytes = 1;  // §3.4 median, >= 1
  int64_t right_median_bytes = 1;
  int64_t left_skew_threshold_bytes = 0;  // max(thresholdBytes, (long)(median * factor))
  int64_t right_skew_threshold_bytes = 0;
  int64_t left_target_size_bytes = 0;  // max(advisory, mean of the non-skewed sizes)
  int64_t right_target_size_bytes = 0;
  int num_skewed_left = 0;  // reducers actually split on the left
  int num_skewed_right = 0;
  std::vector<SplitReducer> left_splits;  // ascending reducer
  std::vector<SplitReducer> right_splits;
};

struct SkewJoinSpecs {
  std::vector<ShufflePartitionSpec> left;   // one entry per task, left-major cross product
  std::vector<ShufflePartitionSpec> right;  // same length as left
};

struct SkewJoinSplitResult {
  SkewJoinMeta meta;
  /// nullopt: nothing was split, the join stays as it is.
  std::optional<SkewJoinSpecs> specs;
  /// When specs is nullopt: why ("join type FullOuter cannot be split", "no skewed partition",
  /// "left has 5 partitions, right has 6").
  std::string reason;
};

/// Per-map reported block sizes of one reducer (map order; -1 = missing map output).
using MapSizesForReducerFn = std::function<std::vector<int64_t>(int reducer)>;

/// A variant's split of a reducer that Spark's size test leaves whole (nullopt: none), e.g.
/// intel.skewByRowCount (intel_row_count_skew.h). Empty function: Spark's rule alone.
using ExtraSkewSplitFn = std::function<std::optional<std::vector<PartialReducerPartitionSpec>>(int reducer)>;

/// The per-join decision from both sides' bytesByPartitionId and per-map sizes. `left_extra` /
/// `right_extra` are asked for a reducer of a splittable side that Spark's test did not split.
SkewJoinSplitResult SplitSkewedJoin(JoinType join_type,
                                    const std::vector<int64_t>& left_bytes_by_partition_id,
                                    const std::vector<int64_t>& right_bytes_by_partition_id,
                                    const MapSizesForReducerFn& left_map_sizes,
                                    const MapSizesForReducerFn& right_map_sizes, const SkewJoinParams& params,
                                    const ExtraSkewSplitFn& left_extra = {},
                                    const ExtraSkewSplitFn& right_extra = {});

/// The same over two driver views.
SkewJoinSplitResult SplitSkewedJoin(JoinType join_type, const ReportedShuffleSizes& left,
                                    const ReportedShuffleSizes& right, const SkewJoinParams& params);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SKEW_JOIN_SPLIT_H_
