#include "models/conf/conf_key_table.h"

#include <limits>
#include <string>
#include <utility>

#include "models/conf/conf_key_builders.h"
#include "models/conf/property_value.h"

namespace aqesim {
namespace {

using namespace conf_keys;  // NOLINT(build/namespaces): the builders, in this file only

// spark.sql.adaptive.* (SQLConf.scala; docs/aqe-behaviour.md §10). "since" is the key's
// `.version(...)` in SQLConf.scala.
void AppendAdaptiveKeys(std::vector<ConfKeyInfo>* t) {
  const std::string a = "spark.sql.adaptive.";
  Add(t, BoolKey(a + "enabled", &SqlConf::adaptive_enabled),
      {"true", "boolean", "1.6.0", "turns adaptive planning on (re-planning after each query stage)"});
  Add(t, BoolKey(a + "forceApply", &SqlConf::adaptive_force_apply),
      {"false", "boolean", "3.0.0", "accepted; not used"});
  Add(t,
      {a + "logLevel",
       [](const std::string& value, SqlConf*, std::vector<ConfProblem>*) {
         const std::string v = Lower(Trim(value));
         if (v == "trace" || v == "debug" || v == "info" || v == "warn" || v == "error") return std::string();
         return "expected one of TRACE, DEBUG, INFO, WARN, ERROR" + FoundValue(value);
       },
       {}},
      {"debug", "log level", "3.0.0", "checked only; aqesim writes no plan-change log"});
  Add(t,
      BoolKey(a + "applyFinalStageShuffleOptimizations", &SqlConf::apply_final_stage_shuffle_optimizations),
      {"true", "boolean", "3.4.2", "false: no shuffle-read rule (coalescing, skew) on the final stage"});
  // Spark's default is a fallback to targetPostShuffleInputSize, whose default is 64MB.
  Add(t,
      BytesKey(a + "advisoryPartitionSizeInBytes", &SqlConf::advisory_partition_size_bytes, Positive,
               "a byte size > 0"),
      {"64MB", "bytes", "3.0.0",
       "target size of coalesced partitions and skew splits (unset: targetPostShuffleInputSize)"});
  Add(t,
      WithWarning(
          BytesKey<int64_t>(a + "shuffle.targetPostShuffleInputSize", nullptr, Positive, "a byte size > 0"),
          "'spark.sql.adaptive.shuffle.targetPostShuffleInputSize' is deprecated since Spark 3.0; "
          "use 'spark.sql.adaptive.advisoryPartitionSizeInBytes' instead"),
      {"64MB", "bytes", "1.6.0", "deprecated: the advisory size when advisoryPartitionSizeInBytes is unset"});
  Add(t, BoolKey(a + "coalescePartitions.enabled", &SqlConf::coalesce_partitions_enabled),
      {"true", "boolean", "3.0.0", "CoalesceShufflePartitions: merge small reducer partitions"});
  Add(t, BoolKey(a + "coalescePartitions.parallelismFirst", &SqlConf::coalesce_parallelism_first),
      {"true", "boolean", "3.2.0", "coalescing keeps at least default parallelism partitions"});
  Add(t,
      BytesKey(a + "coalescePartitions.minPartitionSize", &SqlConf::coalesce_min_partition_size_bytes,
               Positive, "a byte size > 0 (minPartitionSize must be positive)"),
      {"1MB", "bytes", "3.2.0", "smallest coalesced partition (and target under parallelismFirst)"});
  Add(t,
      WithWarning(
          IntKey(a + "coalescePartitions.minPartitionNum", &SqlConf::coalesce_min_partition_num, Positive,
                 "an integer > 0 (the minimum number of partitions must be positive)"),
          "'spark.sql.adaptive.coalescePartitions.minPartitionNum' is deprecated since Spark 3.2; use "
          "'spark.sql.adaptive.coalescePartitions.minPartitionSize' instead"),
      {"(none)", "integer", "3.0.0", "deprecated: minimum partition count of coalescing"});
  Add(t,
      IntKey(a + "coalescePartitions.initialPartitionNum", &SqlConf::initial_partition_num, Positive,
             "an integer > 0 (the initial number of partitions must be positive)"),
      {"(none)", "integer", "3.0.0", "reducer count of new shuffles with AQE and coalescing on"});
  Add(t, BoolKey(a + "fetchShuffleBlocksInBatch", &SqlConf::fetch_shuffle_blocks_in_batch),
      {"true", "boolean", "3.0.0", "a mapper's contiguous reducer range is one block of a fetch request"});
  Add(t, BoolKey(a + "localShuffleReader.enabled", &SqlConf::local_shuffle_reader_enabled),
      {"true", "boolean", "3.0.0", "OptimizeShuffleWithLocalRead after a join became a broadcast"});
  Add(t, BoolKey(a + "skewJoin.enabled", &SqlConf::skew_join_enabled),
      {"true", "boolean", "3.0.0", "OptimizeSkewedJoin: split skewed partitions of sort-merge joins"});
  Add(t,
      DoubleKey(
          a + "skewJoin.skewedPartitionFactor", &SqlConf::skewed_partition_factor,
          [](double v) { return v >= 0; }, "a number >= 0 (the skew factor cannot be negative)"),
      {"5.0", "ratio", "3.0.0", "a partition is skewed above this many times the median"});
  Add(t,
      BytesKey(a + "skewJoin.skewedPartitionThresholdInBytes", &SqlConf::skewed_partition_threshold_bytes,
               AnyLong, "a byte size"),
      {"256MB", "bytes", "3.0.0", "a skewed partition is also larger than this"});
  Add(t, BoolKey(a + "forceOptimizeSkewedJoin", &SqlConf::force_optimize_skewed_join),
      {"false", "boolean", "3.3.0", "split skew even when it adds a shuffle"});
  Add(t,
      DoubleKey(
          a + "nonEmptyPartitionRatioForBroadcastJoin",
          &SqlConf::non_empty_partition_ratio_for_broadcast_join, [](double v) { return v >= 0; },
          "a number >= 0"),
      {"0.2", "ratio", "3.0.0", "below it, a side with many empty partitions is not broadcast"});
  Add(t,
      BytesKey(a + "autoBroadcastJoinThreshold", &SqlConf::adaptive_auto_broadcast_join_threshold_bytes,
               AnyLong, "a byte size"),
      {"(none)", "bytes", "3.2.0",
       "broadcast threshold on runtime sizes (unset: spark.sql.autoBroadcastJoinThreshold)"});
  Add(t,
      BytesKey(a + "maxShuffledHashJoinLocalMapThreshold",
               &SqlConf::max_shuffled_hash_join_local_map_threshold_bytes, AnyLong, "a byte size"),
      {"0", "bytes", "3.2.0", "DynamicJoinSelection prefers a shuffled hash join below it"});
  Add(t,
      BoolKey(a + "optimizeSkewsInRebalancePartitions.enabled",
              &SqlConf::optimize_skews_in_rebalance_partitions_enabled),
      {"true", "boolean", "3.2.0", "split skewed partitions of a REBALANCE"});
  Add(t,
      DoubleKey(
          a + "rebalancePartitionsSmallPartitionFactor",
          &SqlConf::rebalance_partitions_small_partition_factor, [](double v) { return v > 0 && v < 1; },
          "a number in (0, 1)"),
      {"0.2", "ratio", "3.3.0", "a REBALANCE split smaller than this times the target is merged"});
  Add(t,
      {a + "optimizer.excludedRules",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         // Utils.stringToSeq: split on commas, trim, drop empties.
         conf->optimizer_excluded_rules.clear();
         size_t start = 0;
         while (start <= value.size()) {
           size_t comma = value.find(',', start);
           if (comma == std::string::npos) comma = value.size();
           std::string item(Trim(std::string_view(value).substr(start, comma - start)));
           if (!item.empty()) conf->optimizer_excluded_rules.insert(item);
           start = comma + 1;
         }
         return std::string();
       },
       {}},
      {"(none)", "rule names, comma-separated", "3.1.0", "adaptive rules to skip"});
  Add(t,
      {a + "customCostEvaluatorClass",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>* w) {
         conf->custom_cost_evaluator_class = std::string(Trim(value));
         w->push_back({"spark.sql.adaptive.customCostEvaluatorClass",
                       "custom cost evaluators are not simulated; Spark's SimpleCostEvaluator is used",
                       false});
         return std::string();
       },
       {}},
      {"(none)", "class name", "3.2.0", "not simulated: a warning, SimpleCostEvaluator is used"});
  // Spark 2.x ExchangeCoordinator keys (docs/aqe-behaviour.md §10 "legacy names"), gone in 4.0.
  // Unsure: minNumPostShufflePartitions came with the ExchangeCoordinator (1.6.0); Spark 3.0
  // renamed it before SQLConf.scala gave keys versions.
  Add(t,
      Ignored(WithWarning(
          IntKey(a + "minNumPostShufflePartitions", &SqlConf::coalesce_min_partition_num, Positive,
                 "an integer > 0"),
          "'spark.sql.adaptive.minNumPostShufflePartitions' is a Spark 2.x key with no effect "
          "since Spark 3.0; use 'spark.sql.adaptive.coalescePartitions.minPartitionNum' instead")),
      {"(none)", "integer", "1.6.0", "Spark 2.x key: checked, warned about, ignored"});
  // Unsure: added with SPARK-28177 for 3.0.0's previews and renamed to initialPartitionNum before
  // 3.0.0; no release's SQLConf.scala gives it a version.
  Add(t,
      Ignored(WithWarning(
          IntKey(a + "maxNumPostShufflePartitions", &SqlConf::initial_partition_num, Positive,
                 "an integer > 0"),
          "'spark.sql.adaptive.maxNumPostShufflePartitions' is a Spark 2.x key with no effect "
          "since Spark 3.0; use 'spark.sql.adaptive.coalescePartitions.initialPartitionNum' instead")),
      {"(none)", "integer", "3.0.0", "pre-3.0 key: checked, warned about, ignored"});
}

