// A SQL plan rooted at CollectLimit (collect / show() / take(); sql/core/.../execution/limit.scala):
// Spark ran SparkPlan.executeTake's jobs over its child's final stage, one job per try
// (1, 4, 20, ... partitions), each a result stage of its own. The importer writes the plan as
// `{"op": "collectLimit", "limit": N, "rows": R, "child": ...}` (README "Scenario format").
#ifndef AQESIM_TOOLS_EVENTLOG_COLLECT_LIMIT_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_COLLECT_LIMIT_IMPORT_H_

#include <cstdint>
#include <optional>

#include "tools/eventlog/sql_plan_info.h"

namespace aqesim::eventlog {

struct RecordedCollectLimit {
  const SqlPlanNode* node = nullptr;   // the CollectLimit
  const SqlPlanNode* child = nullptr;  // what it collects from
  int64_t limit = 0;
};

/// The CollectLimit at the root of `root` (under an AdaptiveSparkPlan / ResultQueryStage
/// wrapper), with its limit parsed from "CollectLimit 21"; nullopt when the root is something
/// else (or "CollectLimit" with an offset or an unreadable limit).
std::optional<RecordedCollectLimit> FindCollectLimit(const SqlPlanNode& root);

/// The rows the child yielded (`recorded_rows`: its RowsNode's "number of output rows" over the
/// take jobs) when they are all it has: returned when below the limit (executeTake then read every partition,
/// so the total is complete), else nullopt (Spark stopped once it had `limit`: the total is a floor only).
std::optional<int64_t> CompleteChildRows(int64_t limit, std::optional<int64_t> recorded_rows);

/// The first node from `n` down single-child nodes that has a "number of output rows" metric.
const SqlPlanNode* RowsNode(const SqlPlanNode& n);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_COLLECT_LIMIT_IMPORT_H_
