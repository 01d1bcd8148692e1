// Reduce-task locality: Spark's preferred locations of a stage's tasks, as executors (an
// executor stands for its host), which the task scheduler's delay scheduling waits for
// (sim/task_scheduler.h, spark.locality.wait.node).
//
// A read's coalesced (or default) spec prefers the executors holding at least 20% of one of
// its reducers' bytes (MapOutputTrackerMaster.getPreferredLocationsForShuffle,
// REDUCER_PREF_LOCS_FRACTION; only below 1000 map tasks and 1000 reducers,
// SHUFFLE_PREF_MAP_THRESHOLD / SHUFFLE_PREF_REDUCE_THRESHOLD; true block sizes here, MapStatus
// sizes in Spark); a skew split or a local read prefers the executors that ran its maps
// (getMapLocation). Operators follow the task mapping of the work model (task_work.h): a
// union's task its child's, a broadcast join's its streamed side's; two shuffled join sides
// combine as ZippedPartitionsRDD does (the common executors, else all of them), a cartesian
// product takes both sides' (CartesianRDD). A scan prefers nothing (HDFS locality is not
// modelled).
#ifndef AQESIM_MODELS_ENGINE_PREFERRED_LOCATIONS_H_
#define AQESIM_MODELS_ENGINE_PREFERRED_LOCATIONS_H_

#include <cstdint>
#include <map>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

class PreferredLocations {
 public:
  /// The executors task `task` of the stage rooted at `subtree` prefers, most preferred first;
  /// empty: no preference.
  std::vector<int> Of(const ExecNode& subtree, int task);

 private:
  std::vector<int> OfRead(const ExecNode& read, int task);
  /// Per executor that ran map tasks of a finished shuffle: its true bytes per reducer; empty
  /// when Spark computes no preference (1000 map tasks or reducers and more).
  const std::map<int, std::vector<int64_t>>& ReducerBytesByExecutor(const ShuffleData& d);

  /// Memo of ReducerBytesByExecutor per finished shuffle (its map outputs no longer change):
  /// one pass over the matrix instead of one per reading task. At most 999 executors x 999
  /// reducers each.
  std::map<const ShuffleData*, std::map<int, std::vector<int64_t>>> reducer_bytes_by_executor_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_PREFERRED_LOCATIONS_H_
