// ClusterSpec: the modelled cluster: executors × cores, static or following a recorded
// executor timeline (dynamic allocation as it happened), and the stage-level resource profiles
// its executors belong to (Spark 3.1+: core/.../resource/ResourceProfile.scala).
#ifndef AQESIM_MODELS_CLUSTER_CLUSTER_H_
#define AQESIM_MODELS_CLUSTER_CLUSTER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "models/cluster/allocation_state.h"

namespace aqesim {

/// One executor of a timeline: seconds from the start of the simulation (the query's
/// submission) at which it registers and, optionally, stops taking tasks.
/// A stage-level resource profile other than the default one (id 0, which the cluster's own
/// fields and spark.task.cpus / spark.task.resource.gpu.amount describe): what each of its
/// executors has and what each task takes. JSON: an entry of `cluster.resourceProfiles`.
struct ResourceProfileSpec {
  int id = 1;              // JSON `id`, >= 1, unique
  int executor_cores = 1;  // JSON `executorCores`, > 0
  int task_cpus = 1;       // JSON `taskCpus`, > 0
  int executor_gpus = 0;   // JSON `executorGpus`, >= 0 (0: the profile's executors have none)
  /// JSON `taskGpus`, > 0: GPUs each task takes (a fraction <= 0.5 shares one GPU among
  /// floor(1 / amount) tasks, as Spark allows); unset: tasks take none.
  std::optional<double> task_gpus;
};

/// Task slots of an executor with `executor_cores` cores and `executor_gpus` GPUs when each task
/// takes `task_cpus` cores and `task_gpus` GPUs: the fewest the limiting resource allows
/// (ResourceProfile.calculateTasksAndLimitingResource). A task amount <= 0.5 is a share of one
/// GPU (floor(1 / amount) tasks per GPU); a larger one must be whole. 0 when a resource is short.
int TaskSlotsPerExecutor(int executor_cores, int task_cpus, int executor_gpus,
                         std::optional<double> task_gpus);

struct ExecutorLifetime {
  double add_seconds = 0;                // <= 0: registered from the start
  std::optional<double> remove_seconds;  // none: never removed; > add_seconds
  /// Its JVM already ran tasks before the start (no executorStartupSeconds). JSON `warm`.
  bool warm = false;
  /// Its JVM already ran this query's code (an earlier run of the same plan; implies `warm`):
  /// its first tasks of a stage are not a cold first wave (no executorStageWarmupSeconds, no
  /// coldCodeSlowdown). JSON `warmCode`.
  bool warm_code = false;
  /// The resource profile it was started for (JSON `resourceProfile`, default 0): its cores,
  /// GPUs and task amounts; a stage runs only on executors of its own profile.
  int resource_profile = 0;
  /// Registered from the start: seconds it had been idle then (since its last task ended, or
  /// since it registered if it ran none; 0 while it ran a task). Read only when dynamic
  /// allocation's policy replaces the timeline: its idle timer (executorIdleTimeout) goes on
  /// from there (models/scenario/allocation_from_timeline.h). JSON `idleSeconds`, >= 0, default 0.
  double idle_seconds = 0;
};

struct ClusterSpec {
  /// Number of executors (E). JSON `executors`, > 0.
  int executors = 2;
  /// Cores per executor (C). JSON `executorCores`, > 0. Task slots per executor are
  /// floor(C / spark.task.cpus).
  int executor_cores = 4;
  /// Executor heap, bytes. JSON `executorMemory` ("8g"), default 1 GiB (spark.executor.memory).
  int64_t executor_memory_bytes = int64_t{1} << 30;
  /// Network bandwidth of one executor (NIC), bytes per second, shared by its concurrent tasks.
  /// JSON `networkBytesPerSecond` ("1250m" = 10 Gbit/s). Default 1.25 GB/s (10 GbE).
  int64_t network_bytes_per_second = 1250LL * 1000 * 1000;
  /// Local disk bandwidth of one executor, bytes per second, shared by its concurrent tasks.
  /// JSON `diskBytesPerSecond`. Default 500 MB/s (one SATA SSD).
  int64_t disk_bytes_per_second = 500LL * 1000 * 1000;
  /// Driver's network bandwidth, bytes per second (broadcast collection). JSON
  /// `driverNetworkBytesPerSecond`. Default 1.25 GB/s.
  int64_t driver_network_bytes_per_second = 1250LL * 1000 * 1000;
  /// Driver heap, bytes (JSON `driverMemory`, default 1 GiB = spark.driver.memory).
  int64_t driver_memory_bytes = int64_t{1} << 30;
  /// Shared limits (models/engine/shared_limits.h), off by default. The aggregate storage
  /// throughput, bytes per second, shared evenly by every running task of a scanning stage
  /// (JSON `storageBytesPerSecond`, > 0; unset: unlimited).
  std::optional<int64_t> storage_bytes_per_second;
  /// The driver's event loop: seconds of its one thread per task launched (JSON
  /// `driverSecondsPerTask`, in [0, 60]) and per stage made runnable (`driverSecondsPerStage`, in
  /// [0, 3600]); 0 (default): free.
  double driver_seconds_per_task = 0;
  double driver_seconds_per_stage = 0;

