#include "models/engine/executor_allocation_manager.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace aqesim {

ExecutorAllocationManager::ExecutorAllocationManager(Simulator& sim, TaskScheduler& scheduler,
                                                     Settings settings, std::function<void(int)> on_replaced)
    : sim_(sim), scheduler_(scheduler), s_(std::move(settings)), on_replaced_(std::move(on_replaced)) {
  executors_.resize(static_cast<size_t>(scheduler_.slots().executors()));
  s_.slots_per_executor = std::max(1, s_.slots_per_executor);
}

void ExecutorAllocationManager::Start() {
  kills_made_ = s_.at_start ? s_.at_start->kills_made.value_or(s_.kills_before) : s_.kills_before;
  if (s_.at_start) {
    StartFrom(*s_.at_start);
    return;
  }
  target_ = s_.initial_executors;
  const int initial = std::min(s_.initial_executors, static_cast<int>(executors_.size()));
  next_fresh_ = initial;
  for (int e = 0; e < initial; ++e) Register(e);
  Record();
  sim_.ScheduleAt(SimTime::Zero(), TaskScheduler::kTaskEndTier, [this] { Tick(); });
}

void ExecutorAllocationManager::OnStageSubmitted(int num_tasks) {
  initializing_ = false;
  pending_ += std::max(0, num_tasks);
  if (!add_time_) add_time_ = sim_.Now() + SimTime::Seconds(s_.conf.scheduler_backlog_timeout_seconds);
}

void ExecutorAllocationManager::OnTaskLaunched(int executor) {
  if (executor >= 0 && static_cast<size_t>(executor) < executors_.size()) {
    ++executors_[executor].running;
    UpdateIdleDeadline(executor);
  }
  pending_ = std::max<int64_t>(0, pending_ - 1);
  ++running_;
  if (pending_ == 0) {  // onSchedulerQueueEmpty
    add_time_.reset();
    to_add_ = 1;
  }
}

void ExecutorAllocationManager::OnTaskEnd(int executor, bool wrote_shuffle_output) {
  if (executor < 0 || static_cast<size_t>(executor) >= executors_.size()) return;
  Executor& e = executors_[executor];
  e.running = std::max(0, e.running - 1);
  running_ = std::max<int64_t>(0, running_ - 1);
  e.holds_shuffle = e.holds_shuffle || wrote_shuffle_output;
  e.warm = true;
  if (e.running == 0) e.idle_since = sim_.Now();
  UpdateIdleDeadline(executor);
}

void ExecutorAllocationManager::Tick() {
  const SimTime now = sim_.Now();
  // ExecutorAllocationManager.schedule(): timed-out executors end the initializing phase, the
  // target is updated, then the timed-out executors are removed (within the bounds).
  const bool any_timed_out = !idle_deadlines_.empty() && now >= idle_deadlines_.begin()->first;
  if (any_timed_out) initializing_ = false;
  if (!initializing_) UpdateTarget(now);
  if (any_timed_out) RemoveTimedOut(now);
  // The schedule runs while anything else is left to happen (tasks, stages, the driver).
  if (sim_.pending_events() == 0 && scheduler_.Idle()) return;
  ++ticks_;
  sim_.ScheduleAt(SimTime::Seconds(static_cast<double>(ticks_) * kIntervalSeconds),
                  TaskScheduler::kTaskEndTier, [this] { Tick(); });
}

void ExecutorAllocationManager::UpdateTarget(SimTime now) {
  const int64_t tasks = pending_ + running_;
  const int max_needed = static_cast<int>(std::min<double>(
      std::numeric_limits<int>::max(),
      std::ceil(static_cast<double>(tasks) * s_.conf.executor_allocation_ratio / s_.slots_per_executor)));
  const int max_executors = s_.conf.max_executors.value_or(std::numeric_limits<int>::max());
  if (max_needed < target_) {
    // Fewer needed than targeted: lower the target (requests not yet granted are cancelled; no
    // executor is killed here: removal is the idle timeout's).
    target_ = std::max(max_needed, s_.conf.min_executors);
    to_add_ = 1;
    const int registered = static_cast<int>(registered_.size());
    CancelRequests(registered + static_cast<int>(requested_.size()) - std::max(target_, registered));
    return;
  }
  if (!add_time_ || now < *add_time_) return;
  if (target_ >= max_executors) {
    to_add_ = 1;
    return;
  }
  const int old_target = target_;
  // At least the executors the manager has (ExecutorMonitor.executorCount: a killed executor
  // counts until its removal is reported); the requests are for the live ones that are missing.
  int target = std::max(target_, RegisteredForDriver()) + to_add_;
  target = std::min(target, max_needed);
  target = std::max(std::min(target, max_executors), s_.conf.min_executors);
  const int delta = target - old_target;
  target_ = target;
  if (delta <= 0) {
    to_add_ = 1;
    return;
  }
  Request(target_ - static_cast<int>(registered_.size() + requested_.size()));
  to_add_ = delta == to_add_ ? to_add_ * 2 : 1;
  add_time_ = now + SimTime::Seconds(s_.conf.SustainedBacklogTimeoutSeconds());
}

