// OptimizeSkewInRebalancePartitions on small plans: a REBALANCE read whose partitions above the
// advisory size are split by map ranges; Spark's REBAL vectors through the rule.
#include "models/aqe/rules/optimize_skew_in_rebalance_partitions.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;
using testing::SpecsOf;
using testing::ToString;

/// advisory 100 B.
SqlConf RebalanceConf() {
  SqlConf c;
  c.advisory_partition_size_bytes = 100;
  return c;
}

/// A REBALANCE(col) read of 4 maps x 3 reducers: reducer 1's maps write `hot`, the others 10 B.
std::unique_ptr<ExecNode> Rebalance(PlanBuilder& b, const std::vector<int64_t>& hot) {
  Matrix m;
  for (int64_t h : hot) m.push_back({10, h, 10});
  return b.Shuffle("rb", m, ShuffleOrigin::kRebalancePartitionsByCol);
}

TEST_CASE("OptimizeSkewInRebalancePartitions: fires, splitting a partition above the advisory size",
          "[aqe][rebalance]") {
  PlanBuilder b(RebalanceConf());
  auto plan = Rebalance(b, {60, 60, 60, 60});
  const RuleOutcome out = OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  // 240 B > 100 B: maps [0, 1) [1, 2)... packed to the advisory size: 60 + 60 > 100.
  CHECK(ToString(SpecsOf(*plan, "rb")) ==
        "[C(0,1,40) PR(1,0,1,60) PR(1,1,2,60) PR(1,2,3,60) PR(1,3,4,60) C(2,3,40)]");
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].message == "rb: 1 partition above 100 B split, 3 → 6 partitions");
}

TEST_CASE("OptimizeSkewInRebalancePartitions: a partition of exactly the advisory size is not split",
          "[aqe][rebalance]") {
  SECTION("100 B: not above the advisory size") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {25, 25, 25, 25});
    CHECK_FALSE(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).changed);
    CHECK_FALSE(testing::Find(*plan, "rb").shuffle->read_specs.has_value());
  }
  SECTION("119 B in two maps: the two pieces merge back (together below 1.2 x the advisory size)") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {60, 59});
    CHECK_FALSE(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).changed);
  }
  SECTION("120 B in two maps: split in two") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {60, 60});
    CHECK(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).changed);
    CHECK(ToString(SpecsOf(*plan, "rb")) == "[C(0,1,20) PR(1,0,1,60) PR(1,1,2,60) C(2,3,20)]");
  }
  SECTION("an ENSURE_REQUIREMENTS shuffle is never split by this rule") {
    PlanBuilder b(RebalanceConf());
    auto plan = b.Shuffle("e", Matrix{{10, 60, 10}, {10, 60, 10}, {10, 60, 10}, {10, 60, 10}});
    CHECK_FALSE(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).changed);
  }
}

TEST_CASE("OptimizeSkewInRebalancePartitions: skipped when optimizeSkewsInRebalancePartitions.enabled=false",
          "[aqe][rebalance]") {
  SqlConf conf = RebalanceConf();
  conf.optimize_skews_in_rebalance_partitions_enabled = false;
  conf.coalesce_partitions_enabled = false;
  conf.local_shuffle_reader_enabled = false;
  PlanBuilder b(conf);
  auto plan = Rebalance(b, {60, 60, 60, 60});
  CHECK_FALSE(OptimizeSkewInRebalancePartitions().Enabled(conf));
  CHECK(AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get()).empty());
  CHECK_FALSE(testing::Find(*plan, "rb").shuffle->read_specs.has_value());
}

