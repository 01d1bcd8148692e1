// B2: aqesim's FIFO TaskScheduler running fifo_tasks.h's 10^6 tasks on 1,000 slots (1,000
// executors x 1 core). Counters: tasks/s (items_per_second), the makespan and the sum of task
// start times, compared with aqesim_bench_simgrid's by bench/run.sh.
#include <benchmark/benchmark.h>

#include "bench/fifo_tasks.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim::bench {
namespace {

void BM_B2_TaskScheduler(benchmark::State& state) {
  const int tasks = static_cast<int>(state.range(0));
  const int slots = static_cast<int>(state.range(1));
  const std::vector<int64_t> seconds = FifoTaskSeconds(tasks);
  double makespan = 0;
  double start_sum = 0;
  for (auto _ : state) {
    Simulator sim;
    TaskScheduler scheduler(sim, slots, 1);
    int64_t starts = 0;
    TaskSetSpec spec;
    spec.num_tasks = tasks;
    spec.duration = [&](int task, int) { return SimTime::Micros(seconds[task] * 1'000'000); };
    spec.on_task_end = [&](const TaskRecord& r) { starts += r.start.micros() / 1'000'000; };
    scheduler.Submit(std::move(spec));
    sim.Run();
    makespan = sim.Now().seconds();
    start_sum = static_cast<double>(starts);
    benchmark::DoNotOptimize(starts);
  }
  state.SetItemsProcessed(state.iterations() * tasks);
  state.counters["makespan_seconds"] = makespan;
  state.counters["start_time_sum_seconds"] = start_sum;
}
BENCHMARK(BM_B2_TaskScheduler)->Args({kB2Tasks, kB2Slots})->Unit(benchmark::kMillisecond)->Repetitions(5);

}  // namespace
}  // namespace aqesim::bench

BENCHMARK_MAIN();
