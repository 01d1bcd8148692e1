// TaskScheduler's failed attempts (sim/task_attempts.cc) against hand-computed schedules: a failed
// attempt holds its slot for its own time and is retried before the set's other pending tasks;
// spark.task.maxFailures aborts the set; a fetch failure stops it at once with its running
// attempts killed; an attempt's retry may wait (a lost map output re-queued when its executor goes).
#include <catch2/catch.hpp>
#include <optional>
#include <vector>

#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {
namespace {

constexpr SimTime Ms(int64_t ms) { return SimTime::Micros(ms * 1000); }

struct Run {
  std::vector<TaskRecord> records;  // in end order
  std::optional<SimTime> completed_at;
  std::optional<SimTime> stopped_at;
  int stopped_task = -1;
  std::optional<AttemptFailure> stopped_by;

  TaskSetSpec Spec(int num_tasks, SimTime each) {
    TaskSetSpec spec;
    spec.num_tasks = num_tasks;
    spec.duration = [each](int, int) { return each; };
    spec.on_task_end = [this](const TaskRecord& r) { records.push_back(r); };
    spec.on_task_set_complete = [this](SimTime t) { completed_at = t; };
    spec.on_abort = [this](SimTime t, int task, AttemptFailure f) {
      stopped_at = t;
      stopped_task = task;
      stopped_by = f;
    };
    return spec;
  }
};

/// Attempts of `task` below `failing` fail after `after` with `how` (and `retry_after`).
std::function<std::optional<FailedAttempt>(int, int, int)> Failing(int task, int failing, SimTime after,
                                                                   AttemptFailure how,
                                                                   SimTime retry_after = SimTime::Zero()) {
  return [=](int t, int attempt, int) -> std::optional<FailedAttempt> {
    if (t != task || attempt >= failing) return std::nullopt;
    return FailedAttempt{after, how, retry_after};
  };
}

TEST_CASE(
    "TaskScheduler: a failed attempt holds its slot, then its retry launches before the other pending tasks",
    "[sim][task_scheduler][failures]") {
  // 1 executor x 2 slots, 3 tasks of 1 s; task 0's first attempt fails after 0.5 s.
  // 0: t0.a0 slot 0, t1 slot 1. 0.5: t0.a0 fails, t0.a1 takes slot 0 (before t2). 1.0: t1 ends,
  // t2 on slot 1. 1.5: t0.a1 ends. 2.0: t2 ends, the set completes.
  Simulator sim;
  TaskScheduler sched(sim, 1, 2);
  Run run;
  TaskSetSpec spec = run.Spec(3, Ms(1000));
  spec.max_failures = 4;
  spec.failed_attempt = Failing(0, 1, Ms(500), AttemptFailure::kCounted);
  sched.Submit(std::move(spec));
  sim.Run();
  REQUIRE(run.records.size() == 4);
  const TaskRecord& failed = run.records[0];
  CHECK(failed.task_index == 0);
  CHECK(failed.attempt == 0);
  CHECK(failed.failure == AttemptFailure::kCounted);
  CHECK(failed.start == Ms(0));
  CHECK(failed.end == Ms(500));
  CHECK(failed.slot == 0);
  const TaskRecord& t1 = run.records[1];
  CHECK(t1.task_index == 1);
  CHECK(t1.end == Ms(1000));
  const TaskRecord& retry = run.records[2];
  CHECK(retry.task_index == 0);
  CHECK(retry.attempt == 1);
  CHECK_FALSE(retry.failure.has_value());
  CHECK(retry.start == Ms(500));
  CHECK(retry.end == Ms(1500));
  CHECK(retry.slot == 0);
  const TaskRecord& t2 = run.records[3];
  CHECK(t2.task_index == 2);
  CHECK(t2.start == Ms(1000));
  CHECK(t2.end == Ms(2000));
  CHECK(t2.slot == 1);
  REQUIRE(run.completed_at.has_value());
  CHECK(*run.completed_at == Ms(2000));
  CHECK_FALSE(run.stopped_at.has_value());
  CHECK(sched.tasks_launched() == 4);
  CHECK(sched.busy_slot_time() == Ms(3500));
  CHECK(sched.Idle());
}

TEST_CASE("TaskScheduler: a task failing spark.task.maxFailures times aborts its set",
          "[sim][task_scheduler][failures]") {
  // 1 slot, 3 tasks of 1 s; task 1 fails every attempt after 0.25 s; maxFailures 3.
  // t0 [0, 1]; t1.a0 [1, 1.25], a1 [1.25, 1.5], a2 [1.5, 1.75]: the third failure aborts at 1.75;
  // t2 never launches and the set never completes.
  Simulator sim;
  TaskScheduler sched(sim, 1, 1);
  Run run;
  TaskSetSpec spec = run.Spec(3, Ms(1000));
  spec.max_failures = 3;
  spec.failed_attempt = Failing(1, 100, Ms(250), AttemptFailure::kCounted);
  const TaskSetId id = sched.Submit(std::move(spec));
  sim.Run();
  REQUIRE(run.records.size() == 4);
  CHECK(run.records[0].task_index == 0);
  CHECK(run.records[0].end == Ms(1000));
  for (int a = 0; a < 3; ++a) {
    INFO("attempt " << a);
    const TaskRecord& r = run.records[static_cast<size_t>(1 + a)];
    CHECK(r.task_index == 1);
    CHECK(r.attempt == a);
    CHECK(r.failure == AttemptFailure::kCounted);
    CHECK(r.start == Ms(1000 + 250 * a));
    CHECK(r.end == Ms(1250 + 250 * a));
  }
  REQUIRE(run.stopped_at.has_value());
  CHECK(*run.stopped_at == Ms(1750));
  CHECK(run.stopped_task == 1);
  CHECK(run.stopped_by == AttemptFailure::kCounted);
  CHECK_FALSE(run.completed_at.has_value());
  CHECK(sched.IsStopped(id));
  CHECK_FALSE(sched.IsComplete(id));
  CHECK(sched.pending_tasks() == 0);
  CHECK(sched.Idle());
  CHECK(sim.Now() == Ms(1750));

  SECTION("failures that do not count never abort") {
    Simulator sim2;
    TaskScheduler sched2(sim2, 1, 1);
    Run run2;
    TaskSetSpec spec2 = run2.Spec(3, Ms(1000));
    spec2.max_failures = 1;
    spec2.failed_attempt = Failing(1, 3, Ms(250), AttemptFailure::kNotCounted);
    sched2.Submit(std::move(spec2));
    sim2.Run();
    // t0 [0, 1], t1 fails at 1.25, 1.5, 1.75, succeeds [1.75, 2.75], t2 [2.75, 3.75].
    REQUIRE(run2.completed_at.has_value());
    CHECK(*run2.completed_at == Ms(3750));
    CHECK_FALSE(run2.stopped_at.has_value());
    CHECK(run2.records.size() == 6);
  }
}

TEST_CASE("TaskScheduler: a fetch failure stops the set at once; its running attempts end killed",
          "[sim][task_scheduler][failures]") {
  // 2 slots, 3 tasks of 1 s; task 1 fetch-fails after 0.4 s: the set stops at 0.4, t0 runs to
  // 1.0 and ends killed (not counted), t2 never launches.
  Simulator sim;
  TaskScheduler sched(sim, 1, 2);
  Run run;
  TaskSetSpec spec = run.Spec(3, Ms(1000));
  spec.max_failures = 4;
  spec.failed_attempt = Failing(1, 1, Ms(400), AttemptFailure::kFetchFailed);
  sched.Submit(std::move(spec));
  sim.Run();
  REQUIRE(run.stopped_at.has_value());
  CHECK(*run.stopped_at == Ms(400));
  CHECK(run.stopped_task == 1);
  CHECK(run.stopped_by == AttemptFailure::kFetchFailed);
  REQUIRE(run.records.size() == 2);
  CHECK(run.records[0].task_index == 1);
  CHECK(run.records[0].failure == AttemptFailure::kFetchFailed);
  CHECK(run.records[1].task_index == 0);
  CHECK(run.records[1].end == Ms(1000));
  CHECK(run.records[1].failure == AttemptFailure::kNotCounted);  // killed
  CHECK_FALSE(run.completed_at.has_value());
  CHECK(sim.Now() == Ms(1000));
}

TEST_CASE("TaskScheduler: a retry waits retry_after; another set takes the slot meanwhile",
          "[sim][task_scheduler][failures]") {
  // 1 slot; set A: 2 tasks of 1 s, t0's first attempt ends after 1 s as lost (not counted) and is
  // pending again 2 s later; set B (lower priority key = later) 1 task of 0.5 s submitted at 0.
  // A.t0.a0 [0, 1]; A.t1 [1, 2]; B.t0 [2, 2.5]; A.t0.a1 pending at 3: [3, 4]; A completes at 4.
  Simulator sim;
  TaskScheduler sched(sim, 1, 1);
  Run a, b;
  TaskSetSpec sa = a.Spec(2, Ms(1000));
  sa.priority = 0;
  sa.failed_attempt = Failing(0, 1, Ms(1000), AttemptFailure::kNotCounted, Ms(2000));
  TaskSetSpec sb = b.Spec(1, Ms(500));
  sb.priority = 1;
  sched.Submit(std::move(sa));
  sched.Submit(std::move(sb));
  sim.RunUntil(Ms(2750));
  CHECK_FALSE(sched.Idle());  // the retry waits, nothing runs
  CHECK(sched.running_tasks() == 0);
  sim.Run();
  REQUIRE(b.completed_at.has_value());
  CHECK(*b.completed_at == Ms(2500));
  REQUIRE(a.completed_at.has_value());
  CHECK(*a.completed_at == Ms(4000));
  REQUIRE(a.records.size() == 3);
  CHECK(a.records[2].task_index == 0);
  CHECK(a.records[2].attempt == 1);
  CHECK(a.records[2].start == Ms(3000));
}

}  // namespace
}  // namespace aqesim
