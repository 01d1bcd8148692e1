// QueryStage: one unit of scheduling — a shuffle map stage, a broadcast stage, or the
// result stage (Spark's ShuffleQueryStageExec / BroadcastQueryStageExec / final stage, and
// the DAGScheduler stage that runs it): which operators its tasks run, what it writes, the
// stages it waits for, and where it is in its life (created → submitted → done).
//
// The rules see a stage only through the plan (an exchange's ShuffleData::stage, a node's
// executing_stage): whether it exists and whether it is done. What running it produced (task
// records, map-output shares, the broadcast relation) is the engine's (engine/stage_graph.h).
#ifndef AQESIM_MODELS_PLAN_QUERY_STAGE_H_
#define AQESIM_MODELS_PLAN_QUERY_STAGE_H_

#include <string>
#include <vector>

#include "models/plan/exec_node.h"
#include "sim/units.h"

namespace aqesim {

/// kSample: a range exchange's sampling job (RangePartitioner's sketch, or its re-sample of the
/// imbalanced partitions): the exchange's child over its input partitions, writing nothing; the
/// map stage waits for it.
enum class StageKind { kShuffleMap, kBroadcast, kResult, kSample };

struct QueryStage {
  /// Spark's stage id: creation order without AQE; with AQE, submission order (broadcast
  /// stages of one step first).
  int id = 0;
  StageKind kind = StageKind::kShuffleMap;
  std::string name;  // "e1 map", "j1 broadcast", "result"
  /// Map stage: the exchange it writes. Broadcast stage: the join whose build side it
  /// broadcasts. Sample stage: the range exchange it samples for. Result stage: null.
  ExecNode* output = nullptr;
  /// The operators its tasks run (fixed when the stage is created).
  ExecNode* subtree = nullptr;
  int num_tasks = 0;
  std::vector<QueryStage*> parents;
  std::vector<QueryStage*> children;
  int parents_pending = 0;  // parents not done yet
  /// The scenario's subquery (index into Scenario::subqueries) whose job runs this stage; -1: the
  /// query's own.
  int subquery = -1;
  bool submitted = false;
  /// Materialized: every task finished (a broadcast: the relation shipped too).
  bool done = false;
  SimTime submit;
  SimTime complete;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_QUERY_STAGE_H_
