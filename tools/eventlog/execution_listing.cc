#include "tools/eventlog/execution_listing.h"

#include "tools/eventlog/import_description.h"

namespace aqesim::eventlog {
namespace {

// Counts the submitted stages of `job` and their successful tasks into `out`.
void AddJobStages(const RecordedApplication& app, const RecordedJob& job, ListedExecution* out) {
  ++out->jobs;
  for (int s : job.stage_ids) {
    const RecordedStage* stage = app.stage(s);
    if (stage == nullptr || !stage->submitted) continue;
    ++out->stages;
    out->tasks += stage->successful_tasks;
  }
}

std::optional<int64_t> Duration(std::optional<int64_t> start_ms, std::optional<int64_t> end_ms) {
  if (!start_ms || !end_ms) return std::nullopt;
  return SaturatingSub(*end_ms, *start_ms);
}

}  // namespace

ImportSelection DefaultImportSelection(const RecordedApplication& app) {
  ImportSelection selection;
  int64_t best = -1;
  for (const auto& [id, execution] : app.executions) {
    if (execution.plans.empty()) continue;
    const int64_t bytes = app.ExecutionShuffleBytes(id);
    if (bytes > best) {
      best = bytes;
      selection.execution = &execution;
    }
  }
  if (selection.execution != nullptr) return selection;
  for (const auto& [id, job] : app.jobs) {
    const int64_t bytes = app.JobShuffleBytes(id);
    if (bytes > best) {
      best = bytes;
      selection.job = &job;
    }
  }
  return selection;
}

std::vector<ListedExecution> ListExecutions(const RecordedApplication& app) {
  const ImportSelection selection = DefaultImportSelection(app);
  std::vector<ListedExecution> listed;
  for (const auto& [id, execution] : app.executions) {
    ListedExecution row;
    row.kind = ListedExecution::Kind::kSqlExecution;
    row.id = id;
    row.description = CappedLogText(execution.description);
    row.duration_ms = Duration(execution.start_time_ms, execution.end_time_ms);
    for (int j : execution.job_ids) {
      auto it = app.jobs.find(j);
      if (it != app.jobs.end()) AddJobStages(app, it->second, &row);
    }
    row.shuffle_write_bytes = app.ExecutionShuffleBytes(id);
    row.adaptive = execution.adaptive();
    row.importable = !execution.plans.empty();
    row.default_selection = selection.execution == &execution;
    listed.push_back(std::move(row));
  }
  for (const auto& [id, job] : app.jobs) {
    if (job.execution_id) {  // its execution's row stands for it, unless it has no plan to import
      auto it = app.executions.find(*job.execution_id);
      if (it != app.executions.end() && !it->second.plans.empty()) continue;
    }
    ListedExecution row;
    row.kind = ListedExecution::Kind::kJob;
    row.id = id;
    row.description = job.description;
    if (row.description.empty() && !job.stage_ids.empty()) {
      const RecordedStage* last = app.stage(job.stage_ids.back());
      if (last != nullptr) row.description = last->name;
    }
    row.description = CappedLogText(row.description);
    row.duration_ms = Duration(job.submission_time_ms, job.completion_time_ms);
    AddJobStages(app, job, &row);
    row.shuffle_write_bytes = app.JobShuffleBytes(id);
    row.default_selection = selection.job == &job;
    listed.push_back(std::move(row));
  }
  return listed;
}

}  // namespace aqesim::eventlog
