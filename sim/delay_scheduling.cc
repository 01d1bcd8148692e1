// TaskScheduler's delay scheduling (task_scheduler.h, "Locality"): one pass of a task set
// whose tasks prefer executors over the free slots, as Spark's TaskSetManager offers them at
// NODE_LOCAL, then NO_PREF, then ANY once the locality wait expired.
#include <vector>

#include "sim/task_scheduler.h"

namespace aqesim {

int TaskScheduler::DispatchWithLocality(TaskSetId id, SimTime now, int budget) {
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
  int n = 0;
  auto more = [&] { return (budget < 0 || n < budget) && CanAcquireFor(s); };
  // Node level: round-robin over the preferred executors with a free slot, one task each.
  bool local = false;
  for (bool any = true; any && more();) {
    any = false;
    for (auto it = L.by_executor.begin(); it != L.by_executor.end() && more();) {
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
      ++n;
      any = local = true;
      ++it;
    }
  }
  // No preference: anywhere, at once (Spark's NO_PREF level has no wait).
  while (more()) {
    const int t = pop(L.no_pref);
    if (t < 0) break;
    Launch(id, t, *AcquireFor(s), now);
    ++n;
  }
  // Tasks with preferences left: anywhere once the timer expired, or when none of their
  // preferred executors is present; otherwise they wait.
  bool held_back = false;
  const bool expired = now - L.timer_start >= s.spec.locality_wait;
  if (more() && !expired && slots_.present_executors() == slots_.executors()) {
    // Every executor present and the timer running: all of them wait (no scan).
    while (!L.with_pref.empty() && L.launched[static_cast<size_t>(L.with_pref.back())])
      L.with_pref.pop_back();
    held_back = !L.with_pref.empty();
  } else if (more()) {
    // Descending list: scan from the back (lowest index first), keeping the waiting ones.
    std::vector<int>& list = L.with_pref;
    std::vector<int> kept;  // waiting tasks met on the way, descending order restored below
    while (more() && !list.empty()) {
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
      Launch(id, t, *AcquireFor(s), now);
      ++n;
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
  return n;
}

}  // namespace aqesim
