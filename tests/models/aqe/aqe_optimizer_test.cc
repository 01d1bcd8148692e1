// The ordered pipeline: exclusion of adaptive-optimizer rules, the cost gate's cost.
#include "models/aqe/aqe_optimizer.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("AqeOptimizer: excludedRules accepts Spark's optimizer rules and explains the rest", "[aqe]") {
  SqlConf conf;
  conf.optimizer_excluded_rules = {"org.apache.spark.sql.execution.adaptive.DynamicJoinSelection",
                                   "AQEPropagateEmptyRelation", "CoalesceShufflePartitions",
                                   "DynamicJoinSelectoin"};
  const std::vector<std::string> w = CheckExcludedRules(conf);
  REQUIRE(w.size() == 2);
  CHECK(w[0] ==
        "spark.sql.adaptive.optimizer.excludedRules: CoalesceShufflePartitions is not an adaptive optimizer "
        "rule "
        "and is not excluded; set spark.sql.adaptive.coalescePartitions.enabled=false to disable it");
  CHECK(w[1] ==
        "spark.sql.adaptive.optimizer.excludedRules: unknown rule DynamicJoinSelectoin; did you mean "
        "\"DynamicJoinSelection\"?");
}

TEST_CASE("AqeOptimizer: plan cost counts shuffles not yet staged and skew joins", "[aqe]") {
  ExecNode root;
  root.op = PlanOp::kJoin;
  root.join = std::make_unique<JoinState>();
  root.join->is_skew_join = true;
  for (int i = 0; i < 2; ++i) {
    auto ex = std::make_unique<ExecNode>();
    ex->op = PlanOp::kExchange;
    ex->shuffle = std::make_unique<ShuffleState>();
    ex->parent = &root;
    root.children.push_back(std::move(ex));
  }
  PlanCost c = EvaluatePlanCost(root);
  CHECK(c.shuffles == 2);
  CHECK(c.skew_joins == 1);
}

}  // namespace
}  // namespace aqesim
