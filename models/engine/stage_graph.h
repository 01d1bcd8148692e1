// StageGraph: the query stages of one run and their dependencies — Spark's DAGScheduler view.
// It creates stages (linking each to the stages whose output its tasks read: the exchanges it
// reads and the broadcasts its joins build from), holds what running each produced (StageRun),
// and, with AQE off, creates every stage of the plan up front (CreateStaticStages). With AQE on
// the adaptive planner (adaptive_planner.h) creates them as their inputs materialize.
#ifndef AQESIM_MODELS_ENGINE_STAGE_GRAPH_H_
#define AQESIM_MODELS_ENGINE_STAGE_GRAPH_H_

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/engine/profiled_stage.h"
#include "models/engine/run_result.h"
#include "models/engine/shared_limit_use.h"
#include "models/engine/task_work.h"
#include "models/plan/exec_node.h"
#include "models/plan/query_stage.h"

namespace aqesim {

/// What running a stage produced.
struct StageRun {
  std::vector<TaskResult> tasks;
  /// Map stages, per task: its normalized shares (task_work.h) — how its output maps onto the
  /// exchange's planned rows.
  std::vector<Shares> shares;
  /// Broadcast stages: the tasks' output bytes, then (once collected) the uncompressed relation.
  int64_t broadcast_bytes = 0;
  /// Broadcast stages: collect + ship + build, seconds (the broadcast's own time).
  double broadcast_seconds = 0;
  /// Partition of the stage's task 0: executeTake's job over partitions [first_partition,
  /// first_partition + tasks) of the final stage (collectLimit); 0 otherwise.
  int first_partition = 0;
  /// The partition each task runs when not first_partition + task: a range exchange's
  /// re-sample job over its imbalanced partitions.
  std::vector<int> partitions;
  /// The partition task `task` computes.
  int PartitionOf(int task) const {
    return partitions.empty() ? first_partition + task : partitions[static_cast<size_t>(task)];
  }
  /// The stage's recorded profile times its tasks (the scenario has a profile for its name).
  std::optional<ProfiledStage> profiled;
  /// Task attempts that failed or were killed (recorded_failures.h); how the stage stopped, if it
  /// did ("aborted", "FetchFailed"; StageResult::failed).
  int failed_attempts = 0;
  std::string failed;
  /// How much the cluster's shared limits slowed it (shared_limits.h).
  SharedLimitUse limits;
};

class StageGraph {
 public:
  /// Creates a stage running `subtree` (and registers it: a map stage as its exchange's
  /// ShuffleData::stage, a broadcast stage as the join's). Its id is its creation index until
  /// the caller assigns another. Parents are linked by LinkParents.
  QueryStage* Add(StageKind kind, ExecNode* output, ExecNode* subtree, std::string name);
  /// Links `stage` to the stages whose output its tasks read and marks its operators as run
  /// by it (ExecNode::executing_stage); a map stage also waits for its exchange's sample stages.
  void LinkParents(QueryStage* stage);
  /// A range exchange's sampling jobs, created (and linked) before its map stage: "<id> sample"
  /// over every input partition and, when some are imbalanced, "<id> sample 2" over those,
  /// after the first (RangePartitioner, range_partitioner.h). None for another exchange, or
  /// when Spark samples nothing (one requested partition).
  std::vector<QueryStage*> AddSampleStages(ExecNode* exchange);
  /// The broadcast stage of `join`'s build side, or null.
  QueryStage* BroadcastStageOf(const ExecNode& join) const;
  /// The broadcast stage of the join with id `join_id`, or null.
  QueryStage* BroadcastStageOfJoin(const std::string& join_id) const;

  /// AQE off: every stage of `plan`, in DAGScheduler creation order (broadcast jobs first, then
  /// the main job, parents before children), the result stage (`result_name`) last, with task
  /// counts; each marked as run by `subquery`'s job (QueryStage::subquery; -1: the query's).
  void CreateStaticStages(ExecNode* plan, const std::string& result_name = "result", int subquery = -1);

  StageRun& run(const QueryStage& stage) { return runs_.at(&stage); }
  const StageRun& run(const QueryStage& stage) const { return runs_.at(&stage); }
  /// Every stage, in creation order.
  std::deque<QueryStage>& stages() { return stages_; }
  const std::deque<QueryStage>& stages() const { return stages_; }

 private:
  std::deque<QueryStage> stages_;  // a deque: stages never move (the plan points at them)
  std::map<const QueryStage*, StageRun> runs_;
  std::map<std::string, QueryStage*> broadcast_stage_by_join_;
  std::map<std::string, QueryStage*> last_sample_stage_by_exchange_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_STAGE_GRAPH_H_
