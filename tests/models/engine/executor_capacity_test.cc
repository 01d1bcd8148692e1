// Dynamic allocation on a cluster that holds at most cluster.executorCapacity of the
// application's containers: a request finding no place waits (cancellable) for one, and one
// placed where a killed executor's container still runs starts when that removal is reported
// (YARN's NodeManager starts it once the old container has released its resources). Schedules
// computed by hand.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/allocation_carry_over.h"
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

TEST_CASE("Dynamic allocation: a full cluster places a request where a killed executor's container ends",
          "[engine][dynalloc]") {
  // One-slot executors; a request registers 5 s after it is made (executorStartSeconds), is
  // granted after 1 s, so 4 s after its place is ready. At the start: executor 0 idle and one
  // killed executor whose removal is reported at 3 s (both held by the cluster). Three scan
  // tasks of 10 s: task 0 runs on executor 0 (0-10 s). At the 1 s round the target is
  // max(0, 1 live + 1 killed) + 1 = 3 and 2 executors are requested.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["executorGrantSeconds"] = 1;
  cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}},
                                  {"removing", {{{"secondsUntilRemoved", 3}}}}};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 30}, {"taskBytes", {10, 10, 10}}};
  SECTION("unlimited: both register at 6 s") {
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 2}, {3, 1}, {6, 3}});
    CHECK(r.makespan_seconds == Approx(16));  // tasks 1, 2 at 6-16 s
  }
  SECTION("capacity 3: one free place (registers at 6 s), one in the killed executor's (3 + 4 = 7 s)") {
    cluster["executorCapacity"] = 3;
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 2}, {3, 1}, {6, 2}, {7, 3}});
    CHECK(r.makespan_seconds == Approx(17));  // task 1 at 6-16 s, task 2 at 7-17 s
  }
  SECTION("capacity 2: the first in the killed executor's place (7 s), the second finds none") {
    // Task 1 runs on the new executor at 7-17 s, task 2 on executor 0 once task 0 ends (10-20
    // s); then nothing is pending, two tasks run, the target drops to 2 and the request without
    // a place (never granted) is cancelled.
    cluster["executorCapacity"] = 2;
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 2}, {3, 1}, {7, 2}});
    CHECK(r.makespan_seconds == Approx(20));
    REQUIRE(r.allocation_at_end);
    CHECK(r.allocation_at_end->requests.empty());
  }
}

TEST_CASE("Dynamic allocation: a request waiting for a killed executor's place is carried between queries",
          "[engine][dynalloc]") {
  // A request made 2 s before, placed where a killed executor's container runs until 3 s:
  // it registers at max(-2 + 5, 3 + 4) = 7 s.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["executorGrantSeconds"] = 1;
  cluster["executorCapacity"] = 1;
  cluster["allocationAtStart"] = {{"requests", {{{"secondsSinceRequest", 2}, {"waitsFor", 0}}}},
                                  {"removing", {{{"secondsUntilRemoved", 3}}}},
                                  {"target", 1}};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 1}, {"taskBytes", {1}}};
  SECTION("the query's one task runs on it at 7-8 s") {
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 1}, {3, 0}, {7, 1}});
    CHECK(r.makespan_seconds == Approx(8));
  }
  SECTION("across a gap of 1 s: still waiting, and its place 2 s from release") {
    cluster["allocationAtStart"]["gapSeconds"] = 1;
    LoadResult loaded = LoadDynamicAllocation(cluster, plan);
    REQUIRE(loaded.errors.empty());
    ExecutorAllocationManager::Settings settings;
    settings.conf = loaded.scenario->conf.dynamic_allocation;
    settings.start_seconds = 5;
    settings.grant_seconds = 1;
    settings.capacity = 1;
    const AllocationState after = CarryAcrossGap(*loaded.scenario->cluster.allocation_at_start, settings);
    REQUIRE(after.requests.size() == 1);
    CHECK(after.requests[0].seconds_since_request == Approx(3));
    CHECK(after.requests[0].placed);
    CHECK_FALSE(after.requests[0].seconds_since_placed);
    REQUIRE(after.requests[0].waits_for);
    CHECK(*after.requests[0].waits_for == 0);
    REQUIRE(after.removing.size() == 1);
    CHECK(after.removing[0].seconds_until_removed == Approx(2));
  }
}

TEST_CASE("Cluster: executorCapacity and a request's waitsFor errors name their place",
          "[scenario][cluster]") {
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorCapacity"] = 0;
  cluster["allocationAtStart"] = {{"requests", {{{"secondsSinceRequest", 1}, {"waitsFor", 1}}}}};
  std::vector<std::string> errors;
  for (const Diagnostic& d :
       LoadDynamicAllocation(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}).errors)
    errors.push_back(d.ToString());
  CHECK(errors ==
        std::vector<std::string>{
            "test.json: /cluster/allocationAtStart/requests/0/waitsFor: expected an index into removing (0 "
            "entries), found 1",
            "test.json: /cluster/executorCapacity: expected a positive integer, found 0"});
}

}  // namespace
}  // namespace aqesim
