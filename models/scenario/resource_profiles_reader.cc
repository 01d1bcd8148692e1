#include "models/scenario/resource_profiles_reader.h"

#include <cmath>
#include <set>

namespace aqesim {

std::optional<double> ReadTaskGpuAmount(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  return ReadNumber(
      v, pointer,
      [](double d) { return std::isfinite(d) && d > 0 && d <= 1e6 && (d <= 0.5 || std::floor(d) == d); },
      "a number > 0, either <= 0.5 (a share of one GPU) or whole", sink);
}

void ReadResourceProfiles(const Json& v, const std::string& pointer, std::vector<ResourceProfileSpec>* out,
                          DiagnosticSink* sink) {
  if (!v.is_array() || v.size() > 10'000) {
    sink->Error(pointer,
                "expected an array (at most 10000) of resource profiles {\"id\", \"executorCores\", "
                "\"taskCpus\", \"executorGpus\", \"taskGpus\"}, found " +
                    DescribeJson(v));
    return;
  }
  std::set<int> ids;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string q = PointerAppend(pointer, i);
    const Json& e = v[i];
    if (!e.is_object()) {
      sink->Error(q,
                  "expected a resource profile {\"id\": 1, \"executorCores\": 2, \"taskCpus\": 1}, found " +
                      DescribeJson(e));
      continue;
    }
    CheckFields(e, q, {"id", "executorCores", "taskCpus", "executorGpus", "taskGpus"}, "a resource profile",
                sink);
    ResourceProfileSpec rp;
    bool ok = true;
    auto integer = [&](const char* name, int64_t min, const char* what, int* field, bool required) {
      if (!e.contains(name)) {
        if (required) {
          sink->Error(q, std::string("missing field \"") + name + "\"");
          ok = false;
        }
        return;
      }
      if (auto n = ReadInteger(e[name], PointerAppend(q, name), min, 100'000, what, sink))
        *field = static_cast<int>(*n);
      else
        ok = false;
    };
    integer("id", 1, "an integer >= 1 (0 is the default profile: the cluster's own fields)", &rp.id, true);
    integer("executorCores", 1, "a positive integer", &rp.executor_cores, true);
    integer("taskCpus", 1, "a positive integer", &rp.task_cpus, false);
    integer("executorGpus", 0, "a non-negative integer", &rp.executor_gpus, false);
    if (e.contains("taskGpus")) {
      rp.task_gpus = ReadTaskGpuAmount(e["taskGpus"], PointerAppend(q, "taskGpus"), sink);
      ok &= rp.task_gpus.has_value();
    }
    if (!ok) continue;
    if (!ids.insert(rp.id).second) {
      sink->Error(PointerAppend(q, "id"), "expected a unique id, found " + std::to_string(rp.id) + " again");
      continue;
    }
    if (TaskSlotsPerExecutor(rp.executor_cores, rp.task_cpus, rp.executor_gpus, rp.task_gpus) < 1) {
      sink->Error(q, "expected executors that can run a task, found " + std::to_string(rp.executor_cores) +
                         " cores and " + std::to_string(rp.executor_gpus) + " GPUs for tasks of " +
                         std::to_string(rp.task_cpus) + " cpus" +
                         (rp.task_gpus ? " and " + Json(*rp.task_gpus).dump() + " GPUs" : std::string()));
      continue;
    }
    out->push_back(rp);
  }
}

}  // namespace aqesim
