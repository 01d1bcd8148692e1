// Stages timed by a recorded profile (models/cost/stage_profile.h) against hand-computed
// schedules: per-wave overheads, rates, the critical task, residual draws, the driver's start,
// end, launch delay, completion tail and submission gap.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/cost/stage_profile.h"
#include "models/engine/query_execution.h"
#include "models/engine/simulated_band.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

nlohmann::json Constant(double r) { return std::vector<double>(kResidualQuantiles, r); }

/// 0.5, 0.55, ..., 1.5: the quantile at u is 0.5 + u.
nlohmann::json Linear() {
  std::vector<double> t;
  for (int j = 0; j < kResidualQuantiles; ++j) t.push_back(0.5 + 0.05 * j);
  return t;
}

double Duration(const TaskResult& t) { return t.end_seconds - t.start_seconds; }

TEST_CASE("StageProfile: van der Corput points and quantile tables", "[cost][profile]") {
  CHECK(VanDerCorput(1) == 0.5);
  CHECK(VanDerCorput(2) == 0.25);
  CHECK(VanDerCorput(3) == 0.75);
  CHECK(VanDerCorput(4) == 0.125);
  CHECK(VanDerCorput(6) == 0.375);
  const std::vector<double> linear = Linear();
  CHECK(QuantileAt(linear, 0.5) == Approx(1.0));
  CHECK(QuantileAt(linear, 0.25) == Approx(0.75));
  CHECK(QuantileAt(linear, 0.125) == Approx(0.625));  // between 0.60 (10%) and 0.65 (15%)
  CHECK(QuantileAt(linear, 1.0) == Approx(1.5));
}

TEST_CASE("QueryExecution: a profiled scan stage against a hand-computed schedule", "[engine][profile]") {
  // 1 executor x 2 slots; taskBytes 2, 1, 0.5, 0.5 MB of 4 MB; rowOps 4000 -> U = 2000, 1000,
  // 500, 500. O = 0.2 s (first wave) / 0.05 s (later), A = 0.1 s, B = 1 ms per row-op.
  // Modelled: t0 0.2+0.1+2.0 = 2.3, t1 1.3, t2 and t3 0.65. t0 is the critical task (x2.0 ->
  // 4.6); first-wave table 1.0; the later table's quantile at u is 0.5 + u: t2 draws u = 1/2
  // (x1.0 -> 0.65), t3 u = 1/4 (x0.75 -> 0.4875).
  // Driver: start 0.3 -> submitted at 0.3, launch delay 0.1 -> t0 [0.4, 5.0] slot 0, t1
  // [0.4, 1.7] slot 1, t2 [1.7, 2.35], t3 [2.35, 2.8375]; tail 0.2 -> complete 5.2; end 0.5 ->
  // makespan 5.7; the stage lasts 5.2 - 0.3 = 4.9.
  const nlohmann::json scan = {
      {"op", "scan"}, {"id", "s"}, {"bytes", 4000000}, {"taskBytes", {2000000, 1000000, 500000, 500000}}};
  const nlohmann::json profile = {{"tasks", 4},
                                  {"inputBytes", 4000000},
                                  {"rowOps", 4000},
                                  {"overheadSeconds", {{"firstWave", 0.2}, {"later", 0.05}}},
                                  {"fixedSeconds", 0.1},
                                  {"secondsPerRowOp", 0.001},
                                  {"rates", "stage"},
                                  {"residuals", {{"firstWave", {Constant(1.0)}}, {"later", {Linear()}}}},
                                  {"critical", {{"task", 0}, {"residual", 2.0}}},
                                  {"launchDelaySeconds", 0.1},
                                  {"tailSeconds", 0.2}};
  nlohmann::json doc = {{"name", "t"},
                        {"cluster", {{"executors", 1}, {"executorCores", 2}, {"executorMemory", "4g"}}},
                        {"plan", scan},
                        {"profiles", {{"result", profile}}},
                        {"driver", {{"startSeconds", 0.3}, {"endSeconds", 0.5}}}};
  auto s = Load(doc);
  const RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 1);
  const StageResult& st = r.stages[0];
  CHECK(st.time_source == "profiled");
  REQUIRE(st.task_results.size() == 4);
  CHECK(st.task_results[0].start_seconds == Approx(0.4));
  CHECK(Duration(st.task_results[0]) == Approx(4.6));
  CHECK(Duration(st.task_results[1]) == Approx(1.3));
  CHECK(st.task_results[2].start_seconds == Approx(1.7));
  CHECK(Duration(st.task_results[2]) == Approx(0.65));
  CHECK(st.task_results[3].start_seconds == Approx(2.35));
  CHECK(Duration(st.task_results[3]) == Approx(0.4875));
  CHECK(st.submit_seconds == Approx(0.3));
  CHECK(st.complete_seconds == Approx(5.2));
  CHECK(r.makespan_seconds == Approx(5.7));

  // Another task count (a what-if): no critical task; 2 tasks of 2 MB, U = 2000 each, both in
  // the first wave, drawing u = 1/2 and 1/4 from the constant table: 2.3 s each.
  doc["plan"]["taskBytes"] = {2000000, 2000000};
  const RunResult two = SimulateQuery(*Load(doc), false);
  REQUIRE(two.stages[0].task_results.size() == 2);
  CHECK(Duration(two.stages[0].task_results[0]) == Approx(2.3));
  CHECK(Duration(two.stages[0].task_results[1]) == Approx(2.3));

  // Without the profile the stage is modelled.
  doc.erase("profiles");
  CHECK(SimulateQuery(*Load(doc), false).stages[0].time_source == "modelled");
}

