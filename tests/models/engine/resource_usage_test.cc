// The resource view of a run (core-hours available / used / idle, critical path, ideal time)
// against schedules computed by hand.
#include "models/engine/resource_usage.h"

#include <catch2/catch.hpp>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

/// Tasks cost 1 s of launch plus their scan bytes at 1 s per byte; I/O is instant.
nlohmann::json Doc(const nlohmann::json& cluster) {
  nlohmann::json cost = testing::LaunchOnlyCost(1.0);
  cost["scanSecondsPerByte"] = 1.0;
  // e1: a scan of 2 tasks (4 and 2 bytes: 5 s and 3 s); e2: one task of 3 bytes (4 s); the
  // join reads one partition of each (1 s).
  nlohmann::json plan = {
      {"op", "join"},
      {"id", "j1"},
      {"strategy", "SortMergeJoin"},
      {"joinType", "Inner"},
      {"left",
       {{"op", "exchange"},
        {"id", "e1"},
        {"numPartitions", 1},
        {"child", {{"op", "scan"}, {"id", "a"}, {"bytes", 6}, {"tasks", 2}, {"taskBytes", {4, 2}}}},
        {"sizes", {{"matrix", {{1}, {1}}}}}}},
      {"right",
       {{"op", "exchange"},
        {"id", "e2"},
        {"numPartitions", 1},
        {"child", {{"op", "scan"}, {"id", "b"}, {"bytes", 3}, {"tasks", 1}}},
        {"sizes", {{"matrix", {{1}}}}}}}};
  // No broadcast: the 3-byte side stays a shuffled sort-merge join.
  return {{"name", "t"},
          {"cluster", cluster},
          {"cost", cost},
          {"conf", {{"spark.sql.autoBroadcastJoinThreshold", -1}}},
          {"plan", plan}};
}

RunResult Run(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", ConfOverrides{});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return SimulateQuery(*r.scenario, false);
}

TEST_CASE("ResourceUsage: core-hours, critical path and ideal time of a hand-computed schedule",
          "[engine][resources]") {
  // One executor of 2 cores. e1 map's tasks run 0–5 s and 0–3 s; e2 map's task takes the slot
  // freed at 3 s, 3–7 s; the join's task 7–8 s. Available 2 cores × 8 s = 16 core-s; used
  // 5 + 3 + 4 + 1 = 13; idle 3; utilisation 13 / 16. Critical path: the longer map stage's
  // longest task, then the join's, max(5, 4) + 1 = 6 s; ideal max(6, 13 / 2) = 6.5 s.
  const RunResult run = Run(Doc(testing::InstantIoCluster(2)));
  REQUIRE(run.makespan_seconds == Approx(8.0));
  const ResourceUsage& u = run.resources;
  CHECK(u.peak_cores == 2);
  CHECK(3600 * u.run.available_core_hours == Approx(16.0));
  CHECK(3600 * u.run.used_core_hours == Approx(13.0));
  CHECK(3600 * u.run.idle_core_hours() == Approx(3.0));
  CHECK(u.run.utilization() == Approx(13.0 / 16));
  CHECK(u.critical_path_seconds == Approx(6.0));
  CHECK(u.ideal_seconds == Approx(6.5));
  // Per stage: e1 map 0–5 s (10 core-s available, 8 used), e2 map submitted with it at 0 s and complete at 7
  // s (14, 4: it waited for a slot until 3 s), the join 7–8 s (2, 1).
  REQUIRE(run.stages.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const std::string& name = run.stages[i].name;
    INFO(name);
    const double available = name == "e1 map" ? 10 : name == "e2 map" ? 14 : 2;
    const double used = name == "e1 map" ? 8 : name == "e2 map" ? 4 : 1;
    CHECK(3600 * run.stages[i].resources.available_core_hours == Approx(available));
    CHECK(3600 * run.stages[i].resources.used_core_hours == Approx(used));
  }
  // JSON: hours.
  const nlohmann::ordered_json j = ResourceUsageJson(u);
  CHECK(j["coreHoursAvailable"].get<double>() == Approx(16.0 / 3600));
  CHECK(j["coreHoursIdle"].get<double>() == Approx(3.0 / 3600));
  CHECK(j["criticalPathSeconds"].get<double>() == Approx(6.0));
}

TEST_CASE("ResourceUsage: more slots shorten the run to the critical path", "[engine][resources]") {
  // 3 cores: every map task at once (0–5, 0–3, 0–4 s), the join 5–6 s: the makespan is the
  // critical path, 6 s; available 3 × 6 = 18 core-s, used 13; ideal max(6, 13 / 3) = 6 s.
  const RunResult run = Run(Doc(testing::InstantIoCluster(3)));
  REQUIRE(run.makespan_seconds == Approx(6.0));
  CHECK(3600 * run.resources.run.available_core_hours == Approx(18.0));
  CHECK(3600 * run.resources.run.used_core_hours == Approx(13.0));
  CHECK(run.resources.critical_path_seconds == Approx(6.0));
  CHECK(run.resources.ideal_seconds == Approx(6.0));
}

TEST_CASE(
    "ResourceUsage: a timeline executor counts from its add to its remove, spark.task.cpus weighs tasks",
    "[engine][resources]") {
  // Two executors of 2 cores with spark.task.cpus 2 (one slot each): executor 0 from the start,
  // executor 1 registering at 2 s and removed at 4 s. e1 map: 0–5 s on executor 0, 2–5 s on
  // executor 1 (3 s); e2 map's task waits for a slot: 5–9 s on executor 0 (executor 1 takes no
  // task from 4 s); the join 9–10 s. Available: 2 × 10 + 2 × (5 − 2) (executor 1 finishes its
  // task at 5 s, after its removal) = 26 core-s; used 2 × (5 + 3 + 4 + 1) = 26 core-s.
  nlohmann::json cluster = testing::InstantIoCluster(2);
  cluster["executorTimeline"] = {{{"add", 0}}, {{"add", 2}, {"remove", 4}}};
  nlohmann::json doc = Doc(cluster);
  doc["conf"]["spark.task.cpus"] = 2;
  const RunResult run = Run(doc);
  REQUIRE(run.makespan_seconds == Approx(10.0));
  CHECK(run.resources.peak_cores == 4);
  CHECK(3600 * run.resources.run.available_core_hours == Approx(26.0));
  CHECK(3600 * run.resources.run.used_core_hours == Approx(26.0));
  CHECK(run.resources.run.utilization() == Approx(1.0));
  CHECK(run.resources.critical_path_seconds == Approx(6.0));
  CHECK(run.resources.ideal_seconds == Approx(26.0 / 4));
}

}  // namespace
}  // namespace aqesim
