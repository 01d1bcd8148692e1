// SizesSpec: how a scenario gives an exchange's partition-size matrix, and how it is
// materialised into a SizeMatrix for a given reducer count.
//
// Forms (scenario JSON `sizes`):
//   {"matrix": [[...]]}            recorded, inline (rows = map tasks, columns = reducers, bytes)
//   {"csv": "path.csv"}            recorded, one row per map task
//   {"marginals": {"mapBytes": [...], "partitionBytes": [...]}}
//                                  a matrix fitted to both margins (iterative proportional
//                                  fitting from the outer product, integerised so that both
//                                  margins hold exactly)
//   {"generate": {...}}            seeded synthetic (uniform, zipf, hotKeys)
// matrix / csv / marginals fix the reducer count; generate follows the configured count.
#ifndef AQESIM_MODELS_SHUFFLE_SIZES_SPEC_H_
#define AQESIM_MODELS_SHUFFLE_SIZES_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "models/shuffle/size_matrix.h"

namespace aqesim {

struct MarginalsSizes {
  std::vector<int64_t> map_bytes;        // row sums, one per map task
  std::vector<int64_t> partition_bytes;  // column sums, one per reducer; same total as map_bytes
};

/// Seeded synthetic sizes. Generation is deterministic in (seed, parameters).
struct GenerateSizes {
  enum class Distribution { kUniform, kZipf, kHotKeys };
  Distribution distribution = Distribution::kUniform;
  /// Map tasks (rows). Absent: the child's task count.
  std::optional<int> map_tasks;
  /// Reducers (columns). Absent: the configured partition count.
  std::optional<int> partitions;
  /// Total bytes of the shuffle. Absent: the child's estimated output bytes
  /// (or the sum of map_bytes when given).
  std::optional<int64_t> total_bytes;
  /// Optional recorded bytes per map task (row sums); overrides total_bytes.
  std::optional<std::vector<int64_t>> map_bytes;
  /// zipf: weight of reducer rank k (1-based) is k^-exponent; ranks are assigned to
  /// partitions by a seeded permutation.
  double exponent = 1.0;
  /// hotKeys: `hot_partitions` reducers (explicit list, or the first `hot_count` of a seeded
  /// permutation) receive `hot_fraction` of the bytes, split evenly among them.
  std::vector<int> hot_partitions;
  int hot_count = 1;
  double hot_fraction = 0.5;
  /// Multiplicative per-cell noise: each cell weight × (1 + U(-noise, +noise)); 0 = none.
  double noise = 0.0;
  /// Seed; absent: the scenario's seed mixed with the exchange id.
  std::optional<uint64_t> seed;
  /// Column weights given directly (one per reducer, a range exchange's key shares; not in
  /// JSON): when it has `partitions` entries it replaces the distribution's weights.
  std::vector<double> column_weights;
};

struct SizesSpec {
  std::variant<SizeMatrix, MarginalsSizes, GenerateSizes> form;
  /// Where the sizes came from, for messages ("matrix", "csv data/e1.csv", "generate zipf").
  std::string source;
};

/// Inputs the materialisation needs from the plan and configuration.
struct SizesContext {
  int configured_partitions = 200;  // the exchange's reducer count from conf / numPartitions
  int default_map_tasks = 1;        // the child's task count
  int64_t default_total_bytes = 0;  // the child's estimated output, bytes
  uint64_t seed = 0;                // scenario seed mixed with the exchange id
};

/// The true SizeMatrix of an exchange. For matrix/csv/marginals the reducer count is the
/// data's own (the caller warns if it differs from configured_partitions).
SizeMatrix MaterializeSizes(const SizesSpec& spec, const SizesContext& ctx);

/// Number of reducers the spec fixes, or nullopt when it follows the configuration (generate
/// without `partitions`).
std::optional<int> FixedPartitionCount(const SizesSpec& spec);
/// Number of map tasks the spec fixes, or nullopt when it follows the child.
std::optional<int> FixedMapTaskCount(const SizesSpec& spec);

/// Fits a matrix to both margins (IPF from the outer product, then integer rounding that keeps
/// every row and column sum exact). Precondition: equal totals, non-negative entries.
SizeMatrix FitMarginals(const std::vector<int64_t>& map_bytes, const std::vector<int64_t>& partition_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SIZES_SPEC_H_