  /// JSON `executorTimeline`: when each executor registers and is removed. Empty: `executors`
  /// executors present throughout. Non-empty: the scheduler's executors are these entries;
  /// `executors` still sets defaultParallelism (executors × cores; Spark: the cores
  /// registered), and defaults to the most executors present at once.
  std::vector<ExecutorLifetime> executor_timeline;
  /// Seconds from a timeline executor's registration (`add` > 0) to the first task it is
  /// offered: Spark 3.0+ gives a registered executor no free cores until it reports
  /// LaunchedExecutor (CoarseGrainedSchedulerBackend), after its Executor and plugins started.
  /// Executors present from the start are launched. JSON `executorLaunchSeconds`, >= 0,
  /// default 0; the importer measures it (tools/eventlog/executor_launch.h).
  double executor_launch_seconds = 0;
  /// Dynamic allocation (spark.dynamicAllocation.enabled, no timeline): seconds from the
  /// driver's request for an executor to its registration (the cluster manager's container or
  /// pod start and the JVM's start). JSON `executorStartSeconds`, in [0, 3600], default 0.
  double executor_start_seconds = 0;
  /// Dynamic allocation: the k-th executor request of the run (in order of request, from the
  /// run's start; requests carried in allocationAtStart keep their own) registers entry k
  /// seconds after it; requests past the end take executorStartSeconds. A cluster's start-up
  /// times spread (a node's container launch, the image pull, a place freed only when a killed
  /// container exits); the importer writes the latencies the log shows for the requests made
  /// within the selection (tools/eventlog/executor_start.h). JSON
  /// `executorStartSecondsByRequest`, an array of seconds in [0, 3600]; default empty.
  std::vector<double> executor_start_seconds_by_request;
  /// Dynamic allocation: seconds from the driver's request to the cluster manager granting the
  /// executor's container. A request granted is no longer cancelled when the target drops: YARN's
  /// allocator (YarnAllocator.updateResourceRequests) cancels only container requests the
  /// ResourceManager has not allocated yet; an allocated container is launched and its executor
  /// registers. JSON `executorGrantSeconds`, in [0, 3600]; unset: a request can be cancelled
  /// until its executor registers. Capped by executorStartSeconds.
  std::optional<double> executor_grant_seconds;
  /// Dynamic allocation: seconds from the driver killing an idle executor to the cluster manager
  /// reporting it gone (SparkListenerExecutorRemoved). Meanwhile it takes no task but the driver
  /// counts its cores (defaultParallelism, CoarseGrainedSchedulerBackend.totalCoreCount) and
  /// runs[].executors counts it, as the log's ExecutorAdded / ExecutorRemoved do. JSON
  /// `executorRemoveSeconds`, in [0, 3600], default 0.
  double executor_remove_seconds = 0;
  /// Dynamic allocation: each idle-timeout kill's own lag to its reported removal, in order of
  /// kill over the whole application run (the gaps between its queries and the time before the
  /// first included): the application's k-th kill is reported gone entry k seconds after it;
  /// kills past the end take executorRemoveSeconds. A query's first kill is the application's
  /// kill number allocationAtStart.killsMade, else executorKillsBeforeStart (a kill carried in
  /// allocationAtStart's `removing` keeps its secondsUntilRemoved). A container's exit time
  /// spreads (11.3-23.8 s on the dynamic_alloc log's YARN cluster); the importer writes the lags
  /// the log shows (tools/eventlog/executor_remove.h). JSON `executorRemoveSecondsByKill`, an
  /// array of seconds in [0, 3600]; default empty.
  std::vector<double> executor_remove_seconds_by_kill;
  /// Dynamic allocation: the idle-timeout kills the application made before the query's start
  /// (the index of the query's first kill into executorRemoveSecondsByKill) when
  /// allocationAtStart does not give killsMade. The importer counts them in the log. JSON
  /// `executorKillsBeforeStart`, an integer >= 0, default 0.
  int64_t executor_kills_before_start = 0;
  /// Dynamic allocation: the most executor containers the cluster holds for the application at
  /// once, a killed executor's until its removal is reported (YARN: the queue's or the nodes'
  /// resources; the importer cannot know it, a log shows at most a lower bound). A request
  /// finding no place waits, cancellable, for one; one placed where a killed executor's
  /// container still runs starts when that removal is reported
  /// (models/engine/executor_allocation_manager.h). JSON `executorCapacity`, an integer >= 1;
  /// unset: unlimited.
  std::optional<int> executor_capacity;
  /// Dynamic allocation: where the application's allocation manager stood before the query
  /// (models/cluster/allocation_state.h; JSON `allocationAtStart`). Unset: it starts as Spark's
  /// does at the application's start (initialExecutors).
  std::optional<AllocationState> allocation_at_start;
  /// With a timeline: whether the selection starts the application, nothing having run in it
  /// before (no task launched, no executor removed). Read only when dynamic allocation's policy
  /// replaces the timeline: true, the policy starts from initialExecutors, as at the
  /// application's start; false, from the timeline's executors present at the start
  /// (models/scenario/allocation_from_timeline.h). JSON `startsApplication`; unset: true when no
  /// executor present at the start is warm. The importer writes it.
  std::optional<bool> starts_application;
  /// Static cluster: executors [0, warm_executors) have JVMs that already ran tasks before the
  /// start; the others are fresh (their first tasks pay executorStartupSeconds). JSON
  /// `warmExecutors`, default 0. (With a timeline, each entry's `warm` says it.)
  int warm_executors = 0;
  /// Static cluster: executors [0, warm_code_executors) already ran this query's code (an
  /// earlier run of the same plan; they count as warm JVMs too): no first-wave warm-up or cold
  /// slowdown on them. JSON `warmCodeExecutors`, default 0. (Timeline: each entry's `warmCode`.)
  int warm_code_executors = 0;
  /// GPUs per executor of the default profile (JSON `executorGpus`, Spark's
  /// spark.executor.resource.gpu.amount); 0: no GPU. With spark.task.resource.gpu.amount they
  /// may limit the slots per executor (TaskSlotsPerExecutor).
  int executor_gpus = 0;
  /// The other resource profiles (JSON `resourceProfiles`), referred to by executorTimeline
  /// entries. Empty: every executor is of the default profile.
  std::vector<ResourceProfileSpec> resource_profiles;

  int total_cores() const { return executors * executor_cores; }
  /// The resource profile `id` (0: the default one, from the fields above), or null.
  const ResourceProfileSpec* profile(int id) const;
};

/// Task slots of each executor the scheduler runs (the timeline's entries, else `executors`
/// executors of the default profile): TaskSlotsPerExecutor of its profile, the default profile
/// taking `task_cpus` (spark.task.cpus) and `task_gpus` (spark.task.resource.gpu.amount).
std::vector<int> SlotsPerExecutor(const ClusterSpec& cluster, int task_cpus, std::optional<double> task_gpus);

/// The scheduler's executors of resource profile `profile` (indexes as in SlotsPerExecutor);
/// nullopt when every executor is of it (nothing to restrict), empty when none is.
std::optional<std::vector<int>> ExecutorsOfProfile(const ClusterSpec& cluster, int profile);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CLUSTER_CLUSTER_H_
