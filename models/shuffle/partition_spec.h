// Shuffle partition specs: what one reduce task of an AQE shuffle read reads.
//
// Mirrors sql/core/src/main/scala/org/apache/spark/sql/execution/ShuffledRowRDD.scala
// (CoalescedPartitionSpec, PartialReducerPartitionSpec, PartialMapperPartitionSpec,
// CoalescedMapperPartitionSpec). All ranges are half-open [start, end).
#ifndef AQESIM_MODELS_SHUFFLE_PARTITION_SPEC_H_
#define AQESIM_MODELS_SHUFFLE_PARTITION_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace aqesim {

/// Reducers [start_reducer_index, end_reducer_index) from all mappers.
/// (0, 0) is the single empty partition used when every input of a stage had 0 partitions.
struct CoalescedPartitionSpec {
  int start_reducer_index = 0;
  int end_reducer_index = 0;
  /// Bytes as the driver sees them (MapStatus), when known.
  std::optional<int64_t> data_size_bytes;
  bool operator==(const CoalescedPartitionSpec&) const = default;
};

/// One reducer, only from mappers [start_map_index, end_map_index) — a skew split.
struct PartialReducerPartitionSpec {
  int reducer_index = 0;
  int start_map_index = 0;
  int end_map_index = 0;
  int64_t data_size_bytes = 0;
  bool operator==(const PartialReducerPartitionSpec&) const = default;
};

/// One mapper's blocks for reducers [start_reducer_index, end_reducer_index) — a local read.
struct PartialMapperPartitionSpec {
  int map_index = 0;
  int start_reducer_index = 0;
  int end_reducer_index = 0;
  bool operator==(const PartialMapperPartitionSpec&) const = default;
};

/// Mappers [start_map_index, end_map_index), all reducers [0, num_reducers) — a local read.
struct CoalescedMapperPartitionSpec {
  int start_map_index = 0;
  int end_map_index = 0;
  int num_reducers = 0;
  bool operator==(const CoalescedMapperPartitionSpec&) const = default;
};

using ShufflePartitionSpec = std::variant<CoalescedPartitionSpec, PartialReducerPartitionSpec,
                                          PartialMapperPartitionSpec, CoalescedMapperPartitionSpec>;

/// Spark's class name of a spec ("CoalescedPartitionSpec", ...), as used in explain JSON.
std::string SpecTypeName(const ShufflePartitionSpec& spec);

/// How an AQE shuffle read is classified in Spark's metrics and explain output
/// (AQEShuffleReadExec): local if any mapper spec; coalesced if a Coalesced spec spans more
/// than one reducer or is (0,0); skewed if any PartialReducer spec.
struct ReadClassification {
  bool is_local = false;
  bool has_coalesced = false;
  bool has_skewed = false;
  int num_skewed_partitions = 0;  // distinct reducers among PartialReducer specs
  int num_skewed_splits = 0;      // PartialReducer specs, cross-product copies included
};
ReadClassification ClassifyRead(const std::vector<ShufflePartitionSpec>& specs);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_PARTITION_SPEC_H_
