// Variant intel.skewByRowCount (models/conf/variants.h): skew detected by size OR row count, as
// Intel and Baidu's adaptive execution for Spark 2.x did (their HandleSkewedJoin:
// spark.sql.adaptive.skewedPartitionFactor, skewedPartitionSizeThreshold,
// skewedPartitionRowCountThreshold 10^7, skewedPartitionMaxSplits 5). A reducer of ordinary
// bytes may hold far more records than the others (highly compressible rows, a row explosion
// above a join), and its task runs as long as its records say.
//
// Modifies OptimizeSkewedJoin (models/aqe/rules/optimize_skewed_join.h, through
// las_skew_join_view.h): Spark's size test and split stay; a reducer of a splittable side that
// Spark leaves whole is split when it is row-skewed:
//   records > skewedPartitionFactor x median records  and  records > rowCountThreshold
// (median: Spark's median of the side's records per reducer, at least 1; the factor is Spark's
// spark.sql.adaptive.skewJoin.skewedPartitionFactor). Its split, as that design made it: n =
// min(maxSplits, max(bytes / median bytes, records / median records), map tasks) pieces
// (integer divisions), each of ⌊maps / n⌋ consecutive map tasks, the last taking the rest; n <= 1
// (or a missing map output) leaves it whole. Each piece's size is the sum of its maps' reported
// blocks for the reducer.
//
// Example (tests): 10 maps, a reducer of 60 MB and 48 million records, median 60 MB and 3
// million records, threshold 10^7, factor 5: row-skewed (48 M > 15 M and > 10 M); n = min(5,
// max(1, 16), 10) = 5 pieces of 2 maps: [0,2) [2,4) [4,6) [6,8) [8,10).
#ifndef AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_SKEW_H_
#define AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_SKEW_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/shuffle/partition_spec.h"

namespace aqesim {

struct RowCountSkewParams {
  /// spark.sql.adaptive.skewJoin.skewedPartitionFactor.
  double skewed_partition_factor = 5.0;
  /// aqesim.variant.intel.skewedPartitionRowCountThreshold.
  int64_t row_count_threshold = 10'000'000;
  /// aqesim.variant.intel.skewedPartitionMaxSplits (>= 1).
  int max_splits = 5;
};

/// One join side's records and bytes per reducer, and the row-skew test and split over them.
class RowCountSkew {
 public:
  /// `records` and `bytes`: per reducer (the driver's bytesByPartitionId), equally long.
  RowCountSkew(std::vector<int64_t> records, std::vector<int64_t> bytes, RowCountSkewParams params);

  int64_t median_records() const { return median_records_; }
  int64_t median_bytes() const { return median_bytes_; }
  /// records > factor x median records and > the threshold.
  bool IsSkewed(int reducer) const;
  /// The split of row-skewed `reducer` over its maps' reported block sizes `map_sizes` (map
  /// order; -1 = a missing output); nullopt when not row-skewed or n <= 1.
  std::optional<std::vector<PartialReducerPartitionSpec>> Split(int reducer,
                                                                std::span<const int64_t> map_sizes) const;

 private:
  std::vector<int64_t> records_;
  std::vector<int64_t> bytes_;
  RowCountSkewParams params_;
  int64_t median_records_ = 1;
  int64_t median_bytes_ = 1;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_INTEL_ROW_COUNT_SKEW_H_
