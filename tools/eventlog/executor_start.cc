#include "tools/eventlog/executor_start.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "models/conf/property_value.h"

namespace aqesim::eventlog {

namespace {

/// Changes at one instant: of the unfinished tasks, of the registered slots.
struct Delta {
  int64_t tasks = 0;
  int64_t slots = 0;
};

}  // namespace

std::vector<int64_t> ExecutorStartSamplesMs(const RecordedApplication& app) {
  std::vector<int64_t> samples;
  const std::optional<std::string> enabled = app.spark_property("spark.dynamicAllocation.enabled");
  if (app.local_mode || !enabled || *enabled != "true") return samples;
  const std::optional<std::string> timeout =
      app.spark_property("spark.dynamicAllocation.schedulerBacklogTimeout");
  const int64_t timeout_ms =
      static_cast<int64_t>(1000 * (timeout ? ParseTimeStringSeconds(*timeout, 1.0).value_or(1.0) : 1.0));
  std::map<int64_t, Delta> deltas;
  int64_t first_submission = std::numeric_limits<int64_t>::max();
  for (const auto& [id, st] : app.stages) {
    if (!st.submitted || !st.submission_time_ms || st.resource_profile_id != 0) continue;
    first_submission = std::min(first_submission, *st.submission_time_ms);
    int64_t open = st.num_tasks;
    deltas[*st.submission_time_ms].tasks += st.num_tasks;
    for (const RecordedTask& t : st.tasks) {
      if (!t.successful || open == 0) continue;
      deltas[t.finish_time_ms].tasks -= 1;
      --open;
    }
    if (st.completion_time_ms && open > 0) deltas[*st.completion_time_ms].tasks -= open;  // left unrun
  }
  std::vector<const RecordedExecutor*> added;  // registrations of the default profile's executors
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.resource_profile_id != 0) continue;
    deltas[ex.added_time_ms].slots += app.SlotsOf(ex);
    if (ex.removed_time_ms) deltas[*ex.removed_time_ms].slots -= app.SlotsOf(ex);
    added.push_back(&ex);
  }
  std::sort(added.begin(), added.end(), [](const RecordedExecutor* a, const RecordedExecutor* b) {
    return a->added_time_ms < b->added_time_ms;
  });
  // The ramps: [start, end) stretches of backlog, in time order.
  std::vector<std::pair<int64_t, int64_t>> ramps;
  constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  int64_t tasks = 0, slots = 0, ramp_start = kNone;
  for (const auto& [at, d] : deltas) {
    tasks += d.tasks;
    slots += d.slots;
    const bool backlog = tasks > slots;
    if (backlog && ramp_start == kNone) ramp_start = at;
    if (!backlog && ramp_start != kNone) {
      ramps.emplace_back(ramp_start, at);
      ramp_start = kNone;
    }
  }
  if (ramp_start != kNone) ramps.emplace_back(ramp_start, std::numeric_limits<int64_t>::max());
  for (const auto& [start, end] : ramps) {
    // The first registration inside the ramp (an executor registering at its end ends it).
    for (const RecordedExecutor* ex : added) {
      if (ex->added_time_ms <= start || ex->added_time_ms > end) continue;
      if (ex->added_time_ms > first_submission && ex->added_time_ms - (start + timeout_ms) > 0)
        samples.push_back(ex->added_time_ms - (start + timeout_ms));
      break;
    }
  }
  return samples;
}

std::optional<int64_t> ExecutorStartMs(const RecordedApplication& app) {
  std::vector<int64_t> v = ExecutorStartSamplesMs(app);
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace aqesim::eventlog
