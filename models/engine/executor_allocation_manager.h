// ExecutorAllocationManager: Spark's dynamic allocation policy, run inside the simulation
// (core/src/main/scala/org/apache/spark/ExecutorAllocationManager.scala and
// scheduler/dynalloc/ExecutorMonitor.scala). docs/aqe-behaviour.md §14 restates it.
//
// Every 100 ms (Spark's schedule interval) the manager:
//   - computes the executors the running and pending tasks could fill,
//     maxNeeded = ceil((pending + running) × executorAllocationRatio ÷ task slots per executor);
//   - if maxNeeded is below the target, lowers the target to max(maxNeeded, minExecutors)
//     (cancelling requests not yet granted) and resets the number to add to 1;
//   - else, once the backlog timer has expired (schedulerBacklogTimeout after tasks started
//     waiting, then every sustainedSchedulerBacklogTimeout while they still wait), raises the
//     target to max(target, registered executors) + toAdd, capped by maxNeeded and
//     [minExecutors, maxExecutors]; toAdd doubles when the whole round was granted (1, 2, 4, …),
//     else returns to 1;
//   - removes executors idle for executorIdleTimeout (an executor holding shuffle output of
//     the query, with shuffle tracking on and no external shuffle service, only after
//     spark.dynamicAllocation.shuffleTracking.timeout: by default never), never going below
//     minExecutors or the target.
// The backlog timer starts when a stage is submitted and stops when no task is pending after a
// task starts; pending and running tasks are counted from submissions, launches and ends, as
// Spark's ExecutorAllocationListener counts them. The first target is max(minExecutors, initialExecutors,
// spark.executor.instances), present from the start (the application is running when the query starts). A
// requested executor registers executorStartSeconds after the request and takes tasks executorLaunchSeconds
// later (models/cluster/cluster.h).
//
// A request is granted by the cluster manager executorGrantSeconds after it is made; from then on
// it is not cancelled when the target drops (YarnAllocator cancels only the container requests
// the ResourceManager has not allocated: an allocated container is launched and registers).
// Unset: a request can be cancelled until its executor registers.
//
// With cluster.executorCapacity the cluster holds at most that many of the application's
// executor containers at once (each a place). A request is placed in a free place at once;
// when none is free, in the place of a killed executor whose removal is not reported yet (the
// soonest; YARN's ResourceManager frees a container's resources when the ApplicationMaster
// releases it at the kill, but the NodeManager starts the new container only once the old one
// has exited: e.g. Hadoop's GpuResourceAllocator waits for the GPUs of a container still
// releasing them); when neither, it waits, unplaced, for a place (a kill or a removal) and can
// be cancelled until then. A placed request registers executorStartSeconds after the request
// or executorStartSeconds − executorGrantSeconds after its place was ready, whichever is later.
//
// Started from an AllocationState (a query of an application that ran others before it), the
// manager begins with that state's executors (indexes 0..n-1, idle as long as it says), requests
// (the next indexes, registering when their start time is up) and target, and is past its
// initializing phase (stages ran before).
//
// An executor killed for its idle timeout takes no task from then on, but the driver counts it
// registered (its cores in defaultParallelism, CoarseGrainedSchedulerBackend.totalCoreCount)
// until the cluster manager reports it gone, executorRemoveSeconds later (the application's
// k-th kill, counted over its whole run: remove_seconds_by_kill[k]; YARN: the container's
// completion, at an ApplicationMaster heartbeat after the executor shut down). The manager
// counts it too (ExecutorMonitor.executorCount): a ramp's target starts from at least the
// executors it has, killed ones included, while requests are made for the live executors
// missing (YarnAllocator: target − pending − starting − running). A state's `removing`
// executors (killed before the start) count the same until their removal.
//
// The scheduler is built with `capacity` executors, all absent; the manager registers and
// removes them. A new executor takes the lowest index never used, else the lowest removed one
// (a fresh JVM: `on_replaced` is called so that its warmth is reset).
#ifndef AQESIM_MODELS_ENGINE_EXECUTOR_ALLOCATION_MANAGER_H_
#define AQESIM_MODELS_ENGINE_EXECUTOR_ALLOCATION_MANAGER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "models/cluster/allocation_state.h"
#include "models/conf/dynamic_allocation.h"
#include "models/engine/run_result.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

