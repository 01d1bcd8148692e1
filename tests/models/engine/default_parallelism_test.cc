// SparkContext.defaultParallelism as the engine takes it from spark.master: it is the
// coalescing floor when parallelismFirst is on (CoalesceShufflePartitions: minNumPartitions =
// defaultParallelism), so the number of coalesced partitions shows it.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

/// Partitions AQE coalesces 200 reducers of 1 MiB each into on 1 executor x 4 cores, with
/// `conf` added: ShufflePartitionsUtil's target is max(1 MiB, min(64 MiB, 200 MiB / floor)).
size_t CoalescedPartitions(const nlohmann::json& conf) {
  nlohmann::json c = conf;
  c["spark.sql.shuffle.partitions"] = 200;
  LoadResult r = LoadScenarioJson(
      {{"name", "t"},
       {"cluster", {{"executors", 1}, {"executorCores", 4}, {"executorMemory", "8g"}}},
       {"conf", c},
       {"simulation", {{"mapStatus", "exact"}}},
       {"plan",
        {{"op", "aggregate"},
         {"id", "a"},
         {"child",
          {{"op", "exchange"},
           {"id", "e1"},
           {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", "200m"}, {"tasks", 1}}},
           {"sizes", {{"generate", {{"distribution", "uniform"}, {"totalBytes", "200m"}}}}}}}}}},
      "t.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  const RunResult run = SimulateQuery(*r.scenario, true);
  REQUIRE(run.reads.size() == 1);
  return run.reads[0].specs.size();
}

TEST_CASE("defaultParallelism: local[N] threads, local[*] and clusters the cores", "[engine][aqe]") {
  CHECK(CoalescedPartitions({{"spark.master", "local[10]"}}) == 10);  // 20 MiB each
  CHECK(CoalescedPartitions({{"spark.master", "local[*]"}}) == 4);    // 50 MiB each
  CHECK(CoalescedPartitions({{"spark.master", "local"}}) == 4);       // 1 thread: the 64 MiB target
  CHECK(CoalescedPartitions({{"spark.master", "yarn"}}) == 4);
  CHECK(CoalescedPartitions({}) == 4);
  CHECK(CoalescedPartitions({{"spark.master", "local[10]"}, {"spark.default.parallelism", 5}}) == 5);
}

}  // namespace
}  // namespace aqesim