TEST_CASE("QueryExecution: a profiled stage is submitted its gap after its parents", "[engine][profile]") {
  // AQE on, 1 executor x 2 slots. e1 map: 2 scan tasks of 1.0 s (A = 1, B = 0, no residuals),
  // complete at 1.0; re-plan 0 s; the result stage (2 reducers, coalescing off) is submitted
  // 0.25 s after e1 map completed, at 1.25, its two tasks take 0.5 s: complete 1.75.
  const nlohmann::json plan = {{"op", "exchange"},
                               {"id", "e1"},
                               {"numPartitions", 2},
                               {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 2000}, {"tasks", 2}}},
                               {"sizes", {{"matrix", {{500, 500}, {500, 500}}}}}};
  const nlohmann::json map_profile = {{"tasks", 2}, {"fixedSeconds", 1.0}};
  const nlohmann::json result_profile = {{"tasks", 2}, {"fixedSeconds", 0.5}, {"submitGapSeconds", 0.25}};
  const nlohmann::json doc = {
      {"name", "t"},
      {"cluster", {{"executors", 1}, {"executorCores", 2}, {"executorMemory", "4g"}}},
      {"conf",
       {{"spark.sql.adaptive.enabled", "true"}, {"spark.sql.adaptive.coalescePartitions.enabled", "false"}}},
      {"cost", {{"mapStatusAggregateSecondsPerBlock", 0}}},
      {"plan", plan},
      {"profiles", {{"e1 map", map_profile}, {"result", result_profile}}},
      {"driver", {{"replanSeconds", 0}}}};
  const RunResult r = SimulateQuery(*Load(doc), true);
  REQUIRE(r.stages.size() == 2);
  CHECK(r.stages[0].name == "e1 map");
  CHECK(r.stages[0].complete_seconds == Approx(1.0));
  CHECK(r.stages[1].name == "result");
  CHECK(r.stages[1].time_source == "profiled");
  CHECK(r.stages[1].submit_seconds == Approx(1.25));
  CHECK(r.stages[1].complete_seconds == Approx(1.75));
  CHECK(r.makespan_seconds == Approx(1.75));
}

