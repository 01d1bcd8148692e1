// Dynamic allocation across queries: requests the cluster manager granted are not cancelled
// (executorGrantSeconds), and the allocation manager's state carried from one query to the next
// across the gap between them (allocationAtStart / allocationAtEnd), against schedules computed
// by hand.
#include "models/engine/allocation_carry_over.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/dynamic_allocation_doc.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

const nlohmann::json kInitialOne = {{"spark.dynamicAllocation.initialExecutors", "1"}};

LoadResult LoadDoc(const nlohmann::json& cluster, const nlohmann::json& plan) {
  return testing::LoadDynamicAllocation(cluster, plan, kInitialOne);
}
RunResult Run(const nlohmann::json& cluster, const nlohmann::json& plan) {
  return testing::RunDynamicAllocation(cluster, plan, kInitialOne);
}
using Counts = testing::ExecutorCounts;
Counts CountsOf(const RunResult& r) { return testing::ExecutorCountsOf(r); }

TEST_CASE("Dynamic allocation: a request the cluster manager granted registers though the target dropped",
          "[engine][dynalloc]") {
  // One-slot executors, 1 from the start, executors start 5 s after their request. Two scan
  // tasks of 2 and 10 s: task 1 waits; at 1 s the backlog timer expires and executor 1 is
  // requested (target 2). At 2 s task 0 ends and task 1 starts on executor 0: nothing pending,
  // one task running, the target drops to 1 and a request not yet granted is cancelled.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 12}, {"taskBytes", {2, 10}}};
  SECTION("granted 0.5 s after the request (YARN): it registers at 6 s") {
    cluster["executorGrantSeconds"] = 0.5;
    const RunResult r = Run(cluster, plan);
    CHECK(CountsOf(r) == Counts{{0, 1}, {6, 2}});
    CHECK(r.makespan_seconds == Approx(12));
  }
  SECTION("granted 1.5 s after it: cancelled at 2 s") {
    cluster["executorGrantSeconds"] = 1.5;
    CHECK(CountsOf(Run(cluster, plan)) == Counts{{0, 1}});
  }
  SECTION("no grant time: cancellable until it registers") {
    const RunResult r = Run(cluster, plan);
    CHECK(CountsOf(r) == Counts{{0, 1}});
    REQUIRE(r.allocation_at_end);
    CHECK(r.allocation_at_end->requests.empty());
    // As the last round left it (one task running from 2 s on): the round after the makespan,
    // in the gap before the next query, drops it to minExecutors (CarryAcrossGap).
    CHECK(r.allocation_at_end->target == 1);
  }
}

TEST_CASE("Dynamic allocation: the allocation manager carried across the gap between two queries",
          "[engine][dynalloc]") {
  // Before the gap of 15 s: executor 0 just finished a task (warm), executor 1 idle for 50 s, a
  // request made 4 s ago (granted after 1 s), target 3. Executors start 5 s after their request,
  // idle timeout 60 s. In the gap no task runs: at its first round the target drops to
  // minExecutors (0); the request, granted, is not cancelled and registers 1 s into the gap;
  // executor 1 reaches 60 s idle 10 s into the gap and is removed. The query starts with 2
  // executors (0 and the new one) and its two 1 s tasks run at once on them.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["executorGrantSeconds"] = 1;
  cluster["allocationAtStart"] = {
      {"target", 3},
      {"gapSeconds", 15},
      {"executors", {{{"idleSeconds", 0}, {"warm", true}}, {{"idleSeconds", 50}}}},
      {"requests", {{{"secondsSinceRequest", 4}}}}};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 2}, {"taskBytes", {1, 1}}};
  const RunResult r = Run(cluster, plan);
  CHECK(CountsOf(r) == Counts{{0, 2}});
  CHECK(r.makespan_seconds == Approx(1));
  REQUIRE(r.allocation_at_end);
  REQUIRE(r.allocation_at_end->executors.size() == 2);
  CHECK(r.allocation_at_end->executors[0].idle_seconds == Approx(0));
  CHECK(r.allocation_at_end->executors[0].warm);
  CHECK(r.allocation_at_end->executors[1].warm);  // ran a task in this query
  CHECK(r.allocation_at_end->requests.empty());

  SECTION("CarryAcrossGap alone") {
    LoadResult loaded = LoadDoc(cluster, plan);
    REQUIRE(loaded.errors.empty());
    ExecutorAllocationManager::Settings settings;
    settings.conf = loaded.scenario->conf.dynamic_allocation;
    settings.start_seconds = 5;
    settings.grant_seconds = 1;
    const AllocationState after = CarryAcrossGap(*loaded.scenario->cluster.allocation_at_start, settings);
    CHECK(after.target == 0);
    REQUIRE(after.executors.size() == 2);
    CHECK(after.executors[0].idle_seconds == Approx(15));
    CHECK(after.executors[0].warm);
    CHECK(after.executors[1].idle_seconds == Approx(14));  // registered 1 s into the gap
    CHECK_FALSE(after.executors[1].warm);
    CHECK(after.requests.empty());
    settings.grant_seconds = 5;  // not granted yet at the gap's first round: cancelled
    CHECK(CarryAcrossGap(*loaded.scenario->cluster.allocation_at_start, settings).executors.size() == 1);
  }
}

