// Dynamic allocation with each request's own start-up latency (cluster.executorStartSecondsByRequest:
// the k-th request of the run registers entry k seconds after it, later ones executorStartSeconds
// after). Schedules computed by hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

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

TEST_CASE("Dynamic allocation: the k-th request registers executorStartSecondsByRequest[k] after it",
          "[engine][dynalloc]") {
  // One-slot executors; at the start executor 0 idle and the target 1. Four scan tasks of 10 s:
  // task 0 on executor 0 at 0-10 s. The 1 s round raises the target to max(1, 1) + 1 = 2 and
  // makes request 0; the 2 s round to min(max(2, 1) + 2, 4 tasks) = 4: requests 1 and 2.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}}, {"target", 1}};
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 40}, {"taskBytes", {10, 10, 10, 10}}};
  SECTION("one latency for every request: 1 + 5 = 6 s, 2 + 5 = 7 s (twice)") {
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 1}, {6, 2}, {7, 4}});
    CHECK(r.makespan_seconds == Approx(17));  // tasks 1-3 at 6-16, 7-17, 7-17 s
  }
  SECTION("[3, 1, 2]: request 0 at 1 + 3 = 4 s, 1 at 2 + 1 = 3 s, 2 at 2 + 2 = 4 s") {
    cluster["executorStartSecondsByRequest"] = {3, 1, 2};
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 1}, {3, 2}, {4, 4}});
    CHECK(r.makespan_seconds == Approx(14));  // tasks 1-3 at 3-13, 4-14, 4-14 s
  }
  SECTION("[3]: request 0 at 4 s, the later ones executorStartSeconds after (7 s)") {
    cluster["executorStartSecondsByRequest"] = {3};
    const RunResult r = RunDynamicAllocation(cluster, plan);
    CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 1}, {4, 2}, {7, 4}});
    CHECK(r.makespan_seconds == Approx(17));
  }
}

TEST_CASE("Dynamic allocation: a carried request keeps its own start-up latency", "[engine][dynalloc]") {
  // A request made 1 s before the query with its own 2 s: it registers at 1 s (not 5 − 1 = 4 s)
  // and runs the query's one 1 s task at 1-2 s. A query ending before it registers carries it on.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["allocationAtStart"] = {{"requests", {{{"secondsSinceRequest", 1}, {"startSeconds", 2}}}},
                                  {"target", 1}};
  const RunResult r =
      RunDynamicAllocation(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 1}, {"taskBytes", {1}}});
  CHECK(ExecutorCountsOf(r) == ExecutorCounts{{0, 0}, {1, 1}});
  CHECK(r.makespan_seconds == Approx(2));
}

TEST_CASE("Dynamic allocation: an outstanding request's own latency is in allocationAtEnd",
          "[engine][dynalloc]") {
  // Executor 0 runs task 0 at 0-3 s, task 1 waits: the 1 s round raises the target to 2 and
  // makes request 0 (its own 9 s; granted 0.5 s later, so not cancelled when the target drops at
  // 3 s). Task 1 runs on executor 0 at 3-4 s; the query ends with the request outstanding.
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSeconds"] = 5;
  cluster["executorGrantSeconds"] = 0.5;
  cluster["executorStartSecondsByRequest"] = {9};
  cluster["allocationAtStart"] = {{"executors", {{{"idleSeconds", 0}}}}, {"target", 1}};
  const RunResult r =
      RunDynamicAllocation(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 4}, {"taskBytes", {3, 1}}});
  CHECK(r.makespan_seconds == Approx(4));
  REQUIRE(r.allocation_at_end);
  REQUIRE(r.allocation_at_end->requests.size() == 1);
  CHECK(r.allocation_at_end->requests[0].seconds_since_request == Approx(3));
  REQUIRE(r.allocation_at_end->requests[0].start_seconds);
  CHECK(*r.allocation_at_end->requests[0].start_seconds == Approx(9));
}

TEST_CASE("Cluster: executorStartSecondsByRequest errors name their place", "[scenario][cluster]") {
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executorStartSecondsByRequest"] = {1, -2, "3"};
  cluster["allocationAtStart"] = {{"requests", {{{"secondsSinceRequest", 1}, {"startSeconds", -1}}}}};
  std::vector<std::string> errors;
  for (const Diagnostic& d :
       LoadDynamicAllocation(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}).errors)
    errors.push_back(d.ToString());
  CHECK(errors ==
        std::vector<std::string>{
            "test.json: /cluster/allocationAtStart/requests/0/startSeconds: expected a number of seconds in "
            "[0, "
            "1e+09], found -1",
            "test.json: /cluster/executorStartSecondsByRequest/1: expected a number of seconds in [0, "
            "3600], found -2",
            "test.json: /cluster/executorStartSecondsByRequest/2: expected a number of seconds in [0, "
            "3600], found \"3\""});
  cluster["executorStartSecondsByRequest"] = 3;
  errors.clear();
  for (const Diagnostic& d :
       LoadDynamicAllocation(cluster, {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}).errors)
    errors.push_back(d.ToString());
  CHECK(errors.size() == 2);
  CHECK(errors.back() ==
        "test.json: /cluster/executorStartSecondsByRequest: expected an array (at most 1000000) of seconds "
        "in [0, "
        "3600], found 3");
}

}  // namespace
}  // namespace aqesim
