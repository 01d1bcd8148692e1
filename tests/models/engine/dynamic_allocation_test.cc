// Spark's dynamic allocation policy (ExecutorAllocationManager) inside simulated queries,
// against executor counts and schedules computed by hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const nlohmann::json& doc, const ConfOverrides& overrides = {}) {
  LoadResult r = LoadScenarioJson(doc, "test.json", overrides);
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

std::vector<std::string> Errors(const nlohmann::json& doc, const ConfOverrides& overrides = {}) {
  std::vector<std::string> out;
  for (const Diagnostic& d : LoadScenarioJson(doc, "test.json", overrides).errors)
    out.push_back(d.ToString());
  return out;
}

/// Tasks cost their launch plus their scan bytes at 1 s per byte; fresh JVMs and cold code cost nothing.
nlohmann::json Cost(double launch_seconds) {
  nlohmann::json c = testing::LaunchOnlyCost(launch_seconds);
  c["scanSecondsPerByte"] = 1.0;
  c["executorStartupSeconds"] = 0;
  c["executorStageWarmupSeconds"] = 0;
  c["coldCodeSlowdown"] = 0;
  return c;
}

using Counts = std::vector<std::pair<double, int>>;
Counts CountsOf(const RunResult& r) {
  Counts out;
  for (const ExecutorCountChange& c : r.executors) out.emplace_back(c.seconds, c.executors);
  return out;
}

/// `plan` simulated on `cluster` with spark.dynamicAllocation.enabled and the other keys of `conf`.
RunResult RunDynamic(const nlohmann::json& cluster, double launch_seconds, nlohmann::json conf,
                     const nlohmann::json& plan, bool adaptive = false) {
  conf["spark.dynamicAllocation.enabled"] = "true";
  auto s = Load(
      {{"name", "t"}, {"cluster", cluster}, {"cost", Cost(launch_seconds)}, {"conf", conf}, {"plan", plan}});
  return SimulateQuery(*s, adaptive);
}

TEST_CASE("Dynamic allocation: requests double each sustained backlog round up to maxExecutors",
          "[engine][dynalloc]") {
  // 1,000 tasks of 100 s, 4 slots per executor: 250 executors could be filled. Initial 1, max 50,
  // both backlog timeouts 1 s, executors start at once. The backlog timer starts at t = 0 (stage
  // submitted) and expires at 1 s: target max(1, 1) + 1 = 2; every second after it the number
  // added doubles while the whole round is granted: 4, 8, 16, 32; at 6 s 32 + 32 = 64 is capped
  // at maxExecutors: 50.
  nlohmann::json cluster = testing::InstantIoCluster(4);
  cluster["executorStartSeconds"] = 0;
  const RunResult r =
      RunDynamic(cluster, 100.0,
                 {{"spark.dynamicAllocation.initialExecutors", "1"},
                  {"spark.dynamicAllocation.minExecutors", "0"},
                  {"spark.dynamicAllocation.maxExecutors", "50"},
                  {"spark.dynamicAllocation.schedulerBacklogTimeout", "1s"},
                  {"spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", "1s"}},
                 {{"op", "scan"}, {"id", "s"}, {"bytes", 0}, {"tasks", 1000}}, /*adaptive=*/true);
  const Counts counts = CountsOf(r);
  REQUIRE(counts.size() >= 7);
  CHECK(Counts(counts.begin(), counts.begin() + 7) ==
        Counts{{0, 1}, {1, 2}, {2, 4}, {3, 8}, {4, 16}, {5, 32}, {6, 50}});
  // 4 tasks from 0 s, 4 from 1 s, 8 from 2 s, ... 72 from 6 s: 200 slots by then, and 1,000
  // tasks are 5 per slot. Each slot takes its next task when it frees, 100 s after the last: the
  // slots that started at 6 s run their fifth task over [406, 506] s.
  for (const auto& [t, n] : counts) CHECK(n <= 50);
  CHECK(r.makespan_seconds == Approx(506));
}

