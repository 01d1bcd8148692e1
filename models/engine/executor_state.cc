#include "models/engine/executor_state.h"

#include <algorithm>

namespace aqesim {

ExecutorState::ExecutorState(const ClusterSpec& cluster, int num_executors, double cold_code_window_seconds,
                             bool cold_code_modelled)
    : cold_code_window_seconds_(cold_code_window_seconds), cold_code_modelled_(cold_code_modelled) {
  jvm_warm_.assign(static_cast<size_t>(std::max(0, num_executors)), 0);
  code_warm_.assign(jvm_warm_.size(), 0);
  const bool timeline = !cluster.executor_timeline.empty();
  for (size_t e = 0; e < jvm_warm_.size(); ++e) {
    code_warm_[e] =
        timeline ? cluster.executor_timeline[e].warm_code : static_cast<int>(e) < cluster.warm_code_executors;
    // Code-warm implies a warm JVM.
    jvm_warm_[e] = code_warm_[e] || (timeline ? cluster.executor_timeline[e].warm
                                              : static_cast<int>(e) < cluster.warm_executors);
  }
}

ExecutorState::CodeState* ExecutorState::ForCode(const std::string& code_key) {
  auto [it, inserted] = codes_.try_emplace(code_key);
  CodeState* code = &it->second;
  if (inserted) {
    code->warm = code_warm_;
    code->cold_budget_seconds.resize(code_warm_.size());
    for (size_t e = 0; e < code_warm_.size(); ++e)
      code->cold_budget_seconds[e] = code_warm_[e] ? 0.0 : cold_code_window_seconds_;
  }
  return code;
}

void ExecutorState::PrepareTask(const CodeState& code, int executor, TaskWork* work) const {
  work->first_wave_on_executor = Valid(executor, code.warm.size()) && !code.warm[executor];
  work->fresh_executor = Valid(executor, jvm_warm_.size()) && !jvm_warm_[executor];
  if (cold_code_modelled_ && Valid(executor, code.cold_budget_seconds.size()))
    work->cold_work_limit_seconds = code.cold_budget_seconds[static_cast<size_t>(executor)];
}

void ExecutorState::TaskStarted(CodeState* code, int executor, double cold_work_seconds) {
  if (!cold_code_modelled_ || !Valid(executor, code->cold_budget_seconds.size())) return;
  double& budget = code->cold_budget_seconds[static_cast<size_t>(executor)];
  budget = std::max(0.0, budget - cold_work_seconds);
}

void ExecutorState::TaskEnded(CodeState* code, int executor) {
  if (Valid(executor, code->warm.size())) code->warm[executor] = 1;
  if (Valid(executor, jvm_warm_.size())) jvm_warm_[executor] = 1;
}

void ExecutorState::Replace(int executor) {
  if (!Valid(executor, jvm_warm_.size())) return;
  const auto e = static_cast<size_t>(executor);
  jvm_warm_[e] = 0;
  code_warm_[e] = 0;
  for (auto& [key, code] : codes_) {
    code.warm[e] = 0;
    code.cold_budget_seconds[e] = cold_code_window_seconds_;
  }
}

}  // namespace aqesim
