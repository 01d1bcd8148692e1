// QueryStage: one unit of scheduling — a shuffle map stage, a broadcast stage, or the
// result stage (Spark's ShuffleQueryStageExec / BroadcastQueryStageExec / final stage, and
// the DAGScheduler stage that runs it).
#ifndef AQESIM_MODELS_ENGINE_QUERY_STAGE_H_
#define AQESIM_MODELS_ENGINE_QUERY_STAGE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/exec_plan.h"
#include "models/engine/run_result.h"
#include "sim/units.h"

namespace aqesim {

enum class StageKind { kShuffleMap, kBroadcast, kResult };

struct QueryStage {
  int id = 0;
  StageKind kind = StageKind::kShuffleMap;
  std::string name;
  /// Map stage: the exchange it writes. Broadcast stage: the join whose build side it
  /// broadcasts. Result stage: null.
  ExecNode* output = nullptr;
  /// The operators its tasks run (fixed when the stage is created).
  ExecNode* subtree = nullptr;
  int num_tasks = 0;
  std::vector<QueryStage*> parents;
  std::vector<QueryStage*> children;
  int parents_pending = 0;
  bool submitted = false;
  bool done = false;
  SimTime submit;
  SimTime complete;
  /// Per task: (planned partition of the subtree's output, bytes it read for it) — how the
  /// task's output maps onto the exchange's planned rows.
  std::vector<std::vector<std::pair<int, int64_t>>> shares;
  std::vector<TaskResult> tasks;
  std::vector<double> task_seconds;
  /// The stage's code: its operators without ids (two stages with the same key run the same
  /// generated code, which an executor compiles and loads once).
  std::string code_key;
  /// Broadcast stages: uncompressed relation bytes, and the broadcast's own time.
  int64_t broadcast_bytes = 0;
  double broadcast_seconds = 0;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_QUERY_STAGE_H_
