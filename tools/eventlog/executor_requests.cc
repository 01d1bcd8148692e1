#include "tools/eventlog/executor_requests.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "models/conf/property_value.h"

namespace aqesim::eventlog {

namespace {

double SecondsProperty(const RecordedApplication& app, const char* key, double otherwise) {
  const std::optional<std::string> v = app.spark_property(key);
  return v ? ParseTimeStringSeconds(*v, 1.0).value_or(otherwise) : otherwise;
}

int IntProperty(const RecordedApplication& app, const char* key, int otherwise) {
  const std::optional<std::string> v = app.spark_property(key);
  return v ? ParseInt(*v).value_or(otherwise) : otherwise;
}

// Kinds at one instant, in the order applied: ends free slots before a submission's tasks are
// counted, launches follow their submission, a registration comes last.
enum Kind { kStageCompleted, kTaskEnd, kStageSubmitted, kTaskLaunch, kExecutorAdded };

struct Event {
  int64_t at = 0;
  Kind kind = kTaskEnd;
  int stage = 0;        // stage events and task launches
  int64_t tasks = 0;    // kStageSubmitted: its tasks
  size_t executor = 0;  // kExecutorAdded: index in the executors below
};

}  // namespace

std::vector<ReconstructedRequest> ReconstructExecutorRequests(const RecordedApplication& app) {
  std::vector<ReconstructedRequest> requests;
  const std::optional<std::string> enabled = app.spark_property("spark.dynamicAllocation.enabled");
  if (app.local_mode || !enabled || !ParseBool(*enabled).value_or(false)) return requests;
  std::vector<const RecordedExecutor*> executors;  // the default profile's, in order of registration
  for (const RecordedExecutor& ex : app.executors)
    if (ex.executor_id != "driver" && ex.resource_profile_id == 0) executors.push_back(&ex);
  if (executors.empty()) return requests;
  std::stable_sort(executors.begin(), executors.end(),
                   [](const RecordedExecutor* a, const RecordedExecutor* b) {
                     return a->added_time_ms < b->added_time_ms;
                   });
  const int slots = std::max(1, app.SlotsOf(*executors.front()));
  const double backlog_ms =
      1000 * SecondsProperty(app, "spark.dynamicAllocation.schedulerBacklogTimeout", 1.0);
  const double sustained_ms =
      1000 *
      SecondsProperty(app, "spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", backlog_ms / 1000);
  double ratio = 1.0;
  if (auto r = app.spark_property("spark.dynamicAllocation.executorAllocationRatio"))
    ratio = ParseDouble(*r).value_or(1.0);
  const int min_executors = IntProperty(app, "spark.dynamicAllocation.minExecutors", 0);
  const int max_executors =
      IntProperty(app, "spark.dynamicAllocation.maxExecutors", std::numeric_limits<int>::max());
  const int initial =
      std::max({min_executors, IntProperty(app, "spark.dynamicAllocation.initialExecutors", 0),
                IntProperty(app, "spark.executor.instances", 0)});

  std::vector<Event> events;
  for (const auto& [id, st] : app.stages) {
    if (!st.submitted || !st.submission_time_ms || st.resource_profile_id != 0) continue;
    events.push_back({*st.submission_time_ms, kStageSubmitted, id, st.num_tasks, 0});
    for (const RecordedTask& t : st.tasks) {
      events.push_back({t.launch_time_ms, kTaskLaunch, id, 0, 0});
      events.push_back({t.finish_time_ms, kTaskEnd, id, 0, 0});
    }
    if (st.completion_time_ms) events.push_back({*st.completion_time_ms, kStageCompleted, id, 0, 0});
  }
  for (size_t i = 0; i < executors.size(); ++i)
    events.push_back({executors[i]->added_time_ms, kExecutorAdded, 0, 0, i});
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.at, a.kind) < std::tie(b.at, b.kind);
  });

  std::vector<std::pair<int64_t, int64_t>> spans;  // per executor: [added, offered tasks until), for `live`
  for (const RecordedExecutor* ex : executors)
    spans.emplace_back(ex->added_time_ms,
                       app.OffersTasksUntilMs(*ex).value_or(std::numeric_limits<int64_t>::max()));
  auto count = [&](int64_t now, bool live) {
    int n = 0;
    for (size_t i = 0; i < executors.size(); ++i) {
      const int64_t until = live ? spans[i].second : executors[i]->removed_time_ms.value_or(spans[i].second);
      n += executors[i]->added_time_ms <= now && now < until ? 1 : 0;
    }
    return n;
  };

  const int64_t app_start = app.start_time_ms.value_or(events.empty() ? 0 : events.front().at);
  for (int k = 0; k < initial; ++k) requests.push_back({app_start, true, std::nullopt, "", std::nullopt});
  std::vector<size_t> outstanding;  // indexes into requests, oldest first
  for (size_t k = 0; k < requests.size(); ++k) outstanding.push_back(k);
  std::map<int, int64_t> pending;  // stage -> tasks not launched
  int64_t pending_total = 0, running = 0;
  int target = initial, to_add = 1;
  constexpr int64_t kNotSet = std::numeric_limits<int64_t>::max();
  int64_t add_at = kNotSet;  // the backlog timer
  auto max_needed = [&] {
    return static_cast<int>(std::ceil(static_cast<double>(pending_total + running) * ratio / slots));
  };
  auto drop = [&](int64_t now) {
    const int needed = max_needed();
    if (needed >= target) return;
    target = std::max(needed, min_executors);
    to_add = 1;
    const int live = count(now, true);
    const int excess = live + static_cast<int>(outstanding.size()) - std::max(target, live);
    for (int k = 0; k < excess; ++k) {  // the youngest outstanding: those a drop would cancel
      ReconstructedRequest& r = requests[outstanding[outstanding.size() - 1 - k]];
      if (!r.outlived_drop_ms) r.outlived_drop_ms = now;
    }
  };
  // A round of the backlog timer (ExecutorAllocationManager.addExecutors); the timer moves on
  // by sustainedSchedulerBacklogTimeout whether or not the target rose.
  auto round = [&](int64_t now) {
    add_at = now + static_cast<int64_t>(std::ceil(sustained_ms));
    const int old = target;
    if (old >= max_executors) {
      to_add = 1;
      return;
    }
    int t = std::min(std::max(target, count(now, false)) + to_add, max_needed());
    t = std::max(std::min(t, max_executors), min_executors);
    if (t - old <= 0) {
      to_add = 1;
      return;
    }
    target = t;
    const int missing = target - count(now, true) - static_cast<int>(outstanding.size());
    for (int k = 0; k < missing; ++k) {
      outstanding.push_back(requests.size());
      requests.push_back({now, false, std::nullopt, "", std::nullopt});
    }
    to_add = t - old == to_add ? to_add * 2 : 1;
  };
  for (const Event& e : events) {
    while (add_at <= e.at) {  // the rounds due before this event
      const int64_t due = add_at;
      drop(due);
      round(due);
    }
    switch (e.kind) {
      case kStageSubmitted:
        pending[e.stage] = e.tasks;
        pending_total += e.tasks;
        if (add_at == kNotSet) add_at = e.at + static_cast<int64_t>(std::ceil(backlog_ms));
        break;
      case kTaskLaunch:
        if (pending[e.stage] > 0) {
          --pending[e.stage];
          --pending_total;
        }
        ++running;
        if (pending_total == 0) {
          add_at = kNotSet;
          to_add = 1;
        }
        break;
      case kTaskEnd:
        running = std::max<int64_t>(0, running - 1);
        break;
      case kStageCompleted:
        pending_total -= pending[e.stage];
        pending[e.stage] = 0;
        break;
      case kExecutorAdded:
        if (!outstanding.empty()) {
          ReconstructedRequest& r = requests[outstanding.front()];
          r.registered_ms = e.at;
          r.executor_id = executors[e.executor]->executor_id;
          outstanding.erase(outstanding.begin());
        }
        break;
    }
    drop(e.at);
  }
  return requests;
}

std::vector<int64_t> ExecutorStartByRequestMs(const RecordedApplication& app, int64_t from_ms,
                                              int64_t to_ms) {
  std::vector<int64_t> out;
  for (const ReconstructedRequest& r : ReconstructExecutorRequests(app)) {
    if (r.at_application_start || !r.registered_ms || r.requested_ms < from_ms || r.requested_ms > to_ms)
      continue;
    out.push_back(*r.registered_ms - r.requested_ms);
  }
  return out;
}

std::optional<int64_t> ExecutorGrantMs(const RecordedApplication& app) {
  std::optional<int64_t> least;
  for (const ReconstructedRequest& r : ReconstructExecutorRequests(app)) {
    if (r.at_application_start || !r.registered_ms || !r.outlived_drop_ms) continue;
    const int64_t within = *r.outlived_drop_ms - r.requested_ms;
    if (!least || within < *least) least = within;
  }
  return least;
}

}  // namespace aqesim::eventlog
