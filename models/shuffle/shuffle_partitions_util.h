// ShufflePartitionsUtil: the coalescing and skew-splitting algorithms AQE rules call.
//
// Mirrors sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/ShufflePartitionsUtil.scala
// (docs/aqe-behaviour.md §4) plus the two small formulas of CoalesceShufflePartitions.scala
// (docs/aqe-behaviour.md §5: the target size and the split of minNumPartitions across coalesce groups). Pure
// functions over numbers: sizes are bytes (int64), indices are reducer / map indices, ranges are half-open.
#ifndef AQESIM_MODELS_SHUFFLE_SHUFFLE_PARTITIONS_UTIL_H_
#define AQESIM_MODELS_SHUFFLE_SHUFFLE_PARTITIONS_UTIL_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/shuffle/partition_spec.h"

namespace aqesim {

/// A split piece smaller than target * this is merged into its neighbour (skew joins).
inline constexpr double kSmallPartitionFactor = 0.2;
/// Two neighbouring split pieces are merged when together below target * this.
inline constexpr double kMergedPartitionFactor = 1.2;

/// Outcome of CoalescePartitions.
struct CoalesceResult {
  enum class Status {
    kCoalesced,  // specs_per_shuffle holds one new spec list per shuffle (same length each)
    kUnchanged,  // Spark's empty result: leave every read of the group as it is
    kError,      // an assertion Spark would fail on (inconsistent input specs); see `error`
  };
  Status status = Status::kUnchanged;
  std::vector<std::vector<ShufflePartitionSpec>> specs_per_shuffle;
  std::string error;

  bool coalesced() const { return status == Status::kCoalesced; }
};

/// Spark's target size of one coalesced partition (docs/aqe-behaviour.md §4.1):
///   max(min(ceil(total / (double)min_num_partitions), advisory), min_partition_size)
/// min_num_partitions < 1 is treated as 1.
int64_t CoalesceTargetSize(int64_t total_bytes, int min_num_partitions, int64_t advisory_target_size_bytes,
                           int64_t min_partition_size_bytes);

/// ShufflePartitionsUtil.coalescePartitions (docs/aqe-behaviour.md §4.1–§4.5) for one coalesce group.
///  bytes_by_partition_id: per shuffle, its MapOutputStatistics.bytesByPartitionId, or nullopt
///    when the stage has no map statistics (its input had 0 partitions).
///  input_specs: per shuffle, its existing AQE read specs (after skew splitting) or nullopt.
///  Both lists have one entry per shuffle of the group (a length mismatch is an error).
/// Without input specs: coalesceWithoutSkew; if any list is given: coalesceWithSkew.
CoalesceResult CoalescePartitions(
    const std::vector<std::optional<std::vector<int64_t>>>& bytes_by_partition_id,
    const std::vector<std::optional<std::vector<ShufflePartitionSpec>>>& input_specs,
    int64_t advisory_target_size_bytes, int min_num_partitions, int64_t min_partition_size_bytes);

/// The packing loop (docs/aqe-behaviour.md §4.4) over reducers [start, end) of the given shuffles (sizes
/// summed per reducer across them), returning the coalesced ranges (data_size_bytes unset). With
/// allow_empty=false and nothing emitted, one range over [start, end) is forced.
std::vector<CoalescedPartitionSpec> CoalesceRange(
    int start, int end, const std::vector<const std::vector<int64_t>*>& bytes_by_partition_id,
    int64_t target_size_bytes, int64_t min_partition_size_bytes, bool allow_empty);

/// splitSizeListByTargetSize (docs/aqe-behaviour.md §4.6): start indices of the pieces the list is cut into
/// (always begins with 0; one element = no split).
std::vector<int> SplitSizeListByTargetSize(std::span<const int64_t> sizes, int64_t target_size_bytes,
                                           double small_partition_factor);

/// createSkewPartitionSpecs (docs/aqe-behaviour.md §4.7) for one reducer, given every map's reported block
/// size for it (-1 = missing map output). nullopt if any size < 0 or the split yields <= 1 piece.
std::optional<std::vector<PartialReducerPartitionSpec>> CreateSkewPartitionSpecs(
    int reducer, std::span<const int64_t> map_sizes_bytes, int64_t target_size_bytes,
    double small_partition_factor = kSmallPartitionFactor);

/// CoalesceShufflePartitions' split of minNumPartitions across coalesce groups (docs/aqe-behaviour.md §5 step
/// 3): one group -> [max(min_num, 1)]; else each group gets max(round_half_up(min_num * size_g / total), 1)
/// when total > 0, or max(min_num, 1) when total == 0.
std::vector<int> MinNumPartitionsByGroup(int min_num_partitions,
                                         const std::vector<int64_t>& group_total_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SHUFFLE_PARTITIONS_UTIL_H_
