#include "models/engine/resource_usage.h"

#include <algorithm>
#include <map>
#include <utility>

#include "models/engine/run_result.h"

namespace aqesim {

namespace {

/// The registered cores as a step function of time: cores_[i] from times_[i] on.
class CoreSteps {
 public:
  /// `deltas`: (time, +cores) when executors register, (time, −cores) when they go.
  explicit CoreSteps(std::map<double, int> deltas) {
    int cores = 0;
    for (const auto& [t, d] : deltas) {
      cores += d;
      times_.push_back(t);
      cores_.push_back(cores);
      peak_ = std::max(peak_, cores);
    }
  }
  /// ∫ cores dt over [a, b].
  double Integral(double a, double b) const {
    double sum = 0;
    for (size_t i = 0; i < times_.size(); ++i) {
      const double from = std::max(a, times_[i]);
      const double to = std::min(b, i + 1 < times_.size() ? times_[i + 1] : b);
      if (to > from) sum += (to - from) * cores_[i];
    }
    return sum;
  }
  int peak() const { return peak_; }

 private:
  std::vector<double> times_;
  std::vector<int> cores_;
  int peak_ = 0;
};

CoreSteps RegisteredCores(const RunResult& run, const ClusterSpec& cluster) {
  std::map<double, int> deltas;
  const double end = run.makespan_seconds;
  if (!run.executors.empty()) {  // dynamic allocation: the count as it changed
    int before = 0;
    for (const ExecutorCountChange& c : run.executors) {
      deltas[std::min(c.seconds, end)] += (c.executors - before) * cluster.executor_cores;
      before = c.executors;
    }
    deltas[end] -= before * cluster.executor_cores;
  } else if (!cluster.executor_timeline.empty()) {
    std::vector<double> last_task_end(cluster.executor_timeline.size(), 0);
    for (const StageResult& s : run.stages)
      for (const TaskResult& t : s.task_results)
        if (t.executor >= 0 && static_cast<size_t>(t.executor) < last_task_end.size())
          last_task_end[static_cast<size_t>(t.executor)] =
              std::max(last_task_end[static_cast<size_t>(t.executor)], t.end_seconds);
    for (size_t e = 0; e < cluster.executor_timeline.size(); ++e) {
      const ExecutorLifetime& x = cluster.executor_timeline[e];
      const ResourceProfileSpec* p = cluster.profile(x.resource_profile);
      const int cores = p != nullptr ? p->executor_cores : cluster.executor_cores;
      const double from = std::clamp(x.add_seconds, 0.0, end);
      const double to =
          std::clamp(x.remove_seconds ? std::max(*x.remove_seconds, last_task_end[e]) : end, from, end);
      if (to <= from) continue;
      deltas[from] += cores;
      deltas[to] -= cores;
    }
  } else {
    deltas[0] += cluster.total_cores();
    deltas[end] -= cluster.total_cores();
  }
  return CoreSteps(std::move(deltas));
}

constexpr double kSecondsPerHour = 3600;

}  // namespace

void ComputeResourceUsage(const ClusterSpec& cluster, int task_cpus, RunResult* run) {
  ResourceUsage& u = run->resources;
  const CoreSteps cores = RegisteredCores(*run, cluster);
  u.peak_cores = cores.peak();
  double used_core_seconds = 0;
  std::map<int, double> chain_end;  // stage id → its critical chain's length, parents first
  std::vector<size_t> by_id(run->stages.size());
  for (size_t i = 0; i < by_id.size(); ++i) by_id[i] = i;
  // Parents have lower ids than their children (Spark numbers stages as it creates or submits
  // them, parents first), so one pass in id order sees every parent's chain first.
  std::sort(by_id.begin(), by_id.end(),
            [&](size_t a, size_t b) { return run->stages[a].id < run->stages[b].id; });
  for (size_t i : by_id) {
    StageResult& s = run->stages[i];
    double used = 0;
    for (const TaskResult& task : s.task_results) used += (task.end_seconds - task.start_seconds) * task_cpus;
    s.resources.available_core_hours = cores.Integral(s.submit_seconds, s.complete_seconds) / kSecondsPerHour;
    s.resources.used_core_hours = used / kSecondsPerHour;
    used_core_seconds += used;
    double before = 0;
    for (int p : s.parents) {
      auto it = chain_end.find(p);
      if (it != chain_end.end()) before = std::max(before, it->second);
    }
    chain_end[s.id] = before + s.task_max_seconds;
    u.critical_path_seconds = std::max(u.critical_path_seconds, chain_end[s.id]);
  }
  u.run.available_core_hours = cores.Integral(0, run->makespan_seconds) / kSecondsPerHour;
  u.run.used_core_hours = used_core_seconds / kSecondsPerHour;
  u.ideal_seconds = u.peak_cores > 0 ? std::max(u.critical_path_seconds, used_core_seconds / u.peak_cores)
                                     : u.critical_path_seconds;
}

nlohmann::ordered_json CoreTimeJson(const CoreTime& t) {
  return {{"coreHoursAvailable", t.available_core_hours},
          {"coreHoursUsed", t.used_core_hours},
          {"coreHoursIdle", t.idle_core_hours()},
          {"utilization", t.utilization()}};
}

nlohmann::ordered_json ResourceUsageJson(const ResourceUsage& usage) {
  nlohmann::ordered_json j = {{"cores", usage.peak_cores}};
  const nlohmann::ordered_json run = CoreTimeJson(usage.run);
  for (const auto& [k, v] : run.items()) j[k] = v;
  j["criticalPathSeconds"] = usage.critical_path_seconds;
  j["idealSeconds"] = usage.ideal_seconds;
  return j;
}

namespace {

/// j[key] as a number into *out; false when absent or not a number.
bool Number(const nlohmann::json& j, const char* key, double* out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return false;
  *out = it->get<double>();
  return true;
}

}  // namespace

namespace {

std::string CoreTimeFromJson(const nlohmann::json& j, CoreTime* out) {
  if (!j.is_object() || !Number(j, "coreHoursAvailable", &out->available_core_hours) ||
      !Number(j, "coreHoursUsed", &out->used_core_hours))
    return "resources: expected an object with the numbers coreHoursAvailable and coreHoursUsed";
  return "";
}

}  // namespace

std::string StageResourcesFromJson(const nlohmann::json& stage_json, StageResult* stage) {
  if (auto it = stage_json.find("parents"); it != stage_json.end()) {
    if (!it->is_array()) return "parents: expected an array of stage ids";
    for (const nlohmann::json& id : *it) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > (int64_t{1} << 30))
        return "parents: expected stage ids (integers >= 0)";
      stage->parents.push_back(id.get<int>());
    }
  }
  auto it = stage_json.find("resources");
  return it == stage_json.end() ? "" : CoreTimeFromJson(*it, &stage->resources);
}

std::string RunResourcesFromJson(const nlohmann::json& run_json, RunResult* run) {
  auto it = run_json.find("resources");
  if (it == run_json.end()) return "";
  ResourceUsage& out = run->resources;
  if (const std::string why = CoreTimeFromJson(*it, &out.run); !why.empty()) return why;
  double cores = 0;
  if (!Number(*it, "cores", &cores) || cores < 0 || cores > 1e9 || cores != static_cast<int>(cores) ||
      !Number(*it, "criticalPathSeconds", &out.critical_path_seconds) ||
      !Number(*it, "idealSeconds", &out.ideal_seconds))
    return "resources: expected cores (an integer >= 0), criticalPathSeconds and idealSeconds";
  out.peak_cores = static_cast<int>(cores);
  return "";
}

}  // namespace aqesim
