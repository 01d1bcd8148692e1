// Dynamic allocation with each idle-timeout kill's own removal lag (cluster.executorRemoveSecondsByKill:
// the application's k-th kill, counted over its whole run from executorKillsBeforeStart or
// allocationAtStart's killsMade, the gap's kills included, is reported gone entry k seconds after
// it; later ones executorRemoveSeconds after). Schedules computed by hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/engine/allocation_carry_over.h"
#include "models/engine/cluster_scheduler.h"
#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/dynamic_allocation_doc.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

using testing::ExecutorCounts;
using testing::ExecutorCountsOf;
using testing::LoadDynamicAllocation;
using testing::RunDynamicAllocation;

const nlohmann::json kIdle2s = {{"spark.dynamicAllocation.executorIdleTimeout", "2s"}};

TEST_CASE("Dynamic allocation: the k-th kill is reported gone executorRemoveSecondsByKill[k] after it",
          "[engine][dynalloc]") {
  // 4 one-slot executors from the start (initialExecutors 4); scan tasks of 10, 1, 1, 1 s on
  // executors 0-3 at 0 s. Idle timeout 2 s: executors 1, 2, 3 (idle from 1 s) are killed, in
  // that order, at the 3 s round (the target drops to 1 task); executorRemoveSeconds 5.
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 13}, {"taskBytes", {10, 1, 1, 1}}};
  nlohmann::json conf = kIdle2s;
  conf["spark.dynamicAllocation.initialExecutors"] = "4";
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorRemoveSeconds"] = 5;
  SECTION("one lag for every kill: all three gone at 3 + 5 = 8 s") {
    const RunResult r = RunDynamicAllocation(cluster, plan, conf);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 4}, {8, 1}});
    CHECK(r.makespan_seconds == Approx(10));
    REQUIRE(r.allocation_at_end);
    CHECK(r.allocation_at_end->kills_made == 3);
  }
  SECTION("[2, 6]: executor 1 gone at 3 + 2 = 5 s, 2 at 3 + 6 = 9 s, 3 (past the end) at 8 s") {
    cluster["executorRemoveSecondsByKill"] = {2, 6};
    const RunResult r = RunDynamicAllocation(cluster, plan, conf);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 4}, {5, 3}, {8, 2}, {9, 1}});
    CHECK(r.makespan_seconds == Approx(10));  // (a killed executor takes no task either way)
  }
  SECTION("[7, 2, 6] with 1 kill before the start: the query's kills take entries 1, 2, then 5 s") {
    cluster["executorRemoveSecondsByKill"] = {7, 2, 6};
    cluster["executorKillsBeforeStart"] = 1;
    const RunResult r = RunDynamicAllocation(cluster, plan, conf);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 4}, {5, 3}, {8, 2}, {9, 1}});
    REQUIRE(r.allocation_at_end);
    CHECK(r.allocation_at_end->kills_made == 4);
  }
  SECTION("[0, 20]: executor 1 gone at the kill; 2 still to go at the end, 23 - 10 = 13 s after it") {
    cluster["executorRemoveSecondsByKill"] = {0, 20};
    const RunResult r = RunDynamicAllocation(cluster, plan, conf);
    const ExecutorCounts counts = ExecutorCountsOf(r);
    REQUIRE(counts.size() >= 3);
    CHECK(ExecutorCounts(counts.begin(), counts.begin() + 3) == ExecutorCounts{{0, 4}, {3, 3}, {8, 2}});
    CHECK(r.makespan_seconds == Approx(10));
    REQUIRE(r.allocation_at_end);
    REQUIRE(r.allocation_at_end->removing.size() == 1);  // carried with its own lag
    CHECK(r.allocation_at_end->removing[0].seconds_until_removed == Approx(13));
  }
}

TEST_CASE("Dynamic allocation: a gap's kills take their own lags, counted from killsMade",
          "[engine][dynalloc]") {
  // Before the query, a gap with two executors idle since its start (timeout 2 s, minExecutors
  // 0, target 0), killsMade 1: both are killed at the gap's 2 s round, executor 0 as the
  // application's kill 1 (4 s: gone at 6 s), executor 1 as kill 2 (2 s: gone at 4 s).
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorRemoveSeconds"] = 5;
  cluster["executorRemoveSecondsByKill"] = {30, 4, 2};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 1}, {"taskBytes", {1}}};
  auto after_gap = [&](double gap) {
    cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}, {{"idleSeconds", 0}}}},
                                    {"target", 0},
                                    {"killsMade", 1},
                                    {"gapSeconds", gap}};
    LoadResult loaded = LoadDynamicAllocation(cluster, plan, kIdle2s);
    REQUIRE(loaded.errors.empty());
    return CarryAcrossGap(*loaded.scenario->cluster.allocation_at_start,
                          DynamicAllocationSettings(*loaded.scenario, 1));
  };
  SECTION("a 5 s gap: executor 0's removal is 1 s away at its end") {
    const AllocationState after = after_gap(5);
    CHECK(after.executors.empty());
    REQUIRE(after.removing.size() == 1);
    CHECK(after.removing[0].seconds_until_removed == Approx(1));
    CHECK(after.kills_made == 3);
  }
  SECTION("a 10 s gap: both gone") {
    const AllocationState after = after_gap(10);
    CHECK(after.executors.empty());
    CHECK(after.removing.empty());
    CHECK(after.kills_made == 3);
  }
}