class ExecutorAllocationManager {
 public:
  struct Settings {
    DynamicAllocationConf conf;
    int initial_executors = 0;   // max(minExecutors, initialExecutors, spark.executor.instances)
    int slots_per_executor = 1;  // task slots of one executor (> 0)
    double start_seconds = 0;    // request → registration (cluster.executorStartSeconds)
    /// The k-th request this manager makes registers start_seconds_by_request[k] after it
    /// (cluster.executorStartSecondsByRequest); requests past its end take start_seconds.
    std::vector<double> start_seconds_by_request;
    double launch_seconds = 0;            // registration → first task (cluster.executorLaunchSeconds)
    std::optional<double> grant_seconds;  // request → granted (cluster.executorGrantSeconds)
    double remove_seconds = 0;  // kill → the driver hears it is gone (cluster.executorRemoveSeconds)
    /// The application's k-th idle-timeout kill is reported gone remove_seconds_by_kill[k] after
    /// it (cluster.executorRemoveSecondsByKill); kills past its end take remove_seconds.
    std::vector<double> remove_seconds_by_kill;
    /// The application's kills before this manager's first (its index into
    /// remove_seconds_by_kill) unless at_start gives killsMade (cluster.executorKillsBeforeStart).
    int64_t kills_before = 0;
    std::optional<int> capacity;  // containers the cluster holds at once (cluster.executorCapacity)
    std::optional<AllocationState> at_start;  // where the application stood (its gap already passed)
  };
  /// Spark's schedule interval (ExecutorAllocationManager.intervalMillis).
  static constexpr double kIntervalSeconds = 0.1;

  /// `scheduler` has capacity() executors, none present; `on_replaced(e)` is called when a new
  /// executor takes the index of a removed one.
  ExecutorAllocationManager(Simulator& sim, TaskScheduler& scheduler, Settings settings,
                            std::function<void(int executor)> on_replaced);

  /// At time 0: registers the initial executors and starts the 100 ms schedule, which stops
  /// once nothing else is left to happen.
  void Start();
  /// A stage's `num_tasks` tasks were submitted (pending from now, as Spark's listener counts
  /// them, even while the task set waits for its launch): the backlog timer starts (if not running).
  void OnStageSubmitted(int num_tasks);
  /// A task was launched on `executor`: if no task is left pending, the backlog timer stops.
  void OnTaskLaunched(int executor);
  /// A task ended on `executor`; `wrote_shuffle_output`: a map task (its output stays there).
  void OnTaskEnd(int executor, bool wrote_shuffle_output);

  /// The executors' count over time as the driver sees them registered (a killed one until its
  /// removal is reported: executorRemoveSeconds).
  const std::vector<ExecutorCountChange>& history() const { return history_; }
  /// Executors the driver counts as registered now (CoarseGrainedSchedulerBackend: their cores
  /// are in defaultParallelism): those taking tasks and those killed, not yet reported gone.
  int RegisteredForDriver() const {
    return static_cast<int>(registered_.size() + removing_.size() + carried_removing_.size());
  }
  /// Where the manager stands now: the registered executors (index order), the outstanding
  /// requests (oldest first), the killed executors not reported gone, the target and the kills
  /// made (models/engine/allocation_manager_state.cc).
  AllocationState StateNow() const;

 private:
  struct Executor {
    EventId registration;        // while requested and placed
    SimTime requested_at;        // while requested: when (negative: before the start)
    double start_seconds = 0;    // while requested: request → registration, its own
    bool placed = true;          // while requested: its container has a place
    SimTime placed_at;           // while requested and placed: when (granted executorGrantSeconds later)
    SimTime ready_at;            // while requested and placed: when its place is (was) ready
    int waits_for = -1;          // while requested: the releasing place it waits for (Releasing index)
    SimTime removal_at;          // while removing: when its removal is reported
    int releasing = -1;          // while removing: its Releasing index
    bool warm = false;           // its JVM finished a task
    SimTime idle_since;          // registered: when its last task ended (or it registered)
    int running = 0;             // tasks running on it (a removed one drains its own)
    bool holds_shuffle = false;  // ran a map task (shuffle tracking)
    std::optional<SimTime> idle_deadline;  // its entry in idle_deadlines_, if any
  };

