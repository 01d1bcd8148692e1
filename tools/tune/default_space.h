// The space `aqesim tune` searches when no --space is given: the keys of AQE's rules that can
// matter for this job, read off a run of the current configuration, in Spark's terms.
//
//   a shuffle exchange     spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1g:log,
//                          spark.sql.adaptive.coalescePartitions.parallelismFirst=true,false,
//                          spark.sql.adaptive.coalescePartitions.minPartitionSize=1m..64m:log
//                          (CoalesceShufflePartitions: how many reducers read what), and when
//                          a shuffle has the configured reducer count N, spark.sql.shuffle.partitions
//                          (or initialPartitionNum, when that sets N)=N/4..4N:log (how many
//                          reducers there are to coalesce: too few cannot be split again)
//   a join                 spark.sql.adaptive.autoBroadcastJoinThreshold=10m..512m:log
//                          (DynamicJoinSelection / the runtime JoinSelection: which joins become
//                          broadcast hash joins; a run Spark would fail is never chosen),
//                          spark.sql.adaptive.skewJoin.skewedPartitionFactor=2.0..10,
//                          spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes=64m..1g:log
//                          (OptimizeSkewedJoin: which partitions split)
//   MapStatus hid a skew   spark.shuffle.accurateBlockSkewedFactor=-1,2,5,10,
//   (notApplied            spark.shuffle.minNumPartitionsToHighlyCompress=2000,5000,10000
//   hiddenByMapStatus)     (what the driver sees of the skewed blocks; ByteDance raised the
//                          latter to 5000, field-variants.md)
//   a skew join needing    spark.sql.adaptive.forceOptimizeSkewedJoin=false,true (what the
//   an extra shuffle       rule proposes; only a simulation tells whether the extra shuffle
//   (needsExtraShuffle)    pays off)
//   objective core-hours   cluster.executors=1..2×E (E the current executors; under dynamic
//                          allocation spark.dynamicAllocation.maxExecutors=max(1, min)..2×E
//                          instead: there spark.executor.instances is only the initial count) and, on a
//   or weighted            cluster.executorMemory=M/2..2M:log in MiB (M today's, at least
//                          512m), and on a cluster with more than one core per executor,
//                          cluster.executorCores=1..C (C the current cores)
// The ranges bracket Spark 4.0's defaults (64m, true, 1m, 10m, 5, 256m).
#ifndef AQESIM_TOOLS_TUNE_DEFAULT_SPACE_H_
#define AQESIM_TOOLS_TUNE_DEFAULT_SPACE_H_

#include <vector>

#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"
#include "tools/tune/objective.h"
#include "tools/tune/search_space.h"

namespace aqesim::tune {

/// The default space for `scenario` as `current` (its run with the current configuration) shows
/// it; empty when the run has no exchange, no join and the objective is the makespan.
std::vector<SpaceAxis> DefaultSpace(const Scenario& scenario, const RunResult& current,
                                    const ObjectiveSpec& objective);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_DEFAULT_SPACE_H_
