// Calibration on the small fixtures: the targets (median |stage error| <= 15%,
// makespan error <= 10% on the log fitted to) as assertions. Deterministic: the simulator
// is seeded and noise is off.
#include "tools/validate/calibration.h"

#include <catch2/catch.hpp>
#include <set>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::validate {
namespace {

using eventlog::testing::Fixture;

/// The targets on the log fitted to, and every decision matched.
void CheckTargetsMet(const CalibrationResult& r, int decisions) {
  REQUIRE(r.after.size() == 1);
  REQUIRE(r.after[0].median_abs_stage_error);
  REQUIRE(r.after[0].makespan_relative_error);
  CHECK(*r.after[0].median_abs_stage_error <= 0.15);
  CHECK(std::abs(*r.after[0].makespan_relative_error) <= 0.10);
  CHECK(r.after[0].decisions_matched == decisions);
}

void CheckCalibrationMeetsTargets(const std::string& fixture) {
  const eventlog::RecordedApplication app = eventlog::ReadEventLog(Fixture(fixture), nullptr);
  const CalibrationResult r = Calibrate({&app}, {}, nullptr);
  // 6 + 6 + 13 + 1 tasks, all matched by index. R² of the replayed task times against the
  // recorded ones (0.68 / 0.69 when written: the 12 tasks of stages 0 and 1 run concurrently
  // on one executor, and the cold-code budget goes to the first of them).
  CHECK(r.quality.task_rows == 26);
  CHECK(r.quality.stage_rows == 0);
  CHECK(r.quality.r_squared > 0.6);
  CheckTargetsMet(r, 3);
  // Before: the defaults, fitted on 17 logs of which this is one (results/defaults.md: 41.5 %
  // aqeshuffle, 40.2 % customshuffle per stage); the log's own fit replays it closer.
  CHECK(*r.before[0].median_abs_stage_error > 0.3);
  CHECK(*r.after[0].median_abs_stage_error < *r.before[0].median_abs_stage_error);
  // Every fitted parameter is in the cost file and non-negative.
  for (const auto& p : TaskLevelParameters()) {
    REQUIRE(r.cost.contains(p));
    CHECK(r.cost[p].get<double>() >= 0);
  }
}

TEST_CASE("Calibrate: aqeshuffle meets the targets on itself", "[validate][calibrate]") {
  CheckCalibrationMeetsTargets("aqeshuffle_eventlog.zstd");
}

TEST_CASE("Calibrate: customshuffle meets the targets on itself", "[validate][calibrate]") {
  CheckCalibrationMeetsTargets("customshuffle_eventlog.zstd");
}

TEST_CASE("MeasureTimes: driver gaps and fresh-JVM deserialization read from aqeshuffle",
          "[validate][calibrate]") {
  // By hand (`zstd -dc LOG | grep -E 'StageSubmitted|StageCompleted|TaskEnd'`): stages 0, 1, 4,
  // 8 launch their first task 0.172, 0.049, 0.012, 0.007 s after submission (median 0.0305);
  // stage 4 is submitted 0.196 s after stage 1 completes, stage 8 0.062 s after stage 4
  // (median 0.129). The 12 tasks of stages 0 and 1 start before any task finished on the
  // driver (local mode): Executor Deserialize Time 259..262 ms, median 260; the other 14
  // tasks (stages 4 and 8) are all first waves: median 78 ms. Fresh-JVM term 0.260 - 0.078 =
  // 0.182 s; no later task, so the first-wave warm-up is left to the fit. Duration − run −
  // deserialization over the 26 tasks: median 17 ms (no later task adds a deserialization):
  // taskLaunchSeconds 0.017.
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr);
  const MeasuredTimes m = MeasureTimes({&app});
  CHECK(m.overhead_samples == 4);
  REQUIRE(m.stage_overhead_seconds);
  CHECK(*m.stage_overhead_seconds == Approx(0.0305));
  CHECK(m.replan_samples == 2);
  REQUIRE(m.replan_seconds);
  CHECK(*m.replan_seconds == Approx(0.129));
  CHECK(m.replan_min_seconds == Approx(0.062));
  CHECK(m.replan_max_seconds == Approx(0.196));
  CHECK(m.fresh_tasks == 12);
  CHECK(m.first_wave_tasks == 14);
  CHECK(m.later_tasks == 0);
  CHECK(m.fresh_deserialize_median_seconds == Approx(0.260));
  CHECK(m.first_wave_deserialize_median_seconds == Approx(0.078));
  REQUIRE(m.executor_startup_seconds);
  CHECK(*m.executor_startup_seconds == Approx(0.182));
  CHECK_FALSE(m.executor_stage_warmup_seconds);
  CHECK(m.launch_samples == 26);
  CHECK(m.scheduler_delay_median_seconds == Approx(0.017));
  REQUIRE(m.task_launch_seconds);
  CHECK(*m.task_launch_seconds == Approx(0.017));
  // calibrate --measure-only writes these, and no rate: no first-wave warm-up without later tasks.
  const nlohmann::json measured = MeasuredCost(m);
  CHECK(measured.size() == 4);
  CHECK(measured["stageOverheadSeconds"].get<double>() == Approx(0.0305));
  CHECK(measured["replanSeconds"].get<double>() == Approx(0.129));
  CHECK(measured["executorStartupSeconds"].get<double>() == Approx(0.182));
  CHECK(measured["taskLaunchSeconds"].get<double>() == Approx(0.017));
  CHECK_FALSE(measured.contains("executorStageWarmupSeconds"));
  // The calibrated cost carries the measured values, not searched ones.
  const CalibrationResult r = Calibrate({&app}, {}, nullptr);
  CHECK(r.cost["stageOverheadSeconds"].get<double>() == Approx(0.0305));
  CHECK(r.cost["replanSeconds"].get<double>() == Approx(0.129));
  CHECK(r.cost["executorStartupSeconds"].get<double>() == Approx(0.182));
  CHECK(r.cost["taskLaunchSeconds"].get<double>() == Approx(0.017));
}

