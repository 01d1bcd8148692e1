#include "tools/eventlog/cluster_import.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/conf/property_value.h"
#include "sim/units.h"
#include "tools/eventlog/executor_launch.h"
#include "tools/eventlog/executor_remove.h"
#include "tools/eventlog/executor_requests.h"
#include "tools/eventlog/executor_start.h"
#include "tools/eventlog/resource_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// Most executors (other than the driver) alive at once during [from_ms, to_ms]; 0 when none.
int MaxConcurrentExecutorsDuring(const RecordedApplication& app, int64_t from_ms, int64_t to_ms) {
  std::vector<std::pair<int64_t, int>> timeline;  // (time, +1/-1); removals first at ties
  for (const auto& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > to_ms) continue;
    if (ex.removed_time_ms && *ex.removed_time_ms < from_ms) continue;
    timeline.emplace_back(std::max(ex.added_time_ms, from_ms), +1);
    if (ex.removed_time_ms && *ex.removed_time_ms <= to_ms) timeline.emplace_back(*ex.removed_time_ms, -1);
  }
  std::sort(timeline.begin(), timeline.end());
  int live = 0, peak = 0;
  for (const auto& [t, d] : timeline) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

/// True when `executor_id` finished a task at or before `ms` (its JVM is warm from then on).
bool RanTaskBefore(const RecordedApplication& app, const std::string& executor_id, int64_t ms) {
  for (const auto& [id, st] : app.stages) {
    for (const RecordedTask& t : st.tasks) {
      if (t.executor_id == executor_id && t.finish_time_ms <= ms) return true;
    }
  }
  return false;
}

/// Milliseconds `ex` had been idle at `ms` (registered by then): since its last task ended, or
/// since it registered if it had run none; 0 while a task ran on it (ExecutorMonitor's idle
/// timer, which executorIdleTimeout runs out).
int64_t IdleMsAt(const RecordedApplication& app, const RecordedExecutor& ex, int64_t ms) {
  int64_t idle_from = ex.added_time_ms;
  for (const auto& [id, st] : app.stages) {
    for (const RecordedTask& t : st.tasks) {
      if (t.executor_id != ex.executor_id || t.launch_time_ms > ms) continue;
      if (t.finish_time_ms > ms) return 0;
      idle_from = std::max(idle_from, t.finish_time_ms);
    }
  }
  return std::max<int64_t>(0, ms - idle_from);
}

/// True when nothing ran in the application before `ms`: no task launched, no executor removed.
/// A dynamic-allocation policy replacing the selection's timeline then starts from
/// initialExecutors, as at the application's start (cluster.startsApplication).
bool StartsApplication(const RecordedApplication& app, int64_t ms) {
  for (const RecordedExecutor& ex : app.executors)
    if (ex.removed_time_ms && *ex.removed_time_ms <= ms) return false;
  for (const auto& [id, st] : app.stages)
    for (const RecordedTask& t : st.tasks)
      if (t.launch_time_ms < ms) return false;
  return true;
}

/// Executors alive at `ms` (the driver in local mode) that had finished a task by then: the
/// scenario's `warmExecutors` for a static cluster. With `execution`, those that had finished
/// a task of an earlier run of the same query instead (`warmCodeExecutors`;
/// ExecutorsThatRanSameQuery).
int WarmExecutorsAt(const RecordedApplication& app, int64_t ms,
                    const RecordedSqlExecution* execution = nullptr) {
  const std::set<std::string> same_query =
      execution != nullptr ? ExecutorsThatRanSameQuery(app, *execution, ms) : std::set<std::string>();
  auto warm = [&](const std::string& id) {
    return execution != nullptr ? same_query.count(id) > 0 : RanTaskBefore(app, id, ms);
  };
  if (app.local_mode) return warm("driver") ? 1 : 0;
  int n = 0;
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > ms ||
        (ex.removed_time_ms && *ex.removed_time_ms <= ms))
      continue;
    n += warm(ex.executor_id) ? 1 : 0;
  }
  return n;
}