int ExecutorAllocationManager::FreeIndex() const {
  const int capacity = static_cast<int>(executors_.size());
  const int fresh = next_fresh_ < capacity ? next_fresh_ : -1;
  if (!cancelled_.empty() && (fresh < 0 || *cancelled_.begin() < fresh)) return *cancelled_.begin();
  if (fresh >= 0) return fresh;
  for (int e : removed_)
    if (executors_[e].running == 0) return e;
  return -1;
}

void ExecutorAllocationManager::Request(int count) {
  for (int k = 0; k < count; ++k) {
    const int pick = FreeIndex();
    if (pick < 0) return;  // the scheduler's capacity is reached
    if (removed_.erase(pick) > 0 && on_replaced_) on_replaced_(pick);
    cancelled_.erase(pick);
    next_fresh_ = std::max(next_fresh_, pick + 1);
    Executor& e = executors_[pick];
    e = Executor{};
    requested_.insert(pick);
    e.requested_at = sim_.Now();
    e.start_seconds = EntryOr(s_.start_seconds_by_request, static_cast<int64_t>(requests_made_++),
                              s_.start_seconds);  // its own
    e.placed = false;
    Place(pick);  // else it waits for a place
  }
}

SimTime ExecutorAllocationManager::RegistrationAt(const Executor& x, SimTime ready_at) const {
  const double after_grant = x.start_seconds - std::min(s_.grant_seconds.value_or(0), x.start_seconds);
  return std::max(x.requested_at + SimTime::Seconds(x.start_seconds),
                  ready_at + SimTime::Seconds(after_grant)) +
         SimTime::Seconds(s_.launch_seconds);
}

int ExecutorAllocationManager::AddReleasing(SimTime at) {
  releasing_.push_back({at});
  return static_cast<int>(releasing_.size()) - 1;
}

int ExecutorAllocationManager::PlacesUsed() const {
  int used = static_cast<int>(registered_.size() + removing_.size() + carried_removing_.size());
  for (int e : requested_) used += executors_[e].placed && executors_[e].waits_for < 0 ? 1 : 0;
  return used;
}

bool ExecutorAllocationManager::Place(int executor) {
  const SimTime now = sim_.Now();
  Executor& x = executors_[executor];
  SimTime ready = now;
  if (s_.capacity && PlacesUsed() >= *s_.capacity) {
    // No free place: the soonest released container no other request waits for.
    int pick = -1;
    for (int i = 0; i < static_cast<int>(releasing_.size()); ++i) {
      const Releasing& r = releasing_[i];
      if (!r.gone && r.claimed_by < 0 && (pick < 0 || r.at < releasing_[pick].at)) pick = i;
    }
    if (pick < 0) return false;
    releasing_[pick].claimed_by = executor;
    x.waits_for = pick;
    ready = releasing_[pick].at;
  }
  x.placed = true;
  x.placed_at = now;
  x.ready_at = ready;
  ScheduleRegistration(executor, std::max(SimTime::Zero(), RegistrationAt(x, ready) - now));
  return true;
}

void ExecutorAllocationManager::PlaceWaiting() {
  std::vector<int> waiting;
  for (int e : requested_)
    if (!executors_[e].placed) waiting.push_back(e);
  std::stable_sort(waiting.begin(), waiting.end(),
                   [this](int a, int b) { return executors_[a].requested_at < executors_[b].requested_at; });
  for (int e : waiting)
    if (!Place(e)) return;
}

void ExecutorAllocationManager::Released(int releasing) {
  Releasing& r = releasing_[releasing];
  r.gone = true;
  if (r.claimed_by >= 0) {
    executors_[r.claimed_by].waits_for = -1;  // the place is its own now
  } else {
    PlaceWaiting();  // a free place
  }
  Record();
}

void ExecutorAllocationManager::ScheduleRegistration(int executor, SimTime in) {
  executors_[executor].registration = sim_.ScheduleIn(in, TaskScheduler::kTaskEndTier, [this, executor] {
    if (const int w = executors_[executor].waits_for; w >= 0) releasing_[w].claimed_by = -1;
    executors_[executor].waits_for = -1;
    requested_.erase(executor);
    Register(executor);
    Record();
  });
}

