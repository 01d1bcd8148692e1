// The B2 workload shared by the aqesim and SimGrid runs: task i runs an integer number of
// seconds in [1, 1000] (exact in both simulators' time units), drawn from a fixed seed.
#ifndef AQESIM_BENCH_FIFO_TASKS_H_
#define AQESIM_BENCH_FIFO_TASKS_H_

#include <cstdint>
#include <vector>

#include "sim/rng.h"

namespace aqesim::bench {

inline constexpr int kB2Tasks = 1'000'000;
inline constexpr int kB2Slots = 1'000;

/// Durations of the B2 tasks, whole seconds.
inline std::vector<int64_t> FifoTaskSeconds(int num_tasks) {
  Rng rng(MixSeed(6, "bench-b2"));
  std::vector<int64_t> out(static_cast<size_t>(num_tasks));
  for (auto& d : out) d = 1 + static_cast<int64_t>(rng.UniformInt(1000));
  return out;
}

}  // namespace aqesim::bench

#endif  // AQESIM_BENCH_FIFO_TASKS_H_
