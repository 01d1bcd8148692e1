// The SQL plans of an event log: `sparkPlanInfo` trees (sql/core/.../execution/SparkPlanInfo.scala)
// as SQLExecutionStart and SQLAdaptiveExecutionUpdate log them, and the queries the importer
// asks of them (matching nodes across AQE re-plans, joins, plan shapes).
#ifndef AQESIM_TOOLS_EVENTLOG_SQL_PLAN_INFO_H_
#define AQESIM_TOOLS_EVENTLOG_SQL_PLAN_INFO_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aqesim::eventlog {

/// One SQL metric of a plan node (`sparkPlanInfo.metrics[]`).
struct SqlMetric {
  std::string name;  // "shuffle bytes written", "number of partitions", ...
  int64_t accumulator_id = 0;
  std::string metric_type;  // "size", "sum", "timing", "nsTiming", "average", ...
};

/// A node of `sparkPlanInfo` (sql/core/.../execution/SparkPlanInfo.scala). Children include
/// subqueries, as Spark logs them.
struct SqlPlanNode {
  std::string node_name;      // "Exchange", "SortMergeJoin", "AQEShuffleRead", ...
  std::string simple_string;  // "Exchange hashpartitioning(a#12, 200), ENSURE_REQUIREMENTS, [id=#40]"
  std::vector<SqlMetric> metrics;
  std::vector<SqlPlanNode> children;

  /// Accumulator id of the metric called `name`, if the node has one.
  std::optional<int64_t> MetricId(std::string_view name) const;
};

/// Parses a `sparkPlanInfo` object; missing fields are left empty.
SqlPlanNode ParseSparkPlanInfo(const nlohmann::json& info);

/// Normalises a simpleString for matching plan nodes across AQE re-plans: drops
/// "[id=#N]" / "[plan_id=N]" and trailing spaces.
std::string NormalizeSimpleString(std::string_view s);

/// The operators of a plan: its node names in pre-order, with the child counts ("Exchange(1)
/// SortMergeJoin(2) ..."), without expression ids, RDD ids or sizes. Two SQL executions with
/// the same shape run the same whole-stage generated code (CodeGenerator caches the compiled
/// classes by their source).
std::string PlanShape(const SqlPlanNode& plan);

/// "SortMergeJoin(skew=true)" -> "SortMergeJoin".
std::string BaseNodeName(const std::string& name);
/// Whether a base node name is a join operator (sort-merge, shuffled hash, broadcast hash,
/// broadcast nested loop, cartesian product).
bool IsJoinNode(const std::string& base);
/// "[a#12], [b#14], Inner" from a join's simpleString: the text after the node name up to the
/// join type, without expression ids.
std::string JoinKey(const SqlPlanNode& node);
/// Subquery nodes hang under the operator that uses them; they are not its inputs.
bool IsSubqueryNode(const std::string& base);
/// HashAggregate, SortAggregate, ObjectHashAggregate.
bool IsAggregateNode(const std::string& base);
/// Exchange (3.x) or ShuffleExchange (2.x): a shuffle.
bool IsExchangeNode(const std::string& base);
/// A node's inputs: its children but subqueries.
std::vector<const SqlPlanNode*> MainChildren(const SqlPlanNode& n);
/// The join type in a join's simpleString ("..., LeftOuter, ..."); "Inner" with a note when
/// none is found; ExistenceJoin becomes LeftSemi, with a note.
std::string JoinTypeOf(const std::string& simple, std::vector<std::string>* notes);
/// Partition count of "Exchange hashpartitioning(a#1, 200), ..." / "SinglePartition" /
/// "RoundRobinPartitioning(8)" / "rangepartitioning(..., 200)"; nullopt when there is none
/// or it is not an int.
std::optional<int> ParsePartitionCount(const std::string& simple);
/// The exchange's ShuffleOrigin named in its simpleString; ENSURE_REQUIREMENTS when none is.
std::string ParseOrigin(const std::string& simple);
/// Calls `fn` on `node` and every node below it, in pre-order.
void Walk(const SqlPlanNode& node, const std::function<void(const SqlPlanNode&)>& fn);
/// The first node in pre-order named `name`; nullptr when none.
const SqlPlanNode* FindFirst(const SqlPlanNode& node, std::string_view name);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SQL_PLAN_INFO_H_
