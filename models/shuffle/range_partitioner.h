// RangePartitioner: the bounds of a range shuffle from a sample of its keys, as Spark computes
// them (core/src/main/scala/org/apache/spark/Partitioner.scala, class RangePartitioner and
// object RangePartitioner.sketch / determineBounds; SQL passes
// spark.sql.execution.rangeExchange.sampleSizePerPartition as samplePointsPerPartitionHint in
// sql/core/.../exchange/ShuffleExchangeExec.scala, prepareShuffleDependency).
//
//   requested partitions P <= 1: no bounds, no sampling job.
//   sampleSize = min(hint × P, 10^6)                    hint: sampleSizePerPartition (SQL: 100;
//                                                        the RDD API's default is 20)
//   perPartition = ceil(3 × sampleSize / input partitions)
//   job 1 ("sketch"): every input partition counts its rows and reservoir-samples perPartition
//                     keys (all of them when it has fewer)
//   total = Σ counts; none: no bounds.  fraction = min(sampleSize / total, 1)
//   a partition with fraction × count > perPartition is imbalanced; the others give their keys
//   with weight count / keys sampled (a float, as Spark's)
//   job 2 (only when some partition is imbalanced): those partitions are read again and every
//   row kept with probability fraction (RDD.sample without replacement), weight 1 / fraction
//   bounds = determineBounds(candidates, min(P, #candidates)): sort by key; step = Σ weights /
//   partitions; walking the keys, add each weight; when the running sum reaches the next
//   target, the key becomes a bound unless it equals the previous bound, and the target moves
//   on by step; at most partitions - 1 bounds.
//   A row goes to the first partition whose bound is >= its key (the last one when none is):
//   bounds + 1 partitions. A key heavier than a step is one bound; the target then advances one
//   step per bound, so the keys right after it are bounds of nearly empty partitions, and there
//   are fewer than P partitions only when the candidates run out first (a heavy key late).
//
// Sampling is seeded (the scenario's seed mixed with the exchange id and the partition), not
// Spark's XORShiftRandom, so bounds are Spark's for the sample drawn, not for Spark's sample.
#ifndef AQESIM_MODELS_SHUFFLE_RANGE_PARTITIONER_H_
#define AQESIM_MODELS_SHUFFLE_RANGE_PARTITIONER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/rng.h"

namespace aqesim {

/// spark.sql.execution.rangeExchange.sampleSizePerPartition's default.
inline constexpr int kDefaultRangeSampleSizePerPartition = 100;

/// sampleSize = min(hint × partitions, 10^6).
double RangeSampleSize(int partitions, int hint);
/// ceil(3 × sample_size / input_partitions).
int RangeSampleSizePerPartition(double sample_size, int input_partitions);

/// A sampled key and its weight (rows it stands for).
struct WeightedKey {
  int64_t key = 0;
  float weight = 0;
};

/// Spark's determineBounds (header comment). Sorts `candidates` by key (stably).
std::vector<int64_t> DetermineBounds(std::vector<WeightedKey> candidates, int partitions);

/// The partition of `key`: the index of the first bound >= key, bounds.size() when none.
int RangePartitionOf(int64_t key, std::span<const int64_t> bounds);

/// The rows of a range exchange's input partitions (its map tasks), as sampling sees them.
class KeySource {
 public:
  virtual ~KeySource() = default;
  virtual int num_partitions() const = 0;
  /// Rows of input partition `p`.
  virtual int64_t Count(int p) const = 0;
  /// Reservoir sample of min(k, Count(p)) keys of partition `p`.
  virtual std::vector<int64_t> ReservoirSample(int p, int k, Rng& rng) const = 0;
  /// Every row of `p` kept with probability `fraction`.
  virtual std::vector<int64_t> BernoulliSample(int p, double fraction, Rng& rng) const = 0;
};

/// What RangePartitioner's sampling found.
struct RangeSampling {
  int requested_partitions = 0;
  int sample_size_per_partition = 0;  // 0: no sampling job (requested <= 1)
  double sample_size = 0;
  int64_t total_rows = 0;
  double fraction = 0;
  /// Input partitions re-sampled by the second job (ascending).
  std::vector<int> imbalanced_partitions;
  /// Keys sampled by the first job (over every partition) and by the second.
  int64_t sketched_keys = 0;
  int64_t resampled_keys = 0;
  std::vector<int64_t> bounds;
  /// The smallest and largest sort key of the input (generated keys: 0 and distinctKeys - 1;
  /// explicit keys: their least and greatest), so that the first and the last range have both
  /// ends; nullopt when the input has no rows. Set by the caller of ComputeRangeBounds.
  std::optional<int64_t> min_key, max_key;
  int partitions() const { return static_cast<int>(bounds.size()) + 1; }
  bool has_sample_job() const { return sample_size_per_partition > 0; }
};

/// RangePartitioner's bounds for `requested_partitions` over `source` with `hint` sample
/// points per partition; partition p's samples come from Rng(MixSeed(seed, job, p)).
RangeSampling ComputeRangeBounds(const KeySource& source, int requested_partitions, int hint, uint64_t seed);

/// Reservoir sampling of a list (SamplingUtils.reservoirSampleAndCount): the first k items,
/// then item i (0-based, i >= k) replaces reservoir[j] for j = floor(u × (i + 1)) when j < k.
std::vector<int64_t> ReservoirSampleOf(std::span<const int64_t> items, int k, Rng& rng);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_RANGE_PARTITIONER_H_
