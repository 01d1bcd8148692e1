// TaskScheduler's failed attempts (task_scheduler.h, "Failed attempts"), as Spark's
// TaskSetManager handles them: handleFailedTask re-adds a failed task to the pending lists
// (addPendingTask) unless its failures counting toward spark.task.maxFailures reached the limit,
// which aborts the task set; a FetchFailed attempt makes the set a zombie (isZombie: it launches
// nothing more) while the DAGScheduler fails the stage attempt.
#include <stdexcept>
#include <string>

#include "sim/task_scheduler.h"

namespace aqesim {

void TaskScheduler::OnAttemptFailed(TaskSetId id, int task, AttemptFailure failure, SimTime retry_after) {
  TaskSetState& s = sets_[id];
  if (failure == AttemptFailure::kFetchFailed) {
    Stop(id, task, failure);
    return;
  }
  if (failure == AttemptFailure::kCounted && s.spec.max_failures > 0 &&
      ++s.failures[static_cast<size_t>(task)] >= s.spec.max_failures) {
    Stop(id, task, failure);
    return;
  }
  if (retry_after <= SimTime::Zero()) {
    Requeue(id, task);
    return;
  }
  ++delayed_retries_;
  sim_.ScheduleIn(retry_after, kTaskEndTier, [this, id, task] {
    --delayed_retries_;
    Requeue(id, task);
  });
}

void TaskScheduler::Requeue(TaskSetId id, int task) {
  TaskSetState& s = sets_[id];
  if (s.stopped) return;
  s.retry.push_back(task);
  ++pending_tasks_;
  runnable_.emplace(s.spec.priority, id);
  RequestDispatch();
}

void TaskScheduler::Stop(TaskSetId id, int task, AttemptFailure failure) {
  TaskSetState& s = sets_[id];
  s.stopped = true;
  pending_tasks_ -= (s.spec.num_tasks - s.launched) + static_cast<int64_t>(s.retry.size());
  s.retry.clear();
  runnable_.erase({s.spec.priority, id});
  // Its running attempts still end (as killed): keep duration and on_task_end, drop the rest.
  std::function<void(SimTime, int, AttemptFailure)> on_abort = std::move(s.spec.on_abort);
  s.spec.on_abort = nullptr;
  s.spec.on_task_set_complete = nullptr;
  if (on_abort) on_abort(sim_.Now(), task, failure);
}

int TaskScheduler::LaunchRetries(TaskSetId id, SimTime now, int budget) {
  TaskSetState& s = sets_[id];
  int n = 0;
  while ((budget < 0 || n < budget) && !s.retry.empty() && CanAcquireFor(s)) {
    const int task = s.retry.back();
    s.retry.pop_back();
    const std::optional<SlotRef> slot = AcquireFor(s);
    if (!slot) throw std::logic_error("TaskScheduler: no slot for retry of task " + std::to_string(task));
    Launch(id, task, *slot, now);
    ++n;
  }
  return n;
}

}  // namespace aqesim
