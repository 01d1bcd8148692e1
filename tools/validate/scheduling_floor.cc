#include "tools/validate/scheduling_floor.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "models/conf/property_value.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"
#include "tools/eventlog/scheduling_pools.h"

namespace aqesim::validate {
namespace {

using eventlog::RecordedApplication;
using eventlog::RecordedExecutor;
using eventlog::RecordedStage;
using eventlog::RecordedTask;

/// A duration in ms as SimTime, clamped to [0, ~290 years] (a corrupt log must not overflow).
SimTime FromMs(int64_t ms) { return SimTime::Millis(std::clamp<int64_t>(ms, 0, int64_t{9} * 1000000000000)); }

/// What the replay needs of one recorded stage.
struct StagePlan {
  const RecordedStage* stage = nullptr;
  int64_t submit_ms = 0;  // first attempt's submission (first launch when not logged)
  int64_t first_launch_ms = 0;
  int64_t last_finish_ms = 0;
  int64_t complete_ms = 0;            // StageCompleted (last task end when not logged)
  std::optional<size_t> anchor;       // the stage whose completion precedes its submission; none: start
  std::vector<int> allowed;           // executor indexes; empty: any
  std::vector<int64_t> durations_ms;  // task attempts in launch order
  int priority = 0;
  int pool = 0;
  std::vector<size_t> dependents;  // stages anchored on this one
  SimTime submitted = SimTime::Zero();
  std::optional<SimTime> completed;
};

double LocalityWaitSeconds(const RecordedApplication& app) {
  std::optional<std::string> v = app.spark_property("spark.locality.wait.node");
  if (!v) v = app.spark_property("spark.locality.wait");
  return v ? ParseTimeStringSeconds(*v, 1.0).value_or(3.0) : 3.0;
}

}  // namespace

FloorResult ReplayRecordedTasks(const RecordedApplication& app, const FloorSelection& selection) {
  FloorResult out;
  const int64_t start = selection.start_ms;
  // --- executors present during the selection ---
  std::vector<const RecordedExecutor*> executors;
  std::vector<ExecutorWindow> windows;
  std::vector<int> slots;
  for (const RecordedExecutor& ex : app.executors) {
    if ((ex.executor_id == "driver") != app.local_mode) continue;
    const std::optional<int64_t> until = app.OffersTasksUntilMs(ex);
    if (ex.added_time_ms > selection.end_ms || (until && *until <= start)) continue;
    ExecutorWindow w;
    w.add = ex.added_time_ms > start ? FromMs(ex.added_time_ms - start) : SimTime::Zero();
    if (until) w.remove = std::max(FromMs(*until - start), w.add + SimTime::Micros(1));
    executors.push_back(&ex);
    windows.push_back(w);
    slots.push_back(app.SlotsOf(ex));
  }
  // The recorded executors and slots: the launch delays are measured on them.
  const std::vector<const RecordedExecutor*> recorded = executors;
  const std::vector<int> recorded_slots = slots;
  if (selection.executors) {  // Sparklens' what-if: N executors like the first default-profile one
    const RecordedExecutor* like = nullptr;
    for (const RecordedExecutor* ex : executors)
      if (like == nullptr && ex->resource_profile_id == 0) like = ex;
    if (like == nullptr && !executors.empty()) like = executors.front();
    const int per_executor = like != nullptr ? std::max(1, app.SlotsOf(*like)) : 1;
    const size_t n = static_cast<size_t>(std::max(1, *selection.executors));
    executors.assign(n, like);
    windows.assign(n, ExecutorWindow{});
    slots.assign(n, per_executor);
  }
  // --- stages that ran tasks ---
  std::vector<StagePlan> plans;
  for (int id : selection.stage_ids) {
    const RecordedStage* st = app.stage(id);
    if (st == nullptr || !st->submitted || st->tasks.empty()) continue;
    StagePlan p;
    p.stage = st;
    std::vector<const RecordedTask*> tasks;
    for (const RecordedTask& t : st->tasks) tasks.push_back(&t);
    std::stable_sort(tasks.begin(), tasks.end(), [](const RecordedTask* a, const RecordedTask* b) {
      return std::tie(a->launch_time_ms, a->index) < std::tie(b->launch_time_ms, b->index);
    });
    p.first_launch_ms = tasks.front()->launch_time_ms;
    p.last_finish_ms = tasks.front()->finish_time_ms;
    for (const RecordedTask* t : tasks) {
      p.durations_ms.push_back(std::max<int64_t>(t->wall_ms(), 0));
      p.last_finish_ms = std::max(p.last_finish_ms, t->finish_time_ms);
    }
    p.submit_ms = std::min(st->submission_time_ms.value_or(p.first_launch_ms), p.first_launch_ms);
    p.complete_ms = std::max(st->completion_time_ms.value_or(p.last_finish_ms), p.last_finish_ms);
    plans.push_back(std::move(p));
  }
  const int64_t end = selection.end_ms;
  if (plans.empty()) {
    out.floor_seconds = static_cast<double>(std::max<int64_t>(end - start, 0)) / 1000.0;
    return out;
  }
  // Anchors: the latest completion before each submission, in the strict order of
  // (completion, stage id) so that anchoring cannot form a cycle.
  for (size_t i = 0; i < plans.size(); ++i) {
    for (size_t j = 0; j < plans.size(); ++j) {
      if (i == j || plans[j].complete_ms > plans[i].submit_ms) continue;
      if (std::tie(plans[j].complete_ms, plans[j].stage->stage_id) >=
          std::tie(plans[i].complete_ms, plans[i].stage->stage_id))
        continue;
      if (!plans[i].anchor ||
          std::tie(plans[j].complete_ms, plans[j].stage->stage_id) >
              std::tie(plans[*plans[i].anchor].complete_ms, plans[*plans[i].anchor].stage->stage_id))
        plans[i].anchor = j;
    }
    if (plans[i].anchor) plans[*plans[i].anchor].dependents.push_back(i);
  }
  // Where each stage may run: its resource profile's executors; with a locality wait and only
  // process- or node-local tasks, the executors it ran on.
  const bool locality = LocalityWaitSeconds(app) > 0;
  for (StagePlan& p : plans) {
    if (selection.executors) continue;  // every stage on any of the what-if's executors
    std::set<std::string> ran_on;
    bool all_local = true;
    for (const RecordedTask& t : p.stage->tasks) {
      ran_on.insert(t.executor_id);
      all_local &= t.locality == "PROCESS_LOCAL" || t.locality == "NODE_LOCAL";
    }
    std::vector<int> allowed;
    bool restricted = false;
    for (size_t e = 0; e < executors.size(); ++e) {
      const bool profile = executors[e]->resource_profile_id == p.stage->resource_profile_id;
      const bool local = !(locality && all_local) || ran_on.count(executors[e]->executor_id) > 0;
      if (profile && local) {
        allowed.push_back(static_cast<int>(e));
      } else {
        restricted = true;
      }
    }
    if (restricted && !allowed.empty()) p.allowed = std::move(allowed);
  }
  // FIFO priority: (job, stage); FAIR pools as recorded.
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(plans[a].stage->job_id.value_or(0), plans[a].stage->stage_id) <
           std::make_tuple(plans[b].stage->job_id.value_or(0), plans[b].stage->stage_id);
  });
  for (size_t rank = 0; rank < order.size(); ++rank) plans[order[rank]].priority = static_cast<int>(rank);
  const eventlog::RecordedScheduling scheduling = eventlog::ReadScheduling(app);

  Simulator sim;
  TaskScheduler scheduler(sim, windows, slots);
  if (scheduling.fair) {
    scheduler.SetMode(SchedulingMode::kFair);
    std::map<std::string, int> pool_ids;
    for (const auto& [name, pool] : scheduling.pools) {
      const int id = static_cast<int>(pool_ids.size());
      pool_ids[name] = id;
      scheduler.ConfigurePool(
          id, PoolSpec{name, pool.fair_observed ? SchedulingMode::kFair : SchedulingMode::kFifo, 1, 0});
    }
    for (StagePlan& p : plans) {
      auto job = p.stage->job_id ? app.jobs.find(*p.stage->job_id) : app.jobs.end();
      if (job == app.jobs.end()) continue;
      auto it = pool_ids.find(eventlog::RecordedScheduling::PoolOf(job->second));
      if (it != pool_ids.end()) p.pool = it->second;
    }
  }
  // Busy slots of the stage's executors when it was submitted (all stages of the application).
  auto launch_delay_ms = [&](const StagePlan& p) -> int64_t {
    const int64_t delay = p.first_launch_ms - p.submit_ms;
    int capacity = 0, running = 0;
    std::set<std::string> allowed_ids;
    for (size_t e = 0; e < recorded.size(); ++e) {
      if (!p.allowed.empty() && !std::binary_search(p.allowed.begin(), p.allowed.end(), static_cast<int>(e)))
        continue;
      allowed_ids.insert(recorded[e]->executor_id);
      const std::optional<int64_t> until = app.OffersTasksUntilMs(*recorded[e]);
      if (recorded[e]->added_time_ms <= p.submit_ms && (!until || *until > p.submit_ms))
        capacity += recorded_slots[e];
    }
    std::optional<int64_t> first_end;
    for (const auto& [id, st] : app.stages) {
      for (const RecordedTask& t : st.tasks) {
        if (!allowed_ids.count(t.executor_id)) continue;
        if (t.launch_time_ms <= p.submit_ms && t.finish_time_ms > p.submit_ms) ++running;
        if (t.finish_time_ms >= p.submit_ms && t.finish_time_ms <= p.first_launch_ms &&
            (!first_end || t.finish_time_ms < *first_end))
          first_end = t.finish_time_ms;
      }
    }
    if (running < capacity || !first_end) return delay;
    return p.first_launch_ms - *first_end;
  };

  std::function<void(size_t)> submit = [&](size_t i) {
    StagePlan& p = plans[i];
    p.submitted = sim.Now();
    TaskSetSpec spec;
    spec.priority = p.priority;
    spec.pool = p.pool;
    spec.num_tasks = static_cast<int>(p.durations_ms.size());
    spec.launch_delay = FromMs(launch_delay_ms(p));
    spec.allowed_executors = p.allowed;
    // Task k (launched k-th: no locality preferences) takes the stage's k-th recorded attempt.
    spec.duration = [&p](int task, int) { return FromMs(p.durations_ms[static_cast<size_t>(task)]); };
    spec.on_task_set_complete = [&, i](SimTime at) {
      StagePlan& done = plans[i];
      sim.ScheduleAt(at + FromMs(done.complete_ms - done.last_finish_ms), [&, i] {
        plans[i].completed = sim.Now();
        for (size_t d : plans[i].dependents) {
          sim.ScheduleIn(FromMs(plans[d].submit_ms - plans[i].complete_ms), [&, d] { submit(d); });
        }
      });
    };
    scheduler.Submit(std::move(spec));
  };
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!plans[i].anchor) sim.ScheduleAt(FromMs(plans[i].submit_ms - start), [&, i] { submit(i); });
  }
  sim.Run();

  int64_t last_recorded = plans.front().complete_ms;
  SimTime last_replayed = SimTime::Zero();
  for (const StagePlan& p : plans) {
    last_recorded = std::max(last_recorded, p.complete_ms);
    const SimTime done = p.completed.value_or(sim.Now());
    last_replayed = std::max(last_replayed, done);
    out.stage_seconds[p.stage->stage_id] = (done - p.submitted).seconds();
  }
  out.floor_seconds = (last_replayed + FromMs(end - last_recorded)).seconds();
  return out;
}

}  // namespace aqesim::validate
