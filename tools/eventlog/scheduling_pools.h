// The scheduling pools of a recorded application as they behaved: spark.scheduler.mode, the pool
// of every job (its spark.scheduler.pool property, "default" when unset) and, per pool, whether
// its task sets shared the slots (FAIR inside the pool) or ran first come, first served (FIFO).
//
// Spark (core/.../scheduler/Pool.scala, SchedulableBuilder.scala) reads each pool's mode, weight
// and minShare from spark.scheduler.allocation.file — or fairscheduler.xml on the driver's
// classpath, which vendors ship (Dataproc does) — and creates a pool it is not told about, like
// "default" without a file, as FIFO, weight 1, minShare 0. The log carries the property but not
// the file, so a pool's mode is read from what its stages did: under FIFO a task set never gets
// a slot while an earlier one (lower job id, then stage id) of the same pool has tasks waiting;
// when a later stage launched tasks while an earlier one still had tasks to launch, the pool
// shared its slots (q72: stages 45, 46, 47 of one pool ran 43/43/42 tasks at once).
#ifndef AQESIM_TOOLS_EVENTLOG_SCHEDULING_POOLS_H_
#define AQESIM_TOOLS_EVENTLOG_SCHEDULING_POOLS_H_

#include <map>
#include <string>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

struct RecordedPool {
  std::string name;
  /// True when its stages were seen sharing slots (see the header comment).
  bool fair_observed = false;
};

struct RecordedScheduling {
  bool fair = false;                          // spark.scheduler.mode=FAIR
  std::map<std::string, RecordedPool> pools;  // by name; "default" for jobs without a pool
  /// The pool of a job ("default" when it set none).
  static std::string PoolOf(const RecordedJob& job) { return job.pool.empty() ? "default" : job.pool; }
};

/// Reads spark.scheduler.mode and every pool's observed mode (empty pools map in FIFO mode).
RecordedScheduling ReadScheduling(const RecordedApplication& app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SCHEDULING_POOLS_H_
