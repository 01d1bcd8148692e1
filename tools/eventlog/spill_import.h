// The spill record of a profiled stage (JSON `spill` of a profile, models/cost/stage_profile.h;
// priced by models/cost/profile_spill.h): what the recorded stage's spilling tasks spilled and
// what spilling cost them, so that the profile's rates and residuals describe the tasks without
// it and the engine charges it only to tasks whose working set exceeds their memory.
//
// A spilling task is one with Memory Bytes Spilled > 0. Its spill seconds are
//
//   S_i = min(run_i, max(0, GC_i − g × U_i) + 2 × D_i ÷ (diskBytesPerSecond ÷ slots))
//
//   GC_i  its JVM GC Time; g = the GC seconds per record read of the stage's tasks that did not
//         spill (0 when every task spilled): the collections a spilling task triggers beyond
//         what its records cost anyway (a heap too small for its buffers collects again and
//         again; in local mode the JVM-wide pauses of its concurrent tasks count too)
//   D_i   its Disk Bytes Spilled, written once and read back once at the executor's disk
//         bandwidth shared by its slots (cluster.diskBytesPerSecond; the cost model's own spill
//         I/O term, cost_model.h)
//   U_i   its records read (Input Records + Shuffle Records Read); run_i its Executor Run Time
//
// What else is slower in a spilling first-wave task (code not yet compiled, the first
// collections of a fresh JVM) stays in the stage's first-wave extra. Recorded in `spill`: the
// spilling tasks' count, Σ memory and disk bytes spilled, Σ GC seconds, Σ S_i, and
// recordBytes = Σ memory bytes spilled ÷ Σ U_i of the spilling tasks — the in-memory size of a
// record as the sorter held it (pages, length prefixes and pointer array: Spark counts them in
// Memory Bytes Spilled), a lower bound of the working set since the last buffer never spills.
#ifndef AQESIM_TOOLS_EVENTLOG_SPILL_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_SPILL_IMPORT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// One successful task of a profiled stage as the measurement needs it.
struct SpillTaskInput {
  const RecordedTask* task = nullptr;
  double records = 0;  // U_i
  int slots = 1;       // its executor's task slots
};

struct SpillMeasurement {
  std::vector<double> task_seconds;      // S_i per input task, in order (0 for a task that did not spill)
  std::optional<nlohmann::json> record;  // the profile's `spill`, when a task spilled and read records
};

/// The header comment's measurement over one stage's successful tasks.
SpillMeasurement MeasureSpill(const std::vector<SpillTaskInput>& tasks, int64_t disk_bytes_per_second);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SPILL_IMPORT_H_
