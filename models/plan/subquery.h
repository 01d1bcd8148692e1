// Subquery: a job whose result a scan needs before its tasks can run — Spark's scalar
// subqueries, IN-subqueries, runtime bloom filters (InjectRuntimeFilter:
// spark.sql.optimizer.runtime.bloomFilter.*) and dynamic partition pruning
// (PlanAdaptiveDynamicPruningFilters / PlanDynamicPruningFilters). The scenario's top-level
// `subqueries` (docs/user-contract.md §2); how the engine runs them: docs/aqe-behaviour.md §17,
// models/engine/subquery_jobs.h.
#ifndef AQESIM_MODELS_PLAN_SUBQUERY_H_
#define AQESIM_MODELS_PLAN_SUBQUERY_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/plan/plan.h"

namespace aqesim {

/// What the subquery computes (JSON `kind`; informational but for kDynamicPruning, which alone may
/// reuse a join's broadcast):
///   kScalar         ScalarSubquery (sql/core/.../execution/subquery.scala, SubqueryExec)
///   kInSubquery     InSubqueryExec over a subquery's rows
///   kBloomFilter    a runtime bloom filter: might_contain(scalar subquery of bloom_filter_agg)
///                   (sql/catalyst/.../optimizer/InjectRuntimeFilter.scala)
///   kDynamicPruning dynamic partition pruning: SubqueryBroadcastExec over a join's broadcast
///                   (sql/core/.../execution/SubqueryBroadcastExec.scala), or its own job
enum class SubqueryKind { kScalar, kInSubquery, kBloomFilter, kDynamicPruning };

std::string_view SubqueryKindName(SubqueryKind k);  // "scalar", "inSubquery", ...
std::optional<SubqueryKind> ParseSubqueryKind(std::string_view s);

struct Subquery {
  /// JSON `id` (default "sq<n>", n its 1-based position); unique among the plan's node ids and
  /// the other subqueries'. Its job's final stage is "<id> result".
  std::string id;
  std::string pointer;  // "/subqueries/0"
  SubqueryKind kind = SubqueryKind::kScalar;
  /// JSON `gates`: ids of the scans of the query's plan whose stage waits for the result.
  std::vector<std::string> gates;
  /// JSON `plan`: the subquery's own physical plan, run as a job of its own (with AQE: its own
  /// adaptive plan, AdaptiveSparkPlanExec with isSubquery). Null when it reuses a broadcast.
  std::unique_ptr<PlanNode> plan;
  /// JSON `reusesBroadcast`: the join of the plan whose broadcast relation the pruning filter
  /// reads (SubqueryBroadcastExec over the reused BroadcastExchangeExec): no job of its own.
  std::optional<std::string> reuses_broadcast;
};

/// Deep copy.
std::vector<Subquery> CloneSubqueries(const std::vector<Subquery>& subqueries);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_SUBQUERY_H_
