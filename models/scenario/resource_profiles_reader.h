// The scenario's `cluster.resourceProfiles`: the stage-level resource profiles other than the
// default one (README "Scenario format"; Spark's ResourceProfile, core/.../resource/).
#ifndef AQESIM_MODELS_SCENARIO_RESOURCE_PROFILES_READER_H_
#define AQESIM_MODELS_SCENARIO_RESOURCE_PROFILES_READER_H_

#include <string>
#include <vector>

#include "models/cluster/cluster.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Reads `[{"id": 1, "executorCores": 2, "taskCpus": 2, "executorGpus": 2, "taskGpus": 2}, ...]`
/// at `pointer` (ids >= 1 and unique; cores and task cpus > 0; executorGpus >= 0, default 0;
/// taskGpus > 0, at most 0.5 or whole, default none) into `out`; problems go to `sink`.
void ReadResourceProfiles(const Json& v, const std::string& pointer, std::vector<ResourceProfileSpec>* out,
                          DiagnosticSink* sink);

/// Reads a task's GPU amount (spark.task.resource.gpu.amount's rule: > 0, at most 0.5 — a share of
/// one GPU — or a whole number).
std::optional<double> ReadTaskGpuAmount(const Json& v, const std::string& pointer, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_RESOURCE_PROFILES_READER_H_