TEST_CASE("Calibrate: join_agg meets the targets on itself", "[validate][calibrate]") {
  // Measured by hand: Duration − run − deserialization median 30 ms over the 107 tasks, the
  // 26 later tasks' deserialization median 3 ms: taskLaunchSeconds 0.033 (the NNLS fit had
  // put 0.0005 s, leaving j1's 30 short tasks on executor 2 — 10 waves — far too quick).
  // With e1's reportedSizeRatio the coalescing is Spark's 16 (replay_test.cc).
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
  const MeasuredTimes m = MeasureTimes({&app});
  CHECK(m.launch_samples == 107);
  REQUIRE(m.task_launch_seconds);
  CHECK(*m.task_launch_seconds == Approx(0.033));
  CheckTargetsMet(Calibrate({&app}, {}, nullptr), 3);
}

TEST_CASE("Calibrate: dynamic allocation with measured driver times (no search against the makespan)",
          "[validate][calibrate]") {
  // The previous calibration searched replanSeconds against the makespan and put it at 2.0 s
  // (its grid's top), paying for stage 9's one task with 15.1 s of deserialization, while the
  // log shows 0.022..0.246 s between a stage's completion and the next submission (10 gaps,
  // median 0.0415 s: 0.022 0.024 0.027 0.030 0.041 0.042 0.043 0.046 0.049 0.246).
  // Deserialization medians: 43 tasks launched before their executor finished one, 569 ms;
  // 46 first-wave tasks on warm JVMs (before a task of their stage finished on the executor,
  // which had not run the same query in an earlier execution), 160.5 ms; the 146 later tasks
  // (48 of them first tasks of a stage on an executor that ran the same query before, e.g.
  // executors 7 and 8 in execution 4: run time 0.35 s against 1.0-2.2 s on the new ones), 5 ms.
  // Fresh JVM 0.569 - 0.1605 = 0.4085 s; first wave 0.1555 s. (Stage 9's 15.126 s task is one
  // of the 43: the median ignores it.) Launch: scheduler delay median 7 ms + 5 ms. Counts and
  // medians recomputed from the raw log by a separate Python script of the same rules.
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  const MeasuredTimes m = MeasureTimes({&app});
  CHECK(m.replan_samples == 10);
  CHECK(*m.replan_seconds == Approx(0.0415));
  CHECK(m.replan_min_seconds == Approx(0.022));
  CHECK(m.replan_max_seconds == Approx(0.246));
  CHECK(*m.stage_overhead_seconds == Approx(0.010));  // 20 stages; 10.5 s and 12.4 s waits for executors
  CHECK(m.fresh_tasks == 43);
  CHECK(m.first_wave_tasks == 46);
  CHECK(m.later_tasks == 146);
  CHECK(*m.executor_startup_seconds == Approx(0.4085));
  REQUIRE(m.executor_stage_warmup_seconds);
  CHECK(*m.executor_stage_warmup_seconds == Approx(0.1555));
  CHECK(m.launch_samples == 235);
  CHECK(*m.task_launch_seconds == Approx(0.007 + 0.005));  // scheduler delay + later deserialization

  const CalibrationResult r = Calibrate({&app}, {}, nullptr);
  // Every task of the 20 stages matched by index: 43 on a fresh JVM + 46 other first-wave + 146
  // later tasks, as counted in the log (results/calibration/fit-eventlog_4nodes_8cores_dynamic_alloc.txt).
  CHECK(r.quality.task_rows == 235);
  CHECK(r.cost["replanSeconds"].get<double>() == Approx(0.0415));
  CHECK(r.cost["executorStageWarmupSeconds"].get<double>() == Approx(0.1555));
  REQUIRE(r.after.size() == 1);
  REQUIRE(r.after[0].median_abs_stage_error);
  REQUIRE(r.after[0].makespan_relative_error);
  // Honest result: the targets (15% / 10%) are missed (29.5% / -28.3% with the bounded
  // cold-code model; -31.1% since executors registering late take tasks only
  // cluster.executorLaunchSeconds = 0.338 s after ExecutorAdded, which the calibrated cost model,
  // timing the stages without their profiles, does not make up); stage 9 (15.8 s recorded) is
  // simulated at 2.9 s. Bounds well below the defaults' 78.9% / -71.6%.
  CHECK(*r.after[0].median_abs_stage_error < 0.35);
  CHECK(std::abs(*r.after[0].makespan_relative_error) < 0.32);
  // 5 executions x (2 coalesced reads: 13, 17, 21, 22, 25 + 1 SortMergeJoin); see replay_test.cc.
  CHECK(r.after[0].decisions_matched == 15);
  // Execution 0's map stages wait for the executors as Spark did (recorded 14.910 s).
  ReplayOptions o;
  o.cost = r.cost;
  const Validation v = ValidateApplication(app, o, nullptr);
  for (const StageComparison& s : v.stages) {
    if (s.selection == "SQL execution 0" && s.stage_id && *s.stage_id == 0) {
      REQUIRE(s.simulated_seconds);
      CHECK(*s.simulated_seconds > 10.572);        // not before executor 4 registered
      CHECK(std::abs(*s.relative_error) <= 0.20);  // +3.7% with the bounded cold-code model
    }
  }
}