// Other spark.sql.* keys (SQLConf.scala).
void AppendSqlKeys(std::vector<ConfKeyInfo>* t) {
  Add(t,
      IntKey("spark.sql.shuffle.partitions", &SqlConf::shuffle_partitions, Positive,
             "an integer > 0 (the number of shuffle partitions must be positive)"),
      {"200", "integer", "1.1.0", "reducer count of a new shuffle"});
  Add(t, IntKey("spark.sql.limit.scaleUpFactor", &SqlConf::limit_scale_up_factor, AnyLong, "an integer"),
      {"4", "integer", "2.1.1", "growth of the partitions each take() job of a LIMIT reads"});
  Add(t,
      IntKey("spark.sql.limit.initialNumPartitions", &SqlConf::limit_initial_num_partitions, Positive,
             "an integer > 0"),
      {"1", "integer", "3.4.0", "partitions the first take() job of a LIMIT reads"});
  Add(t,
      BytesKey("spark.sql.autoBroadcastJoinThreshold", &SqlConf::auto_broadcast_join_threshold_bytes, AnyLong,
               "a byte size"),
      {"10MB", "bytes", "1.1.0", "a join side up to this size is broadcast (-1: never)"});
  Add(t, BoolKey("spark.sql.join.preferSortMergeJoin", &SqlConf::prefer_sort_merge_join),
      {"true", "boolean", "2.0.0", "false: static planning may pick a shuffled hash join"});
  Add(t,
      IntKey(
          "spark.sql.shuffledHashJoinFactor", &SqlConf::shuffled_hash_join_factor,
          [](int64_t v) { return v >= 1; }, "an integer >= 1"),
      {"3", "integer", "3.3.0", "how much smaller a side must be for a shuffled hash join"});
  Add(t,
      BytesKey("spark.sql.files.maxPartitionBytes", &SqlConf::files_max_partition_bytes, Positive,
               "a byte size > 0"),
      {"128MB", "bytes", "2.0.0", "split size of file scans"});
  // Bucketed tables (docs/aqe-behaviour.md §14).
  Add(t, BoolKey("spark.sql.sources.bucketing.enabled", &SqlConf::bucketing_enabled),
      {"true", "boolean", "2.0.0", "a bucketed table is read as a bucketed scan"});
  Add(t,
      BoolKey("spark.sql.sources.bucketing.autoBucketedScan.enabled", &SqlConf::auto_bucketed_scan_enabled),
      {"true", "boolean", "3.1.0", "DisableUnnecessaryBucketedScan"});
  Add(t,
      BoolKey("spark.sql.bucketing.coalesceBucketsInJoin.enabled",
              &SqlConf::coalesce_buckets_in_join_enabled),
      {"false", "boolean", "3.1.0", "CoalesceBucketsInJoin"});
  Add(t,
      IntKey("spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio",
             &SqlConf::coalesce_buckets_in_join_max_bucket_ratio, Positive,
             "an integer > 0 (the ratio must be positive)"),
      {"4", "integer", "3.1.0", "largest bucket-count ratio CoalesceBucketsInJoin bridges"});
  Add(t,
      {"spark.sql.broadcastTimeout",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         const TimeStringResult r = ParseTimeString(value, 1.0);
         if (!r.ok) return "expected a duration such as 300s or 5min" + FoundValue(value);
         // SQLConf.broadcastTimeout: a negative value means no timeout.
         conf->broadcast_timeout_seconds =
             r.seconds < 0 ? std::numeric_limits<double>::infinity() : r.seconds;
         return std::string();
       },
       {}},
      {"300", "duration (bare number: s)", "1.3.0", "a broadcast not built in time fails the query"});
  // Unsure: in Spark 4.0's SQLConf.scala; the version is not checked against the source.
  Add(t,
      BytesKey("spark.sql.maxBroadcastTableSize", &SqlConf::max_broadcast_table_size_bytes, NonNegative,
               "a byte size >= 0"),
      {"8GB", "bytes", "4.0.0", "a larger broadcast relation fails the query"});
  Add(t,
      IntKey("spark.sql.execution.rangeExchange.sampleSizePerPartition",
             &SqlConf::range_exchange_sample_size_per_partition, Positive, "an integer > 0"),
      {"100", "integer", "2.3.0", "sample size of a range exchange's sampling job"});
}

}  // namespace

const std::vector<ConfKeyInfo>& ConfKeyTable() {
  static const std::vector<ConfKeyInfo>* table = [] {
    auto* t = new std::vector<ConfKeyInfo>();
    AppendAdaptiveKeys(t);
    AppendSqlKeys(t);
    AppendCoreConfKeys(t);
    return t;
  }();
  return *table;
}

}  // namespace aqesim
