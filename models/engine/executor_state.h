// ExecutorState: how warm each executor is — its JVM (has it finished a task, or was it warm
// at the start: executorStartupSeconds) and, per stage code (plan/stage_walk.h StageCodeKey),
// whether a task of that code has finished there (executorStageWarmupSeconds: the first wave)
// and how much of the code's cold window is left (coldCodeSlowdown over coldCodeWindowSeconds).
// It fills the executor fields of a task's TaskWork (models/cost/cost_model.h) and updates as
// tasks start and end.
#ifndef AQESIM_MODELS_ENGINE_EXECUTOR_STATE_H_
#define AQESIM_MODELS_ENGINE_EXECUTOR_STATE_H_

#include <map>
#include <string>
#include <vector>

#include "models/cluster/cluster.h"
#include "models/cost/cost_model.h"

namespace aqesim {

class ExecutorState {
 public:
  /// One stage code's state on every executor.
  struct CodeState {
    /// Per executor: 1 once a task of this code finished there (or the executor ran this
    /// query's code before the start: `warmCode`).
    std::vector<char> warm;
    /// Per executor: seconds of this code's work (at warm speed) still to run cold there;
    /// coldCodeWindowSeconds at first, 0 on code-warm executors.
    std::vector<double> cold_budget_seconds;
  };

  /// `num_executors`: the scheduler's executors. Warm JVMs and code-warm executors come from
  /// the cluster (`warmExecutors`, `warmCodeExecutors`, or the timeline's `warm`/`warmCode`).
  /// `cold_code_modelled`: coldCodeSlowdown > 0.
  ExecutorState(const ClusterSpec& cluster, int num_executors, double cold_code_window_seconds,
                bool cold_code_modelled);

  /// The state of stage code `code_key`, created on first use. The pointer stays valid.
  CodeState* ForCode(const std::string& code_key);

  /// Sets `work`'s first_wave_on_executor, fresh_executor and cold_work_limit_seconds for a
  /// task of `code` starting on `executor`.
  void PrepareTask(const CodeState& code, int executor, TaskWork* work) const;
  /// The task that PrepareTask prepared ran `cold_work_seconds` of its work cold
  /// (TaskCost::cold_work_seconds): taken from the executor's budget for the code, in start order.
  void TaskStarted(CodeState* code, int executor, double cold_work_seconds);
  /// A task of `code` finished on `executor`: its JVM and the code are warm there from now on.
  void TaskEnded(CodeState* code, int executor);
  /// A new executor took `executor`'s index (dynamic allocation): a fresh JVM that has run no code.
  void Replace(int executor);
  /// `executor`'s JVM ran tasks before the start (dynamic allocation: an executor carried from
  /// the application's earlier queries).
  void MarkJvmWarm(int executor) {
    if (Valid(executor, jvm_warm_.size())) jvm_warm_[static_cast<size_t>(executor)] = 1;
  }

 private:
  static bool Valid(int executor, size_t size) {
    return executor >= 0 && static_cast<size_t>(executor) < size;
  }

  double cold_code_window_seconds_;
  bool cold_code_modelled_;
  /// Per executor: 1 once its JVM has finished a task (or it was warm at the start).
  std::vector<char> jvm_warm_;
  /// Per executor: ran this query's code before the start (warm for every code).
  std::vector<char> code_warm_;
  /// Per stage code (a std::map: the CodeState pointers handed out never move).
  std::map<std::string, CodeState> codes_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_EXECUTOR_STATE_H_
