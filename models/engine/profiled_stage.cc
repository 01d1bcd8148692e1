#include "models/engine/profiled_stage.h"

#include <algorithm>

namespace aqesim {

ProfiledStage::ProfiledStage(const StageProfile& profile, int num_tasks, int num_executors,
                             int slots_per_executor)
    : times_(profile, num_tasks, std::max(num_executors, 1) * std::max(slots_per_executor, 1)),
      launched_on_(static_cast<size_t>(std::max(num_executors, 1)), 0),
      slots_per_executor_(std::max(slots_per_executor, 1)) {}

double ProfiledStage::LaunchTask(int task, int executor, int64_t input_bytes) {
  int& launched = launched_on_.at(static_cast<size_t>(executor));
  const bool first_wave = launched < slots_per_executor_;
  ++launched;
  return times_.TaskSeconds(task, input_bytes, first_wave);
}

}  // namespace aqesim
