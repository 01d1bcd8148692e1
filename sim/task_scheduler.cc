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

TaskScheduler::TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline,
                             int slots_per_executor)
    : sim_(sim), slots_(static_cast<int>(timeline.size()), slots_per_executor, /*all_present=*/false) {
  running_.resize(static_cast<size_t>(slots_.total_slots()));
  for (size_t i = 0; i < timeline.size(); ++i) {
    const int e = static_cast<int>(i);
    const ExecutorWindow& w = timeline[i];
    if (w.remove && *w.remove <= sim_.Now()) continue;  // gone before the start: never present
    if (w.remove && *w.remove <= w.add) {
      throw std::logic_error("TaskScheduler: executor " + std::to_string(e) +
                             " removed at or before its registration");
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
    throw std::logic_error("TaskScheduler::Submit: negative task count " + std::to_string(spec.num_tasks));
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
  if (s.spec.preferred_executors) {
    if (s.spec.locality_wait < SimTime::Zero())
      throw std::logic_error("TaskScheduler: negative locality wait");
    auto L = std::make_unique<Locality>();
    const int n = s.spec.num_tasks;
    L->prefs.resize(static_cast<size_t>(n));
    L->launched.assign(static_cast<size_t>(n), 0);
    L->timer_start = sim_.Now();
    for (int t = n - 1; t >= 0; --t) {  // descending: the lowest index ends at the back
      std::vector<int> prefs;
      for (int e : s.spec.preferred_executors(t)) {
        if (e >= 0 && e < slots_.executors() && std::find(prefs.begin(), prefs.end(), e) == prefs.end()) {
          prefs.push_back(e);
        }
      }
      for (int e : prefs) L->by_executor[e].push_back(t);
      (prefs.empty() ? L->no_pref : L->with_pref).push_back(t);
      L->prefs[static_cast<size_t>(t)] = std::move(prefs);
    }
    if (!L->with_pref.empty()) s.locality = std::move(L);  // no task prefers anything: plain FIFO
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

void TaskScheduler::Launch(TaskSetId id, int task_index, SlotRef slot, SimTime now) {
  TaskSetState& s = sets_[id];
  const SimTime duration = s.spec.duration(task_index, slot.executor);
  if (duration < SimTime::Zero()) {
    throw std::logic_error("TaskScheduler: negative duration " + std::to_string(duration.micros()) +
                           " us for task " + std::to_string(task_index) + " of task set " +
                           std::to_string(id));
  }
  const int flat = slots_.FlatId(slot);
  running_[flat] = Running{id, task_index, now};
  ++s.launched;
  ++running_tasks_;
  --pending_tasks_;
  ++tasks_launched_;
  sim_.ScheduleAt(now + duration, kTaskEndTier, [this, flat] { OnTaskEnd(flat); });
}

void TaskScheduler::Dispatch() {
  dispatch_scheduled_ = false;
  const SimTime now = sim_.Now();
  auto it = runnable_.begin();
  while (slots_.free_slots() > 0 && it != runnable_.end()) {
    const TaskSetId id = it->second;
    TaskSetState& s = sets_[id];
    if (s.locality) {
      DispatchWithLocality(id, now);
    } else {
      while (slots_.free_slots() > 0 && s.next_task < s.spec.num_tasks)
        Launch(id, s.next_task++, *slots_.Acquire(), now);
    }
    // A set that held tasks back (locality) leaves the free slots to the next sets.
    it = s.launched == s.spec.num_tasks ? runnable_.erase(it) : std::next(it);
  }
}

void TaskScheduler::DispatchWithLocality(TaskSetId id, SimTime now) {
  TaskSetState& s = sets_[id];
  Locality& L = *s.locality;
  auto pop = [&](std::vector<int>& list) {  // lowest pending index of a list, or -1
    while (!list.empty() && L.launched[static_cast<size_t>(list.back())]) list.pop_back();
    if (list.empty()) return -1;
    const int t = list.back();
    list.pop_back();
    L.launched[static_cast<size_t>(t)] = 1;
    return t;
  };
  // Node level: round-robin over the preferred executors with a free slot, one task each.
  bool local = false;
  for (bool any = true; any && slots_.free_slots() > 0;) {
    any = false;
    for (auto it = L.by_executor.begin(); it != L.by_executor.end() && slots_.free_slots() > 0;) {
      const int e = it->first;
      if (!slots_.HasFreeSlotOn(e)) {
        ++it;
        continue;
      }
      const int t = pop(it->second);
      if (t < 0) {
        it = L.by_executor.erase(it);  // none left for it
        continue;
      }
      Launch(id, t, *slots_.AcquireOn(e), now);
      any = local = true;
      ++it;
    }
  }
  // No preference: anywhere, at once (Spark's NO_PREF level has no wait).
  while (slots_.free_slots() > 0) {
    const int t = pop(L.no_pref);
    if (t < 0) break;
    Launch(id, t, *slots_.Acquire(), now);
  }
  // Tasks with preferences left: anywhere once the timer expired, or when none of their
  // preferred executors is present; otherwise they wait.
  bool held_back = false;
  const bool expired = now - L.timer_start >= s.spec.locality_wait;
  if (slots_.free_slots() > 0 && !expired && slots_.present_executors() == slots_.executors()) {
    // Every executor present and the timer running: all of them wait (no scan).
    while (!L.with_pref.empty() && L.launched[static_cast<size_t>(L.with_pref.back())])
      L.with_pref.pop_back();
    held_back = !L.with_pref.empty();
  } else if (slots_.free_slots() > 0) {
    // Descending list: scan from the back (lowest index first), keeping the waiting ones.
    std::vector<int>& list = L.with_pref;
    std::vector<int> kept;  // waiting tasks met on the way, descending order restored below
    while (slots_.free_slots() > 0 && !list.empty()) {
      const int t = list.back();
      list.pop_back();
      if (L.launched[static_cast<size_t>(t)]) continue;
      bool present = false;
      for (int e : L.prefs[static_cast<size_t>(t)]) present |= slots_.IsPresent(e);
      if (!expired && present) {
        kept.push_back(t);
        held_back = true;
        continue;
      }
      L.launched[static_cast<size_t>(t)] = 1;
      Launch(id, t, *slots_.Acquire(), now);
    }
    list.insert(list.end(), kept.rbegin(), kept.rend());
  }
  if (local && !held_back) L.timer_start = now;
  if (held_back) {
    const SimTime expiry = L.timer_start + s.spec.locality_wait;
    if (!L.wake_at || *L.wake_at != expiry) {
      L.wake_at = expiry;
      sim_.ScheduleAt(expiry, kTaskEndTier, [this] {
        if (!runnable_.empty()) RequestDispatch();
      });
    }
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
