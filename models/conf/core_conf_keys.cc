// The configuration key table's spark.shuffle.* and core keys (core/src/main/scala/org/apache/
// spark/internal/config/package.scala); "since" is the key's `.version(...)` there.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "models/conf/conf_key_builders.h"
#include "models/conf/conf_key_table.h"
#include "models/conf/dynamic_allocation.h"
#include "models/conf/property_value.h"

namespace aqesim {
namespace {

using namespace conf_keys;  // NOLINT(build/namespaces): the builders, in this file only

// A duration >= 0 written to `field` (seconds); a bare number is in milliseconds.
template <typename Field>
ConfKeyInfo MillisecondsKey(std::string key, Field SqlConf::*field) {
  return {std::move(key),
          [field](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            const TimeStringResult r = ParseTimeString(value, 0.001);
            if (!r.ok || r.seconds < 0)
              return "expected a duration >= 0 such as 3s or 500ms" + FoundValue(value);
            conf->*field = r.seconds;
            return std::string();
          },
          {}};
}

void AppendShuffleKeys(std::vector<ConfKeyInfo>* t) {
  Add(t,
      IntKey("spark.shuffle.minNumPartitionsToHighlyCompress",
             &SqlConf::min_num_partitions_to_highly_compress, Positive, "an integer > 0"),
      {"2000", "integer", "2.4.0",
       "above this many reducers a map task reports a HighlyCompressedMapStatus"});
  // Spark writes the default as 100 * 1024 * 1024.
  Add(t,
      BytesKey("spark.shuffle.accurateBlockThreshold", &SqlConf::accurate_block_threshold_bytes, AnyLong,
               "a byte size"),
      {"100MB", "bytes", "2.2.1", "blocks above it keep their exact size in a compressed MapStatus"});
  Add(t,
      DoubleKey(
          "spark.shuffle.accurateBlockSkewedFactor", &SqlConf::accurate_block_skewed_factor,
          [](double) { return true; }, "a number"),
      {"-1.0", "ratio", "3.3.0", "so do blocks this many times the median (<= 0: off)"});
  Add(t,
      IntKey("spark.shuffle.maxAccurateSkewedBlockNumber", &SqlConf::max_accurate_skewed_block_number,
             Positive, "an integer > 0"),
      {"100", "integer", "3.3.0", "at most this many skewed blocks keep their exact size"});
  Add(t,
      LongKey("spark.shuffle.mapOutput.parallelAggregationThreshold",
              &SqlConf::map_output_parallel_aggregation_threshold, Positive, "an integer > 0"),
      {"10000000", "integer", "2.3.0", "checked only; driver-side aggregation time is not modelled"});
}

// The reduce side's fetch limits (ShuffleBlockFetcherIterator; models/shuffle/fetch_requests.h).
void AppendReducerKeys(std::vector<ConfKeyInfo>* t) {
  Add(t,
      BytesKey("spark.reducer.maxSizeInFlight", &SqlConf::reducer_max_size_in_flight_bytes, NonNegative,
               "a byte size >= 0", 1LL << 20),
      {"48m", "bytes (bare number: MiB)", "1.4.0",
       "bytes of fetch requests in flight per reduce task; a request is closed at a fifth of it"});
  // Spark's default is Int.MaxValue.
  Add(t,
      IntKey("spark.reducer.maxReqsInFlight", &SqlConf::reducer_max_reqs_in_flight, NonNegative,
             "an integer >= 0"),
      {"2147483647", "integer", "2.0.0", "fetch requests in flight per reduce task"});
  Add(t,
      IntKey("spark.reducer.maxBlocksInFlightPerAddress", &SqlConf::reducer_max_blocks_in_flight_per_address,
             Positive, "an integer > 0"),
      {"2147483647", "integer", "2.2.1", "blocks in a fetch request and in flight from one executor"});
}

void AppendSchedulingKeys(std::vector<ConfKeyInfo>* t) {
  Add(t, IntKey("spark.default.parallelism", &SqlConf::default_parallelism, Positive, "an integer > 0"),
      {"(none)", "integer", "0.5.0", "coalescing's minimum partition count (unset: total executor cores)"});
  Add(t, IntKey("spark.task.cpus", &SqlConf::task_cpus, Positive, "an integer > 0"),
      {"1", "integer", "0.5.0", "cores a task takes: task slots per executor"});
  Add(t, IntKey("spark.task.maxFailures", &SqlConf::task_max_failures, Positive, "an integer > 0"),
      {"4", "integer", "0.8.0",
       "a task's failed attempts before its stage and job abort (local mode: 1, or F of local[N, F])"});
  // Resource amounts (ResourceUtils: a task amount <= 0.5 shares one resource, else is whole).
  Add(t,
      {"spark.task.resource.gpu.amount",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         auto v = ParseDouble(value);
         if (!v || !(*v > 0) || (*v > 0.5 && std::floor(*v) != *v))
           return "expected a number > 0, either <= 0.5 or whole" + FoundValue(value);
         conf->task_gpu_amount = *v;
         return std::string();
       },
       {}},
      {"(none)", "number", "3.0.0", "GPUs a task takes: task slots per executor"});
  // Scheduling pools (TaskSchedulerImpl, FairSchedulableBuilder).
  Add(t,
      {"spark.scheduler.mode",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         const std::string v = Lower(Trim(value));
         if (v != "fifo" && v != "fair") return "expected FIFO or FAIR" + FoundValue(value);
         conf->fair_scheduler = v == "fair";
         return std::string();
       },
       {}},
      {"FIFO", "FIFO or FAIR", "0.8.0", "order of task sets of concurrent queries"});
  // Unsure: a job's local property, no ConfigEntry; the fair scheduler's pools came in 0.8.0.
  Add(t,
      {"spark.scheduler.pool",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         conf->scheduler_pool = value.empty() ? "default" : value;
         return std::string();
       },
       {}},
      {"(none)", "pool name", "0.8.0", "the query's fair-scheduler pool (unset: default)"});
  // Read by the scenario loader (models/scenario/allocation_file_reader), relative to the scenario.
  Add(t,
      {"spark.scheduler.allocation.file",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         conf->scheduler_allocation_file = std::string(Trim(value));
         return std::string();
       },
       {}},
      {"(none)", "file path", "0.8.1", "fair-scheduler pools (weight, minShare), read with the scenario"});
  // Delay scheduling (LOCALITY_WAIT*: timeConf in ms).
  Add(t, BoolKey("spark.shuffle.reduceLocality.enabled", &SqlConf::shuffle_reduce_locality_enabled),
      {"true", "boolean", "1.5.0", "reduce tasks prefer executors holding most of their input"});
  Add(t, MillisecondsKey("spark.locality.wait", &SqlConf::locality_wait_seconds),
      {"3s", "duration (bare number: ms)", "0.5.0", "delay scheduling: wait for a preferred executor"});
  Add(t, MillisecondsKey("spark.locality.wait.node", &SqlConf::locality_wait_node_seconds),
      {"(value of spark.locality.wait)", "duration (bare number: ms)", "0.8.0",
       "the wait for a node-local slot"});
}

