// The driver's event loop as one server in the scheduler (sim/driver_loop.h), and launch passes
// that time their tasks after every launch (TaskSetSpec::on_launch): schedules computed by hand.
#include <catch2/catch.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {
namespace {

constexpr SimTime Ms(int64_t ms) { return SimTime::Micros(ms * 1000); }

TEST_CASE("DriverLoop: 1000 tasks of 10 ms on 100 slots launch one per driver millisecond", "[sim][driver]") {
  Simulator sim;
  TaskScheduler sched(sim, 100, 1);
  sched.SetDriverCost(Ms(1), SimTime::Zero());
  std::vector<SimTime> starts(1000);
  std::optional<SimTime> done;
  TaskSetSpec spec;
  spec.num_tasks = 1000;
  spec.duration = [](int, int) { return Ms(10); };
  spec.on_task_end = [&](const TaskRecord& r) { starts[r.task_index] = r.start; };
  spec.on_task_set_complete = [&](SimTime t) { done = t; };
  const TaskSetId id = sched.Submit(std::move(spec));
  sim.Run();
  // Without the driver: 10 waves of 10 ms = 0.1 s. With it, task k launches at k ms (never more
  // than 10 run at once, so a slot is always free): the last at 999 ms, done at 1009 ms; the
  // slots waited for the driver from 0 to 999 ms.
  for (int k : {0, 1, 2, 500, 999}) CHECK(starts[k] == Ms(k));
  REQUIRE(done);
  CHECK(*done == Ms(1009));
  CHECK(sched.driver_wait(id) == Ms(999));
}

TEST_CASE("DriverLoop: a stage's driver time delays its launches, its slots waiting", "[sim][driver]") {
  Simulator sim;
  TaskScheduler sched(sim, 2, 1);
  sched.SetDriverCost(SimTime::Zero(), Ms(500));
  std::vector<SimTime> starts(4);
  TaskSetSpec spec;
  spec.num_tasks = 4;
  spec.duration = [](int, int) { return Ms(100); };
  spec.on_task_end = [&](const TaskRecord& r) { starts[r.task_index] = r.start; };
  const TaskSetId id = sched.Submit(std::move(spec));
  sim.Run();
  // 500 ms of driver time, then two waves of 100 ms (no per-task cost: both slots at once).
  CHECK(starts == std::vector<SimTime>{Ms(500), Ms(500), Ms(600), Ms(600)});
  CHECK(sim.Now() == Ms(700));
  CHECK(sched.driver_wait(id) == Ms(500));
}

TEST_CASE("DriverLoop: zero costs leave the schedule as it was; negative ones are refused", "[sim][driver]") {
  Simulator sim;
  TaskScheduler sched(sim, 2, 1);
  sched.SetDriverCost(SimTime::Zero(), SimTime::Zero());
  TaskSetSpec spec;
  spec.num_tasks = 4;
  spec.duration = [](int, int) { return Ms(100); };
  const TaskSetId id = sched.Submit(std::move(spec));
  sim.Run();
  CHECK(sim.Now() == Ms(200));
  CHECK(sched.driver_wait(id) == SimTime::Zero());
  CHECK_THROWS_AS(sched.SetDriverCost(SimTime::Micros(-1), SimTime::Zero()), std::logic_error);
}

TEST_CASE("TaskScheduler: on_launch hears every launch of a pass before a duration is asked",
          "[sim][task_scheduler]") {
  Simulator sim;
  TaskScheduler sched(sim, 3, 1);
  int launched = 0;
  std::vector<int> seen;  // launches heard when each duration was asked
  TaskSetSpec spec;
  spec.num_tasks = 5;
  spec.on_launch = [&](int, int) { ++launched; };
  spec.duration = [&](int, int) {
    seen.push_back(launched);
    return Ms(100);
  };
  sched.Submit(std::move(spec));
  sim.Run();
  // Pass at 0: three launches, then three durations; pass at 100 ms: two more.
  CHECK(seen == std::vector<int>{3, 3, 3, 5, 5});
  CHECK(sim.Now() == Ms(200));
}

}  // namespace
}  // namespace aqesim
