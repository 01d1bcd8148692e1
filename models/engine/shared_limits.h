// SharedLimits: the limits a whole cluster shares, which more executors do not lift — so that
// scaling bends where real clusters bend. Both are off unless the scenario's cluster sets them
// (README "Shared limits"):
//
// Aggregate storage throughput (cluster.storageBytesPerSecond, A bytes per second: an object
// store's or HDFS's bandwidth to this job). Readers are the running tasks of stages that scan
// (a scan among their operators), counted from their launch to their end; n readers share A
// evenly. A reader's scan takes max(its modelled scan time, scan bytes × n ÷ A), with n fixed at
// its launch, counting every reader launched at the same instant (the scheduler asks the
// durations of a launch pass after all its launches: TaskSetSpec::on_launch). Why this model:
// the scheduler times a task once, at launch (warm-up and cold code already depend on launch
// order), so a rate fixed at launch keeps every run exact, deterministic and O(1) per task; it is
// exact when readers start and end in waves (equal tasks: the usual scan stage), where processor
// sharing re-timed at every start and end gives the same times. Its limits: a reader keeps its
// share when others start or end after it (early readers of a ramp are too fast, the last ones
// of a stage too slow: the stage's tail keeps the crowd's rate); a reader's whole duration
// counts, not only the part spent reading; the share is even (not max-min: a slow reader's
// unused share is not given to the others); recorded profiles are not slowed (their times
// already hold the recorded cluster's storage), and the band's modelledTimeScale does not
// scale the limit (it is a floor on the read, not a modelled term).
//
// The driver's event loop (cluster.driverSecondsPerTask, driverSecondsPerStage): a single server
// in the scheduler (sim/driver_loop.h): each task launch takes driverSecondsPerTask of it, each
// stage becoming runnable driverSecondsPerStage; tasks launch no faster than 1 ÷
// driverSecondsPerTask per second. Spark: DAGScheduler's event loop and TaskSchedulerImpl's
// resourceOffers / statusUpdate run on one thread each (DAGSchedulerEventProcessLoop,
// CoarseGrainedSchedulerBackend.DriverEndpoint).
//
// Each stage records how much a limit bound it (SharedLimitUse: StageRun::limits).
#ifndef AQESIM_MODELS_ENGINE_SHARED_LIMITS_H_
#define AQESIM_MODELS_ENGINE_SHARED_LIMITS_H_

#include <optional>

#include "models/cluster/cluster.h"
#include "models/cost/cost_model.h"
#include "models/engine/stage_graph.h"
#include "models/plan/query_stage.h"
#include "sim/task_scheduler.h"
#include "sim/units.h"

namespace aqesim {

class SharedLimits {
 public:
  /// Sets the driver's costs on `scheduler` (which must outlive this).
  SharedLimits(const ClusterSpec& cluster, TaskScheduler* scheduler);

  /// Submits stage `st`'s task set (`spec` complete): with a limit set, its callbacks also
  /// count the readers and record the driver's wait in `run->limits`.
  void Submit(TaskSetSpec spec, const QueryStage& st, StageRun* run);

  /// A task of a reading stage starts with cost `c` and `scan` bytes from storage: its scan
  /// time becomes at least scan × readers ÷ A (a no-op without the storage limit).
  void LimitScan(Bytes scan, SimTime now, TaskCost* c, StageRun* run) const;

  /// Readers running now (launched, not ended).
  int readers() const { return readers_; }

 private:
  std::optional<int64_t> storage_bytes_per_second_;
  bool driver_limited_ = false;
  TaskScheduler* scheduler_;
  int readers_ = 0;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SHARED_LIMITS_H_
