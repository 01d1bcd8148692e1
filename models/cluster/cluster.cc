#include "models/cluster/cluster.h"

#include <algorithm>
#include <cmath>

namespace aqesim {

int TaskSlotsPerExecutor(int executor_cores, int task_cpus, int executor_gpus,
                         std::optional<double> task_gpus) {
  int64_t slots = task_cpus > 0 ? executor_cores / task_cpus : 0;
  if (task_gpus && *task_gpus > 0) {
    // ResourceUtils.calculateAmountAndPartsForFraction: a share of one GPU, or whole GPUs.
    const double amount = *task_gpus;
    const int64_t parts = amount <= 0.5 ? static_cast<int64_t>(std::floor(1.0 / amount)) : 1;
    const int64_t whole = static_cast<int64_t>(std::ceil(std::min(amount, 1e9)));
    slots = std::min(slots, int64_t{std::max(executor_gpus, 0)} * parts / whole);
  }
  return static_cast<int>(std::max<int64_t>(slots, 0));
}

const ResourceProfileSpec* ClusterSpec::profile(int id) const {
  for (const ResourceProfileSpec& p : resource_profiles)
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<int> SlotsPerExecutor(const ClusterSpec& cluster, int task_cpus,
                                  std::optional<double> task_gpus) {
  const int default_slots =
      TaskSlotsPerExecutor(cluster.executor_cores, task_cpus, cluster.executor_gpus, task_gpus);
  if (cluster.executor_timeline.empty())
    return std::vector<int>(static_cast<size_t>(cluster.executors), default_slots);
  std::vector<int> slots;
  for (const ExecutorLifetime& e : cluster.executor_timeline) {
    const ResourceProfileSpec* p = e.resource_profile == 0 ? nullptr : cluster.profile(e.resource_profile);
    slots.push_back(
        p == nullptr ? default_slots
                     : TaskSlotsPerExecutor(p->executor_cores, p->task_cpus, p->executor_gpus, p->task_gpus));
  }
  return slots;
}

std::optional<std::vector<int>> ExecutorsOfProfile(const ClusterSpec& cluster, int profile) {
  if (cluster.executor_timeline.empty()) {
    if (profile == 0) return std::nullopt;  // a static cluster: all of the default profile
    return std::vector<int>();
  }
  std::vector<int> out;
  for (size_t i = 0; i < cluster.executor_timeline.size(); ++i)
    if (cluster.executor_timeline[i].resource_profile == profile) out.push_back(static_cast<int>(i));
  if (out.size() == cluster.executor_timeline.size()) return std::nullopt;
  return out;
}

}  // namespace aqesim