void AppendExecutorKeys(std::vector<ConfKeyInfo>* t) {
  Add(t,
      DoubleKey(
          "spark.memory.fraction", &SqlConf::memory_fraction, [](double v) { return v > 0 && v <= 1; },
          "a number in (0, 1]"),
      {"0.6", "ratio", "1.6.0", "share of executor memory for execution: when tasks spill"});
  Add(t, IntKey("spark.executor.instances", &SqlConf::executor_instances, NonNegative, "an integer >= 0"),
      {"(none)", "integer", "1.0.0", "the cluster's executor count (--conf overrides /cluster)"});
  Add(t, IntKey("spark.executor.cores", &SqlConf::executor_cores, Positive, "an integer > 0"),
      {"1", "integer", "1.0.0", "the cluster's cores per executor (--conf overrides /cluster)"});
  Add(t,
      BytesKey("spark.executor.memory", &SqlConf::executor_memory_bytes, Positive, "a byte size > 0",
               int64_t{1} << 20),
      {"1g", "bytes (bare number: MiB)", "0.7.0",
       "the cluster's executor memory (--conf overrides /cluster)"});
  Add(t, BytesKey<int64_t>("spark.driver.memory", nullptr, Positive, "a byte size > 0", int64_t{1} << 20),
      {"1g", "bytes (bare number: MiB)", "1.1.1", "checked only; the driver's memory is not modelled"});
}

}  // namespace

void AppendCoreConfKeys(std::vector<ConfKeyInfo>* t) {
  AppendShuffleKeys(t);
  AppendReducerKeys(t);
  AppendSchedulingKeys(t);
  AppendExecutorKeys(t);
  AppendDynamicAllocationKeys(t);
  Add(t,
      {"spark.master",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         std::string error;
         std::optional<SparkMaster> m = ParseSparkMaster(value, &error);
         if (!m) return error;
         conf->master = *m;
         return std::string();
       },
       {}},
      {"(none)", "master URL", "0.9.0", "local[N]: one executor in the driver with N slots; else a cluster"});
  Add(t, StringKey("spark.app.name"), {"(none)", "string", "0.9.0", "accepted; not used"});
}

}  // namespace aqesim
