// Where a running application's ExecutorAllocationManager stood when a recorded selection (an
// SQL execution or job imported from its log) started, read from the recorded executor
// timeline: what Spark's dynamic allocation policy starts from when a what-if
// (`--conf spark.dynamicAllocation.*`) replaces that timeline. Spark's
// ExecutorAllocationManager (core/src/main/scala/org/apache/spark/ExecutorAllocationManager.scala)
// lives as long as the application: a query submitted into it starts with the executors
// registered then — warm or fresh, each idle since its last task — and the manager's target,
// not with spark.dynamicAllocation.initialExecutors, which only the application's start uses.
#ifndef AQESIM_MODELS_SCENARIO_ALLOCATION_FROM_TIMELINE_H_
#define AQESIM_MODELS_SCENARIO_ALLOCATION_FROM_TIMELINE_H_

#include <optional>

#include "models/cluster/allocation_state.h"
#include "models/cluster/cluster.h"
#include "models/conf/dynamic_allocation.h"

namespace aqesim {

/// The allocation manager's state at the selection's start, from `timeline`:
///   - executors: the entries of the default resource profile registered from the start
///     (`add` <= 0) and taking tasks then, those that ran this query's code first (`warmCode`),
///     then the other warm JVMs (`warm`), then the fresh ones, each in timeline order; each
///     idle for its entry's `idleSeconds`; at most `conf.max_executors` of them (a what-if
///     lowering maxExecutors: the application would never have had more);
///   - target: the executors kept, at least `conf.min_executors`; when minExecutors is above the
///     executors kept, the missing ones are requested at the start (Spark's manager asks the
///     cluster manager for its target);
///   - no request, no killed executor (the timeline lists neither), gap 0.
/// `*warm_code` and `*warm` receive how many of the executors kept ran this query's code and
/// how many have warm JVMs (these included): they are the state's first executors.
/// std::nullopt when the selection starts the application (its first query, or the first of a
/// whole-application replay), whose manager starts from initialExecutors: `starts_application`
/// (cluster.startsApplication, which the importer reads from the log), or when unset, no
/// executor present at the start is warm.
std::optional<AllocationState> AllocationAtSelectionStart(const std::vector<ExecutorLifetime>& timeline,
                                                          std::optional<bool> starts_application,
                                                          const DynamicAllocationConf& conf, int* warm_code,
                                                          int* warm);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_ALLOCATION_FROM_TIMELINE_H_
