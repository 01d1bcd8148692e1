// The task scheduler of a scenario's cluster, and whether Spark's dynamic allocation policy
// runs: a static cluster (`executors` executors throughout), a recorded executor timeline
// (registrations and removals as they happened), or spark.dynamicAllocation.enabled on a
// cluster without a timeline — then ExecutorAllocationManager (executor_allocation_manager.h)
// registers and removes the scheduler's executors as Spark's policy would.
#ifndef AQESIM_MODELS_ENGINE_CLUSTER_SCHEDULER_H_
#define AQESIM_MODELS_ENGINE_CLUSTER_SCHEDULER_H_

#include <optional>
#include <string>
#include <vector>

#include "models/engine/executor_allocation_manager.h"
#include "models/plan/exec_node.h"
#include "models/scenario/scenario.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

/// spark.dynamicAllocation.enabled, not in local mode, and no recorded executor timeline (a
/// timeline is replayed as recorded).
bool DynamicAllocationSimulated(const Scenario& s);

/// The policy's settings for `s` (initial executors: max(minExecutors, initialExecutors,
/// spark.executor.instances), as Spark's Utils.getDynamicAllocationInitialExecutors; or the
/// cluster's allocationAtStart, carried across its gap: allocation_carry_over.h).
ExecutorAllocationManager::Settings DynamicAllocationSettings(const Scenario& s, int slots_per_executor);

/// Executors the scheduler holds under dynamic allocation: the initial ones (or the executors and
/// requests of allocationAtStart after its gap), or more up to
/// maxExecutors (unset: Spark's "unbounded") but never more than the plan's tasks could fill —
/// PlannedRunTasks (static_planner.h) ÷ slots per executor, which no target (pending + running
/// tasks ÷ slots) exceeds but for skew splits.
int DynamicAllocationCapacity(const Scenario& s, const ExecNode& static_plan, int slots_per_executor);

/// SparkContext.defaultParallelism: spark.default.parallelism if set; local[N] → N (local[*]
/// → the cores); on a cluster the total executor cores, at least 2
/// (CoarseGrainedSchedulerBackend / LocalSchedulerBackend).
/// `registered_cores`: the cores registered now (dynamic allocation), else the cluster's.
int DefaultParallelism(const Scenario& s, std::optional<int> registered_cores = std::nullopt);

/// The executors a SQL stage named `stage_name` may run on: those of Spark's default resource
/// profile (every SQL stage runs on it), or nullopt when the cluster has no resource profiles
/// (every executor). Throws PlanError at /cluster when no executor has the profile.
std::optional<std::vector<int>> SqlStageExecutors(const ClusterSpec& cluster, const std::string& stage_name);

/// The scheduler: static, one executor per timeline entry, or (dynamic_capacity > 0)
/// `dynamic_capacity` executors of the default profile, none present yet.
TaskScheduler MakeClusterScheduler(Simulator& sim, const Scenario& s, int dynamic_capacity);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_CLUSTER_SCHEDULER_H_
