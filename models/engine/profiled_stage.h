// ProfiledStage: the tasks of a stage that has a recorded profile (models/cost/stage_profile.h),
// timed as they launch. A task is in the stage's first wave on its executor when it is among
// the first S tasks of the stage launched there (S = the executor's slots), as the importer
// classified the recorded tasks (launch and finish stamps of consecutive tasks overlap by a few
// ms, so "before any task of the stage finished there" would misclassify them).
#ifndef AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_
#define AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_

#include <cstdint>
#include <vector>

#include "models/cost/stage_profile.h"

namespace aqesim {

class ProfiledStage {
 public:
  /// `profile` must outlive this object (it is the scenario's).
  ProfiledStage(const StageProfile& profile, int num_tasks, int num_executors, int slots_per_executor);

  /// Seconds of task `task` launched on `executor` (in [0, num_executors)), reading
  /// `input_bytes` from storage and shuffles. Call once per task, in launch order.
  double LaunchTask(int task, int executor, int64_t input_bytes);

 private:
  ProfiledStageTimes times_;
  std::vector<int> launched_on_;  // tasks of this stage launched per executor
  int slots_per_executor_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_
