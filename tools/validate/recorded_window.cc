#include "tools/validate/recorded_window.h"

#include <algorithm>

namespace aqesim::validate {

RecordedWindow RecordedWindowOf(const eventlog::RecordedApplication& app,
                                const eventlog::ImportOptions& selection) {
  RecordedWindow w;
  std::vector<int> job_ids;
  if (selection.job_id) {
    job_ids.push_back(*selection.job_id);
    if (auto it = app.jobs.find(*selection.job_id); it != app.jobs.end()) {
      w.start_ms = it->second.submission_time_ms;
      w.end_ms = it->second.completion_time_ms;
    }
  } else if (selection.execution_id) {
    if (auto it = app.executions.find(*selection.execution_id); it != app.executions.end()) {
      w.start_ms = it->second.start_time_ms;
      w.end_ms = it->second.end_time_ms;
      job_ids = it->second.job_ids;
    }
  }
  for (int j : job_ids) {
    auto it = app.jobs.find(j);
    if (it == app.jobs.end()) continue;
    for (int s : it->second.stage_ids) {
      if (std::find(w.stage_ids.begin(), w.stage_ids.end(), s) == w.stage_ids.end()) w.stage_ids.push_back(s);
    }
  }
  std::sort(w.stage_ids.begin(), w.stage_ids.end());
  std::optional<int64_t> first, last;
  bool all_completed = true;
  for (int s : w.stage_ids) {
    const eventlog::RecordedStage* st = app.stage(s);
    if (st == nullptr || !st->submitted) continue;
    if (!st->completion_time_ms) all_completed = false;
    auto widen = [&](int64_t t) {
      first = first ? std::min(*first, t) : t;
      last = last ? std::max(*last, t) : t;
    };
    if (st->submission_time_ms) widen(*st->submission_time_ms);
    if (st->completion_time_ms) widen(*st->completion_time_ms);
    for (const eventlog::RecordedTask& t : st->tasks) {
      widen(t.launch_time_ms);
      widen(t.finish_time_ms);
    }
  }
  if (!w.start_ms) w.start_ms = first;
  if (!w.end_ms) {
    if (all_completed && last) {
      w.end_ms = last;
      w.end_from_tasks = true;
    } else {
      w.cut = true;
    }
  }
  if (w.start_ms && w.end_ms && *w.end_ms < *w.start_ms) w.end_ms = w.start_ms;
  return w;
}

}  // namespace aqesim::validate
