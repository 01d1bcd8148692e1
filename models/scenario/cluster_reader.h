// The scenario's `cluster`: executors, cores, memory, bandwidths, warm JVMs and code, and the
// executor timeline of a dynamic-allocation run (README "Scenario format").
#ifndef AQESIM_MODELS_SCENARIO_CLUSTER_READER_H_
#define AQESIM_MODELS_SCENARIO_CLUSTER_READER_H_

#include <vector>

#include "models/cluster/cluster.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Which cluster fields the scenario gave (the others may come from spark.executor.*).
struct ClusterGiven {
  bool executors = false, cores = false, memory = false;
};

/// Reads `cluster` (at /cluster) into `cluster`; problems go to `sink`.
ClusterGiven ReadCluster(const Json& v, ClusterSpec* cluster, DiagnosticSink* sink);

/// Most executors of the timeline present at once (removals before registrations at a tie).
int PeakExecutors(const std::vector<ExecutorLifetime>& timeline);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_CLUSTER_READER_H_
