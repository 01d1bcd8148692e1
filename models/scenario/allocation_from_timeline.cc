#include "models/scenario/allocation_from_timeline.h"

#include <algorithm>
#include <vector>

namespace aqesim {

std::optional<AllocationState> AllocationAtSelectionStart(const std::vector<ExecutorLifetime>& timeline,
                                                          std::optional<bool> starts_application,
                                                          const DynamicAllocationConf& conf, int* warm_code,
                                                          int* warm) {
  // Present at the start: registered before it and not removed by then (a window ending at 0
  // is never present: cluster_scheduler.cc).
  std::vector<const ExecutorLifetime*> present;
  bool application_running = false;
  for (const ExecutorLifetime& e : timeline) {
    if (e.resource_profile != 0 || e.add_seconds > 0 || (e.remove_seconds && *e.remove_seconds <= 0))
      continue;
    present.push_back(&e);
    application_running |= e.warm || e.warm_code;
  }
  if (starts_application.value_or(!application_running)) return std::nullopt;
  // Warm code first, then warm JVMs, then fresh ones: the simulation's executor indexes give
  // the first warm_code, then the first warm, their warmth (executor_state.h).
  auto rank = [](const ExecutorLifetime* e) { return e->warm_code ? 0 : e->warm ? 1 : 2; };
  std::stable_sort(present.begin(), present.end(),
                   [&](const ExecutorLifetime* a, const ExecutorLifetime* b) { return rank(a) < rank(b); });
  if (conf.max_executors && static_cast<int>(present.size()) > *conf.max_executors)
    present.resize(static_cast<size_t>(*conf.max_executors));
  AllocationState state;
  *warm_code = 0;
  *warm = 0;
  for (const ExecutorLifetime* e : present) {
    AllocationState::Executor x;
    x.idle_seconds = e->idle_seconds;
    x.warm = e->warm || e->warm_code;
    state.executors.push_back(x);
    *warm_code += e->warm_code ? 1 : 0;
    *warm += x.warm ? 1 : 0;
  }
  const int kept = static_cast<int>(state.executors.size());
  state.target = std::max(kept, conf.min_executors);
  state.requests.resize(static_cast<size_t>(state.target - kept));  // requested at the start
  return state;
}

}  // namespace aqesim
