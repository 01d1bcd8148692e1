#include "models/conf/conf_key_table.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <utility>

#include "models/conf/dynamic_allocation.h"
#include "models/conf/property_value.h"

namespace aqesim {
namespace {

// `"value"` with JSON-style escapes, for "found ..." in messages.
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string Found(const std::string& value) { return ", found " + Quote(value); }

}  // namespace

std::string FoundValue(const std::string& value) { return Found(value); }

namespace {

using IntCheck = bool (*)(int64_t);
using DoubleCheck = bool (*)(double);

bool Positive(int64_t v) { return v > 0; }
bool NonNegative(int64_t v) { return v >= 0; }
bool AnyLong(int64_t) { return true; }

ConfKeyInfo BoolKey(std::string key, bool SqlConf::*field) {
  return {std::move(key), [field](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseBool(value);
            if (!v) return "expected a boolean (true or false)" + Found(value);
            conf->*field = *v;
            return std::string();
          }};
}

// int or optional<int> fields; `what` describes the valid range ("an integer > 0").
template <typename Field>
ConfKeyInfo IntKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseInt(value);
            if (!v || !check(*v)) return "expected " + what + Found(value);
            conf->*field = *v;
            return std::string();
          }};
}

template <typename Field>
ConfKeyInfo LongKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseLong(value);
            if (!v || !check(*v)) return "expected " + what + Found(value);
            conf->*field = *v;
            return std::string();
          }};
}

// Byte sizes (int64_t or optional<int64_t> fields); `field` may be null for keys that are
// validated but not used.
template <typename Field>
ConfKeyInfo BytesKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what,
                     int64_t default_unit_bytes = 1) {
  return {std::move(key), [field, check, what, default_unit_bytes](const std::string& value, SqlConf* conf,
                                                                   std::vector<ConfProblem>*) {
            const SizeStringResult r = ParseSizeString(value, default_unit_bytes);
            if (!r.ok()) {
              std::string reason = SizeStringErrorReason(r.error);
              return "expected a byte size such as 64m or 1g" + Found(value) +
                     (reason.empty() ? "" : " (" + reason + ")");
            }
            if (!check(r.value)) return "expected " + what + Found(value);
            if (field != nullptr) conf->*field = r.value;
            return std::string();
          }};
}

ConfKeyInfo DoubleKey(std::string key, double SqlConf::*field, DoubleCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseDouble(value);
            if (!v || !check(*v)) return "expected " + what + Found(value);
            conf->*field = *v;
            return std::string();
          }};
}

ConfKeyInfo StringKey(std::string key) {
  return {std::move(key),
          [](const std::string&, SqlConf*, std::vector<ConfProblem>*) { return std::string(); }};
}

// A key Spark deprecated or removed: validated as `inner` and reported with `warning`.
ConfKeyInfo WithWarning(ConfKeyInfo inner, std::string warning) {
  ApplyFn apply = inner.apply;
  std::string key = inner.key;
  return {std::move(inner.key),
          [apply, key, warning](const std::string& value, SqlConf* conf, std::vector<ConfProblem>* warnings) {
            std::string error = apply(value, conf, warnings);
            if (error.empty()) warnings->push_back({key, warning, false});
            return error;
          }};
}

}  // namespace

