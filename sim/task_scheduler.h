// TaskScheduler: runs task sets on a SlotPool inside a Simulator, FIFO by priority or FAIR
// among pools.
//
// Mirrors the behaviour of Spark's TaskSchedulerImpl with its scheduling pools (Pool.scala,
// SchedulingAlgorithm.scala: FIFOSchedulingAlgorithm, FairSchedulingAlgorithm) and
// TaskSetManager's delay scheduling at one locality level (an executor stands for its host:
// NODE_LOCAL, then ANY) and its handling of failed attempts (handleFailedTask: the task is
// pending again; spark.task.maxFailures aborts the set; a fetch failure makes it a zombie); no
// rack locality, speculation or barrier stages.
// The cluster is static, or follows an executor timeline (dynamic allocation as recorded:
// CoarseGrainedSchedulerBackend offers an executor's cores from its registration on, and
// stops offering them once the executor is being removed).
//
// Semantics:
//   - A task set is submitted with a priority key (int, Spark's stage id; lower runs
//     first; equal keys run in submission order), a task count, and callbacks.
//   - It becomes runnable `launch_delay` after submission (zero by default).
//   - Whenever slots are free, pending tasks launch: the runnable task set with the
//     lowest key first, its tasks in index (partition) order; each task takes the slot
//     SlotPool::Acquire() gives (smallest (slot index, executor)). No preemption: a
//     later set with a lower key only wins the *next* free slot.
//   - Locality (optional, TaskSetSpec::preferred_executors): a set whose tasks prefer
//     executors launches, in each pass, round-robin over the executors with a free slot, the
//     lowest-index pending task preferring each (one per executor per round, like Spark's
//     per-offer loop), then its tasks without preference anywhere; a task with preferences
//     whose preferred executors are all busy waits while the set's locality timer is
//     younger than locality_wait (spark.locality.wait.node), other sets may take the slots,
//     and once it expires such tasks launch on any free slot. Tasks whose preferred
//     executors are all absent never wait. The timer starts when the set becomes runnable
//     and restarts in a pass that launched a task on a preferred executor without holding
//     any back (Spark 3.1+, SPARK-18886: the wait counts time resources sat idle for it).
//   - FAIR mode (SchedulingMode::kFair, spark.scheduler.mode=FAIR): every task set belongs to a
//     pool (TaskSetSpec::pool; pool 0 unless configured otherwise); each free slot goes to the
//     pool first in FairSchedulingAlgorithm's order, then to the task set first in the pool's
//     order (FIFO: by priority key; FAIR: the same algorithm over its task sets, each of weight
//     1 and minShare 0). FairSchedulingAlgorithm: a schedulable running fewer tasks than its
//     minShare ("needy") comes before one that is not; two needy ones compare running ÷
//     minShare, two others running ÷ weight; ties by name (pools: PoolSpec::name; task sets:
//     Spark's "TaskSet_<priority>.0", compared as strings), then submission order. Spark sorts
//     the queue once per resource offer and offers free slots as executors report task ends,
//     so a freed slot goes to the neediest set; here the order is recomputed for every slot.
//   - Allowed executors (optional, TaskSetSpec::allowed_executors; stage-level resource
//     profiles: a stage runs only on executors of its profile): the set's tasks take only
//     slots of those executors (the smallest (slot, executor) among them).
//   - Launching is one pass per instant, like ninja's build loop: completions,
//     submissions and anything else at time t happen first (their events use lower
//     tiers), then one launch pass at tier kDispatchTier starts as many tasks as slots
//     allow, then time advances to the next completion.
//   - Executor timeline (optional): executor i registers at timeline[i].add (at or before
//     time 0: present from the start) and, if timeline[i].remove is set, takes no new task
//     from then on; its running tasks finish. Registrations and removals are events of tier
//     kTaskEndTier, followed by a launch pass. Pending tasks wait while no slot is present.
//   - duration(task_index, executor) is asked at launch; a task launched at t ends at
//     t + duration, when its slot is freed, on_task_end(record) is called, and after
//     the last task of the set on_task_set_complete(end time). A set with on_launch is told of
//     each launch at once and asked its durations after the pass, in launch order (a duration
//     may then depend on everything that launched at that instant: a shared bandwidth).
//   - Failed attempts (optional, TaskSetSpec::failed_attempt; sim/task_attempts.cc): asked at
//     each launch before `duration`, it may make the attempt fail after a time of its own. The
//     slot is held that long; then the task is pending again (after FailedAttempt::retry_after)
//     and launches before the set's other pending tasks (Spark re-adds it to the end of its
//     pending lists, which it takes from the end), on any free slot of its allowed executors.
//     A task whose counted failures reach max_failures aborts the set; a kFetchFailed attempt
//     makes it a zombie (the stage attempt failed). Either way the set stops: it launches
//     nothing more, on_abort is called, its running attempts keep their slots to their end
//     (a kill reaches the executor asynchronously) and end as killed, and on_task_set_complete
//     is never called.
//   - Driver (optional, SetDriverCost; sim/driver_loop.h): launches and activations take the
//     driver's time one after another; a pass launches at most one task while a per-task cost
//     is set, and the next pass runs when the driver is free.
//
// Time unit: SimTime (integer microseconds). The scheduler holds a reference to the
// Simulator; it must outlive every event it scheduled.
#ifndef AQESIM_SIM_TASK_SCHEDULER_H_
#define AQESIM_SIM_TASK_SCHEDULER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/driver_loop.h"
#include "sim/simulator.h"
#include "sim/slot_pool.h"
#include "sim/units.h"

