// A SQL execution's plan as a scenario plan. The plan is the *initial* (pre-AQE) physical plan of
// SQLExecutionStart — scenarios describe plans as planned without AQE — with every exchange's
// sizes taken from the stage that actually ran it (SqlStageIndex matches nodes across AQE
// re-plans; exchange_sizes.h builds the sizes). Nodes kept: scan, exchange, join, aggregate
// (a final aggregate, i.e. one whose input is an exchange), union; others are passed through.
#ifndef AQESIM_TOOLS_EVENTLOG_SQL_PLAN_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_SQL_PLAN_IMPORT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/eventlog/import_context.h"
#include "tools/eventlog/sql_stage_index.h"

namespace aqesim::eventlog {

class SqlPlanImporter {
 public:
  SqlPlanImporter(ImportContext& ctx, const RecordedSqlExecution& execution)
      : ctx_(ctx), ex_(execution), index_(ctx.app, execution) {}

  /// The scenario's `plan`; adds the exchanges and joins to ctx.out, with the execution's
  /// submitted stages.
  nlohmann::json Build();
  /// After Build: the scenario's `subqueries` (an empty array when the plan has none); adds them
  /// (and their plans' exchanges and joins) to ctx.out.
  nlohmann::json BuildSubqueries();

 private:
  /// The reducer count Spark gave a shuffle without a count of its own: the one the session
  /// evidently ran with (session_partitions_), else the log's Spark Properties.
  int ConfiguredPartitions() const;
  /// The count the log's Spark Properties give (initialPartitionNum under AQE, else
  /// spark.sql.shuffle.partitions, default 200) and the key it comes from.
  std::pair<std::string, int> PropertiesPartitions() const;
  /// The reducer count of the plan's exchanges that Spark counts from the configuration (every
  /// origin but REPARTITION_BY_NUM, no SinglePartition): the count
  /// most of them have (the first in pre-order on a tie), nullopt when there is none.
  std::optional<int> SessionPartitions(const SqlPlanNode& root) const;
  /// Scan leaf -> the stage that ran it; counts scans per stage (to split input bytes).
  void ScanPrepass(const SqlPlanNode& n);
  nlohmann::json BuildNode(const SqlPlanNode& n, const std::string& ptr);
  /// True when `n` imports as an exchange (passing through single-child nodes).
  static bool LeadsToExchange(const SqlPlanNode& n);
  static bool IsPlanWrapper(const std::string& base);
  /// The plan's root when operators sit between it and an exchange: one sort/project node.
  nlohmann::json BuildRootOperator(const SqlPlanNode& n, const std::string& ptr);
  nlohmann::json BuildScan(const SqlPlanNode& n, const std::string& ptr);
  nlohmann::json BuildExchange(const SqlPlanNode& n, const SqlPlanNode& child, const std::string& ptr);
  nlohmann::json BuildReusedExchange(const SqlPlanNode& n, const std::string& ptr);
  nlohmann::json BuildJoin(const SqlPlanNode& n, const std::string& base, const SqlPlanNode& left,
                           const SqlPlanNode& right, const std::string& ptr);
  /// The stage that ran the first scan under `n` reached without crossing an exchange (a
  /// broadcast's build side: the stage that collected it); nullopt when none ran one.
  std::optional<int> StageOfScanBelow(const SqlPlanNode& n) const;
  /// `rows` of a join or aggregate: the SQL metric "number of output rows" of the node that
  /// ran, summed over its tasks (nothing when no task updated it).
  void SetOutputRows(const SqlPlanNode& n, nlohmann::json* node) const;

  /// Subquery nodes met on the way down to a scan (a Filter's runtime filter, a scan's pruning
  /// subquery): the next scan built is the one they gate.
  void NoteSubqueries(const SqlPlanNode& n);
  /// Pending subqueries that reached an exchange, join, union or aggregate before a scan: they
  /// gate no scan (warned, dropped).
  void DropPendingSubqueries(const std::string& where);
  /// `n`'s first node below the plan wrappers and a BroadcastExchange: how a broadcast build side
  /// and a pruning subquery's build plan are matched.
  static std::string BuildPlanKey(const SqlPlanNode& n);

  ImportContext& ctx_;
  const RecordedSqlExecution& ex_;
  SqlStageIndex index_;
  std::unordered_map<const SqlPlanNode*, int> scan_stage_;
  std::map<int, int> scans_in_stage_;
  std::set<const RecordedJoin*> used_joins_;
  /// The count the execution's configuration-counted exchanges ran at (SessionPartitions).
  std::optional<int> session_partitions_;
  /// The plan is rooted at a CollectLimit: its final stage ran as executeTake's jobs.
  bool collect_limit_ = false;
  std::vector<const SqlPlanNode*> pending_subqueries_;
  /// Each subquery node and the scan id it gates, in plan order.
  std::vector<std::pair<const SqlPlanNode*, std::string>> gated_scans_;
  /// Broadcast joins' build plans (BuildPlanKey) → join id.
  std::map<std::string, std::string> broadcast_builds_;
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SQL_PLAN_IMPORT_H_
