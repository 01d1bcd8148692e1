#include "models/engine/recorded_failures.h"

#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace aqesim {

AttemptFailure FailureOf(const StageProfile::FailedAttempt& a) {
  if (a.reason == "FetchFailed")
    return a.stage_resubmitted ? AttemptFailure::kNotCounted : AttemptFailure::kFetchFailed;
  if (a.reason == "ExecutorLostFailure")
    return a.caused_by_app ? AttemptFailure::kCounted : AttemptFailure::kNotCounted;
  if (a.reason == "TaskKilled" || a.reason == "TaskCommitDenied" || a.reason == "Resubmitted")
    return AttemptFailure::kNotCounted;
  return AttemptFailure::kCounted;  // ExceptionFailure, TaskResultLost, UnknownReason
}

std::function<std::optional<FailedAttempt>(int, int, int)> RecordedFailedAttempts(const StageProfile& profile,
                                                                                  int num_tasks) {
  if (profile.failed_attempts.empty() || num_tasks != profile.tasks) return nullptr;
  // Per partition, its recorded failed attempts in order.
  auto by_task = std::make_shared<std::map<int, std::vector<const StageProfile::FailedAttempt*>>>();
  for (const StageProfile::FailedAttempt& a : profile.failed_attempts) (*by_task)[a.task].push_back(&a);
  return [by_task](int task, int attempt, int) -> std::optional<FailedAttempt> {
    const auto it = by_task->find(task);
    if (it == by_task->end() || attempt < 0 || static_cast<size_t>(attempt) >= it->second.size())
      return std::nullopt;
    const StageProfile::FailedAttempt& a = *it->second[static_cast<size_t>(attempt)];
    return FailedAttempt{SimTime::Seconds(a.seconds), FailureOf(a), SimTime::Seconds(a.retry_after_seconds)};
  };
}

std::string StopReasonName(AttemptFailure failure) {
  return failure == AttemptFailure::kFetchFailed ? "FetchFailed" : "aborted";
}

void AttachTaskFailures(const StageProfile* profile, const std::string& name, int max_failures, StageRun* run,
                        std::function<void(JobFailure)> on_job_failed, TaskSetSpec* spec) {
  spec->max_failures = max_failures;
  if (profile != nullptr) spec->failed_attempt = RecordedFailedAttempts(*profile, spec->num_tasks);
  if (!spec->failed_attempt) return;  // no attempt can fail
  spec->on_task_end = [run, inner = std::move(spec->on_task_end)](const TaskRecord& r) {
    if (r.failure) {
      ++run->failed_attempts;
    } else if (inner) {
      inner(r);
    }
  };
  spec->on_abort = [run, name, on_job_failed = std::move(on_job_failed)](SimTime at, int task,
                                                                         AttemptFailure f) {
    run->failed = StopReasonName(f);
    if (on_job_failed) on_job_failed(JobFailure{name, task, run->failed, at.seconds()});
  };
}

std::string JobFailureMessage(const JobFailure& f, int max_failures) {
  char at[32];
  std::snprintf(at, sizeof at, "%.3f s", f.at_seconds);
  if (f.reason == "FetchFailed")
    return f.stage + ": task " + std::to_string(f.task) +
           " failed fetching shuffle output (FetchFailed) and the stage was not resubmitted; its job failed "
           "at " +
           at;
  return f.stage + ": task " + std::to_string(f.task) + " failed " + std::to_string(max_failures) +
         " times (spark.task.maxFailures = " + std::to_string(max_failures) +
         "); the stage and its job aborted at " + at;
}

}  // namespace aqesim
