#include "sim/task_scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace aqesim {

TaskScheduler::TaskScheduler(Simulator& sim, int executors, int slots_per_executor)
    : sim_(sim), slots_(executors, slots_per_executor) {
  running_.resize(static_cast<size_t>(slots_.total_slots()));
}

TaskScheduler::TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline, int slots_per_executor)
    : sim_(sim), slots_(static_cast<int>(timeline.size()), slots_per_executor, /*all_present=*/false) {
  running_.resize(static_cast<size_t>(slots_.total_slots()));
  for (size_t i = 0; i < timeline.size(); ++i) {
    const int e = static_cast<int>(i);
    const ExecutorWindow& w = timeline[i];
    if (w.remove && *w.remove <= sim_.Now()) continue;  // gone before the start: never present
    if (w.remove && *w.remove <= w.add) {
      throw std::logic_error("TaskScheduler: executor " + std::to_string(e) + " removed at or before its registration");
    }
    if (w.add <= sim_.Now()) {
      slots_.SetPresent(e, true);
    } else {
      sim_.ScheduleAt(w.add, kTaskEndTier, [this, e] {
        slots_.SetPresent(e, true);
        if (!runnable_.empty()) RequestDispatch();
      });
    }
    if (w.remove) {
      const SimTime at = std::max(*w.remove, sim_.Now());
      sim_.ScheduleAt(at, kTaskEndTier, [this, e] { slots_.SetPresent(e, false); });
    }
  }
}

TaskSetId TaskScheduler::Submit(TaskSetSpec spec) {
  if (!spec.duration) throw std::logic_error("TaskScheduler::Submit: no duration callback");
  if (spec.num_tasks < 0) {
    throw std::logic_error("TaskScheduler::Submit: negative task count " +
                           std::to_string(spec.num_tasks));
  }
  if (spec.launch_delay < SimTime::Zero()) {
    throw std::logic_error("TaskScheduler::Submit: negative launch delay");
  }
  const TaskSetId id = static_cast<TaskSetId>(sets_.size());
  const SimTime delay = spec.launch_delay;
  sets_.push_back(TaskSetState{std::move(spec)});
  if (delay > SimTime::Zero()) {
    ++waiting_sets_;
    sim_.ScheduleIn(delay, kTaskEndTier, [this, id] {
      --waiting_sets_;
      Activate(id);
    });
  } else {
    Activate(id);
  }
  return id;
}

void TaskScheduler::Activate(TaskSetId id) {
  TaskSetState& s = sets_[id];
  if (s.spec.num_tasks == 0) {
    // Complete through an event, never re-entrantly from inside Submit().
    ++waiting_sets_;
    sim_.ScheduleNow(kTaskEndTier, [this, id] {
      --waiting_sets_;
      CompleteSet(id);
    });
    return;
  }
  runnable_.emplace(s.spec.priority, id);
  pending_tasks_ += s.spec.num_tasks;
  RequestDispatch();
}

void TaskScheduler::RequestDispatch() {
  if (dispatch_scheduled_) return;
  dispatch_scheduled_ = true;
  sim_.ScheduleNow(kDispatchTier, [this] { Dispatch(); });
}

void TaskScheduler::Dispatch() {
  dispatch_scheduled_ = false;
  const SimTime now = sim_.Now();
  while (slots_.free_slots() > 0 && !runnable_.empty()) {
    const auto front = runnable_.begin();
    const TaskSetId id = front->second;
    TaskSetState& s = sets_[id];
    while (slots_.free_slots() > 0 && s.next_task < s.spec.num_tasks) {
      const SlotRef slot = *slots_.Acquire();
      const int task_index = s.next_task++;
      const SimTime duration = s.spec.duration(task_index, slot.executor);
      if (duration < SimTime::Zero()) {
        throw std::logic_error("TaskScheduler: negative duration " +
                               std::to_string(duration.micros()) + " us for task " +
                               std::to_string(task_index) + " of task set " + std::to_string(id));
      }
      const int flat = slots_.FlatId(slot);
      running_[flat] = Running{id, task_index, now};
      ++running_tasks_;
      --pending_tasks_;
      ++tasks_launched_;
      sim_.ScheduleAt(now + duration, kTaskEndTier, [this, flat] { OnTaskEnd(flat); });
    }
    if (s.next_task == s.spec.num_tasks) runnable_.erase(front);
  }
}

void TaskScheduler::OnTaskEnd(int flat_slot) {
  const Running r = running_[flat_slot];
  const SlotRef slot = slots_.FromFlatId(flat_slot);
  const SimTime now = sim_.Now();
  slots_.Release(slot);
  --running_tasks_;
  ++tasks_completed_;
  busy_slot_time_ += now - r.start;
  TaskSetState& s = sets_[r.task_set];
  ++s.completed;
  if (s.spec.on_task_end) {
    s.spec.on_task_end(TaskRecord{r.task_set, r.task_index, slot.executor, slot.slot, r.start, now});
  }
  if (s.completed == s.spec.num_tasks) CompleteSet(r.task_set);
  if (runnable_.empty() || dispatch_scheduled_) return;
  // Fast path: if no other event would run before a launch pass scheduled now (nothing
  // else at this instant below kDispatchTier, or at it: those run before a new pass by
  // FIFO), launch right here. Same result as RequestDispatch(), one event fewer.
  const std::optional<Simulator::NextKey> next = sim_.PeekNext();
  if (!next || next->at > now || next->tier > kDispatchTier) {
    Dispatch();
  } else {
    RequestDispatch();
  }
}

void TaskScheduler::CompleteSet(TaskSetId id) {
  TaskSetState& s = sets_[id];
  s.done = true;
  ++task_sets_completed_;
  // Drop the callbacks (and their captures) of a finished set before calling the last one.
  std::function<void(SimTime)> on_complete = std::move(s.spec.on_task_set_complete);
  s.spec.on_task_set_complete = nullptr;
  s.spec.duration = nullptr;
  s.spec.on_task_end = nullptr;
  if (on_complete) on_complete(sim_.Now());
}

}  // namespace aqesim
