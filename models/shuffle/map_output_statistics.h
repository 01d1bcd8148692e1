// ReportedShuffleSizes: the driver's view of one shuffle — every map task's MapStatus as the
// MapOutputTracker holds it — and the MapOutputStatistics AQE computes from it.
//
// Mirrors core/src/main/scala/org/apache/spark/MapOutputTracker.scala (registered statuses,
// getStatistics, getMapSizesByExecutorId as used by skew splitting) on top of MapStatus.scala
// (docs/aqe-behaviour.md §3). Shape: num_maps map tasks x num_reducers reducers; all sizes are bytes (int64).
//
// Modes:
//  * kSpark: every map reports a CompressedMapStatus (#reducers <= minNumPartitionsToHighlyCompress)
//    or a HighlyCompressedMapStatus (more reducers), exactly as Spark would; the driver sees
//    only the lossy, encoded sizes.
//  * kExact: the driver sees the true sizes (a what-if mode; kind() == kExact).
//
// Memory: compressed maps keep one uint8 code per block; highly compressed maps keep their
// average, an empty-block bitmap and a sparse list of (reducer, code) huge blocks; exact mode
// keeps the int64 sizes. No decoded copy of the matrix is ever built. bytes_by_partition_id is
// aggregated once, while the maps are added.
//
// Missing (lost) map outputs are not modelled: every map added is registered.
#ifndef AQESIM_MODELS_SHUFFLE_MAP_OUTPUT_STATISTICS_H_
#define AQESIM_MODELS_SHUFFLE_MAP_OUTPUT_STATISTICS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "models/shuffle/map_status.h"
#include "models/shuffle/size_matrix.h"

namespace aqesim {

enum class MapStatusMode { kSpark, kExact };

class ReportedShuffleSizes {
 public:
  /// Adds map tasks one at a time (see below).
  class Builder;

  /// An empty shuffle view (0 maps, 0 reducers).
  ReportedShuffleSizes() = default;

  /// The view of a whole true size matrix.
  static ReportedShuffleSizes FromMatrix(const SizeMatrix& matrix, const MapStatusConfig& config,
                                         MapStatusMode mode);

  int num_maps() const { return num_maps_; }
  int num_reducers() const { return num_reducers_; }
  MapStatusKind kind() const { return kind_; }
  /// "CompressedMapStatus", "HighlyCompressedMapStatus" or "exact".
  std::string_view StatusKind() const { return MapStatusKindName(kind_); }

  /// What MapStatus.getSizeForBlock(reducer) of map `map` returns, bytes.
  int64_t SizeForBlock(int map, int reducer) const;
  /// SizeForBlock(m, reducer) for every map m, in map order: the input of
  /// createSkewPartitionSpecs (docs/aqe-behaviour.md §4.7).
  std::vector<int64_t> MapSizesForReducer(int reducer) const;
  /// MapOutputStatistics.bytesByPartitionId (docs/aqe-behaviour.md §3.5): per reducer, the int64 sum over
  /// maps of SizeForBlock.
  const std::vector<int64_t>& BytesByPartitionId() const { return bytes_by_partition_id_; }
  /// Sum of BytesByPartitionId (int64, wrapping like Spark's long on overflow).
  int64_t TotalReportedBytes() const;

  /// HCMS: map `map`'s average block size; 0 for other kinds.
  int64_t MapAverageBytes(int map) const;
  /// Number of blocks stored accurately by HCMS (sum over maps); 0 for other kinds.
  int64_t NumHugeBlocks() const { return static_cast<int64_t>(huge_reducers_.size()); }

  /// Approximate bytes the registered statuses take in the driver's heap (JVM, compressed
  /// oops). Per map, with R = num_reducers:
  ///   CompressedMapStatus        kStatusObjectBytes + kArrayHeaderBytes + align8(R)
  ///   HighlyCompressedMapStatus  kStatusObjectBytes + kHcmsFieldBytes
  ///                              + roaring(empty): kRoaringBaseBytes + per 65536-reducer chunk
  ///                                that has empty blocks, kRoaringContainerBytes
  ///                                + min(2 * empties in chunk, 8192)
  ///                              + huge map: kHugeMapBaseBytes + kHugeMapEntryBytes per huge block
  ///   exact                      kStatusObjectBytes + kArrayHeaderBytes + 8 * R
  int64_t DriverMemoryBytes() const { return driver_memory_bytes_; }
  static constexpr int64_t kStatusObjectBytes = 48;  // header + location + mapTaskId + refs
  static constexpr int64_t kArrayHeaderBytes = 16;
  static constexpr int64_t kHcmsFieldBytes = 16;  // avgSize + numNonEmptyBlocks + padding
  static constexpr int64_t kRoaringBaseBytes = 48;
  static constexpr int64_t kRoaringContainerBytes = 16;
  static constexpr int64_t kHugeMapBaseBytes = 48;
  static constexpr int64_t kHugeMapEntryBytes = 48;  // hash node + boxed Integer key

  /// Blocks the driver visits to aggregate the statistics: num_maps * num_reducers
  /// (getStatistics calls getSizeForBlock once per block).
  int64_t NumBlocksAggregated() const {
    return static_cast<int64_t>(num_maps_) * static_cast<int64_t>(num_reducers_);
  }

 private:
  int num_maps_ = 0;
  int num_reducers_ = 0;
  MapStatusKind kind_ = MapStatusKind::kCompressed;
  std::vector<int64_t> bytes_by_partition_id_;
  int64_t driver_memory_bytes_ = 0;

  // kCompressed: num_maps x num_reducers codes, row-major.
  std::vector<uint8_t> codes_;
  // kHighlyCompressed.
  std::vector<int64_t> map_avg_bytes_;
  size_t bitmap_words_per_map_ = 0;
  std::vector<uint64_t> empty_bits_;    // num_maps x bitmap_words_per_map_
  std::vector<int64_t> huge_offsets_;   // num_maps + 1 offsets into huge_*
  std::vector<int32_t> huge_reducers_;  // ascending within a map
  std::vector<uint8_t> huge_codes_;
  // kExact: num_maps x num_reducers sizes, row-major.
  std::vector<int64_t> exact_;
};

/// Builds a ReportedShuffleSizes map task by map task, so a caller can stream rows without
/// materialising a SizeMatrix.
class ReportedShuffleSizes::Builder {
 public:
  Builder(int num_reducers, const MapStatusConfig& config, MapStatusMode mode);
  /// Optional: reserves storage for `num_maps` map tasks (avoids regrowth for big shuffles).
  void Reserve(int num_maps);
  /// Adds the next map task (map index = number of maps added before). Precondition:
  /// block_sizes_bytes.size() == num_reducers and every size >= 0 (checked by assert).
  void AddMap(std::span<const int64_t> block_sizes_bytes);
  /// The finished view; the builder must not be used afterwards.
  ReportedShuffleSizes Build() &&;

 private:
  void AddCompressed(std::span<const int64_t> sizes);
  void AddHighlyCompressed(std::span<const int64_t> sizes);
  void AddExact(std::span<const int64_t> sizes);

  MapStatusConfig config_;
  ReportedShuffleSizes out_;
  std::vector<uint64_t> acc_;     // per-reducer sums, wrapping like Java longs
  uint64_t sum_of_averages_ = 0;  // HCMS: every map's average, owed to every reducer
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_MAP_OUTPUT_STATISTICS_H_