const std::vector<ConfKeyInfo>& ConfKeyTable() {
  static const std::vector<ConfKeyInfo>* table = [] {
    auto* t = new std::vector<ConfKeyInfo>();
    const std::string a = "spark.sql.adaptive.";
    // --- spark.sql.adaptive.* (SQLConf.scala; docs/aqe-behaviour.md §10) ---
    t->push_back(BoolKey(a + "enabled", &SqlConf::adaptive_enabled));
    t->push_back(BoolKey(a + "forceApply", &SqlConf::adaptive_force_apply));
    t->push_back({a + "logLevel", [](const std::string& value, SqlConf*, std::vector<ConfProblem>*) {
                    const std::string v = Lower(Trim(value));
                    if (v == "trace" || v == "debug" || v == "info" || v == "warn" || v == "error")
                      return std::string();
                    return "expected one of TRACE, DEBUG, INFO, WARN, ERROR" + Found(value);
                  }});
    t->push_back(BoolKey(a + "applyFinalStageShuffleOptimizations",
                         &SqlConf::apply_final_stage_shuffle_optimizations));
    t->push_back(BytesKey(a + "advisoryPartitionSizeInBytes", &SqlConf::advisory_partition_size_bytes,
                          Positive, "a byte size > 0"));
    t->push_back(WithWarning(
        BytesKey<int64_t>(a + "shuffle.targetPostShuffleInputSize", nullptr, Positive, "a byte size > 0"),
        "'spark.sql.adaptive.shuffle.targetPostShuffleInputSize' is deprecated since Spark 3.0; use "
        "'spark.sql.adaptive.advisoryPartitionSizeInBytes' instead"));
    t->push_back(BoolKey(a + "coalescePartitions.enabled", &SqlConf::coalesce_partitions_enabled));
    t->push_back(BoolKey(a + "coalescePartitions.parallelismFirst", &SqlConf::coalesce_parallelism_first));
    t->push_back(BytesKey(a + "coalescePartitions.minPartitionSize",
                          &SqlConf::coalesce_min_partition_size_bytes, Positive,
                          "a byte size > 0 (minPartitionSize must be positive)"));
    t->push_back(WithWarning(
        IntKey(a + "coalescePartitions.minPartitionNum", &SqlConf::coalesce_min_partition_num, Positive,
               "an integer > 0 (the minimum number of partitions must be positive)"),
        "'spark.sql.adaptive.coalescePartitions.minPartitionNum' is deprecated since Spark 3.2; use "
        "'spark.sql.adaptive.coalescePartitions.minPartitionSize' instead"));
    t->push_back(IntKey(a + "coalescePartitions.initialPartitionNum", &SqlConf::initial_partition_num,
                        Positive, "an integer > 0 (the initial number of partitions must be positive)"));
    t->push_back(BoolKey(a + "fetchShuffleBlocksInBatch", &SqlConf::fetch_shuffle_blocks_in_batch));
    t->push_back(BoolKey(a + "localShuffleReader.enabled", &SqlConf::local_shuffle_reader_enabled));
    t->push_back(BoolKey(a + "skewJoin.enabled", &SqlConf::skew_join_enabled));
    t->push_back(DoubleKey(
        a + "skewJoin.skewedPartitionFactor", &SqlConf::skewed_partition_factor,
        [](double v) { return v >= 0; }, "a number >= 0 (the skew factor cannot be negative)"));
    t->push_back(BytesKey(a + "skewJoin.skewedPartitionThresholdInBytes",
                          &SqlConf::skewed_partition_threshold_bytes, AnyLong, "a byte size"));
    t->push_back(BoolKey(a + "forceOptimizeSkewedJoin", &SqlConf::force_optimize_skewed_join));
    t->push_back(DoubleKey(
        a + "nonEmptyPartitionRatioForBroadcastJoin", &SqlConf::non_empty_partition_ratio_for_broadcast_join,
        [](double v) { return v >= 0; }, "a number >= 0"));
    t->push_back(BytesKey(a + "autoBroadcastJoinThreshold",
                          &SqlConf::adaptive_auto_broadcast_join_threshold_bytes, AnyLong, "a byte size"));
    t->push_back(BytesKey(a + "maxShuffledHashJoinLocalMapThreshold",
                          &SqlConf::max_shuffled_hash_join_local_map_threshold_bytes, AnyLong,
                          "a byte size"));
    t->push_back(BoolKey(a + "optimizeSkewsInRebalancePartitions.enabled",
                         &SqlConf::optimize_skews_in_rebalance_partitions_enabled));
    t->push_back(DoubleKey(
        a + "rebalancePartitionsSmallPartitionFactor", &SqlConf::rebalance_partitions_small_partition_factor,
        [](double v) { return v > 0 && v < 1; }, "a number in (0, 1)"));
    t->push_back({a + "optimizer.excludedRules",
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
                  }});
    t->push_back({a + "customCostEvaluatorClass",
                  [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>* w) {
                    conf->custom_cost_evaluator_class = std::string(Trim(value));
                    w->push_back(
                        {"spark.sql.adaptive.customCostEvaluatorClass",
                         "custom cost evaluators are not simulated; Spark's SimpleCostEvaluator is used",
                         false});
                    return std::string();
                  }});
    // Spark 2.x ExchangeCoordinator keys (docs/aqe-behaviour.md §10 "legacy names").
    t->push_back(
        WithWarning(IntKey(a + "minNumPostShufflePartitions", &SqlConf::coalesce_min_partition_num, Positive,
                           "an integer > 0"),
                    "'spark.sql.adaptive.minNumPostShufflePartitions' is a Spark 2.x key with no effect "
                    "since Spark 3.0; use 'spark.sql.adaptive.coalescePartitions.minPartitionNum' instead"));
    t->back().apply = [inner = t->back().apply](const std::string& v, SqlConf* conf,
                                                std::vector<ConfProblem>* w) {
      // Spark 3 ignores it: validate, warn, and leave the conf untouched.
      SqlConf scratch = *conf;
      return inner(v, &scratch, w);
    };
    t->push_back(WithWarning(
        IntKey(a + "maxNumPostShufflePartitions", &SqlConf::initial_partition_num, Positive,
               "an integer > 0"),
        "'spark.sql.adaptive.maxNumPostShufflePartitions' is a Spark 2.x key with no effect "
        "since Spark 3.0; use 'spark.sql.adaptive.coalescePartitions.initialPartitionNum' instead"));
    t->back().apply = [inner = t->back().apply](const std::string& v, SqlConf* conf,
                                                std::vector<ConfProblem>* w) {
      SqlConf scratch = *conf;
      return inner(v, &scratch, w);
    };

    // --- other spark.sql.* ---
    t->push_back(IntKey("spark.sql.shuffle.partitions", &SqlConf::shuffle_partitions, Positive,
                        "an integer > 0 (the number of shuffle partitions must be positive)"));
    // SparkPlan.executeTake's jobs (a collectLimit plan root).
    t->push_back(
        IntKey("spark.sql.limit.scaleUpFactor", &SqlConf::limit_scale_up_factor, AnyLong, "an integer"));
    t->push_back(IntKey("spark.sql.limit.initialNumPartitions", &SqlConf::limit_initial_num_partitions,
                        Positive, "an integer > 0"));
    t->push_back(BytesKey("spark.sql.autoBroadcastJoinThreshold",
                          &SqlConf::auto_broadcast_join_threshold_bytes, AnyLong, "a byte size"));
    t->push_back(BoolKey("spark.sql.join.preferSortMergeJoin", &SqlConf::prefer_sort_merge_join));
    t->push_back(IntKey(
        "spark.sql.shuffledHashJoinFactor", &SqlConf::shuffled_hash_join_factor,
        [](int64_t v) { return v >= 1; }, "an integer >= 1"));
    t->push_back(BytesKey("spark.sql.files.maxPartitionBytes", &SqlConf::files_max_partition_bytes, Positive,
                          "a byte size > 0"));
    // Bucketed tables (docs/aqe-behaviour.md §14).
    t->push_back(BoolKey("spark.sql.sources.bucketing.enabled", &SqlConf::bucketing_enabled));
    t->push_back(BoolKey("spark.sql.sources.bucketing.autoBucketedScan.enabled",
                         &SqlConf::auto_bucketed_scan_enabled));
    t->push_back(BoolKey("spark.sql.bucketing.coalesceBucketsInJoin.enabled",
                         &SqlConf::coalesce_buckets_in_join_enabled));
    t->push_back(IntKey("spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio",
                        &SqlConf::coalesce_buckets_in_join_max_bucket_ratio, Positive,
                        "an integer > 0 (the ratio must be positive)"));
    t->push_back({"spark.sql.broadcastTimeout",
                  [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
                    const TimeStringResult r = ParseTimeString(value, 1.0);
                    if (!r.ok) return "expected a duration such as 300s or 5min" + Found(value);
                    // SQLConf.broadcastTimeout: a negative value means no timeout.
                    conf->broadcast_timeout_seconds =
                        r.seconds < 0 ? std::numeric_limits<double>::infinity() : r.seconds;
                    return std::string();
                  }});
    t->push_back(BytesKey("spark.sql.maxBroadcastTableSize", &SqlConf::max_broadcast_table_size_bytes,
                          NonNegative, "a byte size >= 0"));
    t->push_back(IntKey("spark.sql.execution.rangeExchange.sampleSizePerPartition",
                        &SqlConf::range_exchange_sample_size_per_partition, Positive, "an integer > 0"));

    // --- spark.shuffle.* (core config/package.scala) ---
    t->push_back(IntKey("spark.shuffle.minNumPartitionsToHighlyCompress",
                        &SqlConf::min_num_partitions_to_highly_compress, Positive, "an integer > 0"));
    t->push_back(BytesKey("spark.shuffle.accurateBlockThreshold", &SqlConf::accurate_block_threshold_bytes,
                          AnyLong, "a byte size"));
    t->push_back(DoubleKey(
        "spark.shuffle.accurateBlockSkewedFactor", &SqlConf::accurate_block_skewed_factor,
        [](double) { return true; }, "a number"));
    t->push_back(IntKey("spark.shuffle.maxAccurateSkewedBlockNumber",
                        &SqlConf::max_accurate_skewed_block_number, Positive, "an integer > 0"));
    t->push_back(LongKey("spark.shuffle.mapOutput.parallelAggregationThreshold",
                         &SqlConf::map_output_parallel_aggregation_threshold, Positive, "an integer > 0"));

    // --- core ---
    t->push_back(
        IntKey("spark.default.parallelism", &SqlConf::default_parallelism, Positive, "an integer > 0"));
    t->push_back(IntKey("spark.task.cpus", &SqlConf::task_cpus, Positive, "an integer > 0"));
    // Resource amounts (ResourceUtils: a task amount <= 0.5 shares one resource, else is whole).
    t->push_back({"spark.task.resource.gpu.amount",
                  [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
                    auto v = ParseDouble(value);
                    if (!v || !(*v > 0) || (*v > 0.5 && std::floor(*v) != *v))
                      return "expected a number > 0, either <= 0.5 or whole" + Found(value);
                    conf->task_gpu_amount = *v;
                    return std::string();
                  }});
    // Scheduling pools (TaskSchedulerImpl, FairSchedulableBuilder).
    t->push_back(
        {"spark.scheduler.mode", [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
           const std::string v = Lower(Trim(value));
           if (v != "fifo" && v != "fair") return "expected FIFO or FAIR" + Found(value);
           conf->fair_scheduler = v == "fair";
           return std::string();
         }});
    t->push_back(
        {"spark.scheduler.pool", [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
           conf->scheduler_pool = value.empty() ? "default" : value;
           return std::string();
         }});
    // Read by the scenario loader (models/scenario/allocation_file_reader), relative to the scenario.
    t->push_back({"spark.scheduler.allocation.file",
                  [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
                    conf->scheduler_allocation_file = std::string(Trim(value));
                    return std::string();
                  }});
    // Delay scheduling (core config/package.scala LOCALITY_WAIT*: timeConf in ms, default 3s).
    t->push_back(BoolKey("spark.shuffle.reduceLocality.enabled", &SqlConf::shuffle_reduce_locality_enabled));
    t->push_back(
        {"spark.locality.wait", [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
           const TimeStringResult r = ParseTimeString(value, 0.001);
           if (!r.ok || r.seconds < 0) return "expected a duration >= 0 such as 3s or 500ms" + Found(value);
           conf->locality_wait_seconds = r.seconds;
           return std::string();
         }});
    t->push_back(
        {"spark.locality.wait.node", [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
           const TimeStringResult r = ParseTimeString(value, 0.001);
           if (!r.ok || r.seconds < 0) return "expected a duration >= 0 such as 3s or 500ms" + Found(value);
           conf->locality_wait_node_seconds = r.seconds;
           return std::string();
         }});
    t->push_back(DoubleKey(
        "spark.memory.fraction", &SqlConf::memory_fraction, [](double v) { return v > 0 && v <= 1; },
        "a number in (0, 1]"));
    t->push_back(
        IntKey("spark.executor.instances", &SqlConf::executor_instances, NonNegative, "an integer >= 0"));
    t->push_back(IntKey("spark.executor.cores", &SqlConf::executor_cores, Positive, "an integer > 0"));
    t->push_back(BytesKey("spark.executor.memory", &SqlConf::executor_memory_bytes, Positive,
                          "a byte size > 0", int64_t{1} << 20));
    t->push_back(
        BytesKey<int64_t>("spark.driver.memory", nullptr, Positive, "a byte size > 0", int64_t{1} << 20));
    AppendDynamicAllocationKeys(t);
    t->push_back({"spark.master", [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
                    std::string error;
                    std::optional<SparkMaster> m = ParseSparkMaster(value, &error);
                    if (!m) return error;
                    conf->master = *m;
                    return std::string();
                  }});
    t->push_back(StringKey("spark.app.name"));
    return t;
  }();
  return *table;
}

}  // namespace aqesim
