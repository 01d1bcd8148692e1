// Simulated queries on an executor timeline (dynamic allocation as recorded) and with
// per-task scan sizes, against hand-computed schedules.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

/// Every byte term 0 except scan CPU at `scan_seconds_per_byte`; `launch` seconds per task.
nlohmann::json Cost(double launch, double scan_seconds_per_byte) {
  return {{"taskLaunchSeconds", launch},
          {"executorStartupSeconds", 0},  // warm executors, compiled code: not the fitted defaults
          {"executorStageWarmupSeconds", 0},
          {"coldCodeSlowdown", 0},
          {"stageOverheadSeconds", 0},
          {"replanSeconds", 0},
          {"remoteFetchRequestSeconds", 0},
          {"localFetchRequestSeconds", 0},
          {"scanSecondsPerByte", scan_seconds_per_byte},
          {"shuffleWriteSecondsPerByte", 0},
          {"shuffleReadSecondsPerByte", 0},
          {"sortSecondsPerByte", 0},
          {"hashBuildSecondsPerByte", 0},
          {"joinProbeSecondsPerByte", 0},
          {"aggregateSecondsPerByte", 0},
          {"streamSecondsPerByte", 0},
          {"broadcastBuildSecondsPerByte", 0},
          {"mapStatusAggregateSecondsPerBlock", 0}};
}

nlohmann::json Cluster(int cores) {
  // Huge bandwidths: only the terms of Cost() count.
  return {{"executorCores", cores},
          {"executorMemory", "64g"},
          {"networkBytesPerSecond", "1p"},
          {"diskBytesPerSecond", "1p"},
          {"driverNetworkBytesPerSecond", "1p"}};
}

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

double Duration(const TaskResult& t) { return t.end_seconds - t.start_seconds; }

/// One scan stage of `tasks` tasks reading `bytes`, AQE off.
RunResult RunScan(const nlohmann::json& cluster, const nlohmann::json& cost, int64_t bytes, int tasks) {
  const nlohmann::json scan = {{"op", "scan"}, {"id", "s"}, {"bytes", bytes}, {"tasks", tasks}};
  auto s = Load({{"name", "t"}, {"cluster", cluster}, {"cost", cost}, {"plan", scan}});
  return SimulateQuery(*s, false);
}

TEST_CASE("QueryExecution: scan taskBytes give each task its own input", "[engine][scan]") {
  // 1 executor x 2 slots, 0.5 s per task + 1 us per scanned byte; taskBytes 4 MB, 0, 0, 0:
  // t0 on slot 0 [0, 4.5]; t1 [0, 0.5], t2 [0.5, 1], t3 [1, 1.5] on slot 1 -> 4.5 s.
  // Split evenly (1 MB each) the same 4 MB would take 2 waves of 1.5 s = 3 s.
  nlohmann::json cluster = Cluster(2);
  cluster["executors"] = 1;
  nlohmann::json scan = {{"op", "scan"}, {"id", "s"}, {"bytes", 4000000}, {"taskBytes", {4000000, 0, 0, 0}}};
  auto s = Load({{"name", "t"}, {"cluster", cluster}, {"cost", Cost(0.5, 1e-6)}, {"plan", scan}});
  const RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 1);
  REQUIRE(r.stages[0].tasks == 4);
  CHECK(Duration(r.stages[0].task_results[0]) == Approx(4.5));
  CHECK(r.stages[0].task_results[0].input_bytes == 4000000);
  for (int t = 1; t < 4; ++t) {
    CHECK(Duration(r.stages[0].task_results[t]) == Approx(0.5));
    CHECK(r.stages[0].task_results[t].input_bytes == 0);
  }
  CHECK(r.makespan_seconds == Approx(4.5));

  scan.erase("taskBytes");
  scan["tasks"] = 4;
  auto even = Load({{"name", "t"}, {"cluster", cluster}, {"cost", Cost(0.5, 1e-6)}, {"plan", scan}});
  CHECK(SimulateQuery(*even, false).makespan_seconds == Approx(3.0));
}

