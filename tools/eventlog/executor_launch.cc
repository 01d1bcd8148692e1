#include "tools/eventlog/executor_launch.h"

#include <algorithm>
#include <limits>
#include <string>

namespace aqesim::eventlog {

std::vector<int64_t> ExecutorLaunchSamplesMs(const RecordedApplication& app) {
  std::vector<int64_t> samples;
  if (app.local_mode) return samples;
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver") continue;
    const int64_t registered = ex.added_time_ms;
    // Its first task launch, and the earliest launch elsewhere of a task pending at registration.
    int64_t first = std::numeric_limits<int64_t>::max();
    int64_t pending_elsewhere = std::numeric_limits<int64_t>::max();
    bool pending = false;
    for (const auto& [id, st] : app.stages) {
      const bool waiting_stage = st.resource_profile_id == ex.resource_profile_id && st.submission_time_ms &&
                                 *st.submission_time_ms <= registered;
      for (const RecordedTask& t : st.tasks) {
        if (t.executor_id == ex.executor_id) first = std::min(first, t.launch_time_ms);
        if (!waiting_stage || t.launch_time_ms < registered) continue;
        pending = true;
        if (t.executor_id != ex.executor_id)
          pending_elsewhere = std::min(pending_elsewhere, t.launch_time_ms);
      }
    }
    if (!pending || first == std::numeric_limits<int64_t>::max() || first < registered ||
        pending_elsewhere < first)
      continue;
    samples.push_back(first - registered);
  }
  return samples;
}

std::optional<int64_t> ExecutorLaunchMs(const RecordedApplication& app) {
  std::vector<int64_t> v = ExecutorLaunchSamplesMs(app);
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace aqesim::eventlog
