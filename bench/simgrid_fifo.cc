// B2 reference: the FIFO workload of fifo_tasks.h simulated by SimGrid (s4u). One host of
// speed 1 flop/s per slot, one worker actor per host taking the next task index from a shared
// counter (actors run cooperatively, so the counter needs no lock) and executing `seconds`
// flops. Prints one JSON object: makespan (simulated seconds), wall seconds of Engine::run.
//
// Usage: aqesim_bench_simgrid [tasks] [slots]
#include <simgrid/version.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "bench/fifo_tasks.h"

namespace sg4 = simgrid::s4u;

namespace {
std::vector<int64_t> g_seconds;
size_t g_next = 0;
int64_t g_start_sum = 0;  // sum of start times, a cross-check of the schedule (not just its end)

void Worker() {
  for (;;) {
    if (g_next >= g_seconds.size()) return;
    const size_t i = g_next++;
    g_start_sum += static_cast<int64_t>(sg4::Engine::get_clock());
    sg4::this_actor::execute(static_cast<double>(g_seconds[i]));
  }
}
}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  const int tasks = argc > 1 ? std::atoi(argv[1]) : aqesim::bench::kB2Tasks;
  const int slots = argc > 2 ? std::atoi(argv[2]) : aqesim::bench::kB2Slots;
  g_seconds = aqesim::bench::FifoTaskSeconds(tasks);
  auto* zone = sg4::create_full_zone("cluster");
  std::vector<sg4::Host*> hosts;
  for (int h = 0; h < slots; ++h)
    hosts.push_back(zone->create_host("slot-" + std::to_string(h), 1.0)->seal());
  zone->seal();
  for (int h = 0; h < slots; ++h) sg4::Actor::create("worker", hosts[h], Worker);
  const auto t0 = std::chrono::steady_clock::now();
  engine.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "{\"simulator\": \"SimGrid %d.%d.%d\", \"tasks\": %d, \"slots\": %d, \"makespan_seconds\": %.6f, "
      "\"start_time_sum_seconds\": %lld, \"wall_seconds\": %.6f}\n",
      SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH, tasks, slots,
      sg4::Engine::get_clock(), static_cast<long long>(g_start_sum), wall);
  return 0;
}