TEST_CASE("QueryExecution: executors arriving late and removed (executor timeline)", "[engine][timeline]") {
  // 1 slot per executor, 1 s per task, 4 scan tasks. Executor 1 is present from the start and
  // removed at 1.5 s; executor 0 registers at 2.5 s.
  // t0 on e1 [0, 1]; t1 on e1 [1, 2] (e1 still present at 1); nothing until 2.5:
  // t2 on e0 [2.5, 3.5]; t3 on e0 [3.5, 4.5] -> 4.5 s (a static 2-executor cluster: 2 s).
  nlohmann::json cluster = Cluster(1);
  cluster["executorTimeline"] = {{{"add", 2.5}}, {{"add", 0}, {"remove", 1.5}}};
  auto s = Load({{"name", "t"},
                 {"cluster", cluster},
                 {"cost", Cost(1.0, 0)},
                 {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 100}, {"tasks", 4}}}});
  CHECK(s->cluster.executors == 1);  // most present at once
  for (bool adaptive : {false, true}) {
    INFO("adaptive " << adaptive);
    const RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 1);
    const auto& t = r.stages[0].task_results;
    REQUIRE(t.size() == 4);
    CHECK(t[0].start_seconds == Approx(0.0).margin(1e-9));
    CHECK(t[0].executor == 1);
    CHECK(t[1].start_seconds == Approx(1.0));
    CHECK(t[1].executor == 1);
    CHECK(t[2].start_seconds == Approx(2.5));
    CHECK(t[2].executor == 0);
    CHECK(t[3].start_seconds == Approx(3.5));
    CHECK(t[3].executor == 0);
    CHECK(r.makespan_seconds == Approx(4.5));
  }
}

TEST_CASE("QueryExecution: a registering executor takes tasks executorLaunchSeconds later",
          "[engine][timeline]") {
  // 1 slot per executor, 1 s per task, 4 scan tasks; executor 1 present from the start,
  // executor 0 registers at 0.5 s and is launched 0.25 s later (0.75 s), executor 2 registers
  // at 2 s and is removed at 2.2 s, before it is launched (2.25 s): it never takes a task.
  // t0 on e1 [0, 1]; t1 on e0 [0.75, 1.75]; t2 on e1 [1, 2]; t3 on e0 [1.75, 2.75] -> 2.75 s.
  // Offered from registration on (launch 0): t1 on e0 [0.5, 1.5], t2 e1 [1, 2], t3 e0
  // [1.5, 2.5] -> 2.5 s.
  nlohmann::json cluster = Cluster(1);
  cluster["executorTimeline"] = {{{"add", 0.5}}, {{"add", 0}}, {{"add", 2}, {"remove", 2.2}}};
  cluster["executorLaunchSeconds"] = 0.25;
  const nlohmann::json scan = {{"op", "scan"}, {"id", "s"}, {"bytes", 100}, {"tasks", 4}};
  auto s = Load({{"name", "t"}, {"cluster", cluster}, {"cost", Cost(1.0, 0)}, {"plan", scan}});
  CHECK(s->cluster.executor_launch_seconds == 0.25);
  const RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 1);
  const auto& t = r.stages[0].task_results;
  REQUIRE(t.size() == 4);
  CHECK(t[0].executor == 1);
  CHECK(t[0].start_seconds == Approx(0.0).margin(1e-9));
  CHECK(t[1].executor == 0);
  CHECK(t[1].start_seconds == Approx(0.75));
  CHECK(t[2].executor == 1);
  CHECK(t[2].start_seconds == Approx(1.0));
  CHECK(t[3].executor == 0);
  CHECK(t[3].start_seconds == Approx(1.75));
  CHECK(r.makespan_seconds == Approx(2.75));

  cluster["executorLaunchSeconds"] = 0;
  auto at_registration = Load({{"name", "t"}, {"cluster", cluster}, {"cost", Cost(1.0, 0)}, {"plan", scan}});
  const RunResult r0 = SimulateQuery(*at_registration, false);
  CHECK(r0.stages[0].task_results[1].start_seconds == Approx(0.5));
  CHECK(r0.makespan_seconds == Approx(2.5));

  cluster["executorLaunchSeconds"] = -0.1;
  LoadResult bad = LoadScenarioJson({{"name", "t"}, {"cluster", cluster}, {"plan", scan}}, "test.json", {});
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].pointer == "/cluster/executorLaunchSeconds");
}

TEST_CASE("QueryExecution: fresh executors pay executorStartupSeconds until a task finishes there",
          "[engine][warmup]") {
  // 2 executors x 1 slot, 1 s per task, 2 s startup on a fresh JVM, 4 scan tasks.
  // warmExecutors 1: t0 on e0 (warm) [0, 1]; t1 on e1 (fresh) [0, 3]; t2 on e0 [1, 2];
  // t3 on e0 [2, 3] -> 3 s. All fresh: t0, t1 [0, 3]; t2, t3 [3, 4] (warm by then) -> 4 s.
  nlohmann::json cost = Cost(1.0, 0);
  cost["executorStartupSeconds"] = 2.0;
  nlohmann::json cluster = Cluster(1);
  cluster["executors"] = 2;
  const nlohmann::json scan = {{"op", "scan"}, {"id", "s"}, {"bytes", 100}, {"tasks", 4}};
  cluster["warmExecutors"] = 1;
  auto one_warm = Load({{"name", "t"}, {"cluster", cluster}, {"cost", cost}, {"plan", scan}});
  const RunResult a = SimulateQuery(*one_warm, false);
  REQUIRE(a.stages.size() == 1);
  const auto& t = a.stages[0].task_results;
  REQUIRE(t.size() == 4);
  CHECK(Duration(t[0]) == Approx(1.0));
  CHECK(t[1].executor == 1);
  CHECK(Duration(t[1]) == Approx(3.0));
  CHECK(t[2].executor == 0);
  CHECK(t[3].start_seconds == Approx(2.0));
  CHECK(a.makespan_seconds == Approx(3.0));
  cluster.erase("warmExecutors");
  auto fresh = Load({{"name", "t"}, {"cluster", cluster}, {"cost", cost}, {"plan", scan}});
  CHECK(SimulateQuery(*fresh, false).makespan_seconds == Approx(4.0));
}

