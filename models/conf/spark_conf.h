// SparkConf: Spark configuration under Spark's own keys, and its typed, validated view.
//
// Keys, defaults and validity follow Spark 4.0's SQLConf.scala
// (sql/catalyst/src/main/scala/org/apache/spark/sql/internal/SQLConf.scala) and
// core/src/main/scala/org/apache/spark/internal/config/package.scala; see docs/aqe-behaviour.md §10.
// Values parse as Spark parses them (models/conf/property_value.h: numbers, byte and time
// strings, spark.master).
#ifndef AQESIM_MODELS_CONF_SPARK_CONF_H_
#define AQESIM_MODELS_CONF_SPARK_CONF_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "models/conf/dynamic_allocation.h"
#include "models/conf/property_value.h"
#include "models/conf/variants.h"

namespace aqesim {

/// Raw key → value strings, as a user gave them (scenario `conf`, --properties-file, --conf).
using RawConf = std::map<std::string, std::string>;

/// The typed view of every key the simulator uses. Field comments give the Spark key and
/// default. Sizes are bytes, times seconds.
struct SqlConf {
  bool adaptive_enabled = true;       // spark.sql.adaptive.enabled
  bool adaptive_force_apply = false;  // spark.sql.adaptive.forceApply
  bool apply_final_stage_shuffle_optimizations =
      true;                                  // spark.sql.adaptive.applyFinalStageShuffleOptimizations
  int shuffle_partitions = 200;              // spark.sql.shuffle.partitions
  int limit_scale_up_factor = 4;             // spark.sql.limit.scaleUpFactor (executeTake; Spark uses >= 2)
  int limit_initial_num_partitions = 1;      // spark.sql.limit.initialNumPartitions (> 0)
  std::optional<int> initial_partition_num;  // spark.sql.adaptive.coalescePartitions.initialPartitionNum
  int64_t advisory_partition_size_bytes =
      64LL << 20;  // spark.sql.adaptive.advisoryPartitionSizeInBytes (→ shuffle.targetPostShuffleInputSize)
  bool coalesce_partitions_enabled = true;  // spark.sql.adaptive.coalescePartitions.enabled
  bool coalesce_parallelism_first = true;   // spark.sql.adaptive.coalescePartitions.parallelismFirst
  int64_t coalesce_min_partition_size_bytes =
      1LL << 20;  // spark.sql.adaptive.coalescePartitions.minPartitionSize (> 0)
  std::optional<int>
      coalesce_min_partition_num;             // spark.sql.adaptive.coalescePartitions.minPartitionNum (> 0)
  bool fetch_shuffle_blocks_in_batch = true;  // spark.sql.adaptive.fetchShuffleBlocksInBatch
  bool local_shuffle_reader_enabled = true;   // spark.sql.adaptive.localShuffleReader.enabled
  bool skew_join_enabled = true;              // spark.sql.adaptive.skewJoin.enabled
  double skewed_partition_factor = 5.0;       // spark.sql.adaptive.skewJoin.skewedPartitionFactor (>= 0)
  int64_t skewed_partition_threshold_bytes =
      256LL << 20;                          // spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes
  bool force_optimize_skewed_join = false;  // spark.sql.adaptive.forceOptimizeSkewedJoin
  double non_empty_partition_ratio_for_broadcast_join =
      0.2;  // spark.sql.adaptive.nonEmptyPartitionRatioForBroadcastJoin
  int64_t auto_broadcast_join_threshold_bytes = 10LL
                                                << 20;  // spark.sql.autoBroadcastJoinThreshold (-1 disables)
  std::optional<int64_t>
      adaptive_auto_broadcast_join_threshold_bytes;  // spark.sql.adaptive.autoBroadcastJoinThreshold
  int64_t max_shuffled_hash_join_local_map_threshold_bytes =
      0;  // spark.sql.adaptive.maxShuffledHashJoinLocalMapThreshold
  bool optimize_skews_in_rebalance_partitions_enabled =
      true;  // spark.sql.adaptive.optimizeSkewsInRebalancePartitions.enabled
  double rebalance_partitions_small_partition_factor =
      0.2;  // spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor, in (0,1)
  std::set<std::string>
      optimizer_excluded_rules;  // spark.sql.adaptive.optimizer.excludedRules (comma-separated)
  std::optional<std::string>
      custom_cost_evaluator_class;     // spark.sql.adaptive.customCostEvaluatorClass (unsupported: warning)
  bool prefer_sort_merge_join = true;  // spark.sql.join.preferSortMergeJoin
  int shuffled_hash_join_factor = 3;   // spark.sql.shuffledHashJoinFactor
  int64_t files_max_partition_bytes = 128LL << 20;     // spark.sql.files.maxPartitionBytes
  bool bucketing_enabled = true;                       // spark.sql.sources.bucketing.enabled
  bool auto_bucketed_scan_enabled = true;              // spark.sql.sources.bucketing.autoBucketedScan.enabled
  bool coalesce_buckets_in_join_enabled = false;       // spark.sql.bucketing.coalesceBucketsInJoin.enabled
  int coalesce_buckets_in_join_max_bucket_ratio = 4;   // ...coalesceBucketsInJoin.maxBucketRatio (> 0)
  double broadcast_timeout_seconds = 300;              // spark.sql.broadcastTimeout
  int64_t max_broadcast_table_size_bytes = 8LL << 30;  // spark.sql.maxBroadcastTableSize
  int range_exchange_sample_size_per_partition = 100;  // ...execution.rangeExchange.sampleSizePerPartition

