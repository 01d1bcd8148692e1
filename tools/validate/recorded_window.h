// When a replayed selection (a SQL execution or a job) ran, as its log records it: the basis of
// its recorded duration (`aqesim validate`'s makespan) and of its scheduling floor.
//
//   start  SQLExecutionStart.time / JobStart's Submission Time; when absent, the first stage
//          submission (or first task launch) of the selection
//   end    SQLExecutionEnd.time / JobEnd's Completion Time; when absent but every stage of the
//          selection completed (a log written without the end event, e.g. an application
//          stopped before its listener flushed), the last stage completion or task end —
//          `end_from_tasks` says so; when a stage never completed (a log cut mid-stage), none:
//          the selection has no recorded duration and is left out of the makespan
#ifndef AQESIM_TOOLS_VALIDATE_RECORDED_WINDOW_H_
#define AQESIM_TOOLS_VALIDATE_RECORDED_WINDOW_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::validate {

struct RecordedWindow {
  std::optional<int64_t> start_ms;
  std::optional<int64_t> end_ms;
  bool end_from_tasks = false;  // no end event: the last stage completion / task end
  bool cut = false;             // a stage never completed: no end
  std::vector<int> stage_ids;   // the selection's stages (submitted or not)

  std::optional<double> seconds() const {
    if (!start_ms || !end_ms) return std::nullopt;
    return static_cast<double>(*end_ms - *start_ms) / 1000.0;
  }
};

/// The window of the execution or job `selection` names (execution_id or job_id).
RecordedWindow RecordedWindowOf(const eventlog::RecordedApplication& app,
                                const eventlog::ImportOptions& selection);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_RECORDED_WINDOW_H_