TEST_CASE("QueryExecution: executors that ran the query before skip the first-wave warm-up",
          "[engine][warmup]") {
  // 2 executors x 1 slot, 1 s launch per task and no other work, 2 s first-wave warm-up, 5 s
  // fresh-JVM start-up, 2 scan tasks. Static, both JVMs warm, warmCodeExecutors 1: t0 on e0
  // takes 1 s; t1 on e1 (a first wave of the code there) 1 + 2 = 3 s. Timeline with `warmCode`
  // on the second entry only: t0 on e0 (fresh JVM, first wave) 1 + 2 + 5 = 8 s; t1 1 s
  // (warmCode implies a warm JVM).
  nlohmann::json cost = Cost(1.0, 0);
  cost["executorStageWarmupSeconds"] = 2.0;
  cost["executorStartupSeconds"] = 5.0;
  nlohmann::json cluster = Cluster(1);
  cluster["executors"] = 2;
  cluster["warmExecutors"] = 2;
  cluster["warmCodeExecutors"] = 1;
  const RunResult a = RunScan(cluster, cost, 100, 2);
  REQUIRE(a.stages.size() == 1);
  const auto& t = a.stages[0].task_results;
  REQUIRE(t.size() == 2);
  CHECK(t[0].executor == 0);
  CHECK(Duration(t[0]) == Approx(1.0));
  CHECK(t[1].executor == 1);
  CHECK(Duration(t[1]) == Approx(3.0));
  cluster.erase("warmExecutors");
  cluster.erase("warmCodeExecutors");
  cluster["executorTimeline"] = {{{"add", 0}}, {{"add", 0}, {"warmCode", true}}};
  const RunResult b = RunScan(cluster, cost, 100, 2);
  const auto& u = b.stages[0].task_results;
  REQUIRE(u.size() == 2);
  CHECK(Duration(u[0]) == Approx(8.0));
  CHECK(Duration(u[1]) == Approx(1.0));
}

TEST_CASE("QueryExecution: an executor runs the first coldCodeWindowSeconds of a code's work slower",
          "[engine][warmup]") {
  // 1 executor x 1 slot; 3 scan tasks of 1 s of work each (100 bytes at 0.01 s/byte), no
  // launch time; coldCodeSlowdown 1, coldCodeWindowSeconds 1.5. t0 runs its 1 s cold: 2 s;
  // t1 the 0.5 s left of the window: 1.5 s; t2 warm: 1 s. Stage: 4.5 s. On a code-warm
  // executor (warmCodeExecutors 1): 3 s. The extra is bounded by slowdown x window (1.5 s)
  // however the work is split: 1 task of 3 s pays 1.5 s too.
  nlohmann::json cost = Cost(0.0, 0.01);
  cost["coldCodeSlowdown"] = 1.0;
  cost["coldCodeWindowSeconds"] = 1.5;
  nlohmann::json cluster = Cluster(1);
  cluster["executors"] = 1;
  auto run = [&](const nlohmann::json& c, int tasks) { return RunScan(c, cost, 300, tasks); };
  const RunResult cold = run(cluster, 3);
  REQUIRE(cold.stages[0].task_results.size() == 3);
  CHECK(Duration(cold.stages[0].task_results[0]) == Approx(2.0));
  CHECK(Duration(cold.stages[0].task_results[1]) == Approx(1.5));
  CHECK(Duration(cold.stages[0].task_results[2]) == Approx(1.0));
  CHECK(cold.makespan_seconds == Approx(4.5));
  CHECK(run(cluster, 1).makespan_seconds == Approx(4.5));
  cluster["warmCodeExecutors"] = 1;
  CHECK(run(cluster, 3).makespan_seconds == Approx(3.0));
}

}  // namespace
}  // namespace aqesim