namespace aqesim {

/// Id of a submitted task set: 0, 1, 2, ... in submission order (per scheduler).
using TaskSetId = int;

/// How a failed task attempt counts (Spark's TaskFailedReason.countTowardsTaskFailures).
enum class AttemptFailure {
  /// Toward spark.task.maxFailures: ExceptionFailure, TaskResultLost, UnknownReason, an
  /// ExecutorLostFailure caused by the app.
  kCounted,
  /// Not counted: TaskKilled, TaskCommitDenied, an executor lost for another reason, a
  /// successful attempt whose map output was lost with its executor (Resubmitted).
  kNotCounted,
  /// FetchFailed: the stage attempt fails (DAGScheduler resubmits the map stage, then this one).
  kFetchFailed,
};

/// One attempt that fails (TaskSetSpec::failed_attempt).
struct FailedAttempt {
  SimTime duration;  // how long it holds its slot, >= 0
  AttemptFailure failure = AttemptFailure::kCounted;
  /// From its end until its task is pending again, >= 0 (a Resubmitted attempt: until its
  /// executor was lost).
  SimTime retry_after = SimTime::Zero();
};

/// One finished task attempt.
struct TaskRecord {
  TaskSetId task_set = 0;
  int task_index = 0;  // partition index within the task set, [0, num_tasks)
  int executor = 0;
  int slot = 0;     // slot index within the executor
  SimTime start;    // launch time
  SimTime end;      // completion time = start + duration
  int attempt = 0;  // 0 = the task's first launch
  /// nullopt: it succeeded; else how it failed (kNotCounted too for an attempt killed because
  /// its set stopped while it ran).
  std::optional<AttemptFailure> failure;
};

/// When one executor of the timeline can take tasks: [add, remove), seconds from time 0.
struct ExecutorWindow {
  SimTime add = SimTime::Zero();  // <= 0: present from the start
  std::optional<SimTime> remove;  // none: until the end; > add (or <= 0: never present)
};

/// spark.scheduler.mode.
enum class SchedulingMode { kFifo, kFair };

/// A scheduling pool (Spark's fairscheduler.xml <pool>): name, mode within it, weight, minShare.
struct PoolSpec {
  std::string name = "default";
  SchedulingMode mode = SchedulingMode::kFifo;
  int weight = 1;     // >= 0 (0: after every schedulable of positive weight)
  int min_share = 0;  // >= 0
};

struct TaskSetSpec {
  /// Lower runs first (Spark's FIFO pool orders by job id, then stage id; callers pass
  /// the stage id). Equal keys: submission order.
  int priority = 0;
  /// Number of tasks, >= 0. An empty set completes as soon as it becomes runnable.
  int num_tasks = 0;
  /// Time from submission until the set's tasks may launch (e.g. driver-side
  /// scheduling overhead); >= 0.
  SimTime launch_delay = SimTime::Zero();
  /// Required. Called once per task at launch; returns its run time (>= 0).
  std::function<SimTime(int task_index, int executor)> duration;
  /// Optional. Called when each task ends, after its slot is freed.
  std::function<void(const TaskRecord&)> on_task_end;
  /// Optional. Called once, with the end time of the last task (or the time the set
  /// became runnable, if empty).
  std::function<void(SimTime)> on_task_set_complete;
  /// Optional (delay scheduling): the executors task `task_index` prefers (Spark's preferred
  /// locations of its partition), most preferred first; empty = no preference. Called once
  /// per task when the set becomes runnable. Ids outside [0, E) are ignored.
  std::function<std::vector<int>(int task_index)> preferred_executors;
  /// How long tasks with preferences may wait for a preferred executor (>= 0;
  /// spark.locality.wait.node). Used only with preferred_executors.
  SimTime locality_wait = SimTime::Zero();
  /// Optional: the only executors its tasks may run on (empty: any). Ids outside [0, E) are
  /// ignored; a set whose allowed executors are all absent waits.
  std::vector<int> allowed_executors;
  /// FAIR mode: the pool it belongs to (ConfigurePool), 0 by default.
  int pool = 0;
  /// Optional (failed attempts, see the header comment): called at each launch of task
  /// `task_index`, before `duration`, with its attempt number (0 = first) and executor; a value
  /// makes this attempt fail after its duration (`duration` is then not called for it), nullopt
  /// lets it run `duration` and succeed.
  std::function<std::optional<FailedAttempt>(int task_index, int attempt, int executor)> failed_attempt;
  /// spark.task.maxFailures: the set aborts when one task's kCounted failures reach it (<= 0: never).
  int max_failures = 0;
  /// Optional: called once when the set stops (aborted, or a zombie after a fetch failure) with
  /// the time, the task whose failed attempt stopped it and how that attempt failed.
  std::function<void(SimTime, int task_index, AttemptFailure)> on_abort;
  /// Optional. Called at each launch, before `duration` is asked for any task launched in the
  /// same pass (see the header comment); not for a failed attempt (timed by its own duration).
  std::function<void(int task_index, int executor)> on_launch;
};

class TaskScheduler {
 public:
  /// Tier of the launch pass: after every event of lower tier at the same instant.
  static constexpr int kDispatchTier = 1 << 14;
  /// Tier of task completions and task-set activations.
  static constexpr int kTaskEndTier = 0;