  /// A killed executor's container until its removal is reported (its place, claimable once).
  struct Releasing {
    SimTime at;           // when its removal is reported
    int claimed_by = -1;  // the request placed there
    bool gone = false;    // reported removed
  };

  void Tick();
  /// Places the unplaced request `executor` now if a place is free or releasing; false if not.
  bool Place(int executor);
  /// Places the unplaced requests, oldest first, while places are found.
  void PlaceWaiting();
  /// Places in use: registered executors, placed requests not waiting for a release, and the
  /// containers of killed executors until their removal is reported.
  int PlacesUsed() const;
  /// Adds a killed executor's container, released at `at`; returns its Releasing index.
  int AddReleasing(SimTime at);
  /// The removal of Releasing `releasing` is reported: its place goes to the request waiting
  /// for it, else is free.
  void Released(int releasing);
  /// When the request `x` (made at x.requested_at, taking x.start_seconds) whose place is ready
  /// at `ready_at` registers (and is launched: executorLaunchSeconds).
  SimTime RegistrationAt(const Executor& x, SimTime ready_at) const;
  /// by[k], else `otherwise` (the k-th request's or kill's own latency, if the cluster gives one).
  static double EntryOr(const std::vector<double>& by, int64_t k, double otherwise) {
    return k >= 0 && static_cast<size_t>(k) < by.size() ? by[static_cast<size_t>(k)] : otherwise;
  }
  void UpdateTarget(SimTime now);
  void Request(int count);
  void StartFrom(const AllocationState& state);
  void ScheduleRegistration(int executor, SimTime at);
  /// Cancels up to `count` requests the cluster manager has not granted yet, the latest first.
  void CancelRequests(int count);
  void Register(int executor);
  void RemoveTimedOut(SimTime now);
  /// When a registered, idle executor reaches its idle timeout (executorIdleTimeout, or
  /// shuffleTracking.timeout while it holds shuffle output); none while it runs a task, is not
  /// registered, or is kept for good.
  std::optional<SimTime> IdleDeadline(int executor) const;
  /// Re-files `executor` in idle_deadlines_ after its state changed. The schedule finds the
  /// timed-out executors from there in O(log n), not by visiting every executor each 100 ms
  /// (10^6 executors took over 120 s).
  void UpdateIdleDeadline(int executor);
  /// The index a new executor takes: the lowest never used (or whose request was cancelled),
  /// else the lowest removed one that finished draining; -1 when none is left.
  int FreeIndex() const;
  void Record();

  Simulator& sim_;
  TaskScheduler& scheduler_;
  Settings s_;
  std::function<void(int)> on_replaced_;
  std::vector<Executor> executors_;  // indexed like the scheduler's executors
  // Where each index stands; every index is in exactly one of these (or at or above next_fresh_).
  std::set<int> registered_;          // taking tasks (sets: ordered, so removals and cancellations are too)
  std::set<int> requested_;           // requested, not registered yet
  std::set<int> cancelled_;           // requested, then cancelled before registering: as good as fresh
  std::set<int> removing_;            // killed after an idle timeout, their removal not reported yet
  std::vector<Releasing> releasing_;  // every killed executor's container (and those carried)
  std::set<int> carried_removing_;    // killed before the start: their Releasing indexes
  std::set<int> removed_;             // removed after an idle timeout
  std::set<std::pair<SimTime, int>> idle_deadlines_;  // registered idle executors by IdleDeadline
  int next_fresh_ = 0;                                // indexes from here on were never used
  int target_ = 0;
  int to_add_ = 1;
  int64_t ticks_ = 0;
  size_t requests_made_ = 0;  // Request()s so far (the index into start_seconds_by_request)
  int64_t kills_made_ = 0;    // the application's idle-timeout kills so far (into remove_seconds_by_kill)
  std::optional<SimTime> add_time_;  // backlog timer: when the next round of requests is due
  bool initializing_ = true;
  int64_t pending_ = 0;  // tasks of submitted stages not launched yet
  int64_t running_ = 0;  // tasks running on any executor (Σ Executor::running)
  std::vector<ExecutorCountChange> history_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_EXECUTOR_ALLOCATION_MANAGER_H_
