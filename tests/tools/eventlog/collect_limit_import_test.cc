// A SQL plan's CollectLimit root and the rows its child yields, from plan JSON as the log has it
// (corpus/tasks_executors_fail, SQL execution 1: "CollectLimit 21" over a HashAggregate).
#include "tools/eventlog/collect_limit_import.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

json Node(const std::string& name, const std::string& simple, json children = json::array(),
          json metrics = json::array()) {
  return {{"nodeName", name}, {"simpleString", simple}, {"children", children}, {"metrics", metrics}};
}

TEST_CASE("FindCollectLimit: the root CollectLimit and its limit", "[eventlog][import][take]") {
  const json rows_metric =
      json::array({{{"name", "number of output rows"}, {"accumulatorId", 7}, {"metricType", "sum"}}});
  const json agg = Node("HashAggregate", "HashAggregate(keys=[Product#13, Id#16], functions=[])",
                        json::array({Node("LocalTableScan", "LocalTableScan [Product#13]")}), rows_metric);
  const SqlPlanNode plain = ParseSparkPlanInfo(Node("CollectLimit", "CollectLimit 21", json::array({agg})));
  auto cl = FindCollectLimit(plain);
  REQUIRE(cl);
  CHECK(cl->limit == 21);
  CHECK(cl->child->node_name == "HashAggregate");
  CHECK(RowsNode(*cl->child) == cl->child);
  // Under AQE's wrapper.
  const SqlPlanNode adaptive =
      ParseSparkPlanInfo(Node("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true",
                              json::array({Node("CollectLimit", "CollectLimit 100", json::array({agg}))})));
  REQUIRE(FindCollectLimit(adaptive));
  CHECK(FindCollectLimit(adaptive)->limit == 100);
  // An offset (Spark 3.4+: "CollectLimit 21, 5"), another root: not a take.
  CHECK_FALSE(
      FindCollectLimit(ParseSparkPlanInfo(Node("CollectLimit", "CollectLimit 21, 5", json::array({agg})))));
  CHECK_FALSE(FindCollectLimit(ParseSparkPlanInfo(agg)));
}

TEST_CASE("CompleteChildRows: only a total below the limit is every row", "[eventlog][import][take]") {
  // SQL execution 1: 11 output rows over jobs that read all 200 partitions (fewer than 21).
  CHECK(CompleteChildRows(21, 11) == 11);
  CHECK_FALSE(CompleteChildRows(21, 21));  // Spark stopped once it had 21: a floor only
  CHECK_FALSE(CompleteChildRows(21, std::nullopt));
}

}  // namespace
}  // namespace aqesim::eventlog