TEST_CASE("Dynamic allocation: the query's kills continue the count after its gap's", "[engine][dynalloc]") {
  // Lags [30, 4, 2]. Before the query, a 1 s gap from three one-slot executors idle 0, 0 and
  // 1.5 s (timeout 2 s): executor 2 is killed at the gap's 0.5 s round as kill 1 (4 s: gone 3.5 s
  // into the query). The query's one 5 s task runs on executor 0 at 0-5 s; executor 1, idle for
  // 1 s at the start, is killed at its 1 s round as kill 2 (2 s: gone at 3 s). Counted: 2
  // registered + 1 killed at 0 s, 2 at 3 s, 1 at 3.5 s. At the end: 3 kills made.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorRemoveSeconds"] = 5;
  cluster["executorRemoveSecondsByKill"] = {30, 4, 2};
  nlohmann::json state = {{"executors", {{{"idleSeconds", 0}}, {{"idleSeconds", 0}}, {{"idleSeconds", 1.5}}}},
                          {"target", 0},
                          {"killsMade", 1},
                          {"gapSeconds", 1}};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 5}, {"taskBytes", {5}}};
  SECTION("killsMade 1 in the state") {
    cluster["allocationAtStart"] = state;
    cluster["executorKillsBeforeStart"] = 2;  // (the state's count wins)
  }
  SECTION("the state without killsMade: executorKillsBeforeStart 1") {
    state.erase("killsMade");
    cluster["allocationAtStart"] = state;
    cluster["executorKillsBeforeStart"] = 1;
  }
  const RunResult r = RunDynamicAllocation(cluster, plan, kIdle2s);
  CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 3}, {3, 2}, {3.5, 1}});
  CHECK(r.makespan_seconds == Approx(5));
  REQUIRE(r.allocation_at_end);
  CHECK(r.allocation_at_end->kills_made == 3);
  CHECK(r.allocation_at_end->removing.empty());
}

TEST_CASE(
    "Cluster: executorRemoveSecondsByKill, executorKillsBeforeStart and killsMade errors name their place",
    "[scenario][cluster]") {
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 1}, {"taskBytes", {1}}};
  nlohmann::json cluster = testing::InstantIoCluster(1);
  auto errors_of = [&]() {
    std::vector<std::string> errors;
    for (const Diagnostic& d : LoadDynamicAllocation(cluster, plan).errors) errors.push_back(d.ToString());
    return errors;
  };
  cluster["executorRemoveSecondsByKill"] = {1, -2, "3", nullptr, 3601};
  CHECK(errors_of() ==
        std::vector<std::string>{
            "test.json: /cluster/executorRemoveSecondsByKill/1: expected a number of seconds in [0, "
            "3600], found -2",
            "test.json: /cluster/executorRemoveSecondsByKill/2: expected a number of seconds in [0, "
            "3600], found \"3\"",
            "test.json: /cluster/executorRemoveSecondsByKill/3: expected a number of seconds in [0, "
            "3600], found null",
            "test.json: /cluster/executorRemoveSecondsByKill/4: expected a number of seconds in [0, "
            "3600], found 3601"});
  cluster["executorRemoveSecondsByKill"] = nlohmann::json::object();
  CHECK(errors_of() ==
        std::vector<std::string>{"test.json: /cluster/executorRemoveSecondsByKill: expected an "
                                 "array (at most 1000000) of seconds in [0, 3600], found an empty object"});
  cluster.erase("executorRemoveSecondsByKill");
  cluster["executorKillsBeforeStart"] = -1;
  CHECK(errors_of() == std::vector<std::string>{
                           "test.json: /cluster/executorKillsBeforeStart: expected a non-negative integer, "
                           "found -1"});
  cluster.erase("executorKillsBeforeStart");
  cluster["allocationAtStart"] = {{"killsMade", 1.5}};
  CHECK(errors_of() ==
        std::vector<std::string>{"test.json: /cluster/allocationAtStart/killsMade: expected a non-negative "
                                 "integer, found 1.5"});
}

}  // namespace
}  // namespace aqesim
