// The scheduling floor on hand-built recorded applications (schedules computed by hand in the
// comments) and on the fixtures (re-scheduling an unchanged recording lands on the record).
#include "tools/validate/scheduling_floor.h"

#include <catch2/catch.hpp>

#include "tests/tools/eventlog/test_util.h"
#include "tools/validate/replay.h"

namespace aqesim::validate {
namespace {

using eventlog::RecordedApplication;
using eventlog::RecordedExecutor;
using eventlog::RecordedStage;
using eventlog::RecordedTask;

RecordedExecutor Executor(const std::string& id, int cores, int64_t added_ms, int profile = 0) {
  RecordedExecutor e;
  e.executor_id = id;
  e.total_cores = cores;
  e.added_time_ms = added_ms;
  e.resource_profile_id = profile;
  return e;
}

/// Adds stage `id` of job `job` with tasks {launch, finish, executor}, submitted and completed
/// at the given times.
void AddStage(RecordedApplication* app, int id, int job, int64_t submitted, int64_t completed,
              const std::vector<std::tuple<int64_t, int64_t, std::string>>& tasks, int profile = 0) {
  RecordedStage& st = app->stages[id];
  st.stage_id = id;
  st.job_id = job;
  st.submitted = true;
  st.submission_time_ms = submitted;
  st.completion_time_ms = completed;
  st.num_tasks = static_cast<int>(tasks.size());
  st.resource_profile_id = profile;
  int index = 0;
  for (const auto& [launch, finish, executor] : tasks) {
    RecordedTask t;
    t.stage_id = id;
    t.index = index++;
    t.launch_time_ms = launch;
    t.finish_time_ms = finish;
    t.executor_id = executor;
    t.locality = "ANY";
    t.successful = true;
    st.tasks.push_back(t);
  }
  app->jobs[job].job_id = job;
  app->jobs[job].stage_ids.push_back(id);
}

TEST_CASE("Scheduling floor: recorded task times re-scheduled FIFO, with the recorded gaps",
          "[validate][floor]") {
  // One executor, 2 cores. Selection 1000 → 3400 ms.
  // Stage 0 (job 0): submitted 1100, first launch 1110; tasks of 1000, 100 and 1000 ms; Spark
  // launched the third at 1500 (it ended at 2500), the stage completed at 2505 (1.405 s).
  // Stage 1 (job 1): submitted 2600 (95 ms after stage 0), launched 2630, one task of 300 ms,
  // completed 2930; the selection ended 3400 (470 ms later).
  // Floor, ms from 1000: stage 0 at 100, tasks at 110: 1000 ms and 100 ms, the third at 210
  // (when the 100 ms one ends) → 1210; last end 1210, + 5 ms tail → completed 1215 (1.115 s).
  // Stage 1 at 1215 + 95 = 1310, launch 1340, ends 1640 (no tail); end 1640 + 470 = 2110.
  RecordedApplication app;
  app.spark_properties["spark.master"] = "yarn";
  app.executors.push_back(Executor("1", 2, 0));
  AddStage(&app, 0, 0, 1100, 2505, {{1110, 2110, "1"}, {1110, 1210, "1"}, {1500, 2500, "1"}});
  AddStage(&app, 1, 1, 2600, 2930, {{2630, 2930, "1"}});
  const FloorResult f = ReplayRecordedTasks(app, FloorSelection{{0, 1}, 1000, 3400, std::nullopt});
  CHECK(f.floor_seconds == Approx(2.110).margin(1e-9));
  CHECK(f.stage_seconds.at(0) == Approx(1.115).margin(1e-9));
  CHECK(f.stage_seconds.at(1) == Approx(0.330).margin(1e-9));
}

TEST_CASE(
    "Scheduling floor on N executors (Sparklens' what-if): the recorded tasks on N copies of the executor",
    "[validate][floor]") {
  // The case above on 2 executors of 2 cores: stage 0's three tasks all start at 110 ms (1000,
  // 100, 1000 ms), last end 1110, + 5 ms tail → 1115 (1.015 s); stage 1 at 1115 + 95 = 1210,
  // launch 1240, ends 1540; end 1540 + 470 = 2010 ms. On 1 executor: the recorded floor, 2.110 s.
  RecordedApplication app;
  app.spark_properties["spark.master"] = "yarn";
  app.executors.push_back(Executor("1", 2, 0));
  AddStage(&app, 0, 0, 1100, 2505, {{1110, 2110, "1"}, {1110, 1210, "1"}, {1500, 2500, "1"}});
  AddStage(&app, 1, 1, 2600, 2930, {{2630, 2930, "1"}});
  const FloorResult two = ReplayRecordedTasks(app, FloorSelection{{0, 1}, 1000, 3400, 2});
  CHECK(two.floor_seconds == Approx(2.010).margin(1e-9));
  CHECK(two.stage_seconds.at(0) == Approx(1.015).margin(1e-9));
  CHECK(ReplayRecordedTasks(app, FloorSelection{{0, 1}, 1000, 3400, 1}).floor_seconds ==
        Approx(2.110).margin(1e-9));
}

TEST_CASE(
    "Scheduling floor: a stage submitted while every slot is busy waits in the scheduler, "
    "not in the driver",
    "[validate][floor]") {
  // One executor, 1 core. Stage 0 submitted 0, task 0 → 1000. Stage 1 (job 1) submitted at
  // 200 (anchored on the selection's start: no stage completed before), first launch 1000 when
  // the slot freed: the recorded 800 ms are waiting, the driver's own delay is 1000 − 1000 = 0.
  // Floor: stage 1 submitted at 200, launches at 1000 when stage 0's task ends, runs 500 ms.
  RecordedApplication app;
  app.spark_properties["spark.master"] = "yarn";
  app.executors.push_back(Executor("1", 1, 0));
  AddStage(&app, 0, 0, 0, 1000, {{0, 1000, "1"}});
  AddStage(&app, 1, 1, 200, 1500, {{1000, 1500, "1"}});
  const FloorResult f = ReplayRecordedTasks(app, FloorSelection{{0, 1}, 0, 1500, std::nullopt});
  CHECK(f.floor_seconds == Approx(1.5).margin(1e-9));
  CHECK(f.stage_seconds.at(1) == Approx(1.3).margin(1e-9));
}

TEST_CASE(
    "Scheduling floor: slots from spark.task.cpus, stages only on their resource profile's "
    "executors, FAIR pools as observed",
    "[validate][floor]") {
  RecordedApplication app;
  app.spark_properties["spark.master"] = "yarn";
  SECTION("spark.task.cpus=4 on 8-core executors: 2 slots each") {
    app.spark_properties["spark.task.cpus"] = "4";
    app.executors.push_back(Executor("1", 8, 0));
    // Four 1 s tasks, recorded one after another (1 slot used): the floor runs two at a time.
    AddStage(&app, 0, 0, 0, 4000, {{0, 1000, "1"}, {1000, 2000, "1"}, {2000, 3000, "1"}, {3000, 4000, "1"}});
    CHECK(ReplayRecordedTasks(app, FloorSelection{{0}, 0, 4000, std::nullopt}).floor_seconds ==
          Approx(2.0).margin(1e-9));
  }
  SECTION("resource profile 1 has a 1-slot executor the profile-0 stage may not use") {
    eventlog::RecordedResourceProfile rp;
    rp.id = 1;
    rp.task_cpus = 2;
    app.resource_profiles[1] = rp;
    app.executors.push_back(Executor("1", 1, 0));
    app.executors.push_back(Executor("2", 2, 0, /*profile=*/1));
    AddStage(&app, 0, 0, 0, 2000, {{0, 1000, "1"}, {1000, 2000, "1"}});
    CHECK(app.SlotsOf(app.executors[1]) == 1);
    CHECK(ReplayRecordedTasks(app, FloorSelection{{0}, 0, 2000, std::nullopt}).floor_seconds ==
          Approx(2.0).margin(1e-9));
  }
  SECTION("FAIR: two stages of the default pool seen sharing the slots share them in the floor") {
    // 1 executor, 2 cores. Job 0's stage 0: four 1 s tasks; job 1's stage 1, submitted at 0 too,
    // launched a task at 0 while stage 0 had tasks waiting (so the pool is FAIR): recorded
    // 0-1 s: s0 t0, s1 t0; 1-2: s0 t1, s1 t1; 2-3: s0 t2; 3-4: s0 t3.
    // FIFO would give stage 1 no slot before 2 s. FAIR, one slot at a time to the set running
    // fewer tasks (ties by name, "TaskSet_0.0" first): 0 s s0 t0, s1 t0; 1 s s0 t1, s1 t1;
    // 2 s s0 t2, t3 → the floor ends at 3 s (Spark left a slot idle from 2 to 3 s), stage 1 at 2 s.
    app.spark_properties["spark.scheduler.mode"] = "FAIR";
    app.executors.push_back(Executor("1", 2, 0));
    AddStage(&app, 0, 0, 0, 4000, {{0, 1000, "1"}, {1000, 2000, "1"}, {2000, 3000, "1"}, {3000, 4000, "1"}});
    AddStage(&app, 1, 1, 0, 2000, {{0, 1000, "1"}, {1000, 2000, "1"}});
    const FloorResult f = ReplayRecordedTasks(app, FloorSelection{{0, 1}, 0, 4000, std::nullopt});
    CHECK(f.floor_seconds == Approx(3.0).margin(1e-9));
    CHECK(f.stage_seconds.at(1) == Approx(2.0).margin(1e-9));
  }
}

TEST_CASE("Scheduling floor: the fixtures re-scheduled land within 0.3% of their record",
          "[validate][floor]") {
  for (const char* log : {"aqeshuffle_eventlog.zstd", "customshuffle_eventlog.zstd",
                          "eventlog_4nodes_8cores_dynamic_alloc.zstd", "join_agg_on_yarn_eventlog.zstd"}) {
    INFO(log);
    const eventlog::RecordedApplication app =
        eventlog::ReadEventLog(eventlog::testing::Fixture(log), nullptr);
    const Validation v = ValidateApplication(app, {}, nullptr);
    REQUIRE(v.floor_makespan_relative_error);
    CHECK(std::abs(*v.floor_makespan_relative_error) < 0.003);
    REQUIRE(v.median_abs_floor_stage_error);
    CHECK(*v.median_abs_floor_stage_error < 0.003);
  }
}

}  // namespace
}  // namespace aqesim::validate
