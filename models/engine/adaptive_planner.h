// AdaptivePlanner: the adaptive loop of AdaptiveSparkPlanExec
// (sql/core/.../adaptive/AdaptiveSparkPlanExec.scala, docs: "How a run is simulated" in README).
//
// Each step, on the driver after the stage completions of the same instant:
//  1. if a stage materialized since the last step, re-optimize the whole plan (DynamicJoinSelection
//     → JoinSelection with runtime statistics → OptimizeSkewedJoin → the cost gate;
//     models/aqe/aqe_optimizer.h) and adopt the new plan if the gate accepts it;
//  2. create query stages bottom-up for every exchange (and broadcast build side) whose inputs
//     are all materialized, each new stage's subtree through the query-stage rules
//     (OptimizeSkewInRebalancePartitions → CoalesceShufflePartitions →
//     OptimizeShuffleWithLocalRead); submit them, broadcast stages first;
//  3. once everything below the root is materialized, the final stage: the query-stage rules
//     on the root (spark.sql.adaptive.applyFinalStageShuffleOptimizations), then the result stage.
// A step runs replanSeconds (+ the driver's MapOutputStatistics time) after the completion that
// requested it; completions while a step is pending share it. Running stages are never cancelled.
#ifndef AQESIM_MODELS_ENGINE_ADAPTIVE_PLANNER_H_
#define AQESIM_MODELS_ENGINE_ADAPTIVE_PLANNER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/aqe/aqe_optimizer.h"
#include "models/conf/spark_conf.h"
#include "models/engine/run_result_builder.h"
#include "models/engine/stage_graph.h"
#include "models/plan/exec_node.h"
#include "sim/simulator.h"

namespace aqesim {

class AdaptivePlanner {
 public:
  /// `default_parallelism`: SparkContext.defaultParallelism (coalescing's minimum partitions),
  /// asked at each re-planning (with dynamic allocation it follows the registered cores).
  /// `submit` hands a created stage to the scheduler. `next_stage_id`: Spark's stage ids, in
  /// submission order, shared by the query's planner and its subqueries' (one SparkContext).
  /// `subquery`: the index of the subquery whose adaptive plan this is (QueryStage::subquery;
  /// -1: the query's own), its final stage named `result_name`.
  AdaptivePlanner(Simulator& sim, const SqlConf& conf, std::function<int()> default_parallelism,
                  double replan_seconds, StageGraph* graph, RunResultBuilder* result,
                  std::function<void(QueryStage*)> submit, int* next_stage_id, int subquery = -1,
                  std::string result_name = "result");

  /// Takes the statically planned plan; the first step runs now.
  void Start(std::unique_ptr<ExecNode> plan);
  /// A map or broadcast stage materialized; `driver_seconds`: the driver's work on its output
  /// before it can re-plan (MapOutputStatistics aggregation).
  void OnStageMaterialized(double driver_seconds);

  /// The current plan.
  const ExecNode& plan() const { return *plans_.back(); }

 private:
  void Step();
  /// Spark's createQueryStages: creates the stages whose inputs are materialized; true when
  /// every stage below `n` is materialized.
  bool CreateQueryStages(ExecNode* n, std::vector<QueryStage*>* created);
  RuleContext Context(bool final_stage) const;
  /// The query-stage rules on a new stage's subtree (or the final stage); their decisions and
  /// "not applied" entries go to the result.
  void OptimizeQueryStage(bool final_stage, ExecNode* subtree);
  ExecNode* current() { return plans_.back().get(); }

  Simulator& sim_;
  const SqlConf& conf_;
  std::function<int()> default_parallelism_;
  double replan_seconds_;
  StageGraph* graph_;
  RunResultBuilder* result_;
  std::function<void(QueryStage*)> submit_;
  AqeOptimizer optimizer_;
  /// Every version of the plan; the last is current. Earlier versions are kept: stages created
  /// from them still run, and point into them.
  std::vector<std::unique_ptr<ExecNode>> plans_;
  QueryStage* result_stage_ = nullptr;
  bool step_pending_ = false;
  bool materialized_since_step_ = false;
  int* next_stage_id_;  // Spark's stage ids, in submission order
  int subquery_;
  std::string result_name_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_ADAPTIVE_PLANNER_H_
