// Simulated queries on executors whose slots come from spark.task.cpus, against hand-computed
// schedules.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/plan/plan_error.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

nlohmann::json Cluster() {
  return {{"executors", 2},
          {"executorCores", 4},
          {"executorMemory", "64g"},
          {"networkBytesPerSecond", "1p"},
          {"diskBytesPerSecond", "1p"},
          {"driverNetworkBytesPerSecond", "1p"}};
}

nlohmann::json Scan() { return {{"op", "scan"}, {"id", "s"}, {"bytes", 800}, {"tasks", 8}}; }

TEST_CASE("QueryExecution: spark.task.cpus divides each executor's cores into slots", "[engine][slots]") {
  // 2 executors x 4 cores, 8 scan tasks of 1 s. task.cpus 1: 8 slots, one wave, 1 s.
  // task.cpus 2: 2 slots per executor, 4 in all: two waves, 2 s. task.cpus 4 (the
  // tasks_executors_fail log): 1 slot each, four waves, 4 s; task.cpus 3: still 1 slot each.
  const nlohmann::json cluster = {{"executors", 2},
                                  {"executorCores", 4},
                                  {"executorMemory", "64g"},
                                  {"networkBytesPerSecond", "1p"},
                                  {"diskBytesPerSecond", "1p"},
                                  {"driverNetworkBytesPerSecond", "1p"}};
  const nlohmann::json scan = {{"op", "scan"}, {"id", "s"}, {"bytes", 800}, {"tasks", 8}};
  for (auto [cpus, seconds] : {std::pair{1, 1.0}, {2, 2.0}, {3, 4.0}, {4, 4.0}}) {
    INFO("spark.task.cpus " << cpus);
    auto s = Load({{"name", "t"},
                   {"cluster", cluster},
                   {"cost", testing::LaunchOnlyCost(1.0)},
                   {"conf", {{"spark.task.cpus", std::to_string(cpus)}}},
                   {"plan", scan}});
    for (bool adaptive : {false, true}) {
      const RunResult r = SimulateQuery(*s, adaptive);
      REQUIRE(r.stages.size() == 1);
      CHECK(r.makespan_seconds == Approx(seconds));
      for (const TaskResult& t : r.stages[0].task_results) CHECK(t.slot < 4 / cpus);
    }
  }
}

TEST_CASE("QueryExecution: GPUs per executor limit the slots", "[engine][slots]") {
  // 2 executors x 4 cores with 1 GPU each, 8 scan tasks of 1 s. Tasks take 0.5 GPU: 2 share
  // a GPU, 2 slots per executor, 2 s. 0.25: 4 per GPU = the cores, 1 s. Without GPUs on the
  // executors, no task could run: an error at load.
  nlohmann::json cluster = Cluster();
  cluster["executorGpus"] = 1;
  for (auto [amount, seconds] : {std::pair{"0.5", 2.0}, {"0.25", 1.0}}) {
    INFO("spark.task.resource.gpu.amount " << amount);
    auto s = Load({{"name", "t"},
                   {"cluster", cluster},
                   {"cost", testing::LaunchOnlyCost(1.0)},
                   {"conf", {{"spark.task.resource.gpu.amount", amount}}},
                   {"plan", Scan()}});
    CHECK(SimulateQuery(*s, false).makespan_seconds == Approx(seconds));
  }
  cluster.erase("executorGpus");
  LoadResult r = LoadScenarioJson({{"name", "t"},
                                   {"cluster", cluster},
                                   {"conf", {{"spark.task.resource.gpu.amount", "1"}}},
                                   {"plan", Scan()}},
                                  "test.json", {});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].pointer == "/cluster/executorGpus");
}

TEST_CASE("QueryExecution: a stage runs only on the executors of its resource profile", "[engine][slots]") {
  // The rp_sql cluster in small: executors 0 and 2 of the default profile (4 cores, 1 slot per
  // task), executor 1 of profile 1 (2 cores, 2 GPUs, a task takes 2 cpus and 2 GPUs: 1 slot).
  // 12 SQL scan tasks of 1 s run on the 8 default slots only, none on executor 1: 2 waves, 2 s.
  nlohmann::json cluster = Cluster();
  cluster["resourceProfiles"] = {
      {{"id", 1}, {"executorCores", 2}, {"taskCpus", 2}, {"executorGpus", 2}, {"taskGpus", 2}}};
  cluster["executorTimeline"] = {{{"add", 0}}, {{"add", 0}, {"resourceProfile", 1}}, {{"add", 0}}};
  nlohmann::json scan = Scan();
  scan["tasks"] = 12;
  auto s =
      Load({{"name", "t"}, {"cluster", cluster}, {"cost", testing::LaunchOnlyCost(1.0)}, {"plan", scan}});
  REQUIRE(s->cluster.resource_profiles.size() == 1);
  CHECK(s->cluster.executor_timeline[1].resource_profile == 1);
  for (bool adaptive : {false, true}) {
    const RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 1);
    CHECK(r.makespan_seconds == Approx(2.0));
    for (const TaskResult& t : r.stages[0].task_results) CHECK(t.executor != 1);
  }
  // Only profile-1 executors: the SQL stage has nowhere to run.
  cluster["executorTimeline"] = {{{"add", 0}, {"resourceProfile", 1}}};
  auto none =
      Load({{"name", "t"}, {"cluster", cluster}, {"cost", testing::LaunchOnlyCost(1.0)}, {"plan", scan}});
  CHECK_THROWS_AS(SimulateQuery(*none, false), PlanError);
}

TEST_CASE("Scenario: cluster.resourceProfiles errors name their place", "[scenario][slots]") {
  nlohmann::json cluster = Cluster();
  auto error_of = [&](const nlohmann::json& profiles, const nlohmann::json& timeline) {
    nlohmann::json c = cluster;
    c["resourceProfiles"] = profiles;
    if (!timeline.is_null()) c["executorTimeline"] = timeline;
    LoadResult r = LoadScenarioJson({{"name", "t"}, {"cluster", c}, {"plan", Scan()}}, "test.json", {});
    return r.errors.empty() ? std::string() : r.errors[0].pointer;
  };
  CHECK(error_of({{{"id", 0}, {"executorCores", 2}}}, nullptr) == "/cluster/resourceProfiles/0/id");
  CHECK(error_of({{{"id", 1}, {"executorCores", 2}}, {{"id", 1}, {"executorCores", 4}}}, nullptr) ==
        "/cluster/resourceProfiles/1/id");
  CHECK(error_of({{{"id", 1}, {"executorCores", 2}, {"taskGpus", 0.75}}}, nullptr) ==
        "/cluster/resourceProfiles/0/taskGpus");
  CHECK(error_of({{{"id", 1}, {"executorCores", 2}, {"taskGpus", 1}}}, nullptr) ==
        "/cluster/resourceProfiles/0");
  CHECK(error_of({{{"id", 1}, {"executorCores", 2}}}, {{{"add", 0}, {"resourceProfile", 2}}}) ==
        "/cluster/executorTimeline/0/resourceProfile");
  CHECK(error_of({{{"id", 1}, {"executorCores", 2}}}, {{{"add", 0}, {"resourceProfile", 1}}}).empty());
}

}  // namespace
}  // namespace aqesim