TEST_CASE("Dynamic allocation: executors idle for executorIdleTimeout are removed, down to the target",
          "[engine][dynalloc]") {
  // 4 executors of 1 slot from the start; scan tasks of 10, 1, 1, 1 s (task 0 on executor 0).
  // At 1 s three executors go idle; the target falls to 1 (one task left running). Idle timeout
  // 2 s: at the first 100 ms tick at or after 3 s, the three idle ones are removed (4 - 1 >= the
  // target 1 each time); the query ends at 10 s.
  const nlohmann::json cluster = testing::InstantIoCluster(1);
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 13}, {"taskBytes", {10, 1, 1, 1}}};
  nlohmann::json conf = {{"spark.dynamicAllocation.initialExecutors", "4"},
                         {"spark.dynamicAllocation.maxExecutors", "4"},
                         {"spark.dynamicAllocation.executorIdleTimeout", "2s"}};
  const RunResult r = RunDynamic(cluster, 0.0, conf, plan);
  CHECK(CountsOf(r) == Counts{{0, 4}, {3, 1}});
  CHECK(r.makespan_seconds == Approx(10));
  SECTION("minExecutors keeps two") {
    conf["spark.dynamicAllocation.minExecutors"] = "2";
    CHECK(CountsOf(RunDynamic(cluster, 0.0, conf, plan)) == Counts{{0, 4}, {3, 2}});
  }
}

TEST_CASE("Dynamic allocation: an idle executor holding shuffle output stays (shuffle tracking)",
          "[engine][dynalloc]") {
  // A map stage of 4 tasks on 4 one-slot executors: 1, 1, 1 and 10 s (task 3 on executor 3).
  // Shuffle tracking on (Spark 3.4+ default), no shuffle service: executors 0-2 hold shuffle
  // output and are never timed out. With spark.shuffle.service.enabled they are idle from 1 s and
  // go at the 3 s tick, down to the target of 1 (one task running).
  const nlohmann::json cluster = testing::InstantIoCluster(1);
  const nlohmann::json plan = {
      {"op", "exchange"},
      {"id", "e"},
      {"numPartitions", 1},
      {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 13}, {"taskBytes", {1, 1, 1, 10}}}}};
  nlohmann::json conf = {{"spark.dynamicAllocation.initialExecutors", "4"},
                         {"spark.dynamicAllocation.executorIdleTimeout", "2s"}};
  CHECK(CountsOf(RunDynamic(cluster, 0.0, conf, plan)) == Counts{{0, 4}});
  conf["spark.shuffle.service.enabled"] = "true";
  CHECK(CountsOf(RunDynamic(cluster, 0.0, conf, plan)) == Counts{{0, 4}, {3, 1}});
}

TEST_CASE("Dynamic allocation: settings Spark refuses at start-up are errors at their key",
          "[engine][dynalloc]") {
  const nlohmann::json plan = {{"op", "scan"}, {"id", "s"}, {"bytes", 1}};
  CHECK(Errors({{"conf",
                 {{"spark.dynamicAllocation.enabled", "true"},
                  {"spark.dynamicAllocation.minExecutors", "5"},
                  {"spark.dynamicAllocation.maxExecutors", "2"}}},
                {"plan", plan}}) ==
        std::vector<std::string>{
            "test.json: /conf/spark.dynamicAllocation.minExecutors: expected "
            "spark.dynamicAllocation.minExecutors <= spark.dynamicAllocation.maxExecutors (2, from test.json "
            "/conf/spark.dynamicAllocation.maxExecutors), found 5 (Spark refuses to start)"});
  CHECK(Errors({{"conf",
                 {{"spark.dynamicAllocation.enabled", "true"},
                  {"spark.dynamicAllocation.shuffleTracking.enabled", "false"}}},
                {"plan", plan}}) ==
        std::vector<std::string>{"test.json: /conf/spark.dynamicAllocation.enabled: dynamic allocation needs "
                                 "spark.shuffle.service.enabled or "
                                 "spark.dynamicAllocation.shuffleTracking.enabled (Spark refuses to "
                                 "start without either)"});
  CHECK(
      Errors({{"conf", {{"spark.dynamicAllocation.schedulerBacklogTimeout", "0s"}}}, {"plan", plan}}) ==
      std::vector<std::string>{"test.json: /conf/spark.dynamicAllocation.schedulerBacklogTimeout: expected a "
                               "duration > 0 such as 60s or 2min, found \"0s\""});
  // Under a second: Spark's getTimeAsSeconds reads 0 s (1500ms is 1 s).
  for (const char* key : {"spark.dynamicAllocation.schedulerBacklogTimeout",
                          "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout"}) {
    ConfOverrides o;
    o.conf = {{key, "1ms"}};
    CHECK(
        Errors({{"plan", plan}}, o) ==
        std::vector<std::string>{"--conf " + std::string(key) +
                                 "=1ms: expected a duration of at least 1s (Spark reads this key in whole "
                                 "seconds with getTimeAsSeconds, dropping any fraction: this value is 0 s), "
                                 "found \"1ms\""});
    o.conf = {{key, "1500ms"}};
    CHECK(Errors({{"plan", plan}}, o).empty());
  }
}