  /// `executors` × `slots_per_executor` slots (see SlotPool).
  TaskScheduler(Simulator& sim, int executors, int slots_per_executor);
  /// One executor per timeline entry (executor id = index), `slots_per_executor` slots each.
  /// A window ending at or before time 0 is never present; otherwise a removal not after its
  /// registration is a programmer error (std::logic_error).
  TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline, int slots_per_executor);
  /// The same with slots_per_executor[i] slots on executor i (stage-level resource profiles give
  /// executors different cores); sizes must match (else std::logic_error).
  TaskScheduler(Simulator& sim, const std::vector<ExecutorWindow>& timeline,
                const std::vector<int>& slots_per_executor);
  TaskScheduler(const TaskScheduler&) = delete;
  TaskScheduler& operator=(const TaskScheduler&) = delete;

  /// FIFO (default) or FAIR; set before the first Submit().
  void SetMode(SchedulingMode mode) { mode_ = mode; }
  /// FAIR mode: defines pool `id` (>= 0; a pool not configured is "default", FIFO, weight 1,
  /// minShare 0, as Spark creates a pool it is not told about). A negative id, weight or min
  /// share, or an empty name, is a programmer error (std::logic_error).
  void ConfigurePool(int id, PoolSpec spec);

  /// The driver's time per task launched and per task set made runnable (both >= 0, else
  /// std::logic_error); set before the first Submit(). Zero (default): no driver limit.
  void SetDriverCost(SimTime per_task, SimTime per_task_set);
  /// Wall time task set `id` waited for the driver with a slot free (DriverLoop::wait).
  SimTime driver_wait(TaskSetId id) const { return driver_.wait(id); }

