// The scheduling floor of a recorded run: the recorded task times re-scheduled on the recorded
// executors (Qubole Sparklens' method, with the recorded driver gaps), on the simulator's own
// scheduler (sim/task_scheduler.h). What a time model could reach at best: the distance
// between the floor and the record is what re-scheduling alone loses; the model's error beyond
// it is the model's own. `aqesim validate` prints it beside the simulated figures.
//
// For one selection (a SQL execution or a job, between `start_ms` and `end_ms`):
//   executors   as ExecutorAdded/Removed say, offered tasks until
//               RecordedApplication::OffersTasksUntilMs (dynamic allocation's idle removal);
//               slots per executor RecordedApplication::SlotsOf (cores ÷ task cpus, GPUs)
//   stage       every submitted stage of the selection that ran a task; its task attempts
//               (failed and killed ones too) in recorded launch order, each taking its recorded
//               Finish − Launch time; only on executors of its resource profile and, when
//               spark.locality.wait(.node) > 0 and every task ran PROCESS_LOCAL or NODE_LOCAL,
//               only on the executors it ran on (where its tasks could run without the wait)
//   submission  the recorded gap after the latest recorded event before it — the selection's
//               start or another of its stages' completion — replayed after that event's
//               replayed time (the driver's work between them: planning, subqueries,
//               broadcasts, AQE re-planning)
//   launch      the recorded submission → first launch delay, when a slot of its executors was
//               free at submission (else the recorded delay counted from the first task end
//               after submission: waiting for a slot is the scheduler's business, not the driver's)
//   completion  last task end + the recorded completion tail (last task end → StageCompleted)
//   order       FIFO by (job, stage); with spark.scheduler.mode=FAIR, pools as recorded
//               (scheduling_pools.h: FAIR inside a pool whose stages were seen sharing slots)
//   end         last completion + the recorded tail (last completion → selection end)
//
// With FloorSelection::executors = N (Sparklens' executor what-if, `aqesim scale`): N executors
// present from the start instead of the recorded ones, each with the slots of the selection's
// first executor of the default profile, every stage allowed on all of them (no locality
// restriction: the recorded hosts no longer exist); everything else as above.
#ifndef AQESIM_TOOLS_VALIDATE_SCHEDULING_FLOOR_H_
#define AQESIM_TOOLS_VALIDATE_SCHEDULING_FLOOR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::validate {

struct FloorSelection {
  std::vector<int> stage_ids;  // candidate stages; those not submitted or without tasks are skipped
  int64_t start_ms = 0;
  int64_t end_ms = 0;
  /// Re-schedule on this many executors instead of the recorded ones (see the file comment).
  std::optional<int> executors;
};

struct FloorResult {
  double floor_seconds = 0;  // replayed start → end
  /// Replayed submission → completion per recorded stage id.
  std::map<int, double> stage_seconds;
};

/// The floor of one selection (see the header comment). A selection with no stage that ran a
/// task replays as its recorded duration.
FloorResult ReplayRecordedTasks(const eventlog::RecordedApplication& app, const FloorSelection& selection);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_SCHEDULING_FLOOR_H_