TEST_CASE("Dynamic allocation: minExecutors above maxExecutors is blamed where the later of them was given",
          "[engine][dynalloc]") {
  const nlohmann::json doc = {{"conf",
                               {{"spark.dynamicAllocation.enabled", "true"},
                                {"spark.dynamicAllocation.initialExecutors", "2"},
                                {"spark.dynamicAllocation.maxExecutors", "40"}}},
                              {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}}};
  // The command line's minExecutors broke the rule: named, with the scenario's maxExecutors and its place.
  ConfOverrides o;
  o.conf = {{"spark.dynamicAllocation.minExecutors", "5000"}};
  CHECK(Errors(doc, o) ==
        std::vector<std::string>{
            "--conf spark.dynamicAllocation.minExecutors=5000: expected spark.dynamicAllocation.minExecutors "
            "<= spark.dynamicAllocation.maxExecutors (40, from test.json "
            "/conf/spark.dynamicAllocation.maxExecutors), found 5000 (Spark refuses to start)"});
  // A command-line maxExecutors below the scenario's minExecutors: the maxExecutors is blamed.
  nlohmann::json with_min = doc;
  with_min["conf"]["spark.dynamicAllocation.minExecutors"] = "30";
  o.conf = {{"spark.dynamicAllocation.maxExecutors", "20"}};
  CHECK(Errors(with_min, o) ==
        std::vector<std::string>{
            "--conf spark.dynamicAllocation.maxExecutors=20: expected spark.dynamicAllocation.maxExecutors "
            ">= spark.dynamicAllocation.minExecutors (30, from test.json "
            "/conf/spark.dynamicAllocation.minExecutors), found 20 (Spark refuses to start)"});
  // Both on the command line: the later --conf.
  o.conf = {{"spark.dynamicAllocation.maxExecutors", "20"}, {"spark.dynamicAllocation.minExecutors", "25"}};
  CHECK(Errors(doc, o) ==
        std::vector<std::string>{
            "--conf spark.dynamicAllocation.minExecutors=25: expected spark.dynamicAllocation.minExecutors "
            "<= spark.dynamicAllocation.maxExecutors (20, from --conf "
            "spark.dynamicAllocation.maxExecutors=20), found 25 (Spark refuses to start)"});
}