/// The executors of [from_ms, to_ms] as a scenario `executorTimeline` (seconds from from_ms):
/// "add" = ExecutorAdded (0 when registered before the start), "remove" = when it stopped
/// taking tasks, dropped when after to_ms. Under dynamic allocation an executor "killed by
/// driver" stops taking tasks when ExecutorAllocationManager decides to remove it — idle for
/// spark.dynamicAllocation.executorIdleTimeout (default 60 s) after its last task — while
/// ExecutorRemoved is logged when the cluster manager confirms, often seconds later; that
/// earlier time is used and listed in `estimated` (an executor already pending removal at
/// from_ms is left out, though `executors` still counts it). "warm": true when the executor had finished
/// a task before from_ms; "warmCode": true when one of an earlier run of `execution`'s query
/// (ExecutorsThatRanSameQuery); "idleSeconds" (registered before from_ms): how long it had been
/// idle then, where a dynamic-allocation what-if's policy starts its idle timer
/// (models/scenario/allocation_from_timeline.h). Empty when nothing changes within the window (a
/// static cluster).
json ExecutorTimeline(const RecordedApplication& app, int64_t from_ms, int64_t to_ms,
                      const RecordedSqlExecution* execution, std::vector<std::string>* estimated) {
  const std::set<std::string> same_query =
      execution != nullptr ? ExecutorsThatRanSameQuery(app, *execution, from_ms) : std::set<std::string>();
  json out = json::array();
  std::vector<size_t> estimated_remove;
  bool changes = false;
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > to_ms) continue;
    bool remove_estimated = false;
    const std::optional<int64_t> until = app.OffersTasksUntilMs(ex, &remove_estimated);
    const int64_t remove = until ? *until - from_ms : 0;  // ms from from_ms
    if (until && remove <= 0) {
      // Gone before the start. An executor the driver had already decided to remove but whose
      // ExecutorRemoved comes later is still registered (its cores count in defaultParallelism:
      // `executors` keeps it) yet is offered no task (CoarseGrainedSchedulerBackend skips
      // executors pending removal): the timeline, which lists the executors offered tasks,
      // then differs from the static cluster.
      changes |= remove_estimated && ex.removed_time_ms && *ex.removed_time_ms > from_ms;
      continue;
    }
    const bool removed = until && remove <= to_ms - from_ms;
    json e = {{"add", std::max<int64_t>(ex.added_time_ms - from_ms, 0) / 1000.0}};
    if (RanTaskBefore(app, ex.executor_id, from_ms)) e["warm"] = true;
    if (ex.added_time_ms <= from_ms) {  // its idle timer, for a policy replacing the timeline
      if (const int64_t idle = IdleMsAt(app, ex, from_ms); idle > 0) e["idleSeconds"] = idle / 1000.0;
    }
    if (same_query.count(ex.executor_id)) e["warmCode"] = true;
    if (const int rp = TimelineProfileOf(ex); rp != 0) {
      e["resourceProfile"] = rp;  // a stage runs only on executors of its profile
      changes = true;
    }
    changes |= ex.added_time_ms > from_ms;
    if (removed) {
      e["remove"] = static_cast<double>(remove) / 1000.0;
      changes = true;
      if (remove_estimated) estimated_remove.push_back(out.size());
    }
    out.push_back(std::move(e));
  }
  if (!changes || out.empty()) return json();
  // At least one executor must stay (the simulation may outlast the recorded window).
  bool one_stays = false;
  for (const json& e : out) one_stays |= !e.contains("remove");
  if (!one_stays) {
    size_t last = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i]["remove"].get<double>() >= out[last]["remove"].get<double>()) last = i;
    }
    out[last].erase("remove");
  }
  for (size_t i : estimated_remove) {
    if (out[i].contains("remove"))
      estimated->push_back("/cluster/executorTimeline/" + std::to_string(i) + "/remove");
  }
  return out;
}

}  // namespace

