#include "sim/task_scheduler.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "sim/simulator.h"

namespace aqesim {
namespace {

constexpr SimTime Sec(int64_t s) { return SimTime::Micros(s * 1000000); }
constexpr SimTime Ms(int64_t ms) { return SimTime::Micros(ms * 1000); }

// A task set whose records and completion time are captured for assertions.
struct Recorder {
  std::vector<TaskRecord> records;
  std::optional<SimTime> completed_at;

  TaskSetSpec Spec(int priority, int num_tasks, std::function<SimTime(int, int)> duration) {
    TaskSetSpec spec;
    spec.priority = priority;
    spec.num_tasks = num_tasks;
    spec.duration = std::move(duration);
    spec.on_task_end = [this](const TaskRecord& r) { records.push_back(r); };
    spec.on_task_set_complete = [this](SimTime t) { completed_at = t; };
    return spec;
  }
  // Record of task `index` (records arrive in completion order).
  const TaskRecord& Task(int index) const {
    for (const TaskRecord& r : records) {
      if (r.task_index == index) return r;
    }
    FAIL("no record for task " << index);
    return records.front();
  }
};

TEST_CASE("TaskScheduler: 10 equal 1 s tasks on 4 slots take exactly 3 s", "[sim][task_scheduler]") {
  Simulator sim;
  TaskScheduler sched(sim, 2, 2);
  Recorder rec;
  sched.Submit(rec.Spec(0, 10, [](int, int) { return Sec(1); }));
  sim.Run();
  REQUIRE(rec.completed_at.has_value());
  CHECK(*rec.completed_at == Sec(3));
  CHECK(sim.Now() == Sec(3));
  REQUIRE(rec.records.size() == 10);
  // Waves: tasks 0-3 start at 0 s, 4-7 at 1 s, 8-9 at 2 s.
  for (int i = 0; i < 10; ++i) {
    INFO("task " << i);
    CHECK(rec.Task(i).start == Sec(i / 4));
    CHECK(rec.Task(i).end == Sec(i / 4 + 1));
  }
  CHECK(sched.tasks_launched() == 10);
  CHECK(sched.tasks_completed() == 10);
  CHECK(sched.busy_slot_time() == Sec(10));
  CHECK(sched.task_sets_completed() == 1);
  CHECK(sched.Idle());
  CHECK(sched.slots().free_slots() == 4);
}

TEST_CASE("TaskScheduler: 2 executors x 2 slots place tasks on executors 0,1,0,1", "[sim][task_scheduler]") {
  Simulator sim;
  TaskScheduler sched(sim, 2, 2);
  Recorder rec;
  sched.Submit(rec.Spec(0, 4, [](int, int) { return Sec(1); }));
  sim.Run();
  REQUIRE(rec.records.size() == 4);
  const int expected_executor[] = {0, 1, 0, 1};
  const int expected_slot[] = {0, 0, 1, 1};
  for (int i = 0; i < 4; ++i) {
    INFO("task " << i);
    CHECK(rec.Task(i).executor == expected_executor[i]);
    CHECK(rec.Task(i).slot == expected_slot[i]);
    CHECK(rec.Task(i).start == SimTime::Zero());
  }
  CHECK(sched.slots().acquisitions_on(0) == 2);
  CHECK(sched.slots().acquisitions_on(1) == 2);
}

TEST_CASE("TaskScheduler: concurrent task sets share slots FIFO by priority key", "[sim][task_scheduler]") {
  // 2 executors x 1 slot. A (key 5): durations 3,1,2,2 s, submitted at 0.
  // B (key 2): two 1 s tasks, submitted at 0.5 s (all slots busy then).
  // By hand:
  //   t=0  A0 -> e0 [0,3], A1 -> e1 [0,1]
  //   t=1  e1 free; B (lower key) wins: B0 -> e1 [1,2]
  //   t=2  B1 -> e1 [2,3]
  //   t=3  e0 and e1 free together; A2 -> e0 [3,5], A3 -> e1 [3,5]
  Simulator sim;
  TaskScheduler sched(sim, 2, 1);
  Recorder a, b;
  const int64_t a_dur[] = {3, 1, 2, 2};
  const TaskSetId a_id = sched.Submit(a.Spec(5, 4, [&](int i, int) { return Sec(a_dur[i]); }));
  TaskSetId b_id = -1;
  sim.ScheduleAt(Ms(500), [&] { b_id = sched.Submit(b.Spec(2, 2, [](int, int) { return Sec(1); })); });
  sim.Run();
  CHECK(a_id == 0);
  CHECK(b_id == 1);
  REQUIRE(a.records.size() == 4);
  REQUIRE(b.records.size() == 2);
  CHECK(a.Task(0).start == Sec(0));
  CHECK(a.Task(0).executor == 0);
  CHECK(a.Task(1).start == Sec(0));
  CHECK(a.Task(1).executor == 1);
  CHECK(b.Task(0).start == Sec(1));
  CHECK(b.Task(0).executor == 1);
  CHECK(b.Task(1).start == Sec(2));
  CHECK(b.Task(1).executor == 1);
  CHECK(a.Task(2).start == Sec(3));
  CHECK(a.Task(2).executor == 0);
  CHECK(a.Task(3).start == Sec(3));
  CHECK(a.Task(3).executor == 1);
  CHECK(*b.completed_at == Sec(3));
  CHECK(*a.completed_at == Sec(5));
  CHECK(sched.busy_slot_time() == Sec(3 + 1 + 2 + 2 + 1 + 1));
  CHECK(sched.IsComplete(a_id));
  CHECK(sched.IsComplete(b_id));
}

TEST_CASE("TaskScheduler: equal keys run in submission order", "[sim][task_scheduler]") {
  Simulator sim;
  TaskScheduler sched(sim, 1, 1);
  Recorder first, second;
  sched.Submit(first.Spec(3, 2, [](int, int) { return Sec(1); }));
  sched.Submit(second.Spec(3, 1, [](int, int) { return Sec(1); }));
  sim.Run();
  CHECK(first.Task(0).start == Sec(0));
  CHECK(first.Task(1).start == Sec(1));
  CHECK(second.Task(0).start == Sec(2));
}

TEST_CASE("TaskScheduler: a later-submitted lower key gets the next free slot, no preemption",
          "[sim][task_scheduler]") {
  // 1 slot. A (key 3): three 1 s tasks at 0. B (key 1): one 1 s task at 1.5 s.
  // A1 [1,2] keeps running; B0 takes the slot at 2; A2 runs last [3,4].
  Simulator sim;
  TaskScheduler sched(sim, 1, 1);
  Recorder a, b;
  sched.Submit(a.Spec(3, 3, [](int, int) { return Sec(1); }));
  sim.ScheduleAt(Ms(1500), [&] { sched.Submit(b.Spec(1, 1, [](int, int) { return Sec(1); })); });
  sim.Run();
  CHECK(a.Task(0).start == Sec(0));
  CHECK(a.Task(1).start == Sec(1));
  CHECK(a.Task(1).end == Sec(2));
  CHECK(b.Task(0).start == Sec(2));
  CHECK(a.Task(2).start == Sec(3));
  CHECK(*a.completed_at == Sec(4));
  CHECK(*b.completed_at == Sec(3));
}

TEST_CASE("TaskScheduler: a set submitted at a completion instant competes for that slot",
          "[sim][task_scheduler]") {
  // 1 slot. A (key 3) has two 1 s tasks; when A0 ends at 1 s its callback submits
  // C (key 0). The launch pass runs after everything at t = 1, so C0 wins the slot.
  Simulator sim;
  TaskScheduler sched(sim, 1, 1);
  Recorder a, c;
  TaskSetSpec spec = a.Spec(3, 2, [](int, int) { return Sec(1); });
  spec.on_task_end = [&](const TaskRecord& r) {
    a.records.push_back(r);
    if (r.task_index == 0) sched.Submit(c.Spec(0, 1, [](int, int) { return Sec(2); }));
  };
  sched.Submit(std::move(spec));
  sim.Run();
  CHECK(c.Task(0).start == Sec(1));
  CHECK(a.Task(1).start == Sec(3));
  CHECK(*a.completed_at == Sec(4));
}

TEST_CASE("TaskScheduler: durations may depend on the executor", "[sim][task_scheduler]") {
  // 2 executors x 1 slot; a task takes 1 s on e0 and 3 s on e1.
  //   t=0 T0 -> e0 [0,1], T1 -> e1 [0,3]; t=1 T2 -> e0 [1,2]; t=2 T3 -> e0 [2,3].
  Simulator sim;
  TaskScheduler sched(sim, 2, 1);
  Recorder rec;
  std::vector<std::pair<int, int>> asked;  // (task, executor) in launch order
  sched.Submit(rec.Spec(0, 4, [&](int task, int executor) {
    asked.emplace_back(task, executor);
    return executor == 0 ? Sec(1) : Sec(3);
  }));
  sim.Run();
  CHECK(asked == std::vector<std::pair<int, int>>{{0, 0}, {1, 1}, {2, 0}, {3, 0}});
  CHECK(rec.Task(1).end == Sec(3));
  CHECK(rec.Task(2).start == Sec(1));
  CHECK(rec.Task(3).start == Sec(2));
  CHECK(*rec.completed_at == Sec(3));
  // Completion order: T0 (1 s), T2 (2 s), then T1 and T3 at 3 s in launch order.
  std::vector<int> order;
  for (const TaskRecord& r : rec.records) order.push_back(r.task_index);
  CHECK(order == std::vector<int>{0, 2, 1, 3});
}

TEST_CASE("TaskScheduler: launch delay, empty sets, zero durations", "[sim][task_scheduler]") {
  Simulator sim;
  TaskScheduler sched(sim, 1, 2);

  SECTION("launch delay postpones the set") {
    Recorder rec;
    TaskSetSpec spec = rec.Spec(0, 3, [](int, int) { return Sec(1); });
    spec.launch_delay = Ms(250);
    sched.Submit(std::move(spec));
    CHECK_FALSE(sched.Idle());
    sim.Run();
    CHECK(rec.Task(0).start == Ms(250));
    CHECK(rec.Task(1).start == Ms(250));
    CHECK(rec.Task(2).start == Ms(1250));
    CHECK(*rec.completed_at == Ms(2250));
  }
  SECTION("an empty set completes when it becomes runnable, not inside Submit") {
    Recorder rec;
    TaskSetSpec spec = rec.Spec(0, 0, [](int, int) { return Sec(1); });
    spec.launch_delay = Ms(40);
    const TaskSetId id = sched.Submit(std::move(spec));
    CHECK_FALSE(rec.completed_at.has_value());
    CHECK_FALSE(sched.IsComplete(id));
    CHECK_FALSE(sched.Idle());
    sim.Run();
    CHECK(*rec.completed_at == Ms(40));
    CHECK(sched.IsComplete(id));
    CHECK(sched.Idle());
  }
  SECTION("zero-duration tasks finish at the launch instant") {
    Recorder rec;
    sched.Submit(rec.Spec(0, 5, [](int, int) { return SimTime::Zero(); }));
    sim.Run();
    CHECK(rec.records.size() == 5);
    CHECK(*rec.completed_at == SimTime::Zero());
    CHECK(sched.busy_slot_time() == SimTime::Zero());
  }
  SECTION("programmer errors") {
    TaskSetSpec no_duration;
    no_duration.num_tasks = 1;
    CHECK_THROWS_AS(sched.Submit(no_duration), std::logic_error);
    Recorder rec;
    sched.Submit(rec.Spec(0, 1, [](int, int) { return SimTime::Micros(-1); }));
    CHECK_THROWS_AS(sim.Run(), std::logic_error);
  }
}

TEST_CASE("TaskScheduler: stages chained through completion callbacks", "[sim][task_scheduler]") {
  // Stage 0: 6 tasks x 2 s on 2x2 slots -> ends at 4 s. Stage 1 is submitted at its
  // end: 2 tasks x 3 s -> ends at 7 s.
  Simulator sim;
  TaskScheduler sched(sim, 2, 2);
  Recorder s0, s1;
  TaskSetSpec spec0 = s0.Spec(0, 6, [](int, int) { return Sec(2); });
  spec0.on_task_set_complete = [&](SimTime t) {
    s0.completed_at = t;
    sched.Submit(s1.Spec(1, 2, [](int, int) { return Sec(3); }));
  };
  sched.Submit(std::move(spec0));
  sim.Run();
  CHECK(*s0.completed_at == Sec(4));
  CHECK(s1.Task(0).start == Sec(4));
  CHECK(s1.Task(0).executor == 0);
  CHECK(s1.Task(1).executor == 1);
  CHECK(*s1.completed_at == Sec(7));
  CHECK(sched.busy_slot_time() == Sec(6 * 2 + 2 * 3));
  CHECK(sched.task_sets_completed() == 2);
}

TEST_CASE("TaskScheduler: executors registering late and removed, as an executor timeline",
          "[sim][task_scheduler][timeline]") {
  Simulator sim;
  SECTION("no executor at the start: tasks wait for the first registration") {
    // Executor 0 registers at 2.5 s, executor 1 at 4 s, one slot each; 5 tasks of 2 s.
    // 2.5: t0 on e0 [2.5, 4.5]; 4: t1 on e1 [4, 6]; 4.5: t2 on e0 [4.5, 6.5];
    // 6: t3 on e1 [6, 8]; 6.5: t4 on e0 [6.5, 8.5] -> the set completes at 8.5 s.
    TaskScheduler sched(sim, {ExecutorWindow{Ms(2500), std::nullopt}, ExecutorWindow{Sec(4), std::nullopt}},
                        1);
    CHECK(sched.slots().free_slots() == 0);
    Recorder rec;
    sched.Submit(rec.Spec(0, 5, [](int, int) { return Sec(2); }));
    sim.Run();
    const std::vector<std::pair<SimTime, int>> expected = {
        {Ms(2500), 0}, {Sec(4), 1}, {Ms(4500), 0}, {Sec(6), 1}, {Ms(6500), 0}};
    for (int i = 0; i < 5; ++i) {
      INFO("task " << i);
      CHECK(rec.Task(i).start == expected[i].first);
      CHECK(rec.Task(i).executor == expected[i].second);
    }
    CHECK(*rec.completed_at == Ms(8500));
  }
  SECTION("a removed executor finishes its running task and takes no new one") {
    // e0 present from the start, removed at 3 s; e1 registers at 1 s; one slot each; 4 tasks
    // of 2 s. 0: t0 on e0 [0, 2]; 1: t1 on e1 [1, 3]; 2: t2 on e0 [2, 4] (e0 still present);
    // 3: e0 removed, t3 on e1 [3, 5]; t2 ends at 4 on e0 and e0 takes nothing more -> 5 s.
    TaskScheduler sched(sim, {ExecutorWindow{SimTime::Zero(), Sec(3)}, ExecutorWindow{Sec(1), std::nullopt}},
                        1);
    Recorder rec;
    sched.Submit(rec.Spec(0, 4, [](int, int) { return Sec(2); }));
    sim.Run();
    CHECK(rec.Task(0).start == Sec(0));
    CHECK(rec.Task(0).executor == 0);
    CHECK(rec.Task(1).start == Sec(1));
    CHECK(rec.Task(1).executor == 1);
    CHECK(rec.Task(2).start == Sec(2));
    CHECK(rec.Task(2).executor == 0);
    CHECK(rec.Task(2).end == Sec(4));
    CHECK(rec.Task(3).start == Sec(3));
    CHECK(rec.Task(3).executor == 1);
    CHECK(*rec.completed_at == Sec(5));
    CHECK(sched.slots().present_executors() == 1);
    CHECK(sched.slots().free_slots() == 1);
  }
  SECTION("a window that ended before the start is never present; bad windows are logic errors") {
    TaskScheduler sched(
        sim, {ExecutorWindow{SimTime::Zero(), SimTime::Zero()}, ExecutorWindow{Sec(1), std::nullopt}}, 2);
    CHECK(sched.slots().present_executors() == 0);
    Recorder rec;
    sched.Submit(rec.Spec(0, 1, [](int, int) { return Sec(1); }));
    sim.Run();
    CHECK(rec.Task(0).start == Sec(1));
    CHECK(rec.Task(0).executor == 1);
    Simulator other;
    CHECK_THROWS_AS(TaskScheduler(other, {ExecutorWindow{Sec(2), Sec(1)}}, 1), std::logic_error);
  }
}

TEST_CASE("TaskScheduler: delay scheduling holds tasks for their preferred executor",
          "[sim][task_scheduler][locality]") {
  Simulator sim;
  // Submits `n` tasks of `each`, every one preferring `prefs`, with `wait`, and runs.
  auto run = [&](TaskScheduler& sched, Recorder& rec, int n, SimTime each, std::vector<int> prefs,
                 SimTime wait) {
    TaskSetSpec spec = rec.Spec(0, n, [each](int, int) { return each; });
    spec.preferred_executors = [prefs](int) { return prefs; };
    spec.locality_wait = wait;
    sched.Submit(std::move(spec));
    sim.Run();
  };
  SECTION("within the wait: 3 tasks of 1 s preferring e0 run there one after another") {
    // 2 executors x 1 slot, wait 3 s. 0: t0 on e0 [0, 1]; t1, t2 held (e1 is free but not
    // preferred; the timer started at 0). 1: t1 on e0 [1, 2], t2 still held (a pass that holds
    // one back does not restart the timer); 2: t2 on e0 [2, 3].
    TaskScheduler sched(sim, 2, 1);
    Recorder rec;
    run(sched, rec, 3, Sec(1), {0}, Sec(3));
    for (int i = 0; i < 3; ++i) {
      INFO("task " << i);
      CHECK(rec.Task(i).executor == 0);
      CHECK(rec.Task(i).start == Sec(i));
    }
    CHECK(*rec.completed_at == Sec(3));
  }
  SECTION("the wait expires: tasks of 5 s, wait 3 s") {
    // 0: t0 on e0 [0, 5], t1 and t2 held. 3: the timer expires, t1 on e1 [3, 8]; t2 finds no
    // free slot. 5: e0 frees, t2 prefers it: [5, 10].
    TaskScheduler sched(sim, 2, 1);
    Recorder rec;
    run(sched, rec, 3, Sec(5), {0}, Sec(3));
    CHECK(rec.Task(1).executor == 1);
    CHECK(rec.Task(1).start == Sec(3));
    CHECK(rec.Task(2).executor == 0);
    CHECK(rec.Task(2).start == Sec(5));
    CHECK(*rec.completed_at == Sec(10));
  }
  SECTION("zero wait: preferred executors first, then anywhere at once") {
    TaskScheduler sched(sim, 2, 1);
    Recorder rec;
    run(sched, rec, 2, Sec(1), {1}, SimTime::Zero());
    CHECK(rec.Task(0).executor == 1);  // its preferred executor, though e0 comes first otherwise
    CHECK(rec.Task(1).executor == 0);
    CHECK(*rec.completed_at == Sec(1));
  }
  SECTION("held slots go to the next set; tasks without preference never wait") {
    // Set A (key 0): t0 no preference, t1 and t2 prefer e0, 2 s each, wait 10 s. Set B (key 1):
    // one 1 s task. 0: A.t1 on e0 (preferred first), A.t0 on e1 (no preference), A.t2 held;
    // B waits for a slot. 2: both free; A.t2 on e0 [2, 4], B.t0 on e1 [2, 3].
    TaskScheduler sched(sim, 2, 1);
    Recorder a, b;
    TaskSetSpec spec = a.Spec(0, 3, [](int, int) { return Sec(2); });
    spec.preferred_executors = [](int t) { return t == 0 ? std::vector<int>{} : std::vector<int>{0}; };
    spec.locality_wait = Sec(10);
    sched.Submit(std::move(spec));
    sched.Submit(b.Spec(1, 1, [](int, int) { return Sec(1); }));
    sim.Run();
    CHECK(a.Task(1).executor == 0);
    CHECK(a.Task(1).start == Sec(0));
    CHECK(a.Task(0).executor == 1);
    CHECK(a.Task(0).start == Sec(0));
    CHECK(a.Task(2).executor == 0);
    CHECK(a.Task(2).start == Sec(2));
    CHECK(b.Task(0).executor == 1);
    CHECK(b.Task(0).start == Sec(2));
  }
  SECTION("an endless wait (spark.locality.wait of years) only waits for the preferred executor") {
    // The timer's expiry saturates instead of wrapping to a time before now.
    TaskScheduler sched(sim, 2, 1);
    Recorder rec;
    run(sched, rec, 3, Sec(1), {0}, SimTime::Max());
    for (int i = 0; i < 3; ++i) CHECK(rec.Task(i).executor == 0);
    CHECK(*rec.completed_at == Sec(3));
  }
  SECTION("a preferred executor that is absent is not waited for") {
    // e0 registers only at 100 s; the tasks prefer it, so they run on e1 at once.
    TaskScheduler sched(
        sim, {ExecutorWindow{Sec(100), std::nullopt}, ExecutorWindow{SimTime::Zero(), std::nullopt}}, 1);
    Recorder rec;
    run(sched, rec, 2, Sec(1), {0}, Sec(3));
    CHECK(rec.Task(0).executor == 1);
    CHECK(rec.Task(0).start == Sec(0));
    CHECK(rec.Task(1).start == Sec(1));
    CHECK(*rec.completed_at == Sec(2));
  }
}

// Throughput check, run by hand: ./aqesim_tests "[bench]" (no timed assertion).
TEST_CASE("TaskScheduler: FAIR pools against a hand-computed schedule", "[sim][task_scheduler][fair]") {
  // 2 executors x 2 slots. Pool 1 "etl": FAIR inside, weight 1, minShare 2; pool 2 "adhoc":
  // FIFO, weight 2, minShare 0. At 0: E1 (pool 1, key 0) and E2 (pool 1, key 1), 3 tasks of 2 s
  // each; H (pool 2, key 2), 4 tasks of 1 s. Each free slot goes to the first pool in
  // FairSchedulingAlgorithm's order, then to the first set in the pool's order. By hand
  // (running etl/adhoc before each slot; slots in (slot, executor) order):
  //   t=0  (0,0) etl needy (0 < 2)           -> E1.0 on e0 [0,2]
  //        (1,0) etl needy (1 < 2); E1 1 vs E2 0 running -> E2.0 on e1 [0,2]
  //        (2,0) etl 2/1 = 2 vs adhoc 0/2 = 0 -> H.0 on e0 [0,1]
  //        (2,1) etl 2 vs adhoc 1/2 = 0.5    -> H.1 on e1 [0,1]
  //   t=1  H.0, H.1 end: adhoc 0 then 0.5 vs etl 2 -> H.2 on e0, H.3 on e1 [1,2]
  //   t=2  all four end; only etl runnable, needy: E1.1 e0, E2.1 e1, then E1 1 vs E2 1 tie ->
  //        by name ("TaskSet_0.0" < "TaskSet_1.0") E1.2 e0, E2.2 e1, [2,4]
  Simulator sim;
  TaskScheduler sched(sim, 2, 2);
  sched.SetMode(SchedulingMode::kFair);
  sched.ConfigurePool(1, PoolSpec{"etl", SchedulingMode::kFair, 1, 2});
  sched.ConfigurePool(2, PoolSpec{"adhoc", SchedulingMode::kFifo, 2, 0});
  Recorder e1, e2, h;
  TaskSetSpec s1 = e1.Spec(0, 3, [](int, int) { return Sec(2); });
  s1.pool = 1;
  TaskSetSpec s2 = e2.Spec(1, 3, [](int, int) { return Sec(2); });
  s2.pool = 1;
  TaskSetSpec s3 = h.Spec(2, 4, [](int, int) { return Sec(1); });
  s3.pool = 2;
  sched.Submit(std::move(s1));
  sched.Submit(std::move(s2));
  sched.Submit(std::move(s3));
  sim.Run();
  const int64_t e_start[] = {0, 2, 2}, h_start[] = {0, 0, 1, 1};
  const int e1_exec[] = {0, 0, 0}, e2_exec[] = {1, 1, 1}, h_exec[] = {0, 1, 0, 1};
  for (int i = 0; i < 3; ++i) {
    INFO("E task " << i);
    CHECK(e1.Task(i).start == Sec(e_start[i]));
    CHECK(e2.Task(i).start == Sec(e_start[i]));
    CHECK(e1.Task(i).executor == e1_exec[i]);
    CHECK(e2.Task(i).executor == e2_exec[i]);
  }
  for (int i = 0; i < 4; ++i) {
    INFO("H task " << i);
    CHECK(h.Task(i).start == Sec(h_start[i]));
    CHECK(h.Task(i).executor == h_exec[i]);
  }
  CHECK(*h.completed_at == Sec(2));
  CHECK(*e1.completed_at == Sec(4));
  CHECK(*e2.completed_at == Sec(4));

  SECTION("the same sets FIFO (the default mode): by key, H waits for E1 and E2") {
    Simulator fifo_sim;
    TaskScheduler fifo(fifo_sim, 2, 2);
    Recorder f1, f2, fh;
    fifo.Submit(f1.Spec(0, 3, [](int, int) { return Sec(2); }));
    fifo.Submit(f2.Spec(1, 3, [](int, int) { return Sec(2); }));
    fifo.Submit(fh.Spec(2, 4, [](int, int) { return Sec(1); }));
    fifo_sim.Run();
    // t=0 E1.0-2 and E2.0; t=2 E2.1, E2.2, H.0, H.1; t=3 H.2, H.3.
    CHECK(f1.Task(2).start == Sec(0));
    CHECK(f2.Task(0).start == Sec(0));
    CHECK(f2.Task(2).start == Sec(2));
    CHECK(fh.Task(0).start == Sec(2));
    CHECK(fh.Task(3).start == Sec(3));
    CHECK(*fh.completed_at == Sec(4));
  }
}

TEST_CASE("TaskScheduler: FAIR weights split the slots 1:3, a pool below its minShare first",
          "[sim][task_scheduler][fair]") {
  // 1 executor x 4 slots, 1 s tasks. Pools A (weight 1) and B (weight 3): running (a, b) per
  // slot: (0,0) tie 0 = 0, name "A" first -> A; (1,0) 1 vs 0 -> B; (1,1) 1 vs 1/3 -> B;
  // (1,2) 1 vs 2/3 -> B: A gets 1 slot, B 3, in each of the two rounds.
  Simulator sim;
  TaskScheduler sched(sim, 1, 4);
  sched.SetMode(SchedulingMode::kFair);
  sched.ConfigurePool(0, PoolSpec{"A", SchedulingMode::kFifo, 1, 0});
  sched.ConfigurePool(1, PoolSpec{"B", SchedulingMode::kFifo, 3, 0});
  Recorder a, b;
  TaskSetSpec sa = a.Spec(0, 2, [](int, int) { return Sec(1); });
  TaskSetSpec sb = b.Spec(1, 6, [](int, int) { return Sec(1); });
  sb.pool = 1;
  sched.Submit(std::move(sa));
  sched.Submit(std::move(sb));
  sim.Run();
  CHECK(a.Task(0).start == Sec(0));
  CHECK(a.Task(1).start == Sec(1));
  for (int i = 0; i < 6; ++i) CHECK(b.Task(i).start == Sec(i / 3));
  CHECK(*b.completed_at == Sec(2));

  SECTION("minShare: C (minShare 2, weight 1) gets 2 slots before D (weight 10)") {
    Simulator s2;
    TaskScheduler fair(s2, 1, 4);
    fair.SetMode(SchedulingMode::kFair);
    fair.ConfigurePool(0, PoolSpec{"C", SchedulingMode::kFifo, 1, 2});
    fair.ConfigurePool(1, PoolSpec{"D", SchedulingMode::kFifo, 10, 0});
    Recorder c, d;
    TaskSetSpec sd = d.Spec(0, 4, [](int, int) { return Sec(1); });
    sd.pool = 1;
    fair.Submit(std::move(sd));  // D submitted first, with the lower key
    fair.Submit(c.Spec(1, 4, [](int, int) { return Sec(1); }));
    s2.Run();
    // (0,0): C needy -> C; (1,0): C needy -> C; (2,0): C 2/1 vs D 0/10 -> D; (2,1) -> D.
    CHECK(c.Task(1).start == Sec(0));
    CHECK(c.Task(2).start == Sec(1));
    CHECK(d.Task(1).start == Sec(0));
    CHECK(d.Task(2).start == Sec(1));
  }
}

TEST_CASE("TaskScheduler: allowed executors and per-executor slot counts (resource profiles)",
          "[sim][task_scheduler]") {
  // Executor 0 has 1 slot, executor 1 three (another resource profile). A (key 0) may run only
  // on executor 1: tasks 0-2 take its slots 0, 1, 2; task 3 waits for one of them. B (key 1)
  // runs anywhere: the one free slot left, executor 0's.
  Simulator sim;
  TaskScheduler sched(sim, std::vector<ExecutorWindow>(2), std::vector<int>{1, 3});
  CHECK(sched.slots().total_slots() == 4);
  CHECK(sched.slots().slots_on(0) == 1);
  Recorder a, b;
  TaskSetSpec sa = a.Spec(0, 4, [](int i, int) { return Sec(i == 0 ? 1 : 2); });
  sa.allowed_executors = {1};
  sched.Submit(std::move(sa));
  sched.Submit(b.Spec(1, 2, [](int, int) { return Sec(3); }));
  sim.Run();
  for (int i = 0; i < 4; ++i) CHECK(a.Task(i).executor == 1);
  CHECK(a.Task(0).slot == 0);
  CHECK(a.Task(1).slot == 1);
  CHECK(a.Task(2).slot == 2);
  CHECK(a.Task(3).start == Sec(1));  // task 0's slot, when it ends
  CHECK(a.Task(3).slot == 0);
  CHECK(b.Task(0).executor == 0);
  CHECK(b.Task(0).start == Sec(0));
  // B's second task: executor 0 frees at 3 s, executor 1 at 2 s (tasks 1, 2) — the first.
  CHECK(b.Task(1).start == Sec(2));
  CHECK(b.Task(1).executor == 1);
  CHECK(*a.completed_at == Sec(3));

  SECTION("a set whose allowed executors are all absent waits, others run") {
    Simulator s2;
    std::vector<ExecutorWindow> later(2);
    later[1].add = Sec(5);
    TaskScheduler waits(s2, later, 1);
    Recorder x, y;
    TaskSetSpec sx = x.Spec(0, 1, [](int, int) { return Sec(1); });
    sx.allowed_executors = {1};
    waits.Submit(std::move(sx));
    waits.Submit(y.Spec(1, 1, [](int, int) { return Sec(1); }));
    s2.Run();
    CHECK(y.Task(0).start == Sec(0));
    CHECK(y.Task(0).executor == 0);
    CHECK(x.Task(0).start == Sec(5));
    CHECK(x.Task(0).executor == 1);
  }
}

TEST_CASE("TaskScheduler: throughput benchmark", "[.][bench]") {
  constexpr int kExecutors = 100;
  constexpr int kSlots = 8;
  constexpr int kTasksPerSet = 100000;
  constexpr int kSets = 50;
  Simulator sim;
  TaskScheduler sched(sim, kExecutors, kSlots);
  int64_t ended = 0;
  uint64_t x = 1;
  const auto begin = std::chrono::steady_clock::now();
  for (int s = 0; s < kSets; ++s) {
    TaskSetSpec spec;
    spec.priority = s;
    spec.num_tasks = kTasksPerSet;
    spec.duration = [&x](int, int) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return SimTime::Micros(1000 + static_cast<int64_t>((x >> 40) % 100000));
    };
    spec.on_task_end = [&ended](const TaskRecord&) { ++ended; };
    sched.Submit(std::move(spec));
  }
  sim.Run();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  CHECK(ended == int64_t{kSets} * kTasksPerSet);
  std::printf("TaskScheduler: %lld tasks in %.3f s = %.2f M tasks/s (%d slots)\n",
              static_cast<long long>(ended), secs, ended / secs / 1e6, kExecutors * kSlots);
}

}  // namespace
}  // namespace aqesim
