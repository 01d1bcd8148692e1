#include "models/conf/spark_conf.h"

#include <catch2/catch.hpp>

#include "models/conf/did_you_mean.h"
#include "models/conf/unmodelled_keys.h"

namespace aqesim {
namespace {

TEST_CASE("EditDistance: Damerau-Levenshtein (optimal string alignment)", "[conf]") {
  CHECK(EditDistance("scan", "scan") == 0);
  CHECK(EditDistance("scna", "scan") == 1);  // transposition
  CHECK(EditDistance("bytez", "bytes") == 1);
  CHECK(EditDistance("", "abc") == 3);
  CHECK(EditDistance("kitten", "sitting") == 3);
  CHECK(EditDistance("ca", "abc") == 3);  // OSA, not unrestricted DL (which gives 2)
  CHECK(DidYouMean("exakt", {"spark", "exact"}) == std::optional<std::string>("exact"));
  CHECK(DidYouMean("Scan", {"scan"}) == std::optional<std::string>("scan"));
  CHECK_FALSE(DidYouMean("xyz", {"scan", "sort"}));
}

TEST_CASE("ResolveSqlConf: defaults match docs/aqe-behaviour.md §10", "[conf]") {
  std::vector<ConfProblem> problems;
  const SqlConf c = ResolveSqlConf({}, &problems);
  CHECK(problems.empty());
  CHECK(c.adaptive_enabled);
  CHECK(c.shuffle_partitions == 200);
  CHECK(c.advisory_partition_size_bytes == 64LL << 20);
  CHECK(c.coalesce_min_partition_size_bytes == 1LL << 20);
  CHECK(c.skewed_partition_factor == 5.0);
  CHECK(c.skewed_partition_threshold_bytes == 256LL << 20);
  CHECK(c.auto_broadcast_join_threshold_bytes == 10LL << 20);
  CHECK(c.min_num_partitions_to_highly_compress == 2000);
  CHECK(c.accurate_block_threshold_bytes == 100LL << 20);
  CHECK(c.InitialShufflePartitions() == 200);
}

TEST_CASE("ResolveSqlConf: typed values from strings", "[conf]") {
  std::vector<ConfProblem> problems;
  const SqlConf c = ResolveSqlConf(
      {{"spark.sql.adaptive.enabled", "FALSE"},
       {"spark.sql.shuffle.partitions", " 400 "},
       {"spark.sql.adaptive.coalescePartitions.initialPartitionNum", "1000"},
       {"spark.sql.adaptive.advisoryPartitionSizeInBytes", "128m"},
       {"spark.sql.autoBroadcastJoinThreshold", "-1"},
       {"spark.sql.adaptive.skewJoin.skewedPartitionFactor", "2.5"},
       {"spark.sql.adaptive.optimizer.excludedRules",
        " org.apache.spark.sql.execution.adaptive.OptimizeSkewedJoin , ,CoalesceShufflePartitions"},
       {"spark.sql.broadcastTimeout", "5min"},
       {"spark.executor.memory", "4096"}},
      &problems);
  CHECK(problems.empty());
  CHECK_FALSE(c.adaptive_enabled);
  CHECK(c.shuffle_partitions == 400);
  CHECK(c.initial_partition_num == 1000);
  CHECK(c.InitialShufflePartitions() == 400);  // AQE off: initialPartitionNum unused
  CHECK(c.advisory_partition_size_bytes == 128LL << 20);
  CHECK(c.auto_broadcast_join_threshold_bytes == -1);
  CHECK(c.skewed_partition_factor == 2.5);
  CHECK(c.optimizer_excluded_rules ==
        std::set<std::string>{"org.apache.spark.sql.execution.adaptive.OptimizeSkewedJoin",
                              "CoalesceShufflePartitions"});
  CHECK(c.broadcast_timeout_seconds == 300.0);
  CHECK(c.executor_memory_bytes == 4096LL << 20);  // bare number in MiB, as Spark
}

TEST_CASE("ResolveSqlConf: advisory size falls back to targetPostShuffleInputSize", "[conf]") {
  std::vector<ConfProblem> problems;
  SqlConf c = ResolveSqlConf({{"spark.sql.adaptive.shuffle.targetPostShuffleInputSize", "32m"}}, &problems);
  CHECK(c.advisory_partition_size_bytes == 32LL << 20);
  REQUIRE(problems.size() == 1);
  CHECK_FALSE(problems[0].is_error);
  CHECK(problems[0].message ==
        "'spark.sql.adaptive.shuffle.targetPostShuffleInputSize' is deprecated since Spark 3.0; use "
        "'spark.sql.adaptive.advisoryPartitionSizeInBytes' instead");
  problems.clear();
  c = ResolveSqlConf({{"spark.sql.adaptive.shuffle.targetPostShuffleInputSize", "32m"},
                      {"spark.sql.adaptive.advisoryPartitionSizeInBytes", "16m"}},
                     &problems);
  CHECK(c.advisory_partition_size_bytes == 16LL << 20);
}

TEST_CASE("ResolveSqlConf: invalid values are errors worded as Spark's checks", "[conf]") {
  struct Case {
    const char* key;
    const char* value;
    const char* message;
  };
  const Case cases[] = {
      {"spark.sql.adaptive.coalescePartitions.minPartitionSize", "0",
       "expected a byte size > 0 (minPartitionSize must be positive), found \"0\""},
      {"spark.sql.adaptive.skewJoin.skewedPartitionFactor", "-1",
       "expected a number >= 0 (the skew factor cannot be negative), found \"-1\""},
      {"spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor", "1",
       "expected a number in (0, 1), found \"1\""},
      {"spark.sql.shuffle.partitions", "0",
       "expected an integer > 0 (the number of shuffle partitions must be positive), found \"0\""},
      {"spark.sql.shuffle.partitions", "1e3",
       "expected an integer > 0 (the number of shuffle partitions must be positive), found \"1e3\""},
      {"spark.shuffle.maxAccurateSkewedBlockNumber", "0", "expected an integer > 0, found \"0\""},
      {"spark.sql.adaptive.enabled", "yes", "expected a boolean (true or false), found \"yes\""},
      {"spark.sql.adaptive.advisoryPartitionSizeInBytes", "1.5g",
       "expected a byte size such as 64m or 1g, found \"1.5g\" (fractional values are not supported)"},
      {"spark.sql.autoBroadcastJoinThreshold", "10q",
       "expected a byte size such as 64m or 1g, found \"10q\" (unknown size suffix)"},
      {"spark.sql.autoBroadcastJoinThreshold", "99999999999999p",
       "expected a byte size such as 64m or 1g, found \"99999999999999p\" (too large for a 64-bit byte "
       "count)"},
      {"spark.sql.broadcastTimeout", "soon", "expected a duration such as 300s or 5min, found \"soon\""},
      {"spark.sql.adaptive.logLevel", "loud",
       "expected one of TRACE, DEBUG, INFO, WARN, ERROR, found \"loud\""},
  };
  for (const Case& c : cases) {
    INFO(c.key << " = " << c.value);
    std::vector<ConfProblem> problems;
    ResolveSqlConf({{c.key, c.value}}, &problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].is_error);
    CHECK(problems[0].key == c.key);
    CHECK(problems[0].message == c.message);
  }
}

TEST_CASE("ResolveSqlConf: unknown keys are warnings with a suggestion", "[conf]") {
  struct Case {
    const char* key;
    const char* message;
  };
  const Case cases[] = {
      {"spark.sql.adaptive.enabeld",
       "unused configuration key 'spark.sql.adaptive.enabeld'; did you mean 'spark.sql.adaptive.enabled'?"},
      {"spark.sql.adaptive.coalescePartition.minPartitionSize",
       "unused configuration key 'spark.sql.adaptive.coalescePartition.minPartitionSize'; did you mean "
       "'spark.sql.adaptive.coalescePartitions.minPartitionSize'?"},
      // By the last dotted component.
      {"spark.sql.adaptive.minPartitionSize",
       "unused configuration key 'spark.sql.adaptive.minPartitionSize'; did you mean "
       "'spark.sql.adaptive.coalescePartitions.minPartitionSize'?"},
      // Spark's own keys that aqesim does not model: said so, not taken for a typo of a modelled
      // key (memoryOverhead was "did you mean 'spark.executor.memory'?").
      {"spark.eventLog.dir", "'spark.eventLog.dir' is a Spark key that aqesim does not model (ignored)"},
      {"spark.executor.memoryOverhead",
       "'spark.executor.memoryOverhead' is a Spark key that aqesim does not model (ignored)"},
      {"spark.hadoop.fs.s3a.connection.maximum",
       "'spark.hadoop.fs.s3a.connection.maximum' is a Spark key that aqesim does not model (ignored)"},
      {"sql.shuffle.partitions",
       "ignoring non-Spark configuration key 'sql.shuffle.partitions'; did you mean "
       "'spark.sql.shuffle.partitions'?"},
  };
  for (const Case& c : cases) {
    INFO(c.key);
    std::vector<ConfProblem> problems;
    const SqlConf conf = ResolveSqlConf({{c.key, "1"}}, &problems);
    REQUIRE(problems.size() == 1);
    CHECK_FALSE(problems[0].is_error);
    CHECK(problems[0].message == c.message);
    CHECK(conf.shuffle_partitions == 200);
  }
}

TEST_CASE("IsUnmodelledSparkKey: never a key aqesim models", "[conf]") {
  for (const std::string& key : KnownConfKeys()) {
    INFO(key);
    CHECK_FALSE(IsUnmodelledSparkKey(key));
  }
  CHECK(IsUnmodelledSparkKey("spark.serializer"));
  CHECK(IsUnmodelledSparkKey("spark.yarn.queue"));
  CHECK_FALSE(IsUnmodelledSparkKey("spark.sql.shuffle.partitions"));
  CHECK_FALSE(IsUnmodelledSparkKey("spark.yarn"));  // a family's prefix needs its dot
}

TEST_CASE("KnownConfKeys: every docs/aqe-behaviour.md §10 key is known", "[conf]") {
  const auto& keys = KnownConfKeys();
  for (const char* key :
       {"spark.sql.adaptive.enabled", "spark.sql.adaptive.logLevel",
        "spark.sql.adaptive.coalescePartitions.minPartitionNum",
        "spark.sql.adaptive.customCostEvaluatorClass", "spark.shuffle.accurateBlockSkewedFactor",
        "spark.shuffle.mapOutput.parallelAggregationThreshold", "spark.default.parallelism",
        "spark.sql.adaptive.minNumPostShufflePartitions", "spark.dynamicAllocation.enabled", "spark.master",
        "spark.app.name", "spark.executor.cores"}) {
    INFO(key);
    CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
  }
}

TEST_CASE("ResolveSqlConf: spark.master, checked as Spark's scheduler reads it", "[conf]") {
  std::vector<ConfProblem> problems;
  CHECK_FALSE(ResolveSqlConf({}, &problems).master.local);
  const SqlConf local = ResolveSqlConf({{"spark.master", "local[3]"}}, &problems);
  CHECK(problems.empty());
  CHECK(local.master.local);
  CHECK(local.master.local_threads == 3);
  ResolveSqlConf({{"spark.master", "local[99999999999]"}}, &problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].is_error);
  CHECK(problems[0].message ==
        "expected local, local[N], local[*] or local[N, F] with N from 1 to 2147483647, found "
        "\"local[99999999999]\"");
}

}  // namespace
}  // namespace aqesim