TEST_CASE("QueryExecution: a profiled stage waits for the stages its waitsFor names", "[engine][profile]") {
  // AQE off, 2 executors x 1 slot, a sort-merge join of e1 (1 map task of 1.0 s) and e2 (1 map
  // task of 2.0 s); the result stage's 2 tasks take 0.5 s. e1 map waits for e2 map (waitsFor),
  // 0.1 s after it: e2 map [0, 2] on executor 0; e1 map submitted at 2.1, when both executors
  // are free, takes the smallest (slot, executor), executor 0 again: [2.1, 3.1]. Both reducers
  // then read all their bytes from executor 0, so both prefer it (the common executor of the
  // join's two sides, ZippedPartitionsRDD); delay scheduling gives reducer 0 executor 0 at 3.1
  // and keeps reducer 1 off idle executor 1 for up to spark.locality.wait (3 s): it runs on
  // executor 0 once reducer 0 is done, [3.6, 4.1]. With spark.shuffle.reduceLocality.enabled
  // off the two run side by side, [3.1, 3.6]. Without waitsFor: e1 map 0.1 s after the start on
  // executor 1 (executor 0 runs e2 map), [0.1, 1.1]; the two sides have no executor in common,
  // so the reducers prefer both and run at once, [2.0, 2.5].
  auto exchange = [](const char* id, const char* scan) {
    return nlohmann::json{{"op", "exchange"},
                          {"id", id},
                          {"numPartitions", 2},
                          {"child", {{"op", "scan"}, {"id", scan}, {"bytes", 1000}, {"tasks", 1}}},
                          {"sizes", {{"matrix", {{500, 500}}}}}};
  };
  const nlohmann::json plan = {{"op", "join"},
                               {"id", "j1"},
                               {"strategy", "SortMergeJoin"},
                               {"joinType", "Inner"},
                               {"left", exchange("e1", "s1")},
                               {"right", exchange("e2", "s2")}};
  nlohmann::json e1_profile = {
      {"tasks", 1}, {"fixedSeconds", 1.0}, {"submitGapSeconds", 0.1}, {"waitsFor", {"e2 map"}}};
  nlohmann::json doc = {{"name", "t"},
                        {"cluster", {{"executors", 2}, {"executorCores", 1}, {"executorMemory", "4g"}}},
                        {"conf", {{"spark.sql.autoBroadcastJoinThreshold", "-1"}}},
                        {"plan", plan},
                        {"profiles",
                         {{"e1 map", e1_profile},
                          {"e2 map", {{"tasks", 1}, {"fixedSeconds", 2.0}}},
                          {"result", {{"tasks", 2}, {"fixedSeconds", 0.5}}}}}};
  auto stage = [](const RunResult& r, const std::string& name) -> const StageResult& {
    for (const StageResult& s : r.stages)
      if (s.name == name) return s;
    FAIL("no stage " << name);
    return r.stages.front();
  };
  const RunResult r = SimulateQuery(*Load(doc), false);
  CHECK(stage(r, "e2 map").complete_seconds == Approx(2.0));
  CHECK(stage(r, "e1 map").submit_seconds == Approx(2.1));
  CHECK(stage(r, "e1 map").complete_seconds == Approx(3.1));
  CHECK(stage(r, "e1 map").task_results.at(0).executor == 0);
  CHECK(stage(r, "result").submit_seconds == Approx(3.1));
  const std::vector<TaskResult>& reducers = stage(r, "result").task_results;
  REQUIRE(reducers.size() == 2);
  CHECK(reducers[0].executor == 0);
  CHECK(reducers[0].start_seconds == Approx(3.1));
  CHECK(reducers[1].executor == 0);
  CHECK(reducers[1].start_seconds == Approx(3.6));
  CHECK(r.makespan_seconds == Approx(4.1));

  doc["conf"]["spark.shuffle.reduceLocality.enabled"] = "false";
  CHECK(SimulateQuery(*Load(doc), false).makespan_seconds == Approx(3.6));
  doc["conf"].erase("spark.shuffle.reduceLocality.enabled");

  doc["profiles"]["e1 map"].erase("waitsFor");
  const RunResult plain = SimulateQuery(*Load(doc), false);
  CHECK(stage(plain, "e1 map").submit_seconds == Approx(0.1));
  CHECK(stage(plain, "e1 map").task_results.at(0).executor == 1);
  CHECK(stage(plain, "result").submit_seconds == Approx(2.0));
  CHECK(plain.makespan_seconds == Approx(2.5));

  // A stage it names that waits for it (here the result stage) or that does not exist is not
  // waited for.
  doc["profiles"]["e1 map"]["waitsFor"] = {"result", "e9 map"};
  CHECK(SimulateQuery(*Load(doc), false).makespan_seconds == Approx(2.5));
  doc["profiles"]["e1 map"]["waitsFor"] = {""};
  LoadResult bad = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(!bad.errors.empty());
  CHECK(bad.errors[0].pointer == "/profiles/e1 map/waitsFor/0");
}

