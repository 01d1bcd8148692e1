#include "sim/task_scheduler.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/fair_order.h"

namespace aqesim {

TaskScheduler::TaskScheduler(Simulator& sim, int executors, int slots_per_executor)
    : sim_(sim), slots_(executors, slots_per_executor) {
  running_.resize(static_cast<size_t>(slots_.flat_slots()));
}

TaskScheduler::TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline,
                             int slots_per_executor)
    : TaskScheduler(sim, timeline, std::vector<int>(timeline.size(), slots_per_executor)) {}

TaskScheduler::TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline,
                             const std::vector<int>& slots_per_executor)
    : sim_(sim), slots_(slots_per_executor, /*all_present=*/false) {
  if (slots_per_executor.size() != timeline.size())
    throw std::logic_error("TaskScheduler: " + std::to_string(slots_per_executor.size()) +
                           " slot counts for " + std::to_string(timeline.size()) + " executors");
  running_.resize(static_cast<size_t>(slots_.flat_slots()));
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
  if (spec.pool < 0) throw std::logic_error("TaskScheduler::Submit: negative pool");
  if (spec.num_tasks < 0) {
    throw std::logic_error("TaskScheduler::Submit: negative task count " + std::to_string(spec.num_tasks));
  }
  if (spec.launch_delay < SimTime::Zero()) {
    throw std::logic_error("TaskScheduler::Submit: negative launch delay");
  }
  const TaskSetId id = static_cast<TaskSetId>(sets_.size());
  const SimTime delay = spec.launch_delay;
  sets_.emplace_back();
  set_running_.push_back(0);
  TaskSetState& added = sets_.back();
  added.spec = std::move(spec);
  for (int e : added.spec.allowed_executors) {
    if (e >= 0 && e < slots_.executors()) added.allowed.push_back(e);
  }
  std::sort(added.allowed.begin(), added.allowed.end());
  added.allowed.erase(std::unique(added.allowed.begin(), added.allowed.end()), added.allowed.end());
  if (!added.spec.allowed_executors.empty() && added.allowed.empty()) added.allowed.push_back(-1);  // none
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
  if (s.spec.failed_attempt) {
    s.attempts.assign(static_cast<size_t>(s.spec.num_tasks), 0);
    s.failures.assign(static_cast<size_t>(s.spec.num_tasks), 0);
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
        if (e >= 0 && e < slots_.executors() && Allows(s, e) &&
            std::find(prefs.begin(), prefs.end(), e) == prefs.end()) {
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
  if (driver_.enabled()) driver_.ChargeTaskSet(sim_.Now());
  RequestDispatch();
}

void TaskScheduler::RequestDispatch() {
  if (dispatch_scheduled_) return;
  dispatch_scheduled_ = true;
  sim_.ScheduleNow(kDispatchTier, [this] { Dispatch(); });
}

void TaskScheduler::SetDriverCost(SimTime per_task, SimTime per_task_set) {
  if (per_task < SimTime::Zero() || per_task_set < SimTime::Zero())
    throw std::logic_error("TaskScheduler::SetDriverCost: negative driver cost");
  driver_ = DriverLoop(per_task, per_task_set);
}

void TaskScheduler::ConfigurePool(int id, PoolSpec spec) {
  if (id < 0 || spec.weight < 0 || spec.min_share < 0 || spec.name.empty())
    throw std::logic_error("TaskScheduler::ConfigurePool: negative pool id, weight or minShare");
  pools_[id] = std::move(spec);
}

bool TaskScheduler::Allows(const TaskSetState& s, int executor) {
  return s.allowed.empty() || std::binary_search(s.allowed.begin(), s.allowed.end(), executor);
}

std::optional<SlotRef> TaskScheduler::AcquireFor(const TaskSetState& s) {
  if (s.allowed.empty()) return slots_.Acquire();
  // The smallest (slot, executor) among the allowed executors, as Acquire() orders slots.
  int best = -1, best_slot = 0;
  for (int e : s.allowed) {
    if (e < 0) continue;
    for (int k = 0; k < slots_.slots_on(e) && (best < 0 || k < best_slot); ++k) {
      if (slots_.IsFree(SlotRef{e, k})) {
        if (best < 0 || k < best_slot) {
          best = e;
          best_slot = k;
        }
        break;
      }
    }
  }
  if (best < 0) return std::nullopt;
  return slots_.AcquireOn(best);
}

SimTime TaskScheduler::DurationOf(TaskSetId id, int task_index, int executor) {
  const SimTime duration = sets_[id].spec.duration(task_index, executor);
  CheckDuration(id, task_index, duration);
  return duration;
}

void TaskScheduler::CheckDuration(TaskSetId id, int task_index, SimTime duration) {
  if (duration < SimTime::Zero()) {
    throw std::logic_error("TaskScheduler: negative duration " + std::to_string(duration.micros()) +
                           " us for task " + std::to_string(task_index) + " of task set " +
                           std::to_string(id));
  }
}

void TaskScheduler::Launch(TaskSetId id, int task_index, SlotRef slot, SimTime now) {
  TaskSetState& s = sets_[id];
  const int attempt = s.attempts.empty() ? 0 : s.attempts[static_cast<size_t>(task_index)]++;
  std::optional<FailedAttempt> failed;
  if (s.spec.failed_attempt) failed = s.spec.failed_attempt(task_index, attempt, slot.executor);
  if (failed) {
    CheckDuration(id, task_index, failed->duration);
    CheckDuration(id, task_index, failed->retry_after);
  }
  // A failed attempt's time is its own; a set with on_launch is timed after the pass (EndPass).
  const bool deferred = !failed && static_cast<bool>(s.spec.on_launch);
  const SimTime duration = failed     ? failed->duration
                           : deferred ? SimTime::Zero()
                                      : DurationOf(id, task_index, slot.executor);
  const int flat = slots_.FlatId(slot);
  running_[flat] = Running{id,
                           task_index,
                           now,
                           attempt,
                           failed ? std::optional(failed->failure) : std::nullopt,
                           failed ? failed->retry_after : SimTime::Zero()};
  if (mode_ == SchedulingMode::kFair) {
    ++set_running_[id];
    ++pool_running_[s.spec.pool];
  }
  if (attempt == 0) ++s.launched;
  ++running_tasks_;
  --pending_tasks_;
  ++tasks_launched_;
  if (driver_.enabled()) driver_.ChargeTask(now);
  if (!deferred) {
    Time(flat, duration);
    return;
  }
  s.spec.on_launch(task_index, slot.executor);
  untimed_.push_back(flat);
}

void TaskScheduler::Time(int flat_slot, SimTime duration) {
  sim_.ScheduleAt(running_[flat_slot].start + duration, kTaskEndTier,
                  [this, flat_slot] { OnTaskEnd(flat_slot); });
}

void TaskScheduler::EndPass(SimTime now) {
  if (!untimed_.empty()) {
    std::vector<int> untimed;
    untimed.swap(untimed_);
    for (int flat : untimed) {
      const Running& r = running_[flat];
      Time(flat, DurationOf(r.task_set, r.task_index, slots_.FromFlatId(flat).executor));
    }
  }
  if (!driver_.Busy(now) || runnable_.empty()) return;
  if (slots_.free_slots() > 0) driver_.CountWait(now, runnable_.begin()->second);
  if (driver_wake_ && *driver_wake_ == driver_.free_at()) return;
  driver_wake_ = driver_.free_at();
  sim_.ScheduleAt(driver_.free_at(), kTaskEndTier, [this] {
    driver_wake_.reset();
    if (!runnable_.empty()) RequestDispatch();
  });
}

int TaskScheduler::LaunchFrom(TaskSetId id, SimTime now, int budget) {
  TaskSetState& s = sets_[id];
  int n = s.retry.empty() ? 0 : LaunchRetries(id, now, budget);  // retries first
  if (s.locality)
    return budget >= 0 && n >= budget ? n : n + DispatchWithLocality(id, now, budget < 0 ? -1 : budget - n);
  if (s.allowed.empty()) {  // the common case: any free slot
    while ((budget < 0 || n < budget) && s.next_task < s.spec.num_tasks && slots_.free_slots() > 0) {
      Launch(id, s.next_task++, *slots_.Acquire(), now);
      ++n;
    }
    return n;
  }
  while ((budget < 0 || n < budget) && s.next_task < s.spec.num_tasks && CanAcquireFor(s)) {
    Launch(id, s.next_task++, *AcquireFor(s), now);
    ++n;
  }
  return n;
}

void TaskScheduler::Dispatch() {
  dispatch_scheduled_ = false;
  const SimTime now = sim_.Now();
  if (driver_.Busy(now)) {
    EndPass(now);
    return;
  }
  if (mode_ == SchedulingMode::kFair) {
    DispatchFair(now);
    EndPass(now);
    return;
  }
  // A busy driver launches one task per pass.
  const int budget = driver_.serial_launches() ? 1 : -1;
  auto it = runnable_.begin();
  while (slots_.free_slots() > 0 && it != runnable_.end() && !driver_.Busy(now)) {
    const TaskSetId id = it->second;
    TaskSetState& s = sets_[id];
    LaunchFrom(id, now, budget);
    // A set that held tasks back (locality) or found no allowed slot leaves the free slots to
    // the next sets.
    it = HasPending(s) ? std::next(it) : runnable_.erase(it);
  }
  EndPass(now);
}

void TaskScheduler::DispatchFair(SimTime now) {
  // Runnable sets by pool, in FIFO order within each.
  std::map<int, std::vector<TaskSetId>> by_pool;
  for (const auto& [priority, id] : runnable_) by_pool[sets_[id].spec.pool].push_back(id);
  std::set<TaskSetId> blocked;  // sets that could not launch in this pass
  while (slots_.free_slots() > 0 && !driver_.Busy(now)) {
    // Pools, then their sets, in FairSchedulingAlgorithm's order; the first set that can
    // launch takes one slot.
    std::vector<std::pair<FairKey, int>> pools;
    for (const auto& [pool, ids] : by_pool) {
      const auto it = pools_.find(pool);
      const PoolSpec spec = it == pools_.end() ? PoolSpec{} : it->second;
      pools.push_back({FairKey{pool_running_[pool], spec.min_share, spec.weight, spec.name, pool}, pool});
    }
    std::sort(pools.begin(), pools.end(),
              [](const auto& a, const auto& b) { return FairFirst(a.first, b.first); });
    bool launched = false;
    for (const auto& [key, pool] : pools) {
      std::vector<TaskSetId> ids = by_pool[pool];
      const auto pit = pools_.find(pool);
      if (pit != pools_.end() && pit->second.mode == SchedulingMode::kFair) {
        std::stable_sort(ids.begin(), ids.end(), [&](TaskSetId a, TaskSetId b) {
          return FairFirst(
              FairKey{set_running_[a], 0, 1, "TaskSet_" + std::to_string(sets_[a].spec.priority) + ".0", a},
              FairKey{set_running_[b], 0, 1, "TaskSet_" + std::to_string(sets_[b].spec.priority) + ".0", b});
        });
      }
      for (TaskSetId id : ids) {
        if (blocked.count(id) || !HasPending(sets_[id])) continue;
        if (LaunchFrom(id, now, 1) > 0) {
          launched = true;
          break;
        }
        blocked.insert(id);
      }
      if (launched) break;
    }
    if (!launched) break;
  }
  for (auto it = runnable_.begin(); it != runnable_.end();) {
    it = HasPending(sets_[it->second]) ? std::next(it) : runnable_.erase(it);
  }
}

bool TaskScheduler::CanAcquireFor(const TaskSetState& s) const {
  if (slots_.free_slots() == 0) return false;
  if (s.allowed.empty()) return true;
  for (int e : s.allowed) {
    if (e >= 0 && slots_.HasFreeSlotOn(e)) return true;
  }
  return false;
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
  if (mode_ == SchedulingMode::kFair) {
    --set_running_[r.task_set];
    --pool_running_[s.spec.pool];
  }
  // An attempt of a set that stopped while it ran was killed.
  const std::optional<AttemptFailure> failure =
      r.failure ? r.failure : (s.stopped ? std::optional(AttemptFailure::kNotCounted) : std::nullopt);
  if (!failure) ++s.completed;
  if (s.spec.on_task_end) {
    s.spec.on_task_end(
        TaskRecord{r.task_set, r.task_index, slot.executor, slot.slot, r.start, now, r.attempt, failure});
  }
  if (failure && !s.stopped) OnAttemptFailed(r.task_set, r.task_index, *failure, r.retry_after);
  if (!failure && s.completed == s.spec.num_tasks) CompleteSet(r.task_set);
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
