// A dynamic-allocation what-if on a recorded executor timeline (`--conf
// spark.dynamicAllocation.*` on an imported selection): the application's allocation manager
// does not restart per query, so the policy starts from the executors alive at the selection's
// start — their warm JVMs and idle timers kept — not from initialExecutors; a selection that
// starts the application (no executor present had run a task) starts from initialExecutors.
#include "models/scenario/allocation_from_timeline.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/dynamic_allocation_doc.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

using Counts = testing::ExecutorCounts;

/// One-slot executors; the recorded conf as an imported dynamic-allocation log keeps it
/// (spark.executor.instances 1: the application started with 1 executor); the scan's bytes are
/// its seconds. `what_if`: the command line's --conf.
LoadResult LoadImported(const nlohmann::json& timeline, const nlohmann::json& task_seconds,
                        const std::vector<std::pair<std::string, std::string>>& what_if,
                        std::optional<bool> starts_application = std::nullopt) {
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = 4;
  cluster["executorTimeline"] = timeline;
  if (starts_application) cluster["startsApplication"] = *starts_application;
  nlohmann::json cost = testing::LaunchOnlyCost(0.0);
  cost["scanSecondsPerByte"] = 1.0;
  double bytes = 0;
  for (const auto& t : task_seconds) bytes += t.get<double>();
  const nlohmann::json doc = {
      {"name", "imported"},
      {"cluster", cluster},
      {"cost", cost},
      {"conf",
       {{"spark.dynamicAllocation.enabled", "true"},
        {"spark.shuffle.service.enabled", "true"},
        {"spark.executor.instances", "1"},
        {"spark.dynamicAllocation.schedulerBacklogTimeout", "1s"},
        {"spark.dynamicAllocation.executorIdleTimeout", "60s"}}},
      {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", bytes}, {"taskBytes", task_seconds}}}};
  ConfOverrides o;
  o.conf = what_if;
  return LoadScenarioJson(doc, "test.json", o);
}

RunResult RunLoaded(const LoadResult& r) {
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return SimulateQuery(*r.scenario, /*adaptive=*/false);
}

// Recorded at the selection's start: executors 0 and 1 warm (they ran earlier queries' tasks),
// executor 2 registered fresh just before; executor 3 registered 4 s in (the recorded manager's
// request), executor 4 removed before the start (not present).
const nlohmann::json kTimeline = {{{"add", 0}, {"warm", true}, {"idleSeconds", 3}},
                                  {{"add", 0}, {"warm", true}, {"warmCode", true}, {"idleSeconds", 2}},
                                  {{"add", 0}, {"idleSeconds", 0.5}},
                                  {{"add", 4}},
                                  {{"add", -30}, {"remove", -1}}};

TEST_CASE("Dynamic allocation what-if on a recorded timeline starts from the executors alive at the start",
          "[scenario][dynalloc]") {
  // 6 tasks of 10 s on one-slot executors. 3 alive at 0 s take 3 tasks; 3 wait. At 1 s the
  // backlog timer (1 s) expires: target max(3, 3 registered) + 1 = 4, one request (start 0 s:
  // registers at once); 1 added = the number to add, which doubles to 2. At 2 s: max(4, 4) + 2
  // = 6 (capped by 6 tasks), 2 requests. Tasks 0-10 (×3), 1-11, 2-12 (×2). From
  // initialExecutors (1, spark.executor.instances) it would start at 1.
  const LoadResult loaded =
      LoadImported(kTimeline, {10, 10, 10, 10, 10, 10}, {{"spark.dynamicAllocation.maxExecutors", "10"}});
  REQUIRE(loaded.errors.empty());
  const ClusterSpec& c = loaded.scenario->cluster;
  CHECK(c.executor_timeline.empty());
  REQUIRE(c.allocation_at_start);
  REQUIRE(c.allocation_at_start->executors.size() == 3);
  // Warm code first, then the warm JVM, then the fresh one, each with its idle time.
  CHECK(c.allocation_at_start->executors[0].idle_seconds == 2);
  CHECK(c.allocation_at_start->executors[0].warm);
  CHECK(c.allocation_at_start->executors[1].idle_seconds == 3);
  CHECK(c.allocation_at_start->executors[1].warm);
  CHECK(c.allocation_at_start->executors[2].idle_seconds == 0.5);
  CHECK_FALSE(c.allocation_at_start->executors[2].warm);
  CHECK(c.allocation_at_start->target == 3);
  CHECK(c.allocation_at_start->requests.empty());
  CHECK(c.warm_code_executors == 1);
  CHECK(c.warm_executors == 2);
  REQUIRE(loaded.scenario->warnings.size() == 1);
  CHECK(loaded.scenario->warnings[0] ==
        "test.json: /cluster/executorTimeline: --conf spark.dynamicAllocation.maxExecutors=10 replaces the "
        "recorded executor timeline (5 executors) with Spark's dynamic allocation policy, started from the 3 "
        "executors alive at the selection's start (the application's allocation manager does not restart per "
        "query; their idle times kept), not from initialExecutors; 2 of them keep their warm JVMs");
  const RunResult r = RunLoaded(loaded);
  const Counts counts = testing::ExecutorCountsOf(r);
  REQUIRE(counts.size() >= 3);
  CHECK(Counts(counts.begin(), counts.begin() + 3) == Counts{{0, 3}, {1, 4}, {2, 6}});
  CHECK(r.makespan_seconds == Approx(12));
}

TEST_CASE(
    "Dynamic allocation what-if on a recorded timeline keeps the idle timers of the executors at the start",
    "[scenario][dynalloc]") {
  // One 10 s task, on executor 0 (the first warm one). The others stay idle: the fresh one,
  // idle 0.5 s at the start, and the other warm one, idle 3 s — with executorIdleTimeout 5 s,
  // they reach it at 4.5 s and 2 s; the 2.0 s and 4.5 s rounds remove them (the target is 1).
  const LoadResult loaded =
      LoadImported(kTimeline, {10}, {{"spark.dynamicAllocation.executorIdleTimeout", "5s"}});
  const Counts counts = testing::ExecutorCountsOf(RunLoaded(loaded));
  REQUIRE(counts.size() >= 3);
  CHECK(Counts(counts.begin(), counts.begin() + 3) == Counts{{0, 3}, {2, 2}, {4.5, 1}});
}

TEST_CASE("Dynamic allocation what-if on a recorded timeline: maxExecutors and minExecutors bound the start",
          "[scenario][dynalloc]") {
  SECTION("maxExecutors 2: the 2 warmest of the 3 alive") {
    const LoadResult loaded =
        LoadImported(kTimeline, {10, 10, 10}, {{"spark.dynamicAllocation.maxExecutors", "2"}});
    REQUIRE(loaded.errors.empty());
    REQUIRE(loaded.scenario->cluster.allocation_at_start);
    CHECK(loaded.scenario->cluster.allocation_at_start->executors.size() == 2);
    CHECK(loaded.scenario->cluster.warm_executors == 2);
    const Counts counts = testing::ExecutorCountsOf(RunLoaded(loaded));
    REQUIRE_FALSE(counts.empty());
    CHECK(counts.front() == std::pair<double, int>{0, 2});
  }
  SECTION("minExecutors 5: 2 more requested at the start") {
    const LoadResult loaded =
        LoadImported(kTimeline, {10, 10, 10}, {{"spark.dynamicAllocation.minExecutors", "5"}});
    REQUIRE(loaded.errors.empty());
    REQUIRE(loaded.scenario->cluster.allocation_at_start);
    CHECK(loaded.scenario->cluster.allocation_at_start->target == 5);
    CHECK(loaded.scenario->cluster.allocation_at_start->requests.size() == 2);
    REQUIRE(loaded.scenario->warnings.size() == 1);
    CHECK_THAT(loaded.scenario->warnings[0],
               Catch::EndsWith("keep their warm JVMs; 2 more requested at the start for minExecutors"));
  }
}

TEST_CASE("Dynamic allocation what-if on a timeline that starts the application starts from initialExecutors",
          "[scenario][dynalloc]") {
  // The application's first query (or the first of a whole-application replay): its manager
  // starts as Spark's does, from max(minExecutors, initialExecutors, spark.executor.instances) = 2.
  const nlohmann::json fresh = {{{"add", 0}}, {{"add", 0}}, {{"add", 0}}, {{"add", 3}, {"remove", 9}}};
  const std::vector<std::pair<std::string, std::string>> what_if = {
      {"spark.dynamicAllocation.initialExecutors", "2"}};
  SECTION("unset startsApplication: no executor present at the start is warm") {
    const LoadResult loaded = LoadImported(fresh, {10, 10}, what_if);
    REQUIRE(loaded.errors.empty());
    CHECK_FALSE(loaded.scenario->cluster.allocation_at_start);
    REQUIRE(loaded.scenario->warnings.size() == 1);
    CHECK(loaded.scenario->warnings[0] ==
          "test.json: /cluster/executorTimeline: --conf spark.dynamicAllocation.initialExecutors=2 replaces "
          "the recorded executor timeline (4 executors) with Spark's dynamic allocation policy from the "
          "application's start (2 initial executors: the selection starts the application)");
    const Counts counts = testing::ExecutorCountsOf(RunLoaded(loaded));
    REQUIRE_FALSE(counts.empty());
    CHECK(counts.front() == std::pair<double, int>{0, 2});
  }
  SECTION("startsApplication true, though executors present are warm") {
    const LoadResult loaded = LoadImported(kTimeline, {10, 10}, what_if, true);
    REQUIRE(loaded.errors.empty());
    CHECK_FALSE(loaded.scenario->cluster.allocation_at_start);
    const Counts counts = testing::ExecutorCountsOf(RunLoaded(loaded));
    REQUIRE_FALSE(counts.empty());
    CHECK(counts.front() == std::pair<double, int>{0, 2});
  }
  SECTION("startsApplication false: the 3 fresh executors present (the application ran before)") {
    const LoadResult loaded = LoadImported(fresh, {10, 10}, what_if, false);
    REQUIRE(loaded.errors.empty());
    REQUIRE(loaded.scenario->cluster.allocation_at_start);
    CHECK(loaded.scenario->cluster.warm_executors == 0);
    const Counts counts = testing::ExecutorCountsOf(RunLoaded(loaded));
    REQUIRE_FALSE(counts.empty());
    CHECK(counts.front() == std::pair<double, int>{0, 3});
  }
}

TEST_CASE("Dynamic allocation what-if on a recorded selection without a timeline starts from its executors",
          "[scenario][dynalloc]") {
  // Imported from a dynamic-allocation log whose executors did not change during the selection:
  // no timeline, 3 executors (2 warm), startsApplication false. From initialExecutors
  // (spark.executor.instances 1) it would start at 1.
  LoadResult loaded =
      LoadImported(kTimeline, {10, 10, 10}, {{"spark.dynamicAllocation.maxExecutors", "10"}}, false);
  REQUIRE(loaded.errors.empty());
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = 3;
  cluster["warmExecutors"] = 2;
  cluster["startsApplication"] = false;
  nlohmann::json cost = testing::LaunchOnlyCost(0.0);
  cost["scanSecondsPerByte"] = 1.0;
  const nlohmann::json doc = {
      {"name", "imported"},
      {"cluster", cluster},
      {"cost", cost},
      {"conf",
       {{"spark.dynamicAllocation.enabled", "true"},
        {"spark.shuffle.service.enabled", "true"},
        {"spark.executor.instances", "1"}}},
      {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 30}, {"taskBytes", {10, 10, 10}}}}};
  ConfOverrides o;
  o.conf = {{"spark.dynamicAllocation.maxExecutors", "10"}};
  loaded = LoadScenarioJson(doc, "test.json", o);
  REQUIRE(loaded.errors.empty());
  REQUIRE(loaded.scenario->warnings.size() == 1);
  CHECK(loaded.scenario->warnings[0] ==
        "test.json: /cluster/executors: --conf spark.dynamicAllocation.maxExecutors=10: Spark's dynamic "
        "allocation "
        "policy starts from the 3 executors alive at the selection's start (the application's allocation "
        "manager "
        "does not restart per query), not from initialExecutors; 2 of them keep their warm JVMs");
  const RunResult r = RunLoaded(loaded);
  CHECK(testing::ExecutorCountsOf(r).front() == std::pair<double, int>{0, 3});
  CHECK(r.makespan_seconds == Approx(10));
}

TEST_CASE("Cluster: a timeline entry's idleSeconds is a number of seconds", "[scenario][cluster]") {
  const LoadResult loaded = LoadImported({{{"add", 0}, {"idleSeconds", -1}}}, {1}, {});
  REQUIRE(loaded.errors.size() == 1);
  CHECK(loaded.errors[0].ToString() ==
        "test.json: /cluster/executorTimeline/0/idleSeconds: expected a number of seconds in [0, 1e+09], "
        "found -1");
}

}  // namespace
}  // namespace aqesim
