// GeneratedRowStream: the rows of a `generate` size matrix (sizes_spec.h), produced one map
// task at a time from the seed, so that a shuffle given as `generate` never has to be held as
// a dense matrix; and the fast largest-remainder split the generator is built on.
//
// Bit-identical to GenerateSizeMatrix (generators.h), which is implemented on top of it:
//  * Column weights by distribution (seeded permutation for zipf / hotKeys), then one row per
//    map task, in map order. With noise > 0 the per-cell noise draws come from the same single
//    Rng stream in the same order, so rows must be generated sequentially (NextRow); without
//    noise every row has the same weights and rows are computed from a cached "split plan" of
//    their row total (a row costs a copy plus a few increments).
//  * SplitByLargestRemainderInto is SplitByLargestRemainder without allocations, selecting the
//    cells that get the odd bytes by bucketing the remainders, one nth_element within the
//    threshold's bucket and one cyclic pass (the same cells as the reference ordering: larger
//    remainder first, ties by distance from tie_start).
// Shapes: rows = map tasks (>= 1), columns = reducers (>= 1), bytes (int64).
#ifndef AQESIM_MODELS_SHUFFLE_GENERATED_ROWS_H_
#define AQESIM_MODELS_SHUFFLE_GENERATED_ROWS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "models/shuffle/map_output_statistics.h"
#include "models/shuffle/sizes_spec.h"
#include "sim/rng.h"

namespace aqesim {

/// Reusable buffers for SplitByLargestRemainderInto.
struct SplitScratch {
  std::vector<long double> remainder;
  std::vector<long double> select;
  std::vector<uint32_t> counts;
  std::vector<uint16_t> bucket;
};

/// SplitByLargestRemainder (generators.h) written into `out` (size == weights.size()).
void SplitByLargestRemainderInto(int64_t total, std::span<const double> weights, size_t tie_start,
                                 std::span<int64_t> out, SplitScratch* scratch);

/// Column weights of a `generate` spec over `partitions` reducers (draws the permutation of
/// zipf / hotKeys from `rng`).
std::vector<double> GeneratedColumnWeights(const GenerateSizes& g, int partitions, Rng& rng);

class GeneratedRowStream {
 public:
  /// Same arguments as GenerateSizeMatrix: map_tasks and partitions are clamped to >= 1;
  /// total_bytes is ignored when g.map_bytes has map_tasks entries (they are the row sums).
  GeneratedRowStream(const GenerateSizes& g, int map_tasks, int partitions, int64_t total_bytes,
                     uint64_t seed);

  int num_maps() const { return static_cast<int>(row_totals_.size()); }
  int num_reducers() const { return static_cast<int>(column_weights_.size()); }
  /// Index of the row the next NextRow call produces.
  int next_map() const { return next_map_; }
  bool done() const { return next_map_ >= num_maps(); }
  /// Bytes of map task `map` (row sum), known before its row is generated.
  int64_t RowTotal(int map) const { return row_totals_[map]; }
  /// Every row's total, by map task.
  const std::vector<int64_t>& RowTotals() const { return row_totals_; }

  /// Writes row next_map() into `out` (size num_reducers()) and advances. Precondition: !done().
  void NextRow(std::span<int64_t> out);
  /// Makes `map` (0 <= map <= num_maps()) the next row NextRow produces, so rows can be read
  /// in any order (and a shuffle streamed more than once). Without noise rows are independent
  /// and this is O(1); with noise the Rng state at the row's start is restored from a
  /// checkpoint (one every kCheckpointRows rows, recorded as rows go by) and advanced by
  /// num_reducers() draws per skipped row, so the rows are the same bits as in one pass.
  void Seek(int map);
  static constexpr int kCheckpointRows = 64;

 private:
  // The split of one row total when every row has the same weights: the floors (after whole
  // rounds), the cells above the selection threshold, and the cells at it (ascending index);
  // a row with tie start t adds 1 to every `above` cell and to the first `need_at` cells of
  // `at` counting cyclically from t.
  struct SplitPlan {
    int64_t total = -1;
    bool general = false;  // over-assigned through rounding: use the general split per row
    std::vector<int64_t> floors;
    std::vector<int32_t> above;
    std::vector<int32_t> at;
    size_t need_at = 0;
  };
  const SplitPlan& PlanFor(int64_t total);

  // Noise only: the Rng state at the start of row k * kCheckpointRows, for k < size().
  void Checkpoint();
  double noise_ = 0;
  Rng rng_;
  std::vector<Rng> checkpoints_;
  std::vector<double> column_weights_;
  std::vector<int64_t> row_totals_;
  std::vector<double> cell_weights_;
  SplitScratch scratch_;
  SplitPlan plans_[2];
  int next_plan_slot_ = 0;
  int next_map_ = 0;
};

/// Statistics of a generated shuffle computed while streaming its rows: every row is generated
/// into one reused buffer, reported to the driver view (MapStatus per map) and added to the
/// true per-reducer totals, then dropped. Memory: O(num_reducers) plus the driver view (for
/// HighlyCompressedMapStatus: an empty-block bitmap and the huge blocks per map; for
/// CompressedMapStatus / exact it holds a code / a size per cell, as Spark's driver would).
struct StreamedShuffleStatistics {
  ReportedShuffleSizes reported;
  /// True bytes per reducer (column sums of the generated matrix).
  std::vector<int64_t> true_partition_bytes;
  /// True bytes per map task (row sums).
  std::vector<int64_t> map_bytes;
};
/// Consumes the remaining rows of `rows` (all of them for a fresh stream). Identical to
/// ReportedShuffleSizes::FromMatrix / PartitionBytes / MapBytes of GenerateSizeMatrix with the
/// same arguments.
StreamedShuffleStatistics StreamShuffleStatistics(GeneratedRowStream* rows, const MapStatusConfig& config,
                                                  MapStatusMode mode);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_GENERATED_ROWS_H_
