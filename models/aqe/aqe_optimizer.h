// AqeOptimizer: the ordered rule pipelines of adaptive execution — ONE place that lists
// every rule, in Spark's order, and wraps each the same way (enable switch, exclusion,
// trace of decisions).
//
//  * Query-stage rules, on a new stage's subtree and on the final stage
//    (AdaptiveSparkPlanExec.queryStageOptimizerRules):
//      OptimizeSkewInRebalancePartitions → CoalesceShufflePartitions → OptimizeShuffleWithLocalRead
//    Order matters: rebalance splitting leaves specs that coalescing must keep (docs/aqe-behaviour.md §4.3);
//    the local read reuses the coalesced spec count as its parallelism (docs/aqe-behaviour.md §9).
//  * Re-optimization, on the whole plan after stages complete (docs/aqe-behaviour.md §2 step 4, §12.3):
//      DynamicJoinSelection (AQEOptimizer, logical; excludable by
//      spark.sql.adaptive.optimizer.excludedRules) → JoinSelection with runtime statistics →
//      OptimizeSkewedJoin (with its extra-shuffle check) → cost gate (simpleCosting.scala).
#ifndef AQESIM_MODELS_AQE_AQE_OPTIMIZER_H_
#define AQESIM_MODELS_AQE_AQE_OPTIMIZER_H_

#include <memory>
#include <string>
#include <vector>

#include "models/aqe/rule.h"

namespace aqesim {

/// Names Spark's adaptive logical optimizer accepts in spark.sql.adaptive.optimizer.excludedRules.
const std::vector<std::string>& AqeOptimizerRuleNames();

/// Warnings for spark.sql.adaptive.optimizer.excludedRules entries that exclude nothing: an
/// unknown name (with "did you mean"), or a physical AQE rule, which Spark does not let this
/// key disable (its own enable switch is named).
std::vector<std::string> CheckExcludedRules(const SqlConf& conf);

class AqeOptimizer {
 public:
  AqeOptimizer();
  ~AqeOptimizer();

  /// Runs the query-stage rules on `subtree` (a new stage's operators, or the final stage
  /// when ctx.is_final_stage). Mutates read specs in place.
  /// `not_applied` (optional) gains why each rule left the stage as it was.
  std::vector<Decision> OptimizeQueryStage(const RuleContext& ctx, ExecNode* subtree,
                                           std::vector<NotApplied>* not_applied = nullptr) const;

  struct Reoptimized {
    std::unique_ptr<ExecNode> plan;  // null when the cost gate kept the old plan
    std::vector<Decision> decisions;
    /// Why each rule left a join or exchange as it was (kept whether or not the plan is adopted).
    std::vector<NotApplied> not_applied;
  };
  /// Re-optimizes a copy of `plan`; returns it if the cost gate adopts it.
  Reoptimized ReOptimize(const RuleContext& ctx, const ExecNode& plan) const;

  /// OptimizeSkewedJoin's entries for the inputs it never sees, on the plan of the final stage:
  /// an aggregate's skewed shuffle, a sort's range exchange, a hot bucket of a bucketed scan
  /// (skew_join_why_not.h) — a plan without a shuffle is never re-optimized, yet a hot bucket
  /// needs saying. Whatever spark.sql.adaptive.skewJoin.enabled says: no switch splits them.
  std::vector<NotApplied> FinalStageSkewWhyNot(const RuleContext& ctx, ExecNode* plan) const;

 private:
  std::vector<std::unique_ptr<AqeRule>> query_stage_rules_;
  std::vector<std::unique_ptr<AqeRule>> reoptimization_rules_;
};

/// Cost of a plan for the cost gate (docs/aqe-behaviour.md §8.5): shuffle exchanges whose stage has not been
/// created yet; with forceOptimizeSkewedJoin, (-skew joins, shuffles) compared in order.
struct PlanCost {
  int skew_joins = 0;
  int shuffles = 0;
};
PlanCost EvaluatePlanCost(const ExecNode& plan);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_AQE_OPTIMIZER_H_
