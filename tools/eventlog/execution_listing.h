// ExecutionListing: what `aqesim import-eventlog LOG --list` shows before anything is imported —
// every SQL execution of a log (id, description, duration, jobs, stages, tasks, shuffle bytes,
// whether AQE planned it) and every job importable only as a job (an RDD job, or a job of an
// execution that logged no plan), and which one the importer takes
// when neither --execution nor --job is given (DefaultImportSelection: the SQL execution with a
// plan that wrote the most shuffle bytes, else the job that did). Spark's own UI lists the same
// things on its SQL and Jobs tabs (sql/core/.../ui/AllExecutionsPage.scala, core/.../ui/jobs/).
#ifndef AQESIM_TOOLS_EVENTLOG_EXECUTION_LISTING_H_
#define AQESIM_TOOLS_EVENTLOG_EXECUTION_LISTING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// What the importer takes by default; at most one of the two is set (none: nothing to import).
struct ImportSelection {
  const RecordedSqlExecution* execution = nullptr;
  const RecordedJob* job = nullptr;
};

/// The SQL execution with a plan whose submitted stages wrote the most shuffle bytes (the lowest
/// id on a tie); without one, the job that wrote the most (the lowest id on a tie).
ImportSelection DefaultImportSelection(const RecordedApplication& app);

struct ListedExecution {
  enum class Kind { kSqlExecution, kJob };
  Kind kind = Kind::kSqlExecution;
  int64_t id = 0;  // spark.sql.execution.id, or the job id
  /// The execution's description (its SQL text or the action's call site); for a job, its
  /// spark.job.description or else its last stage's name. Capped as the importer copies log
  /// text (CappedLogText, import_description.h: 4,096 bytes, then "… [N more bytes not copied]").
  std::string description;
  std::optional<int64_t> duration_ms;  // start → end as logged; none when either is missing
  int jobs = 0;
  int stages = 0;     // submitted (skipped stages are not counted)
  int64_t tasks = 0;  // successful task attempts of those stages
  int64_t shuffle_write_bytes = 0;
  bool adaptive = false;   // the plan holds an AdaptiveSparkPlan node
  bool importable = true;  // an SQL execution needs a logged plan
  bool default_selection = false;
};

/// Every SQL execution (by id), then every job that can only be imported as a job (by id): one
/// with no spark.sql.execution.id, or whose execution logged no plan (Spark before 3.0 logs
/// none for some executions; `--job` imports such a job from its stages).
std::vector<ListedExecution> ListExecutions(const RecordedApplication& app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXECUTION_LISTING_H_
