#include "tools/eventlog/resource_import.h"

#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "models/conf/property_value.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

std::optional<double> Property(const RecordedApplication& app, const char* key) {
  const std::optional<std::string> v = app.spark_property(key);
  return v ? ParseDouble(*v) : std::nullopt;
}

/// A task amount Spark accepts: > 0, at most 0.5 (a share of one resource) or whole.
bool ValidTaskAmount(double a) { return std::isfinite(a) && a > 0 && (a <= 0.5 || std::floor(a) == a); }

}  // namespace

int TimelineProfileOf(const RecordedExecutor& executor) { return std::max(executor.resource_profile_id, 0); }

void ImportResources(const RecordedApplication& app, json* cluster, json* conf) {
  // The default profile: its recorded amounts, else the Spark properties.
  const RecordedResourceProfile* default_rp = nullptr;
  if (auto it = app.resource_profiles.find(0); it != app.resource_profiles.end()) default_rp = &it->second;
  std::optional<double> task_gpus = default_rp && default_rp->task_gpus
                                        ? default_rp->task_gpus
                                        : Property(app, "spark.task.resource.gpu.amount");
  std::optional<double> executor_gpus = default_rp && default_rp->executor_gpus
                                            ? default_rp->executor_gpus
                                            : Property(app, "spark.executor.resource.gpu.amount");
  if (task_gpus && ValidTaskAmount(*task_gpus) && executor_gpus && *executor_gpus >= 0) {
    (*cluster)["executorGpus"] = static_cast<int64_t>(std::floor(*executor_gpus));
    (*conf)["spark.task.resource.gpu.amount"] = json(*task_gpus).dump();
  }

  std::set<int> used;
  if (cluster->contains("executorTimeline")) {
    for (const json& e : (*cluster)["executorTimeline"])
      if (e.contains("resourceProfile")) used.insert(e["resourceProfile"].get<int>());
  }
  json profiles = json::array();
  for (int id : used) {
    json p = {{"id", id}};
    const RecordedResourceProfile* rp = nullptr;
    if (auto it = app.resource_profiles.find(id); it != app.resource_profiles.end()) rp = &it->second;
    int cores = rp && rp->executor_cores ? *rp->executor_cores : 0;
    for (const RecordedExecutor& ex : app.executors)
      if (cores <= 0 && TimelineProfileOf(ex) == id) cores = ex.total_cores;
    p["executorCores"] = std::max(cores, 1);
    if (rp && rp->task_cpus && *rp->task_cpus >= 1)
      p["taskCpus"] = static_cast<int>(std::floor(*rp->task_cpus));
    if (rp && rp->executor_gpus && *rp->executor_gpus >= 0)
      p["executorGpus"] = static_cast<int64_t>(std::floor(*rp->executor_gpus));
    if (rp && rp->task_gpus && ValidTaskAmount(*rp->task_gpus) && p.contains("executorGpus"))
      p["taskGpus"] = *rp->task_gpus;
    profiles.push_back(std::move(p));
  }
  if (!profiles.empty()) (*cluster)["resourceProfiles"] = std::move(profiles);
}

}  // namespace aqesim::eventlog