void ExecutorAllocationManager::CancelRequests(int count) {
  if (count <= 0) return;
  // Granted: the cluster manager allocated the container (YARN), it will register.
  const double grant = s_.grant_seconds.value_or(std::numeric_limits<double>::infinity());
  const SimTime now = sim_.Now();
  std::vector<int> cancel;
  for (auto it = requested_.rbegin(); it != requested_.rend() && static_cast<int>(cancel.size()) < count;
       ++it) {  // not placed: the latest indexes first
    if (!executors_[*it].placed) cancel.push_back(*it);
  }
  for (auto it = requested_.rbegin(); it != requested_.rend() && static_cast<int>(cancel.size()) < count;
       ++it) {  // then placed, not granted yet
    const Executor& x = executors_[*it];
    const double granted_after = std::min(grant, x.start_seconds + s_.launch_seconds);
    if (x.placed && now - x.placed_at < SimTime::Seconds(granted_after)) cancel.push_back(*it);
  }
  for (int e : cancel) {
    Executor& x = executors_[e];
    if (x.placed) sim_.Cancel(x.registration);
    if (x.waits_for >= 0) releasing_[x.waits_for].claimed_by = -1;
    x.waits_for = -1;
    requested_.erase(e);
    cancelled_.insert(e);
  }
  PlaceWaiting();
}

void ExecutorAllocationManager::Register(int executor) {
  executors_[executor].idle_since = sim_.Now();
  registered_.insert(executor);
  UpdateIdleDeadline(executor);
  scheduler_.SetExecutorPresent(executor, true);
}

std::optional<SimTime> ExecutorAllocationManager::IdleDeadline(int executor) const {
  const Executor& e = executors_[executor];
  if (e.running > 0 || registered_.count(executor) == 0) return std::nullopt;
  const bool tracked = s_.conf.shuffle_tracking_enabled && !s_.conf.shuffle_service_enabled;
  if (tracked && e.holds_shuffle) {
    if (!s_.conf.shuffle_tracking_timeout_seconds) return std::nullopt;  // kept for good
    return e.idle_since + SimTime::Seconds(*s_.conf.shuffle_tracking_timeout_seconds);
  }
  return e.idle_since + SimTime::Seconds(s_.conf.executor_idle_timeout_seconds);
}

void ExecutorAllocationManager::UpdateIdleDeadline(int executor) {
  Executor& e = executors_[executor];
  if (e.idle_deadline) idle_deadlines_.erase({*e.idle_deadline, executor});
  e.idle_deadline = IdleDeadline(executor);
  if (e.idle_deadline) idle_deadlines_.insert({*e.idle_deadline, executor});
}

void ExecutorAllocationManager::RemoveTimedOut(SimTime now) {
  // The timed-out executors in index order (as ExecutorMonitor lists them), each removed while
  // that leaves at least minExecutors and the target.
  std::vector<int> timed_out;
  for (auto it = idle_deadlines_.begin(); it != idle_deadlines_.end() && now >= it->first; ++it)
    timed_out.push_back(it->second);
  std::sort(timed_out.begin(), timed_out.end());
  bool any = false;
  for (int e : timed_out) {
    const int left = static_cast<int>(registered_.size()) - 1;
    if (left < s_.conf.min_executors || left < target_) break;  // and so for every later one
    registered_.erase(e);
    UpdateIdleDeadline(e);
    any = true;
    scheduler_.SetExecutorPresent(e, false);  // killed: no task from now on
    const double lag = EntryOr(s_.remove_seconds_by_kill, kills_made_++, s_.remove_seconds);  // its own
    if (lag <= 0) {
      removed_.insert(e);
      continue;
    }
    removing_.insert(e);  // registered for the driver until the cluster manager reports it gone
    executors_[e].removal_at = now + SimTime::Seconds(lag);
    executors_[e].releasing = AddReleasing(executors_[e].removal_at);
    sim_.ScheduleIn(SimTime::Seconds(lag), TaskScheduler::kTaskEndTier, [this, e] {
      removing_.erase(e);
      removed_.insert(e);
      Released(executors_[e].releasing);
    });
  }
  if (any) {
    PlaceWaiting();  // the killed executors' places (or, removed at once, free ones)
    Record();
  }
}

void ExecutorAllocationManager::Record() {
  const double now = sim_.Now().seconds();
  const int registered = RegisteredForDriver();
  if (!history_.empty() && history_.back().executors == registered) return;
  if (!history_.empty() && history_.back().seconds == now) {  // several changes at one instant
    history_.pop_back();
    if (!history_.empty() && history_.back().executors == registered) return;
  }
  history_.push_back({now, registered});
}

}  // namespace aqesim