  /// Submits a task set at sim.Now(). Missing `duration`, negative counts or delays are
  /// programmer errors (std::logic_error). Safe to call from any callback.
  TaskSetId Submit(TaskSetSpec spec);

  const SlotPool& slots() const { return slots_; }
  /// Registers (true) or removes (false) `executor` (in [0, E)) now — dynamic allocation's
  /// requests and removals; a registration is followed by a launch pass. A removed executor's
  /// running tasks finish; its slots are not granted again until it registers again.
  void SetExecutorPresent(int executor, bool present) {
    slots_.SetPresent(executor, present);
    if (present && !runnable_.empty()) RequestDispatch();
  }

  /// True when nothing is running, pending or waiting for its launch delay.
  bool Idle() const {
    return running_tasks_ == 0 && pending_tasks_ == 0 && waiting_sets_ == 0 && delayed_retries_ == 0;
  }
  /// True once on_task_set_complete has been called for `id` (a valid id).
  bool IsComplete(TaskSetId id) const { return sets_.at(id).done; }
  /// True once set `id` stopped (aborted, or a zombie after a fetch failure).
  bool IsStopped(TaskSetId id) const { return sets_.at(id).stopped; }

  // Counters for reporting.
  int64_t tasks_launched() const { return tasks_launched_; }
  int64_t tasks_completed() const { return tasks_completed_; }
  int running_tasks() const { return running_tasks_; }
  /// Tasks of runnable sets not yet launched.
  int64_t pending_tasks() const { return pending_tasks_; }
  /// Sum of (end - start) over completed tasks: busy slot-time, microseconds.
  SimTime busy_slot_time() const { return busy_slot_time_; }
  int task_sets_submitted() const { return static_cast<int>(sets_.size()); }
  int task_sets_completed() const { return task_sets_completed_; }

 private:
  /// Delay-scheduling state of a set with preferred executors. Index lists are descending
  /// (the lowest pending index is at the back) and cleaned lazily of launched tasks.
  struct Locality {
    std::vector<std::vector<int>> prefs;          // per task: preferred executors in [0, E)
    std::map<int, std::vector<int>> by_executor;  // per preferred executor: tasks preferring it
    std::vector<int> no_pref;                     // tasks without (valid) preferences
    std::vector<int> with_pref;                   // tasks with preferences
    std::vector<char> launched;                   // per task
    SimTime timer_start = SimTime::Zero();        // locality timer (see the header comment)
    std::optional<SimTime> wake_at;               // a pass scheduled for the timer's expiry
  };
  struct TaskSetState {
    TaskSetSpec spec;
    int next_task = 0;  // next index to launch (sets without locality)
    int launched = 0;   // tasks launched
    int completed = 0;
    bool done = false;
    std::unique_ptr<Locality> locality;  // set when spec.preferred_executors is given
    std::vector<int> allowed;            // sorted valid allowed executors; empty: any
    // With spec.failed_attempt: per task, attempts launched and counted failures; tasks pending
    // again (the most recent last, launched first); whether the set stopped.
    std::vector<int> attempts, failures, retry;
    bool stopped = false;
  };
  struct Running {
    TaskSetId task_set;
    int task_index;
    SimTime start;
    int attempt = 0;
    std::optional<AttemptFailure> failure;  // set when this attempt fails at its end
    SimTime retry_after = SimTime::Zero();
  };