TEST_CASE("Dynamic allocation: initial executors above maxExecutors are refused, below minExecutors warned",
          "[engine][dynalloc]") {
  // Spark's YARN and Kubernetes schedulers refuse an initial target (the most of minExecutors,
  // initialExecutors and spark.executor.instances) above maxExecutors; below minExecutors,
  // initialExecutors or spark.executor.instances is ignored with a warning.
  const nlohmann::json doc = {{"conf",
                               {{"spark.dynamicAllocation.enabled", "true"},
                                {"spark.dynamicAllocation.initialExecutors", "2"},
                                {"spark.dynamicAllocation.maxExecutors", "40"}}},
                              {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}}};
  ConfOverrides o;
  o.conf = {{"spark.dynamicAllocation.initialExecutors", "500"}};
  const std::string why =
      " (the initial executors are the most of minExecutors, initialExecutors and spark.executor.instances: "
      "Spark's YARN and Kubernetes schedulers refuse to start more than maxExecutors)";
  CHECK(Errors(doc, o) ==
        std::vector<std::string>{"--conf spark.dynamicAllocation.initialExecutors=500: expected "
                                 "spark.dynamicAllocation.initialExecutors <= "
                                 "spark.dynamicAllocation.maxExecutors (40, from test.json "
                                 "/conf/spark.dynamicAllocation.maxExecutors), found 500" +
                                 why});
  // A command-line maxExecutors below the scenario's initialExecutors.
  o.conf = {{"spark.dynamicAllocation.maxExecutors", "1"}};
  CHECK(Errors(doc, o) ==
        std::vector<std::string>{"--conf spark.dynamicAllocation.maxExecutors=1: expected "
                                 "spark.dynamicAllocation.maxExecutors >= "
                                 "spark.dynamicAllocation.initialExecutors (2, from test.json "
                                 "/conf/spark.dynamicAllocation.initialExecutors), found 1" +
                                 why});
  // spark.executor.instances is a floor of the initial executors: above maxExecutors it is refused too.
  o.conf = {{"spark.executor.instances", "50"}};
  CHECK(Errors(doc, o) == std::vector<std::string>{"--conf spark.executor.instances=50: expected "
                                                   "spark.executor.instances <= "
                                                   "spark.dynamicAllocation.maxExecutors (40, from test.json "
                                                   "/conf/spark.dynamicAllocation.maxExecutors), found 50" +
                                                   why});
  // At maxExecutors it runs, from 40 executors.
  o.conf = {{"spark.dynamicAllocation.initialExecutors", "40"}};
  CHECK(Load(doc, o)->conf.dynamic_allocation.InitialExecutors(std::nullopt) == 40);
  // Below minExecutors: warned, and the run starts from minExecutors.
  o.conf = {{"spark.dynamicAllocation.minExecutors", "5"}, {"spark.executor.instances", "3"}};
  const LoadResult r = LoadScenarioJson(doc, "test.json", o);
  CHECK(r.errors.empty());
  CHECK(r.warnings ==
        std::vector<std::string>{
            "test.json: /conf/spark.dynamicAllocation.initialExecutors: "
            "spark.dynamicAllocation.initialExecutors "
            "(2) is below spark.dynamicAllocation.minExecutors (5, from --conf "
            "spark.dynamicAllocation.minExecutors=5): Spark ignores it and starts with minExecutors",
            "--conf spark.executor.instances=3: spark.executor.instances (3) is below "
            "spark.dynamicAllocation.minExecutors (5, from --conf spark.dynamicAllocation.minExecutors=5): "
            "Spark "
            "ignores it and starts with minExecutors"});
  REQUIRE(r.scenario);
  CHECK(r.scenario->conf.dynamic_allocation.InitialExecutors(r.scenario->conf.executor_instances) == 5);
}

TEST_CASE(
    "Cluster: --conf spark.executor.instances overrides the scenario's cluster; the scenario may not "
    "contradict itself",
    "[scenario][cluster]") {
  nlohmann::json doc = {{"cluster", {{"executors", 10}, {"executorCores", 4}}},
                        {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}}};
  ConfOverrides o;
  o.conf = {{"spark.executor.instances", "40"}};
  CHECK(Load(doc, o)->cluster.executors == 40);
  doc["conf"] = {{"spark.executor.instances", "12"}};
  CHECK(Errors(doc) ==
        std::vector<std::string>{"test.json: /conf/spark.executor.instances: "
                                 "spark.executor.instances (12) contradicts /cluster/executors "
                                 "(10): give one of them"});
  CHECK(Load(doc, o)->cluster.executors == 40);  // the command line wins over both
}

TEST_CASE("Cluster: a command-line spark.executor.instances replaces a recorded executor timeline",
          "[scenario][cluster]") {
  const nlohmann::json doc = {
      {"cluster",
       {{"executorCores", 4},
        {"executorTimeline",
         {{{"add", 0}, {"warm", true}}, {{"add", 0}}, {{"add", 5.0}, {"remove", 20.0}}}}}},
      {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 1}}}};
  CHECK(Load(doc)->cluster.executor_timeline.size() == 3);
  ConfOverrides o;
  o.conf = {{"spark.executor.instances", "8"}};
  LoadResult r = LoadScenarioJson(doc, "test.json", o);
  REQUIRE(r.errors.empty());
  CHECK(r.scenario->cluster.executor_timeline.empty());
  CHECK(r.scenario->cluster.executors == 8);
  CHECK(r.scenario->cluster.warm_executors == 1);
  REQUIRE(r.scenario->warnings.size() == 1);
  CHECK(
      r.scenario->warnings[0] ==
      "test.json: /cluster/executorTimeline: --conf spark.executor.instances=8 replaces the recorded "
      "executor "
      "timeline (3 executors) with 8 executors from the start; 1 of them keep the warm JVMs of the executors "
      "present at the start");
}

}  // namespace
}  // namespace aqesim
