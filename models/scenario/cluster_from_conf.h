// Spark's keys set the cluster: spark.executor.instances / .cores / .memory and
// spark.dynamicAllocation.* (README "Cluster") against the scenario's `cluster` shorthand.
//   - a key the cluster does not give sets it;
//   - a key from the command line (--conf, --properties-file) overrides the scenario's cluster:
//     it is the user's what-if; on a recorded executor timeline, spark.executor.instances or a
//     spark.dynamicAllocation.* key replaces the timeline (executors from the start, or the
//     dynamic allocation policy), keeping the JVM warmth of the executors warm at the start —
//     a warning says so; the policy starts from the executors alive at the selection's start
//     (allocation_from_timeline.h: the application's allocation manager does not restart per
//     query), or from initialExecutors when the selection starts the application;
//   - the scenario's own `conf` contradicting its `cluster` is an error naming both places;
//   - dynamic allocation settings Spark refuses at start-up (ExecutorAllocationManager
//     .validateSettings) are errors at the key that breaks them.
#ifndef AQESIM_MODELS_SCENARIO_CLUSTER_FROM_CONF_H_
#define AQESIM_MODELS_SCENARIO_CLUSTER_FROM_CONF_H_

#include "models/scenario/cluster_reader.h"
#include "models/scenario/conf_origin.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Applies the rules above to scenario->cluster (scenario->conf is resolved); problems go to
/// `sink`, at the pointer or the command-line argument they come from.
void ReconcileClusterWithConf(const ClusterGiven& given, const ConfEntries& conf, Scenario* scenario,
                              DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_CLUSTER_FROM_CONF_H_
