// ExecutorAllocationManager's AllocationState: started from one (a query of an application
// that ran others before it) and where it stands now (a run's allocationAtEnd, a gap's end).
#include <algorithm>
#include <vector>

#include "models/engine/executor_allocation_manager.h"

namespace aqesim {

void ExecutorAllocationManager::StartFrom(const AllocationState& state) {
  const SimTime zero = SimTime::Zero();
  const int capacity = static_cast<int>(executors_.size());
  target_ = state.target;
  initializing_ = false;
  int e = 0;
  for (const AllocationState::Executor& x : state.executors) {
    if (e >= capacity) break;
    Register(e);
    executors_[e].idle_since = zero - SimTime::Seconds(x.idle_seconds);
    executors_[e].holds_shuffle = x.holds_shuffle;
    executors_[e].warm = x.warm;
    UpdateIdleDeadline(e);
    ++e;
  }
  std::vector<int> carried;  // Releasing index of each of the state's `removing`
  for (const AllocationState::Removing& r : state.removing) {  // killed before the start
    carried.push_back(AddReleasing(SimTime::Seconds(r.seconds_until_removed)));
    carried_removing_.insert(carried.back());
  }
  for (const AllocationState::Request& r : state.requests) {
    if (e >= capacity) break;
    Executor& x = executors_[e];
    requested_.insert(e);
    x.requested_at = zero - SimTime::Seconds(r.seconds_since_request);
    x.start_seconds = r.start_seconds.value_or(s_.start_seconds);
    x.placed = r.placed;
    if (r.placed) {
      x.placed_at = x.requested_at;  // (granted, as far as a carried request goes, from its request)
      SimTime ready =
          r.seconds_since_placed ? zero - SimTime::Seconds(*r.seconds_since_placed) : x.requested_at;
      if (r.waits_for && *r.waits_for >= 0 && static_cast<size_t>(*r.waits_for) < carried.size()) {
        x.waits_for = carried[*r.waits_for];
        releasing_[x.waits_for].claimed_by = e;
        ready = releasing_[x.waits_for].at;
      }
      x.ready_at = ready;
      ScheduleRegistration(e, std::max(zero, RegistrationAt(x, ready)));
    }
    ++e;
  }
  next_fresh_ = e;
  for (int i : carried) {
    sim_.ScheduleAt(releasing_[i].at, TaskScheduler::kTaskEndTier, [this, i] {
      carried_removing_.erase(i);
      Released(i);
    });
  }
  PlaceWaiting();
  Record();
  sim_.ScheduleAt(zero, TaskScheduler::kTaskEndTier, [this] { Tick(); });
}

AllocationState ExecutorAllocationManager::StateNow() const {
  const SimTime now = sim_.Now();
  AllocationState state;
  state.target = target_;
  state.kills_made = kills_made_;
  for (int e : registered_) {
    const Executor& x = executors_[e];
    state.executors.push_back(
        {x.running > 0 ? 0.0 : (now - x.idle_since).seconds(), x.holds_shuffle, x.warm});
  }
  // The killed executors' containers not removed yet, soonest first; a request's waitsFor
  // refers to their order here.
  std::vector<int> removals(carried_removing_.begin(), carried_removing_.end());
  for (int e : removing_) removals.push_back(executors_[e].releasing);
  std::stable_sort(removals.begin(), removals.end(),
                   [this](int a, int b) { return releasing_[a].at < releasing_[b].at; });
  std::vector<int> position(releasing_.size(), -1);
  for (size_t k = 0; k < removals.size(); ++k) {
    position[removals[k]] = static_cast<int>(k);
    state.removing.push_back({std::max(0.0, (releasing_[removals[k]].at - now).seconds())});
  }
  std::vector<int> requested(requested_.begin(), requested_.end());
  std::stable_sort(requested.begin(), requested.end(),
                   [this](int a, int b) { return executors_[a].requested_at < executors_[b].requested_at; });
  for (int e : requested) {
    const Executor& x = executors_[e];
    AllocationState::Request r;
    r.seconds_since_request = (now - x.requested_at).seconds();
    if (x.start_seconds != s_.start_seconds) r.start_seconds = x.start_seconds;
    r.placed = x.placed;
    if (x.placed && x.waits_for < 0 && x.ready_at > x.requested_at)
      r.seconds_since_placed = std::max(0.0, (now - x.ready_at).seconds());
    if (x.placed && x.waits_for >= 0 && position[x.waits_for] >= 0) r.waits_for = position[x.waits_for];
    state.requests.push_back(r);
  }
  return state;
}

}  // namespace aqesim
