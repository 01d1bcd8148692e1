// ExecuteTake: the jobs Spark runs to collect the first `limit` rows of a plan
// (sql/core/.../execution/SparkPlan.scala, executeTake; CollectLimitExec.executeCollect calls it,
// and so do Dataset.show / take / head / limit(n).collect).
//
// Spark does not run the final stage over all its partitions at once: it runs a job over the
// first spark.sql.limit.initialNumPartitions partitions (default 1), decodes their rows, and while
// it has fewer than `limit` rows and partitions remain, runs another job over the next ones:
//   - no row found yet: partsScanned × max(spark.sql.limit.scaleUpFactor, 2) partitions (default 4);
//   - some rows found: ceil(1.5 × left × partsScanned ÷ found), at most partsScanned × factor
//     (left = limit − found: an interpolation, overestimated by 50%);
// each job capped at the partitions left. Every partition returns at most `limit` rows (each task
// runs the limit locally).
//
// Example (tasks_executors_fail: show() of a pivot, 21 rows, 200 partitions of which 11 hold 12
// rows, the first at partition 21): jobs of 1, 4, 20, 100 and 75 partitions.
#ifndef AQESIM_MODELS_ENGINE_EXECUTE_TAKE_H_
#define AQESIM_MODELS_ENGINE_EXECUTE_TAKE_H_

#include <cstdint>
#include <vector>

namespace aqesim {

/// One job of executeTake: partitions [first_partition, first_partition + num_partitions).
struct TakeJob {
  int first_partition = 0;
  int num_partitions = 0;
  friend bool operator==(const TakeJob&, const TakeJob&) = default;
};

struct TakeSettings {
  int64_t limit = 0;           // rows to collect (CollectLimit's limit), >= 0
  int initial_partitions = 1;  // spark.sql.limit.initialNumPartitions, > 0
  int scale_up_factor = 4;     // spark.sql.limit.scaleUpFactor (Spark uses at least 2)
};

/// The jobs executeTake runs over a final stage whose partition p yields rows_per_partition[p]
/// rows (>= 0). Empty when limit is 0 or there is no partition. Deterministic.
std::vector<TakeJob> ExecuteTakeJobs(const TakeSettings& settings,
                                     const std::vector<int64_t>& rows_per_partition);

/// Rows of each partition when the final stage yields `total_rows` rows spread in proportion to
/// the bytes each partition reads (cumulative rounding: the counts sum to total_rows, a partition
/// that reads nothing yields none). Negative bytes count as 0; when no partition reads anything the
/// rows are spread evenly.
std::vector<int64_t> RowsInProportion(int64_t total_rows, const std::vector<int64_t>& bytes_per_partition);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_EXECUTE_TAKE_H_