TEST_CASE("Replay: a stage queued behind a full cluster runs where slots free up first (join_agg j1)",
          "[validate][calibrate]") {
  // join_agg_on_yarn stages 1 (j2's build: its scan's metrics are updated by stage 1) and 2
  // (j1's build) are submitted together, 30 tasks each, on 10 executors x 3 cores; j2's
  // broadcast is created first (the streamed side of j1, left, comes before its build side,
  // right, in createQueryStages). Stage 1 takes every slot; executor 2, the only JVM that had
  // run a task (stage 0), finishes its three tasks after 0.68 s, the nine fresh ones after
  // 2.6-2.9 s (Executor Deserialize Time 1.7-2.2 s vs 0.17-0.19 s), so all 30 tasks of stage 2
  // run on executor 2 (TaskSchedulerImpl offers whatever is free; spark.locality.wait does
  // not matter: the tasks have no preference). With the fresh-JVM term the simulation does
  // the same; without it every executor frees at once and j1's build spreads.
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
  std::vector<std::string> w;
  ReplayOptions modelled;  // the cost model's fresh-JVM term, not the recorded profiles
  modelled.profiles = false;
  const Validation v0 = ValidateApplication(app, modelled, &w);
  REQUIRE(v0.selections.size() == 1);
  auto j1_executors = [&](double startup) {
    nlohmann::json doc = v0.selections[0].document;
    doc["cost"]["executorStartupSeconds"] = startup;
    std::string error;
    const std::optional<RunResult> run = SimulateDocument(doc, "join_agg", &error);
    REQUIRE(run);
    std::set<int> executors;
    for (const StageResult& s : run->stages) {
      if (s.name != "j1 broadcast") continue;
      CHECK(s.task_results.size() == 30);
      for (const TaskResult& t : s.task_results) executors.insert(t.executor);
    }
    return executors;
  };
  CHECK(j1_executors(1.538) == std::set<int>{0});  // the warm executor (warmExecutors = 1)
  CHECK(j1_executors(0.0).size() > 1);
}

}  // namespace
}  // namespace aqesim::validate
