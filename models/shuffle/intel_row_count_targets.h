// Variant intel.rowCountTargets (models/conf/variants.h): reducer counts set by bytes AND
// records, as Intel and Baidu's adaptive execution for Spark 2.x did
// (spark.sql.adaptive.shuffle.targetPostShuffleRowCount, default 2 x 10^7, beside
// targetPostShuffleInputSize): compressed bytes can hide a row explosion, and a reducer fed
// 100 million small records runs for as long as their number, not their bytes, says.
//
// Modifies CoalesceShufflePartitions (models/aqe/rules/coalesce_shuffle_partitions.h). Spark's
// specs are kept where no coalesced partition holds more than the record target. Where one does,
// the run of consecutive CoalescedPartitionSpecs around it (reducers [a, b), up to a skew split
// or the end) is packed again as that design's coordinator packed: greedily from reducer a, a new
// partition before the reducer that would take its bytes past Spark's target size or its records
// past the record target (both summed over the group's shuffles, as Spark sums bytes); a reducer
// alone above either stays one partition. Spark's skew splits (PartialReducerPartitionSpecs) are
// left as they are, and every shuffle of the group gets the same ranges. Each piece's
// data_size_bytes is its shuffle's bytes over the piece's reducers.
//
// Example (hand-computed in tests): reducers of 10, 10, 10, 10 MB and 8, 8, 8, 8 million
// records, targets 64 MB and 2 x 10^7 records: Spark coalesces [0, 4) (40 MB, 32 million
// records); the variant packs [0, 2) and [2, 4) (16 million records each; a third reducer would
// make 24 million).
#ifndef AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_TARGETS_H_
#define AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_TARGETS_H_

#include <cstdint>
#include <vector>

#include "models/shuffle/partition_spec.h"

namespace aqesim {

/// `specs_per_shuffle` (Spark's result: one list per shuffle of the group, equally long,
/// aligned) packed again where a coalesced partition holds more than `target_records`.
/// `records_by_partition` and `bytes_by_partition` (the driver's): one list per shuffle, one
/// entry per reducer; `target_bytes`: Spark's target size for the group. Returns the lists
/// unchanged when no partition passes the record target.
std::vector<std::vector<ShufflePartitionSpec>> PackByBytesAndRecords(
    const std::vector<std::vector<ShufflePartitionSpec>>& specs_per_shuffle,
    const std::vector<const std::vector<int64_t>*>& records_by_partition,
    const std::vector<const std::vector<int64_t>*>& bytes_by_partition, int64_t target_bytes,
    int64_t target_records);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_TARGETS_H_