  int min_num_partitions_to_highly_compress = 2000;       // spark.shuffle.minNumPartitionsToHighlyCompress
  int64_t accurate_block_threshold_bytes = 100LL << 20;   // spark.shuffle.accurateBlockThreshold
  int64_t reducer_max_size_in_flight_bytes = 48LL << 20;  // spark.reducer.maxSizeInFlight
  int reducer_max_reqs_in_flight = 2147483647;            // spark.reducer.maxReqsInFlight
  int reducer_max_blocks_in_flight_per_address = 2147483647;  // spark.reducer.maxBlocksInFlightPerAddress
  double accurate_block_skewed_factor = -1.0;  // spark.shuffle.accurateBlockSkewedFactor (<= 0 disables)
  int max_accurate_skewed_block_number = 100;  // spark.shuffle.maxAccurateSkewedBlockNumber (> 0)
  int64_t map_output_parallel_aggregation_threshold =
      10000000;  // spark.shuffle.mapOutput.parallelAggregationThreshold

  bool shuffle_reduce_locality_enabled = true;       // spark.shuffle.reduceLocality.enabled
  double locality_wait_seconds = 3.0;                // spark.locality.wait (bare number: ms)
  std::optional<double> locality_wait_node_seconds;  // spark.locality.wait.node (unset → spark.locality.wait)

  std::optional<int> default_parallelism;  // spark.default.parallelism (unset → total cores)
  int task_cpus = 1;                       // spark.task.cpus (> 0)
  int task_max_failures = 4;               // spark.task.maxFailures (> 0; a cluster's, see MaxTaskFailures)
  std::optional<double> task_gpu_amount;   // spark.task.resource.gpu.amount (> 0; <= 0.5 or whole)
  bool fair_scheduler = false;             // spark.scheduler.mode: FIFO (default) or FAIR
  std::string scheduler_pool = "default";  // spark.scheduler.pool (the query's pool; a job property)
  std::string scheduler_allocation_file;   // spark.scheduler.allocation.file (fairscheduler.xml), "" unset
  double memory_fraction = 0.6;            // spark.memory.fraction, in (0,1]
  std::optional<int> executor_instances;   // spark.executor.instances (see models/scenario/scenario.cc)
  std::optional<int> executor_cores;       // spark.executor.cores
  std::optional<int64_t> executor_memory_bytes;  // spark.executor.memory
  SparkMaster master;                            // spark.master (unset: a cluster, not local mode)
  DynamicAllocationConf dynamic_allocation;      // spark.dynamicAllocation.*, spark.shuffle.service.enabled
  VariantSwitches variants;                      // aqesim.variant.* (models/conf/variants.h), all off

  bool operator==(const SqlConf&) const = default;

  /// The reducer count EnsureRequirements gives a new shuffle: initialPartitionNum when AQE
  /// and coalescing are both on (and it is set), else spark.sql.shuffle.partitions (docs/aqe-behaviour.md
  /// §2.1).
  int InitialShufflePartitions() const {
    if (adaptive_enabled && coalesce_partitions_enabled && initial_partition_num)
      return *initial_partition_num;
    return shuffle_partitions;
  }
  /// How long a task set waits for its tasks' preferred hosts (executors) before launching
  /// them elsewhere: spark.locality.wait.node, defaulting to spark.locality.wait.
  double NodeLocalityWaitSeconds() const {
    return locality_wait_node_seconds.value_or(locality_wait_seconds);
  }
  /// Threshold for broadcast-by-size on runtime statistics (docs/aqe-behaviour.md §8.3).
  int64_t RuntimeBroadcastThresholdBytes() const {
    return adaptive_auto_broadcast_join_threshold_bytes.value_or(auto_broadcast_join_threshold_bytes);
  }
};

/// A problem with one key: `key` names it; message is the full sentence.
struct ConfProblem {
  std::string key;
  std::string message;
  bool is_error = true;  // false: warning (e.g. unknown spark.* key)
};

/// Resolves raw strings into SqlConf. Unknown `spark.*` keys produce warnings ("unused
/// configuration key ..., did you mean ...?"); invalid values of known keys produce errors.
/// At most this many unknown keys are warned one by one; the others in one warning.
inline constexpr size_t kMaxUnknownKeyWarnings = 20;
SqlConf ResolveSqlConf(const RawConf& raw, std::vector<ConfProblem>* problems);

/// The failed attempts a task may have before its task set aborts: spark.task.maxFailures on a
/// cluster; in local mode F of local[N, F], else 1 (SparkContext.createTaskScheduler).
inline int MaxTaskFailures(const SqlConf& conf) {
  return conf.master.local ? conf.master.local_max_failures.value_or(1) : conf.task_max_failures;
}

/// Every key the simulator knows (for warnings and "did you mean").
const std::vector<std::string>& KnownConfKeys();

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_SPARK_CONF_H_
