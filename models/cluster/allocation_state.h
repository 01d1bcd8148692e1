// AllocationState: where Spark's dynamic allocation stands between two queries of one
// application — the executors registered (how long each has been idle), the requests the
// cluster manager has not answered yet, the executors killed whose removal is not reported yet,
// and ExecutorAllocationManager's target. The
// application's ExecutorAllocationManager outlives its queries: executors requested during one
// query register during the next, or in the gap between them. A query replayed on its own
// starts from such a state (JSON `cluster.allocationAtStart`, which a run's `allocationAtEnd`
// gives: models/engine/allocation_carry_over.h carries it across the gap between the two).
#ifndef AQESIM_MODELS_CLUSTER_ALLOCATION_STATE_H_
#define AQESIM_MODELS_CLUSTER_ALLOCATION_STATE_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace aqesim {

struct AllocationState {
  struct Executor {
    /// Seconds since its last task ended (or it registered); 0 while it runs tasks. JSON
    /// `idleSeconds`, >= 0.
    double idle_seconds = 0;
    /// It ran a map task whose output it still holds (shuffle tracking). JSON `holdsShuffle`.
    bool holds_shuffle = false;
    /// Its JVM has finished a task (no executorStartupSeconds for its next one). JSON `warm`.
    bool warm = false;
  };
  struct Removing {
    /// Seconds until the cluster manager reports the killed executor gone
    /// (cluster.executorRemoveSeconds after the kill). JSON `secondsUntilRemoved`, >= 0.
    double seconds_until_removed = 0;
  };
  struct Request {
    /// Seconds since the driver requested the executor; it registers executorStartSeconds after
    /// the request (+ executorLaunchSeconds before its first task). JSON `secondsSinceRequest`, >= 0.
    double seconds_since_request = 0;
    /// The cluster manager has found a place for its container (always, without
    /// cluster.executorCapacity). JSON `placed`, default true; false: it waits for a place and
    /// registers once one is found (models/engine/executor_allocation_manager.h).
    bool placed = true;
    /// Its place has been ready this many seconds, though it was not when requested (the cluster
    /// was full: placed later, or where a killed executor's container ran until then): it
    /// registers executorStartSeconds − executorGrantSeconds after its place was ready, if later
    /// than executorStartSeconds after the request. JSON `secondsSincePlaced`, >= 0; unset: its
    /// place was ready when requested (or it waits: `waitsFor`).
    std::optional<double> seconds_since_placed;
    /// Placed where a killed executor's container runs until its removal: the index of that
    /// executor in `removing`; its place is ready when that removal is reported. JSON `waitsFor`.
    std::optional<int> waits_for;
    /// Seconds from its request to its registration, its own (an entry of
    /// cluster.executorStartSecondsByRequest). JSON `startSeconds`, >= 0; unset:
    /// executorStartSeconds.
    std::optional<double> start_seconds;
  };

  /// ExecutorAllocationManager's numExecutorsTarget. JSON `target`, >= 0.
  int target = 0;
  /// Registered executors, in index order (they take the scheduler's first indexes).
  std::vector<Executor> executors;
  /// Outstanding requests, oldest first.
  std::vector<Request> requests;
  /// Executors killed for their idle timeout whose removal is not reported yet: they take no
  /// task, but the driver still counts their cores (defaultParallelism) and the allocation
  /// manager counts them among its executors. Soonest removed first.
  std::vector<Removing> removing;
  /// The idle-timeout kills the application's manager has made so far (in the whole run, the
  /// gaps between queries included): the index of its next kill into
  /// cluster.executorRemoveSecondsByKill. JSON `killsMade`, an integer >= 0; a run's
  /// allocationAtEnd always gives it; unset: cluster.executorKillsBeforeStart.
  std::optional<int64_t> kills_made;
  /// Input only: seconds between the moment of this state and the query's start (the recorded
  /// gap between two queries), during which no task runs: the allocation manager lowers its
  /// target, cancels what it may and removes idle executors. JSON `gapSeconds`, >= 0, default 0.
  double gap_seconds = 0;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_CLUSTER_ALLOCATION_STATE_H_
