// MapStatus: what one map task reports to the driver about the size of each of its shuffle
// blocks (one block per reducer), and how lossy that report is.
//
// Mirrors core/src/main/scala/org/apache/spark/scheduler/MapStatus.scala (docs/aqe-behaviour.md §3.1–§3.4):
//  * CompressSize / DecompressSize: the one-byte log-1.1 encoding shared by both statuses.
//  * CompressedMapStatus: one encoded byte per reducer.
//  * HighlyCompressedMapStatus (used when #reducers > minNumPartitionsToHighlyCompress): an
//    empty-block bitmap, the average of the "small" non-empty blocks, and the encoded size of
//    every "huge" block (size >= threshold).
// All sizes are bytes (int64, Spark's long). These are per-map building blocks; the driver view
// of a whole shuffle is ReportedShuffleSizes (map_output_statistics.h).
#ifndef AQESIM_MODELS_SHUFFLE_MAP_STATUS_H_
#define AQESIM_MODELS_SHUFFLE_MAP_STATUS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace aqesim {

/// The MapStatus settings (spark.shuffle.*). Defaults are Spark's.
struct MapStatusConfig {
  /// spark.shuffle.minNumPartitionsToHighlyCompress: HCMS iff #reducers is strictly greater.
  int min_num_partitions_to_highly_compress = 2000;
  /// spark.shuffle.accurateBlockThreshold: HCMS blocks >= this are always stored (encoded).
  int64_t accurate_block_threshold_bytes = 100LL << 20;
  /// spark.shuffle.accurateBlockSkewedFactor: > 0 also stores blocks >= median * factor
  /// (and >= the max_accurate_skewed_block_number-th largest block); <= 0 disables.
  double accurate_block_skewed_factor = -1.0;
  /// spark.shuffle.maxAccurateSkewedBlockNumber (> 0).
  int max_accurate_skewed_block_number = 100;
};

/// Which MapStatus class a shuffle's map tasks report with. kExact is the simulator's
/// "what if the driver knew every block exactly" mode, not a Spark class.
enum class MapStatusKind { kCompressed, kHighlyCompressed, kExact };

/// "CompressedMapStatus", "HighlyCompressedMapStatus" or "exact".
std::string_view MapStatusKindName(MapStatusKind kind);

/// The kind Spark picks for a shuffle with `num_reducers` reducers (never kExact).
MapStatusKind ChooseMapStatusKind(int num_reducers, const MapStatusConfig& config);

/// The encoding of a block size: 0 -> 0; size <= 1 (including negative) -> 1; otherwise
/// min(255, ceil(ln(size) / ln(1.1))) computed in double. Table-driven; bit-identical to
/// CompressSizeByFormula for every int64.
uint8_t CompressSize(int64_t size_bytes);
/// The formula of CompressSize evaluated directly (a log per call): the reference used to
/// build and test the fast table.
uint8_t CompressSizeByFormula(int64_t size_bytes);
/// Decoded size of an encoded byte: 0 -> 0; else floor(1.1 ^ code) (double, truncated).
/// decode(255) = 35 903 328 718, the largest size a status can report.
int64_t DecompressSize(uint8_t code);
/// The size a map task reports for a block of `bytes` true bytes when its build's MapStatus
/// sizes are `reported_size_ratio` times the bytes it writes (the exchange's
/// `reportedSizeRatio`; Apache Spark reports the shuffle file's partition lengths, ratio 1):
/// 0 -> 0; otherwise max(1, llround(ratio * bytes)), saturating at INT64_MAX. Ratio 1 is the
/// identity. Precondition: ratio > 0 and finite.
int64_t ReportedBlockBytes(int64_t bytes, double reported_size_ratio);
/// The 256-entry decode table (DecompressSize of every code), for tight loops.
const int64_t* DecompressTable();
/// CompressSize of every element: out[i] = CompressSize(sizes[i]); `out` holds sizes.size() bytes.
void CompressSizes(std::span<const int64_t> sizes_bytes, uint8_t* out);

/// Spark's Utils.median of a list of sizes, integer arithmetic and at least 1 (docs/aqe-behaviour.md §3.4):
/// sorted a of length n; even n: max((a[n/2] + a[n/2-1]) / 2, 1) with long division; odd n:
/// max(a[n/2], 1). An empty list gives 1. Linear time (selection, no full sort).
int64_t MedianBytes(std::span<const int64_t> sizes);

/// One map task's CompressedMapStatus: an encoded byte per reducer.
class CompressedMapStatus {
 public:
  explicit CompressedMapStatus(std::span<const int64_t> block_sizes_bytes);
  int num_reducers() const { return static_cast<int>(codes_.size()); }
  /// What getSizeForBlock returns: DecompressSize(code[reducer]).
  int64_t SizeForBlock(int reducer) const { return DecompressSize(codes_[reducer]); }
  const std::vector<uint8_t>& codes() const { return codes_; }

 private:
  std::vector<uint8_t> codes_;
};

/// One map task's HighlyCompressedMapStatus (docs/aqe-behaviour.md §3.4).
class HighlyCompressedMapStatus {
 public:
  HighlyCompressedMapStatus(std::span<const int64_t> block_sizes_bytes, const MapStatusConfig& config);

  int num_reducers() const { return num_reducers_; }
  /// What getSizeForBlock returns: 0 for an empty block, the decoded stored size of a huge
  /// block, the average otherwise.
  int64_t SizeForBlock(int reducer) const;
  /// Average of the non-empty blocks below the threshold (long division; 0 if there are none).
  int64_t avg_size_bytes() const { return avg_size_bytes_; }
  /// The threshold used: accurateBlockThreshold, or min(that, max(median*factor, m-th largest))
  /// with the skew factor enabled (a double, as in Spark; "huge" means size >= threshold).
  double threshold_bytes() const { return threshold_bytes_; }
  /// Huge blocks (reducer, encoded size), ascending reducer.
  const std::vector<std::pair<int, uint8_t>>& huge_blocks() const { return huge_blocks_; }
  int num_empty_blocks() const { return num_empty_blocks_; }
  bool IsEmptyBlock(int reducer) const {
    return (empty_bits_[static_cast<size_t>(reducer) >> 6] >> (reducer & 63)) & 1u;
  }

 private:
  int num_reducers_ = 0;
  int num_empty_blocks_ = 0;
  int64_t avg_size_bytes_ = 0;
  double threshold_bytes_ = 0;
  std::vector<uint64_t> empty_bits_;
  std::vector<std::pair<int, uint8_t>> huge_blocks_;
};

/// The HCMS threshold of one map's block sizes (see threshold_bytes()).
double HighlyCompressedThresholdBytes(std::span<const int64_t> block_sizes_bytes,
                                      const MapStatusConfig& config);

/// The smallest int64 t with (double)t >= threshold, so that for every size s that is exact
/// in double, `s < t` is Spark's `s < threshold` (long promoted to double).
int64_t IntegerThreshold(double threshold_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_MAP_STATUS_H_