TEST_CASE("Dynamic allocation: a killed executor counts as registered until its removal is reported",
          "[engine][dynalloc]") {
  // 4 one-slot executors from the start (initialExecutors 4); scan tasks of 10, 1, 1, 1 s. Idle
  // timeout 2 s: executors 1-3 are killed at the 3 s round (the target is 1) and take no task from
  // then on; executorRemoveSeconds 5: the driver hears they are gone at 8 s.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorRemoveSeconds"] = 5;
  LoadResult loaded =
      LoadDoc(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 13}, {"taskBytes", {10, 1, 1, 1}}});
  REQUIRE(loaded.errors.empty());
  loaded.scenario->conf.dynamic_allocation.initial_executors = 4;
  loaded.scenario->conf.dynamic_allocation.executor_idle_timeout_seconds = 2;
  const RunResult r = SimulateQuery(*loaded.scenario, /*adaptive=*/false);
  CHECK(CountsOf(r) == Counts{{0, 4}, {8, 1}});
  CHECK(r.makespan_seconds == Approx(10));
}

TEST_CASE("Dynamic allocation: executors killed before the query count until their removal is reported",
          "[engine][dynalloc]") {
  // One-slot executors starting at once (executorStartSeconds 0). Before the query: executor 0
  // idle, one executor killed whose removal is reported 5 s into the query. Four scan tasks of
  // 10 s. The killed one takes no task but counts (ExecutorMonitor.executorCount): at the 1 s
  // round the target is max(0, 1 live + 1 killed) + 1 = 3 and the requests are for the live
  // executors missing, 3 - 1 = 2 (the number to add stays 1: the target moved by 3); at 2 s
  // max(3, 3 live + 1 killed) + 1 = 5, capped by the 4 tasks = 4, 4 - 3 = 1 more. Tasks 0-10,
  // 1-11, 1-11, 2-12 s. Without the killed one: target 2 at 1 s (1 request), 3 at 2 s (1), 4 at
  // 3 s (1): tasks 0-10, 1-11, 2-12, 3-13 s.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 40}, {"taskBytes", {10, 10, 10, 10}}};
  SECTION("killed executor carried") {
    cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}},
                                    {"removing", {{{"secondsUntilRemoved", 6}}}},
                                    {"gapSeconds", 1}};
    const RunResult r = Run(cluster, plan);
    const Counts counts = CountsOf(r);
    REQUIRE(counts.size() >= 4);
    CHECK(Counts(counts.begin(), counts.begin() + 4) == Counts{{0, 2}, {1, 4}, {2, 5}, {5, 4}});
    CHECK(r.makespan_seconds == Approx(12));
    REQUIRE(r.allocation_at_end);
    CHECK(r.allocation_at_end->removing.empty());  // reported gone at 5 s
  }
  SECTION("none killed") {
    cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}}};
    const RunResult r = Run(cluster, plan);
    const Counts counts = CountsOf(r);
    REQUIRE(counts.size() >= 4);
    CHECK(Counts(counts.begin(), counts.begin() + 4) == Counts{{0, 1}, {1, 2}, {2, 3}, {3, 4}});
    CHECK(r.makespan_seconds == Approx(13));
  }
  SECTION("a removal still to come is carried to the next query") {
    cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}},
                                    {"removing", {{{"secondsUntilRemoved", 20}}}},
                                    {"gapSeconds", 1}};
    const RunResult r = Run(cluster, plan);
    REQUIRE(r.allocation_at_end);
    REQUIRE(r.allocation_at_end->removing.size() == 1);
    CHECK(r.allocation_at_end->removing[0].seconds_until_removed == Approx(7));  // 19 s in, at 12 s
  }
}

TEST_CASE("Cluster: allocationAtStart errors name their place", "[scenario][cluster]") {
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["allocationAtStart"] = {{"target", -1}, {"executors", {{{"idleSeconds", "5"}}}}, {"request", {}}};
  std::vector<std::string> errors;
  for (const Diagnostic& d : LoadDoc(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}).errors)
    errors.push_back(d.ToString());
  CHECK(
      errors ==
      std::vector<std::string>{
          "test.json: /cluster/allocationAtStart/executors/0/idleSeconds: expected a number of seconds in "
          "[0, 1e+09], found \"5\"",
          "test.json: /cluster/allocationAtStart/request: unknown field \"request\" of an allocation state; "
          "did you mean \"requests\"?",
          "test.json: /cluster/allocationAtStart/target: expected a non-negative integer, found -1"});
}

}  // namespace
}  // namespace aqesim
