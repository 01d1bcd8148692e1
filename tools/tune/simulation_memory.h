// How many of tune's simulations may run at once: each holds its run's tasks in memory while it
// runs (measured with /usr/bin/time -v: about 450 bytes a planned task — a scan of 100 TB,
// 819,200 tasks, took 361 MB for `run` and 690 MB for a one-thread tune, whose guardrail copy
// at ×2 data plans twice the tasks), so --threads simulations of a large job at once would need
// --threads times that. Tune keeps them all within kTuneMemoryBytes by running fewer at once;
// the output does not depend on the count (tools/tune/search.h).
#ifndef AQESIM_TOOLS_TUNE_SIMULATION_MEMORY_H_
#define AQESIM_TOOLS_TUNE_SIMULATION_MEMORY_H_

#include <cstdint>

namespace aqesim::tune {

/// Memory one simulation holds per planned task, bytes (measured, rounded up).
inline constexpr int64_t kBytesPerPlannedTask = 450;
/// What tune's simulations may hold together: 2 GiB.
inline constexpr int64_t kTuneMemoryBytes = int64_t{2} << 30;

/// The simulations to run at once: `requested` (>= 1), lowered so that that many simulations of
/// `planned_tasks` × `largest_data_scale` tasks (the largest copy a configuration is simulated
/// on: ×2 data with the guardrails) hold at most kTuneMemoryBytes; never below 1.
int ThreadsWithinMemory(int requested, int64_t planned_tasks, double largest_data_scale);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_SIMULATION_MEMORY_H_
