// DynamicJoinSelection on small plans: runtime join hints from a finished side's partition
// sizes (NO_BROADCAST_HASH for mostly empty sides, PREFER_SHUFFLE_HASH when every partition fits
// maxShuffledHashJoinLocalMapThreshold); Spark's DJS vectors through the rule.
#include "models/aqe/rules/dynamic_join_selection.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;

std::unique_ptr<ExecNode> Join(PlanBuilder& b, const std::vector<int64_t>& left,
                               const std::vector<int64_t>& right) {
  return b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", Matrix{left}), b.Shuffle("r", Matrix{right}));
}

/// nonEmptyPartitionRatioForBroadcastJoin `ratio`; no broadcast by size.
SqlConf EmptyRatioConf(double ratio) {
  SqlConf c;
  c.non_empty_partition_ratio_for_broadcast_join = ratio;
  c.auto_broadcast_join_threshold_bytes = -1;
  return c;
}

const std::vector<int64_t> kFull = {100, 100, 100, 100, 100};

TEST_CASE("DynamicJoinSelection: fires, NO_BROADCAST_HASH on a mostly empty side", "[aqe][djs]") {
  PlanBuilder b(EmptyRatioConf(0.5));
  auto plan = Join(b, {0, 0, 0, 72, 0}, kFull);
  const RuleOutcome out = DynamicJoinSelection().Apply(b.Context(), plan.get());
  CHECK(plan->join->left_runtime_hint == RuntimeHint::kNoBroadcastHash);
  CHECK(plan->join->right_runtime_hint == RuntimeHint::kNone);
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].message ==
        "j: NO_BROADCAST_HASH on the left side (l): most partitions of this side are empty");
  CHECK_FALSE(out.changed);  // hints only: the plan changes when JoinSelection acts on them
}

TEST_CASE("DynamicJoinSelection: a side exactly at the non-empty ratio keeps no hint", "[aqe][djs]") {
  SECTION("2 of 5 non-empty = 0.4, ratio 0.4: not below") {
    PlanBuilder b(EmptyRatioConf(0.4));
    auto plan = Join(b, {0, 0, 0, 72, 72}, kFull);
    CHECK(DynamicJoinSelection().Apply(b.Context(), plan.get()).decisions.empty());
    CHECK(plan->join->left_runtime_hint == RuntimeHint::kNone);
  }
  SECTION("ratio 0.41: hinted") {
    PlanBuilder b(EmptyRatioConf(0.41));
    auto plan = Join(b, {0, 0, 0, 72, 72}, kFull);
    DynamicJoinSelection().Apply(b.Context(), plan.get());
    CHECK(plan->join->left_runtime_hint == RuntimeHint::kNoBroadcastHash);
  }
  SECTION("PREFER_SHUFFLE_HASH: every partition at most the local map threshold, not one byte more") {
    SqlConf conf = EmptyRatioConf(0.2);
    conf.advisory_partition_size_bytes = 100;
    conf.max_shuffled_hash_join_local_map_threshold_bytes = 400;
    PlanBuilder at(conf), above(conf);
    auto fits = Join(at, {926, 729, 731}, {400, 120, 0});
    auto too_big = Join(above, {926, 729, 731}, {401, 120, 0});
    DynamicJoinSelection().Apply(at.Context(), fits.get());
    DynamicJoinSelection().Apply(above.Context(), too_big.get());
    CHECK(fits->join->right_runtime_hint == RuntimeHint::kPreferShuffleHash);
    CHECK(too_big->join->right_runtime_hint == RuntimeHint::kNone);
  }
}

TEST_CASE("DynamicJoinSelection: skipped when listed in spark.sql.adaptive.optimizer.excludedRules",
          "[aqe][djs]") {
  for (const bool excluded : {false, true}) {
    SqlConf conf = EmptyRatioConf(0.5);
    if (excluded)
      conf.optimizer_excluded_rules = {"org.apache.spark.sql.execution.adaptive.DynamicJoinSelection"};
    PlanBuilder b(conf);
    auto plan = Join(b, {0, 0, 0, 72, 0}, kFull);
    int hints = 0;
    for (const Decision& d : AqeOptimizer().ReOptimize(b.Context(), *plan).decisions)
      hints += d.rule == "DynamicJoinSelection";
    CHECK(hints == (excluded ? 0 : 1));
  }
}

TEST_CASE("DynamicJoinSelection: deterministic, and a hint decided before is not reported again",
          "[aqe][djs]") {
  PlanBuilder b(EmptyRatioConf(0.5));
  auto plan = Join(b, {0, 0, 0, 72, 0}, kFull);
  PlanBuilder b2(EmptyRatioConf(0.5));
  auto plan2 = Join(b2, {0, 0, 0, 72, 0}, kFull);
  const RuleOutcome first = DynamicJoinSelection().Apply(b.Context(), plan.get());
  CHECK(testing::DecisionTexts(first.decisions) ==
        testing::DecisionTexts(DynamicJoinSelection().Apply(b2.Context(), plan2.get()).decisions));
  CHECK(DynamicJoinSelection().Apply(b.Context(), plan.get()).decisions.empty());
  CHECK(plan->join->left_runtime_hint == RuntimeHint::kNoBroadcastHash);
}

TEST_CASE("DynamicJoinSelection: Spark's vectors DJS-SHJ-400 and DJS-EMPTY-01", "[aqe][djs]") {
  SECTION("DJS-SHJ-400: advisory 100 hints the right side, 100000 nothing") {
    const auto& in = testing::Vector("DJS-SHJ-400").at("input");
    for (const int64_t advisory :
         in.at("spark.sql.adaptive.advisoryPartitionSizeInBytes").get<std::vector<int64_t>>()) {
      INFO(advisory);
      SqlConf conf = EmptyRatioConf(0.2);
      conf.advisory_partition_size_bytes = advisory;
      conf.max_shuffled_hash_join_local_map_threshold_bytes =
          in.at("spark.sql.adaptive.maxShuffledHashJoinLocalMapThreshold").get<int64_t>();
      PlanBuilder b(conf);
      auto plan = Join(b, in.at("leftPartitionSizes").get<std::vector<int64_t>>(),
                       in.at("rightPartitionSizes").get<std::vector<int64_t>>());
      DynamicJoinSelection().Apply(b.Context(), plan.get());
      CHECK(plan->join->left_runtime_hint == RuntimeHint::kNone);
      CHECK(plan->join->right_runtime_hint ==
            (advisory == 100 ? RuntimeHint::kPreferShuffleHash : RuntimeHint::kNone));
    }
  }
  SECTION("DJS-EMPTY-01: the illustrative sizes give the left side NO_BROADCAST_HASH") {
    const auto& v = testing::Vector("DJS-EMPTY-01");
    PlanBuilder b(EmptyRatioConf(
        v.at("input").at("spark.sql.adaptive.nonEmptyPartitionRatioForBroadcastJoin").get<double>()));
    auto plan = Join(b, v.at("input").at("illustrativeLeftPartitionSizes").get<std::vector<int64_t>>(),
                     v.at("input").at("illustrativeRightPartitionSizes").get<std::vector<int64_t>>());
    DynamicJoinSelection().Apply(b.Context(), plan.get());
    CHECK(RuntimeHintName(plan->join->left_runtime_hint) ==
          v.at("expected").at("illustrativeHints").at("left").get<std::string>());
    CHECK(plan->join->right_runtime_hint == RuntimeHint::kNone);
  }
}

}  // namespace
}  // namespace aqesim
