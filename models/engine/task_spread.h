// TaskSpread: how much of a stage's task-time spread (slowest ÷ median task seconds) its data
// explains. The first tasks on an executor are slow for reasons of their own — a fresh JVM
// (executorStartupSeconds), the stage's code not yet compiled there (executorStageWarmupSeconds,
// coldCodeSlowdown) — and that spread is not skew: no partition setting or salting removes it.
//
// A first task started on its executor before any task of the same stage had finished there (the
// stage's first wave there); it is a start-up task unless it moves more bytes (input + shuffle
// read + shuffle write) than kStartupBytesFactor × the median task. A later task still running
// the stage's code cold (TaskResult::startup_seconds, at least half its seconds) is one too. The
// data's ratio is the largest of: a later task's seconds less its start-up seconds ÷ the stage's
// median, a heavy first task's seconds ÷ the first tasks' median (they share its start-up), 1.
// Without task records (a run read without --tasks) it is the time ratio.
#ifndef AQESIM_MODELS_ENGINE_TASK_SPREAD_H_
#define AQESIM_MODELS_ENGINE_TASK_SPREAD_H_

#include "models/engine/run_result.h"

namespace aqesim {

/// A first task moving more than this many times the median task's bytes is slow for its data.
inline constexpr double kStartupBytesFactor = 1.33;

struct TaskSpread {
  /// Slowest ÷ median task seconds (0 without tasks or with a median of 0).
  double ratio = 0;
  /// The spread the data explains (header comment; at most `ratio`, at least 1).
  double data_ratio = 0;
  /// The slowest task is a start-up task.
  bool slowest_is_startup = false;
};

TaskSpread TaskSpreadOf(const StageResult& stage);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_TASK_SPREAD_H_