ImportedCluster ImportCluster(ImportContext& ctx, const RecordedSqlExecution* execution,
                              const RecordedJob* job) {
  const RecordedApplication& app = ctx.app;
  ImportedCluster result;
  json& cluster = result.cluster;
  int& executors = result.executors;
  int& cores = result.cores;
  executors = app.max_concurrent_executors;
  cores = app.executor_cores;
  // Under dynamic allocation the application's peak may not be what this selection ran on:
  // use the peak within its own time window (Spark's defaultParallelism, and so AQE's
  // coalescing target, follows the cores registered at the time of the decision).
  std::optional<std::pair<int64_t, int64_t>> window;
  if (execution != nullptr && execution->start_time_ms && execution->end_time_ms) {
    window = {*execution->start_time_ms, *execution->end_time_ms};
  } else if (job != nullptr && job->submission_time_ms && job->completion_time_ms) {
    window = {*job->submission_time_ms, *job->completion_time_ms};
  }
  if (!app.local_mode && window) {
    const int during = MaxConcurrentExecutorsDuring(app, window->first, window->second);
    if (during > 0 && during != executors) {
      executors = during;
      result.windowed = true;
    }
  }
  if (executors == 0 || cores == 0) {
    auto parse = [](const std::optional<std::string>& s) -> int { return s ? ParseInt(*s).value_or(0) : 0; };
    if (executors == 0) {
      executors = std::max(parse(app.spark_property("spark.executor.instances")), 1);
      ctx.Estimated("/cluster/executors");
      ctx.warnings->push_back("no executors in the log; executors from spark.executor.instances or 1");
    }
    if (cores == 0) {
      cores = app.profile_executor_cores.value_or(parse(app.spark_property("spark.executor.cores")));
      if (cores == 0) cores = 1;
      ctx.Estimated("/cluster/executorCores");
    }
  }
  cluster["executors"] = executors;
  cluster["executorCores"] = cores;
  if (!app.local_mode && window) {
    json timeline = ExecutorTimeline(app, window->first, window->second, execution, &ctx.out->estimated);
    if (!timeline.is_null()) {
      // Executors registering within the window take tasks only once launched (executor_launch.h).
      bool registers_later = false;
      for (const json& e : timeline) registers_later |= e["add"].get<double>() > 0;
      if (const std::optional<int64_t> launch = ExecutorLaunchMs(app); launch && registers_later)
        cluster["executorLaunchSeconds"] = static_cast<double>(*launch) / 1000.0;
      // Dynamic allocation: request → registration, for a what-if that runs the policy
      // (--conf spark.dynamicAllocation.*; executor_start.h).
      if (const std::optional<int64_t> start = ExecutorStartMs(app))
        cluster["executorStartSeconds"] = static_cast<double>(*start) / 1000.0;
      // Each request's own latency and how soon requests are granted (executor_requests.h).
      const std::vector<int64_t> by_request = ExecutorStartByRequestMs(app, window->first, window->second);
      if (!by_request.empty()) {
        json seconds = json::array();
        for (int64_t ms : by_request) seconds.push_back(static_cast<double>(ms) / 1000.0);
        cluster["executorStartSecondsByRequest"] = std::move(seconds);
      }
      // Each idle-timeout kill's own lag to its reported removal, over the application's whole
      // run, and the kills before this selection (executor_remove.h).
      const std::vector<int64_t> by_kill = ExecutorRemoveByKillMs(app);
      if (!by_kill.empty()) {
        json seconds = json::array();
        for (int64_t ms : by_kill) seconds.push_back(static_cast<double>(ms) / 1000.0);
        cluster["executorRemoveSecondsByKill"] = std::move(seconds);
        if (const int64_t before = ExecutorKillsBefore(app, window->first); before > 0)
          cluster["executorKillsBeforeStart"] = before;
      }
      if (const std::optional<int64_t> grant = ExecutorGrantMs(app))
        cluster["executorGrantSeconds"] = static_cast<double>(*grant) / 1000.0;
      cluster["executorTimeline"] = std::move(timeline);
      cluster["startsApplication"] = StartsApplication(app, window->first);
    }
  }
  if (window && !cluster.contains("executorTimeline")) {
    // Fresh JVMs pay executorStartupSeconds on their first tasks; these already ran some.
    const int warm = std::min(WarmExecutorsAt(app, window->first), executors);
    if (warm > 0) cluster["warmExecutors"] = warm;
    // Those that also ran an earlier run of the same query have its code compiled.
    const int warm_code =
        execution != nullptr ? std::min(WarmExecutorsAt(app, window->first, execution), warm) : 0;
    if (warm_code > 0) cluster["warmCodeExecutors"] = warm_code;
    // A dynamic-allocation what-if starts its policy from these executors unless the selection
    // starts the application (models/scenario/cluster_from_conf.h).
    if (!app.local_mode &&
        ParseBool(app.spark_property("spark.dynamicAllocation.enabled").value_or("")).value_or(false))
      cluster["startsApplication"] = StartsApplication(app, window->first);
  }
  std::optional<std::string> memory =
      app.spark_property(app.local_mode ? "spark.driver.memory" : "spark.executor.memory");
  if (!memory && app.profile_executor_memory_mib && !app.local_mode) {
    memory = std::to_string(*app.profile_executor_memory_mib) + "m";
  }
  if (!memory) {
    memory = "1g";  // Spark's default for both
    ctx.Estimated("/cluster/executorMemory");
  }
  cluster["executorMemory"] = *memory;
  return result;
}

}  // namespace aqesim::eventlog