TEST_CASE("OptimizeSkewInRebalancePartitions why not: each early-out, word for word",
          "[aqe][rebalance][whynot]") {
  SECTION("no partition above the advisory size") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {25, 25, 25, 25});  // reducer 1: exactly 100 B
    const RuleOutcome out = OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get());
    REQUIRE(out.not_applied.size() == 1);
    const NotApplied& n = out.not_applied[0];
    CHECK(n.rule == "OptimizeSkewInRebalancePartitions");
    CHECK(n.target == "rb");
    CHECK(n.reason == "belowAdvisorySize");
    CHECK(n.message == "rb: no partition above the advisory size: the largest, 1, is 100 B <= 100 B");
  }
  SECTION("above the advisory size, but one map wrote it") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {500});  // one map: one range
    const RuleOutcome out = OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    REQUIRE(out.not_applied.size() == 1);
    CHECK(out.not_applied[0].reason == "singleMapPartition");
    CHECK(
        out.not_applied[0].message ==
        "rb: partition 1 (500 B) is above the advisory size 100 B but its map outputs do not split into more "
        "than one range (1 map task)");
  }
  SECTION("optimizeSkewsInRebalancePartitions.enabled=false says what it would have split") {
    SqlConf conf = RebalanceConf();
    conf.optimize_skews_in_rebalance_partitions_enabled = false;
    conf.coalesce_partitions_enabled = false;
    conf.local_shuffle_reader_enabled = false;
    PlanBuilder b(conf);
    auto plan = Rebalance(b, {60, 60, 60, 60});
    std::vector<NotApplied> all, not_applied;
    CHECK(AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get(), &all).empty());
    for (const NotApplied& n : all)
      if (n.rule == "OptimizeSkewInRebalancePartitions") not_applied.push_back(n);
    REQUIRE(not_applied.size() == 1);
    CHECK(not_applied[0].reason == "rebalanceSkewDisabled");
    CHECK(not_applied[0].target == "rb");
    CHECK(not_applied[0].message ==
          "rb: spark.sql.adaptive.optimizeSkewsInRebalancePartitions.enabled=false: would split 1 partition "
          "above the advisory size, 3 → 6 partitions");
    CHECK_FALSE(testing::Find(*plan, "rb").shuffle->read_specs.has_value());  // the plan is left as it was
  }
  SECTION("a split read leaves no entry") {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {60, 60, 60, 60});
    CHECK(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).not_applied.empty());
  }
}

TEST_CASE("OptimizeSkewInRebalancePartitions: deterministic", "[aqe][rebalance]") {
  auto run = [] {
    PlanBuilder b(RebalanceConf());
    auto plan = Rebalance(b, {60, 7, 93, 60});
    const RuleOutcome out = OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get());
    return testing::DecisionTexts(out.decisions).front() + ToString(SpecsOf(*plan, "rb"));
  };
  CHECK(run() == run());
}

TEST_CASE("OptimizeSkewInRebalancePartitions: Spark's vectors REBAL-03 and REBAL-04", "[aqe][rebalance]") {
  SECTION("REBAL-04: rebalancePartitionsSmallPartitionFactor merges a small tail back") {
    const auto& v = testing::Vector("REBAL-04");
    const auto& in = v.at("input");
    Matrix m;
    for (int64_t s : in.at("mapBlockSizesOfReducer0").get<std::vector<int64_t>>()) m.push_back({s});
    for (const char* factor : {"0.5", "0.2"}) {
      INFO(factor);
      SqlConf conf;
      conf.advisory_partition_size_bytes = in.at("advisory");
      conf.rebalance_partitions_small_partition_factor = std::stod(factor);
      PlanBuilder b(conf);
      auto plan = b.Shuffle("rb", m, ShuffleOrigin::kRebalancePartitionsByNone);
      const RuleOutcome out = OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get());
      const auto& expected = v.at("expected").at(factor);
      CHECK(out.changed == expected.at("aqeShuffleReadExists").get<bool>());
      if (expected.contains("specs"))
        CHECK(ToString(SpecsOf(*plan, "rb")) == ToString(testing::SpecsFromJson(expected.at("specs"))));
    }
  }
  SECTION("REBAL-03: nothing above a large advisory size, nothing split") {
    const auto& in = testing::Vector("REBAL-03").at("input");
    SqlConf conf;
    conf.advisory_partition_size_bytes = in.at("advisory");
    PlanBuilder b(conf);
    auto plan = b.Shuffle("rb", Matrix{in.at("partitionSizes").get<std::vector<int64_t>>()},
                          ShuffleOrigin::kRebalancePartitionsByCol);
    CHECK_FALSE(OptimizeSkewInRebalancePartitions().Apply(b.Context(), plan.get()).changed);
  }
}

}  // namespace
}  // namespace aqesim
