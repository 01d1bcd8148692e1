// JoinSelection (runtime) on small plans: a sort-merge join whose finished side fits the
// adaptive broadcast threshold becomes a broadcast hash join; shuffled hash join on hints;
// Spark's BHJ-01 and DJS-SHJ-400 vectors through the rule.
#include "models/aqe/rules/join_selection.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;

/// Sides of `left_bytes` and `right_bytes` (their runtime data sizes), 4 reducers each.
std::unique_ptr<ExecNode> Join(PlanBuilder& b, int64_t left_bytes, int64_t right_bytes) {
  return b.SortMergeJoin(
      "j", JoinType::kInner,
      b.Shuffle("l", Matrix{{1, 1, 1, 1}}, ShuffleOrigin::kEnsureRequirements, left_bytes),
      b.Shuffle("r", Matrix{{1, 1, 1, 1}}, ShuffleOrigin::kEnsureRequirements, right_bytes));
}

/// No static broadcast; the adaptive threshold `threshold`.
SqlConf RuntimeThreshold(std::optional<int64_t> threshold) {
  SqlConf c;
  c.auto_broadcast_join_threshold_bytes = -1;
  c.adaptive_auto_broadcast_join_threshold_bytes = threshold;
  return c;
}

TEST_CASE("JoinSelection: fires, broadcasting the smaller finished side", "[aqe][joinselection]") {
  PlanBuilder b(RuntimeThreshold(1000));
  auto plan = Join(b, 1600, 160);
  const RuleOutcome out = JoinSelection().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  CHECK(plan->join->strategy == JoinStrategy::kBroadcastHash);
  CHECK(plan->join->build_side == BuildSide::kRight);
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].message ==
        "j: SortMergeJoin → BroadcastHashJoin BuildRight (runtime size 160 B <= adaptive broadcast threshold "
        "1000 B)");
}

TEST_CASE("JoinSelection: a side one byte above the threshold is not broadcast", "[aqe][joinselection]") {
  PlanBuilder at(RuntimeThreshold(160)), above(RuntimeThreshold(159));
  auto fits = Join(at, 1600, 160);
  auto too_big = Join(above, 1600, 160);
  CHECK(JoinSelection().Apply(at.Context(), fits.get()).changed);
  CHECK_FALSE(JoinSelection().Apply(above.Context(), too_big.get()).changed);
  CHECK(too_big->join->strategy == JoinStrategy::kSortMerge);
}

TEST_CASE("JoinSelection: a MERGE hint keeps the sort-merge join, excludedRules do not reach it",
          "[aqe][joinselection]") {
  SECTION("user hint MERGE") {
    PlanBuilder b(RuntimeThreshold(1000));
    auto plan = Join(b, 1600, 160);
    PlanBuilder::SourceOf(*plan).left_hint = JoinHint::kMerge;
    CHECK_FALSE(JoinSelection().Apply(b.Context(), plan.get()).changed);
    CHECK(plan->join->strategy == JoinStrategy::kSortMerge);
  }
  SECTION("spark.sql.adaptive.optimizer.excludedRules lists only the adaptive optimizer's logical rules") {
    SqlConf conf = RuntimeThreshold(1000);
    conf.optimizer_excluded_rules = {"JoinSelection"};
    PlanBuilder b(conf);
    auto plan = Join(b, 1600, 160);
    const AqeOptimizer::Reoptimized re = AqeOptimizer().ReOptimize(b.Context(), *plan);
    REQUIRE(re.plan != nullptr);
    CHECK(re.plan->join->strategy == JoinStrategy::kBroadcastHash);
  }
}

TEST_CASE("JoinSelection: deterministic", "[aqe][joinselection]") {
  auto run = [] {
    PlanBuilder b(RuntimeThreshold(1000));
    auto plan = Join(b, 500, 500);  // a tie: the right side builds
    return testing::DecisionTexts(JoinSelection().Apply(b.Context(), plan.get()).decisions);
  };
  const auto first = run();
  CHECK(first == run());
  REQUIRE(first.size() == 1);
  CHECK(first[0].find("BuildRight") != std::string::npos);
}

TEST_CASE("JoinSelection: Spark's vectors BHJ-01 and DJS-SHJ-400", "[aqe][joinselection]") {
  SECTION("BHJ-01: the adaptive threshold (unset, -1, 160) over runtime sizes 1600 B and 160 B") {
    const auto& v = testing::Vector("BHJ-01");
    const std::vector<std::pair<std::string, std::optional<int64_t>>> settings = {
        {"unset", std::nullopt}, {"-1", -1}, {"160", 160}};
    for (const auto& [name, threshold] : settings) {
      INFO(name);
      PlanBuilder b(RuntimeThreshold(threshold));
      auto plan = Join(b, v.at("input").at("t1RuntimeBytes").get<int64_t>(),
                       v.at("input").at("t2RuntimeBytes").get<int64_t>());
      JoinSelection().Apply(b.Context(), plan.get());
      CHECK(JoinStrategyName(plan->join->strategy) == v.at("expected").at(name).get<std::string>());
    }
  }
  SECTION("DJS-SHJ-400: PREFER_SHUFFLE_HASH on the right side gives ShuffledHashJoin BuildRight") {
    const auto& in = testing::Vector("DJS-SHJ-400").at("input");
    SqlConf conf = RuntimeThreshold(std::nullopt);
    conf.advisory_partition_size_bytes = 100;
    conf.max_shuffled_hash_join_local_map_threshold_bytes =
        in.at("spark.sql.adaptive.maxShuffledHashJoinLocalMapThreshold").get<int64_t>();
    PlanBuilder b(conf);
    auto plan =
        b.SortMergeJoin("j", JoinType::kInner,
                        b.Shuffle("l", Matrix{in.at("leftPartitionSizes").get<std::vector<int64_t>>()}),
                        b.Shuffle("r", Matrix{in.at("rightPartitionSizes").get<std::vector<int64_t>>()}));
    const AqeOptimizer::Reoptimized re = AqeOptimizer().ReOptimize(b.Context(), *plan);
    REQUIRE(re.plan != nullptr);
    CHECK(re.plan->join->strategy == JoinStrategy::kShuffledHash);
    CHECK(re.plan->join->build_side == BuildSide::kRight);
  }
}

}  // namespace
}  // namespace aqesim
