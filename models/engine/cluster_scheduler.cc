#include "models/engine/cluster_scheduler.h"

#include <algorithm>
#include <vector>

#include "models/engine/allocation_carry_over.h"
#include "models/engine/static_planner.h"
#include "models/plan/plan_error.h"

namespace aqesim {
namespace {

/// One window per timeline entry; one registering during the run takes tasks once launched
/// (executorLaunchSeconds).
std::vector<ExecutorWindow> Windows(const ClusterSpec& cluster) {
  std::vector<ExecutorWindow> windows;
  for (const ExecutorLifetime& e : cluster.executor_timeline) {
    ExecutorWindow w;
    w.add = e.add_seconds > 0 ? SimTime::Seconds(e.add_seconds + cluster.executor_launch_seconds)
                              : SimTime::Zero();
    // Removed before the start, or before it was launched: never present (the scheduler
    // skips a window ending at 0).
    if (e.remove_seconds)
      w.remove = *e.remove_seconds > 0 && SimTime::Seconds(*e.remove_seconds) > w.add
                     ? SimTime::Seconds(*e.remove_seconds)
                     : SimTime::Zero();
    windows.push_back(w);
  }
  return windows;
}

}  // namespace

bool DynamicAllocationSimulated(const Scenario& s) {
  return s.conf.dynamic_allocation.enabled && !s.conf.master.local && s.cluster.executor_timeline.empty();
}

ExecutorAllocationManager::Settings DynamicAllocationSettings(const Scenario& s, int slots_per_executor) {
  ExecutorAllocationManager::Settings settings;
  settings.conf = s.conf.dynamic_allocation;
  settings.initial_executors = s.conf.dynamic_allocation.InitialExecutors(s.conf.executor_instances);
  settings.slots_per_executor = slots_per_executor;
  settings.start_seconds = s.cluster.executor_start_seconds;
  settings.start_seconds_by_request = s.cluster.executor_start_seconds_by_request;
  settings.launch_seconds = s.cluster.executor_launch_seconds;
  settings.grant_seconds = s.cluster.executor_grant_seconds;
  settings.remove_seconds = s.cluster.executor_remove_seconds;
  settings.remove_seconds_by_kill = s.cluster.executor_remove_seconds_by_kill;
  settings.kills_before = s.cluster.executor_kills_before_start;
  settings.capacity = s.cluster.executor_capacity;
  if (s.cluster.allocation_at_start)
    settings.at_start = CarryAcrossGap(*s.cluster.allocation_at_start, settings);
  return settings;
}

int DynamicAllocationCapacity(const Scenario& s, const ExecNode& static_plan, int slots_per_executor) {
  const int64_t tasks = PlannedRunTasks(static_plan).total;
  const int slots = std::max(1, slots_per_executor);
  const int64_t needed = (tasks + slots - 1) / slots;
  const ExecutorAllocationManager::Settings settings = DynamicAllocationSettings(s, slots_per_executor);
  const int64_t most = std::min<int64_t>(needed, settings.conf.max_executors.value_or(kMaxExecutors));
  int64_t at_start = settings.initial_executors;
  if (settings.at_start)
    at_start = static_cast<int64_t>(settings.at_start->executors.size() + settings.at_start->requests.size());
  return static_cast<int>(std::clamp<int64_t>(std::max<int64_t>(most, at_start), 1, kMaxExecutors));
}

TaskScheduler MakeClusterScheduler(Simulator& sim, const Scenario& s, int dynamic_capacity) {
  const ClusterSpec& cluster = s.cluster;
  const std::vector<int> slots = SlotsPerExecutor(cluster, s.conf.task_cpus, s.conf.task_gpu_amount);
  const int per_executor = slots.empty() ? 1 : slots.front();
  if (dynamic_capacity > 0) {
    // Every executor absent until the allocation manager registers it (a window ending at 0).
    ExecutorWindow absent;
    absent.remove = SimTime::Zero();
    return TaskScheduler(sim, std::vector<ExecutorWindow>(static_cast<size_t>(dynamic_capacity), absent),
                         per_executor);
  }
  if (cluster.executor_timeline.empty()) return TaskScheduler(sim, cluster.executors, per_executor);
  return TaskScheduler(sim, Windows(cluster), slots);
}

int DefaultParallelism(const Scenario& s, std::optional<int> registered_cores) {
  if (s.conf.default_parallelism) return *s.conf.default_parallelism;
  if (s.conf.master.local) return s.conf.master.local_threads.value_or(std::max(1, s.cluster.total_cores()));
  return std::max(2, registered_cores.value_or(s.cluster.total_cores()));
}

std::optional<std::vector<int>> SqlStageExecutors(const ClusterSpec& cluster, const std::string& stage_name) {
  constexpr int kDefaultProfile = 0;
  std::optional<std::vector<int>> allowed = ExecutorsOfProfile(cluster, kDefaultProfile);
  if (allowed && allowed->empty())
    throw PlanError("/cluster", stage_name + " runs on resource profile " + std::to_string(kDefaultProfile) +
                                    ", which no executor has");
  return allowed;
}

}  // namespace aqesim
