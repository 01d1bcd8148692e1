// SharedLimitUse: how much the cluster's shared limits slowed one stage (models/engine/
// shared_limits.h): the aggregate storage throughput (cluster.storageBytesPerSecond) and the
// driver's event loop (cluster.driverSecondsPerTask / driverSecondsPerStage). JSON: a stage's
// `sharedLimits` in `run --format json`, explain's `sharedLimits` (docs/user-contract.md).
#ifndef AQESIM_MODELS_ENGINE_SHARED_LIMIT_USE_H_
#define AQESIM_MODELS_ENGINE_SHARED_LIMIT_USE_H_

namespace aqesim {

struct SharedLimitUse {
  /// Tasks whose storage read was slowed by the aggregate (their readers' share was below their
  /// own modelled rate). JSON `storageBoundTasks`.
  int storage_bound_tasks = 0;
  /// Task seconds the aggregate added to those reads (summed over tasks). JSON
  /// `storageSecondsAdded`.
  double storage_seconds_added = 0;
  /// Wall seconds from the first bound task's start to the last one's end (0 when none).
  /// JSON `storageBoundFromSeconds` / `storageBoundToSeconds`.
  double storage_bound_from_seconds = 0;
  double storage_bound_to_seconds = 0;
  /// Wall seconds a slot was free for its tasks while the driver was busy (DriverLoop::wait).
  /// JSON `driverWaitSeconds`.
  double driver_wait_seconds = 0;
  bool bound() const { return storage_bound_tasks > 0 || driver_wait_seconds > 0; }
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SHARED_LIMIT_USE_H_
