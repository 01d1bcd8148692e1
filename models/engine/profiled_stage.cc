#include "models/engine/profiled_stage.h"

#include <algorithm>
#include <cstdlib>

#include "models/plan/stage_walk.h"

namespace aqesim {

ProfiledStage::ProfiledStage(const StageProfile& profile, int num_tasks, int num_executors,
                             int slots_per_executor, std::optional<SpillPricing> spill, LogRates log)
    : times_(profile, num_tasks, std::max(num_executors, 1) * std::max(slots_per_executor, 1), spill, log),
      launched_on_(static_cast<size_t>(std::max(num_executors, 1)), 0),
      slots_per_executor_(std::max(slots_per_executor, 1)) {
  if (const double f = ResizeFactor(profile, num_tasks); f >= kResizedMarkFactor) resized_by_ = f;
}

double ProfiledStage::LaunchTask(int task, int executor, int64_t input_bytes,
                                 std::optional<double> modelled_work) {
  int& launched = launched_on_.at(static_cast<size_t>(executor));
  const bool first_wave = launched < slots_per_executor_;
  ++launched;
  return times_.TaskSeconds(task, input_bytes, first_wave, modelled_work);
}

std::optional<SpillPricing> StageSpillPricing(const StageProfile& profile, const ExecNode& stage_root,
                                              int num_tasks, const CostModel& cost,
                                              int64_t disk_bytes_per_second, int slots_per_executor) {
  const int64_t memory = cost.ExecutionMemoryPerTask().count();
  if (std::optional<SpillPricing> measured = MeasuredSpillPricing(profile, memory)) return measured;
  if (num_tasks == profile.tasks) return std::nullopt;  // a replay keeps the record: no spill
  bool sorts = false, rows_known = true;
  double data_size = 0, rows = 0;
  VisitStageOperators(&stage_root, [&](const ExecNode* n) {
    if (n->op == PlanOp::kSort) sorts = true;
    if (n->is_join() &&
        (n->join->strategy == JoinStrategy::kSortMerge || n->join->strategy == JoinStrategy::kShuffledHash))
      sorts = true;
    if (n != &stage_root && n->is_exchange()) {
      const ShuffleData& d = *n->shuffle->data;
      if (n->source == nullptr || !n->source->rows || *n->source->rows <= 0 || d.data_size_estimated ||
          d.data_size_bytes <= 0) {
        rows_known = false;
        return;
      }
      data_size += static_cast<double>(d.data_size_bytes);
      rows += static_cast<double>(*n->source->rows);
    }
  });
  if (!sorts || !rows_known || rows <= 0) return std::nullopt;
  const double per_slot = static_cast<double>(disk_bytes_per_second) / std::max(slots_per_executor, 1);
  return FallbackSpillPricing(data_size / rows, cost.params().compression_ratio, per_slot, memory);
}

const StageProfile* RecordedProfileOf(const Scenario& scenario, const QueryStage& stage) {
  auto it = scenario.profiles.find(stage.name);
  if (it != scenario.profiles.end()) return &it->second;
  if (stage.kind != StageKind::kResult || !scenario.collect_limit) return nullptr;
  const StageProfile* closest = nullptr;
  for (const auto& [name, p] : scenario.profiles) {
    if (name != "result" && name.rfind("result ", 0) != 0) continue;
    if (closest == nullptr ||
        std::abs(p.tasks - stage.num_tasks) < std::abs(closest->tasks - stage.num_tasks))
      closest = &p;
  }
  return closest;
}

}  // namespace aqesim
