// B5 fallback driver: a 1,000-point sweep of one scenario with a pool of worker threads, each
// point loading the scenario with its --conf override and running SimulateQuery with AQE on
// (what `aqesim sweep` does per point, minus its output files). Used by run.sh when the
// `aqesim sweep` command is not available; also reports the speed-up of 2 threads over 1.
//
// Usage: aqesim_bench_sweep SCENARIO THREADS POINTS
// Points: spark.sql.adaptive.advisoryPartitionSizeInBytes = 1 MiB, 2 MiB, ..., POINTS MiB.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"

int main(int argc, char** argv) {
  using namespace aqesim;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s SCENARIO THREADS POINTS\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const int threads = std::atoi(argv[2]);
  const int points = std::atoi(argv[3]);
  std::vector<double> makespan(static_cast<size_t>(points), -1);
  std::atomic<int> next{0};
  std::atomic<int> failed{0};
  const auto t0 = std::chrono::steady_clock::now();
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < points;) {
      ConfOverrides o;
      o.conf.push_back({"spark.sql.adaptive.advisoryPartitionSizeInBytes", std::to_string(i + 1) + "m"});
      LoadResult r = LoadScenarioFile(path, o);
      if (!r.scenario) {
        ++failed;
        continue;
      }
      makespan[static_cast<size_t>(i)] = SimulateQuery(*r.scenario, true).makespan_seconds;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double sum = 0;
  for (double m : makespan) sum += m;
  std::printf(
      "{\"points\": %d, \"threads\": %d, \"failed\": %d, \"makespan_sum_seconds\": %.6f, \"wall_seconds\": "
      "%.3f}\n",
      points, threads, failed.load(), sum, wall);
  return failed.load() == 0 ? 0 : 1;
}