TEST_CASE("QueryExecution: a resized profile is marked and carries the band", "[engine][profile]") {
  // 1 executor x 2 slots. The "result" profile: 2 cold tasks (no later tables) of 1 MB, 1,000
  // row-operations, 1.0 s of run each ("fixed"), overhead 0.2 s. The log's other profile gives
  // the rate B' = 0.1 ms per row-operation and the warm overhead 0.05 s (LogResizeRates).
  // Run as 8 tasks of 250 kB (x4): U = 250, Ū = 1,000. First wave (tasks 0, 1): C = 1.0 -
  // 1e-4 x 1,000 = 0.9, T = 0.2 + 0.9 + 0.025 = 1.125; later (2..7): T = 0.05 + 0.025 = 0.075,
  // three per slot after 1.125: the stage completes at 1.35. Band: every task x 0.79 and x 7.6
  // (one stage, no driver gaps): 0.891 and 5.94.
  const nlohmann::json result_profile = {{"tasks", 2},
                                         {"inputBytes", 2000000},
                                         {"rowOps", 2000},
                                         {"overheadSeconds", {{"firstWave", 0.2}, {"later", 0.2}}},
                                         {"fixedSeconds", 1.0},
                                         {"rates", "fixed"},
                                         {"residuals", {{"firstWave", {Constant(1.0)}}}}};
  const nlohmann::json other = {{"tasks", 4},
                                {"rates", "stage"},
                                {"secondsPerRowOp", 1e-4},
                                {"overheadSeconds", {{"firstWave", 0.3}, {"later", 0.05}}},
                                {"residuals", {{"later", {Constant(1.0)}}}}};
  nlohmann::json doc = {
      {"name", "t"},
      {"cluster", {{"executors", 1}, {"executorCores", 2}, {"executorMemory", "4g"}}},
      {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 2000000}, {"taskBytes", std::vector<int>(8, 250000)}}},
      {"profiles", {{"result", result_profile}, {"e9 map", other}}}};
  auto s = Load(doc);
  const RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 1);
  const StageResult& st = r.stages[0];
  CHECK(st.time_source == "profiled");
  REQUIRE(st.resized_by);
  CHECK(*st.resized_by == Approx(4.0));
  CHECK(TimedText(st.time_source, st.resized_by) == "profiled (resized ×4.0)");
  CHECK(RunToJson(r, false)["stages"][0]["resizedBy"] == 4.0);
  REQUIRE(st.task_results.size() == 8);
  CHECK(Duration(st.task_results[0]) == Approx(1.125));
  CHECK(Duration(st.task_results[7]) == Approx(0.075));
  CHECK(r.makespan_seconds == Approx(1.35));
  const std::optional<MakespanBand> band = SimulateBand(s.get(), r);
  REQUIRE(band);
  CHECK(band->low_seconds == Approx(1.35 * 0.79));
  CHECK(band->high_seconds == Approx(1.35 * 7.6));

  // At the recorded count (2 tasks of 1 MB): O + A = 1.2 s each, not marked, no band.
  doc["plan"]["taskBytes"] = {1000000, 1000000};
  auto same = Load(doc);
  const RunResult recorded = SimulateQuery(*same, false);
  CHECK_FALSE(recorded.stages[0].resized_by);
  CHECK(recorded.makespan_seconds == Approx(1.2));
  CHECK_FALSE(SimulateBand(same.get(), recorded));
  CHECK_FALSE(RunToJson(recorded, false)["stages"][0].contains("resizedBy"));
}

TEST_CASE("Scenario: bad profiles are errors at their JSON pointer", "[scenario][profile]") {
  nlohmann::json doc = {{"name", "t"},
                        {"cluster", {{"executors", 1}, {"executorCores", 2}}},
                        {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 100}}},
                        {"profiles", {{"result", {{"tasks", 0}}}}}};
  LoadResult r = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(!r.errors.empty());
  CHECK(r.errors[0].pointer == "/profiles/result/tasks");
  std::vector<double> decreasing = Linear();
  decreasing[3] = 0.1;
  doc["profiles"]["result"] = {{"tasks", 2}, {"residuals", {{"later", {decreasing}}}}};
  r = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(!r.errors.empty());
  CHECK(r.errors[0].pointer == "/profiles/result/residuals/later/0/3");
  doc["profiles"]["result"] = {{"tasks", 2}};
  doc["driver"] = {{"startSeconds", -1}};
  r = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(!r.errors.empty());
  CHECK(r.errors[0].pointer == "/driver/startSeconds");
}

}  // namespace
}  // namespace aqesim