  void Activate(TaskSetId id);
  void RequestDispatch();
  void Dispatch();
  /// FAIR mode: one slot at a time to the set first in FairSchedulingAlgorithm's order.
  void DispatchFair(SimTime now);
  /// Launches up to `budget` tasks of set `id` (all it can when negative); returns how many.
  int LaunchFrom(TaskSetId id, SimTime now, int budget);
  /// The free slot the set's next task takes: the smallest (slot, executor), among its
  /// allowed executors when it has some; nullopt when there is none.
  std::optional<SlotRef> AcquireFor(const TaskSetState& s);
  /// True when a slot AcquireFor(s) would grant is free.
  bool CanAcquireFor(const TaskSetState& s) const;
  /// True when `executor` may run the set's tasks.
  static bool Allows(const TaskSetState& s, int executor);
  /// Launches task `task_index` of set `id` on `slot` at `now`.
  void Launch(TaskSetId id, int task_index, SlotRef slot, SimTime now);
  /// Asks set `id` the duration of task `task_index` on `executor` (checked: >= 0).
  SimTime DurationOf(TaskSetId id, int task_index, int executor);
  /// Throws std::logic_error for a negative duration (a programmer error of the set's owner).
  static void CheckDuration(TaskSetId id, int task_index, SimTime duration);
  /// Schedules the end of the task running on `flat_slot`, `duration` after its start.
  void Time(int flat_slot, SimTime duration);
  /// After a pass: times the tasks launched with on_launch; with a busy driver, counts the wait
  /// of the set first in line and schedules the pass that runs when the driver is free.
  void EndPass(SimTime now);
  /// One pass of a set with locality over the free slots (see the header comment), at most
  /// `budget` launches (all it can when negative); returns how many.
  int DispatchWithLocality(TaskSetId id, SimTime now, int budget);
  void OnTaskEnd(int flat_slot);
  void CompleteSet(TaskSetId id);
  /// True while the set has a task to launch (a first launch or a retry) and has not stopped.
  static bool HasPending(const TaskSetState& s) {
    return !s.stopped && (s.launched < s.spec.num_tasks || !s.retry.empty());
  }
  // Failed attempts (task_attempts.cc).
  /// An attempt of task `task` of set `id` ended in `failure`: retry it or stop the set.
  void OnAttemptFailed(TaskSetId id, int task, AttemptFailure failure, SimTime retry_after);
  /// Task `task` of set `id` is pending again.
  void Requeue(TaskSetId id, int task);
  /// Set `id` stops (see the header comment).
  void Stop(TaskSetId id, int task, AttemptFailure failure);
  /// Launches up to `budget` (all when negative) of the set's retries; returns how many.
  int LaunchRetries(TaskSetId id, SimTime now, int budget);

  Simulator& sim_;
  SlotPool slots_;
  SchedulingMode mode_ = SchedulingMode::kFifo;
  std::map<int, PoolSpec> pools_;    // FAIR mode: configured pools (others: defaults)
  std::map<int, int> pool_running_;  // FAIR mode only: running tasks per pool
  std::vector<int> set_running_;     // FAIR mode only: running tasks per task set
  // A deque: callbacks may Submit() while a set's own callback runs, so existing
  // elements must not move.
  std::deque<TaskSetState> sets_;
  // Runnable sets with tasks left to launch, ordered by (priority, id).
  std::set<std::pair<int, TaskSetId>> runnable_;
  std::vector<Running> running_;  // indexed by SlotPool::FlatId
  bool dispatch_scheduled_ = false;
  DriverLoop driver_;
  std::optional<SimTime> driver_wake_;  // a pass scheduled for when the driver is free
  std::vector<int> untimed_;            // flat slots launched in this pass, not yet timed

  int64_t tasks_launched_ = 0;
  int64_t tasks_completed_ = 0;
  int64_t pending_tasks_ = 0;
  int running_tasks_ = 0;
  int waiting_sets_ = 0;     // in launch delay, or empty and not yet completed
  int delayed_retries_ = 0;  // failed tasks waiting for their retry_after
  int task_sets_completed_ = 0;
  SimTime busy_slot_time_ = SimTime::Zero();
};

}  // namespace aqesim

#endif  // AQESIM_SIM_TASK_SCHEDULER_H_
