// ProfiledStage: the tasks of a stage that has a recorded profile (models/cost/stage_profile.h),
// timed as they launch. A task is in the stage's first wave on its executor when it is among
// the first S tasks of the stage launched there (S = the executor's slots), as the importer
// classified the recorded tasks (launch and finish stamps of consecutive tasks overlap by a few
// ms, so "before any task of the stage finished there" would misclassify them).
#ifndef AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_
#define AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/cost/profile_spill.h"
#include "models/cost/stage_profile.h"
#include "models/plan/exec_node.h"
#include "models/plan/query_stage.h"
#include "models/scenario/scenario.h"

namespace aqesim {

class ProfiledStage {
 public:
  /// `profile` must outlive this object (it is the scenario's).
  /// `spill`: how its tasks pay for spilling (StageSpillPricing), none when absent; `log`: what
  /// a resized profile borrows from its log (LogResizeRates).
  ProfiledStage(const StageProfile& profile, int num_tasks, int num_executors, int slots_per_executor,
                std::optional<SpillPricing> spill = std::nullopt, LogRates log = {});

  /// Seconds of task `task` launched on `executor` (in [0, num_executors)), reading
  /// `input_bytes` from storage and shuffles. Call once per task, in launch order.
  /// `modelled_work`: see ProfiledStageTimes::TaskSeconds.
  double LaunchTask(int task, int executor, int64_t input_bytes,
                    std::optional<double> modelled_work = std::nullopt);

  bool NeedsModelledWork() const { return times_.NeedsModelledWork(); }
  /// ResizeFactor when at least kResizedMarkFactor (the stage is marked resized), else nullopt.
  std::optional<double> resized_by() const { return resized_by_; }

 private:
  ProfiledStageTimes times_;
  std::optional<double> resized_by_;
  std::vector<int> launched_on_;  // tasks of this stage launched per executor
  int slots_per_executor_;
};

/// How the tasks of the stage rooted at `stage_root`, run as `num_tasks` tasks with `profile`,
/// pay for spilling (models/cost/profile_spill.h), with M = cost.ExecutionMemoryPerTask(): the
/// profile's measured pricing when its recorded run spilled; else, when `num_tasks` differs from
/// the recorded count and the stage sorts (a sort, a sort-merge or shuffled hash join), the
/// fallback from the rows it reads — the exchanges' Spark "data size" ÷ rows, when every read
/// has both — and the disk share of one of `slots_per_executor` slots; else none.
std::optional<SpillPricing> StageSpillPricing(const StageProfile& profile, const ExecNode& stage_root,
                                              int num_tasks, const CostModel& cost,
                                              int64_t disk_bytes_per_second, int slots_per_executor);

/// The scenario's recorded profile of `stage` (by its name), or null. A job of executeTake
/// without its own runs as the recorded one closest in task count (the same operators over
/// other partitions of the same data).
const StageProfile* RecordedProfileOf(const Scenario& scenario, const QueryStage& stage);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_PROFILED_STAGE_H_
