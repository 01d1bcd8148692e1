#include "tools/eventlog/scheduling_pools.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace aqesim::eventlog {

RecordedScheduling ReadScheduling(const RecordedApplication& app) {
  RecordedScheduling out;
  auto mode = app.spark_properties.find("spark.scheduler.mode");
  out.fair = mode != app.spark_properties.end() && mode->second == "FAIR";
  if (!out.fair) return out;
  struct Run {
    int job = 0, stage = 0;
    int64_t first_launch = 0, last_launch = 0;
  };
  std::map<std::string, std::vector<Run>> runs;  // per pool, its stages that ran tasks
  for (const auto& [id, st] : app.stages) {
    if (!st.submitted || st.tasks.empty() || !st.job_id) continue;
    auto job = app.jobs.find(*st.job_id);
    if (job == app.jobs.end()) continue;
    Run r{*st.job_id, id, st.tasks.front().launch_time_ms, st.tasks.front().launch_time_ms};
    for (const RecordedTask& t : st.tasks) {
      r.first_launch = std::min(r.first_launch, t.launch_time_ms);
      r.last_launch = std::max(r.last_launch, t.launch_time_ms);
    }
    const std::string pool = RecordedScheduling::PoolOf(job->second);
    out.pools[pool].name = pool;
    runs[pool].push_back(r);
  }
  for (auto& [pool, list] : runs) {
    std::sort(list.begin(), list.end(),
              [](const Run& a, const Run& b) { return std::tie(a.job, a.stage) < std::tie(b.job, b.stage); });
    // FIFO would not start b while a, earlier in FIFO order and already running, still had a
    // task to launch (1 ms: launch stamps of one offer round differ by a few µs to ms).
    for (size_t i = 0; i < list.size() && !out.pools[pool].fair_observed; ++i) {
      for (size_t j = i + 1; j < list.size(); ++j) {
        if (list[j].first_launch >= list[i].first_launch && list[j].first_launch + 1 < list[i].last_launch) {
          out.pools[pool].fair_observed = true;
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace aqesim::eventlog
