// OptimizeSkewedJoin on small plans: a sort-merge join of two finished shuffles, split where a
// partition is above max(median x skewedPartitionFactor, skewedPartitionThresholdInBytes);
// Spark's OptimizeSkewedJoin vectors (SKEWJOIN-D3..D5) through the rule.
#include "models/aqe/rules/optimize_skewed_join.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "tests/models/aqe/rules/skew_join_fixture.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;
using testing::SkewConf;
using testing::SpecsOf;
using testing::ToString;
using testing::WithHotReducer;

std::unique_ptr<ExecNode> Join(PlanBuilder& b, JoinType type, const Matrix& left, const Matrix& right) {
  return b.SortMergeJoin("j", type, b.Shuffle("l", left), b.Shuffle("r", right));
}

const Matrix kUniform = WithHotReducer({25, 25, 25, 25});

TEST_CASE("OptimizeSkewedJoin: fires, splitting the skewed partition by map ranges", "[aqe][skew]") {
  PlanBuilder b(SkewConf());
  auto plan = Join(b, JoinType::kInner, WithHotReducer({250, 250, 250, 250}), kUniform);
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  CHECK(plan->join->is_skew_join);
  // median 100 B x 5 = 500 B < 1000 B: reducer 2 of the left side in 4 pieces of 250 B, each
  // joined with all of the right side's reducer 2.
  CHECK(ToString(SpecsOf(*plan, "l")) ==
        "[C(0,1,100) C(1,2,100) PR(2,0,1,250) PR(2,1,2,250) PR(2,2,3,250) PR(2,3,4,250) C(3,4,100) "
        "C(4,5,100)]");
  CHECK(ToString(SpecsOf(*plan, "r")) ==
        "[C(0,1,100) C(1,2,100) C(2,3,100) C(2,3,100) C(2,3,100) C(2,3,100) C(3,4,100) C(4,5,100)]");
  REQUIRE(out.decisions.size() == 1);
  CHECK(
      out.decisions[0].message ==
      "j: split 1 left / 0 right skewed partitions (left 2→4), 8 tasks (left threshold 500 B, target 100 B; "
      "right threshold 500 B, target 100 B)");
}

TEST_CASE("OptimizeSkewedJoin: a partition exactly at the skew threshold is not split", "[aqe][skew]") {
  SECTION("500 B = median 100 B x 5: not skewed") {
    PlanBuilder b(SkewConf());
    auto plan = Join(b, JoinType::kInner, WithHotReducer({125, 125, 125, 125}), kUniform);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    CHECK(out.decisions.empty());
    CHECK_FALSE(plan->join->is_skew_join);
  }
  SECTION("501 B: split") {
    PlanBuilder b(SkewConf());
    auto plan = Join(b, JoinType::kInner, WithHotReducer({126, 125, 125, 125}), kUniform);
    CHECK(OptimizeSkewedJoin().Apply(b.Context(), plan.get()).changed);
    CHECK(plan->join->is_skew_join);
  }
}

TEST_CASE("OptimizeSkewedJoin: skipped when skewJoin.enabled=false", "[aqe][skew]") {
  SqlConf conf = SkewConf();
  conf.skew_join_enabled = false;
  PlanBuilder b(conf);
  auto plan = Join(b, JoinType::kInner, WithHotReducer({250, 250, 250, 250}), kUniform);
  CHECK_FALSE(OptimizeSkewedJoin().Enabled(conf));
  const AqeOptimizer::Reoptimized re = AqeOptimizer().ReOptimize(b.Context(), *plan);
  CHECK(re.plan == nullptr);  // nothing changed: the old plan stays
  for (const Decision& d : re.decisions) CHECK(d.rule != "OptimizeSkewedJoin");
}

TEST_CASE("OptimizeSkewedJoin: an extra shuffle it would need stops every split (SKEWJOIN-05)",
          "[aqe][skew]") {
  // An aggregate above the join in the same stage needs its hash partitioning.
  PlanBuilder b(SkewConf());
  auto plan = b.Unary(PlanOp::kAggregate, "agg",
                      Join(b, JoinType::kInner, WithHotReducer({250, 250, 250, 250}), kUniform));
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].fields.at("applied") == false);
  CHECK(out.decisions[0].fields.at("needsExtraShuffle") == "j");
  CHECK_FALSE(testing::Find(*plan, "l").shuffle->read_specs.has_value());
}

TEST_CASE("OptimizeSkewedJoin: deterministic", "[aqe][skew]") {
  auto run = [] {
    PlanBuilder b(SkewConf());
    auto plan =
        Join(b, JoinType::kInner, WithHotReducer({250, 250, 250, 250}), WithHotReducer({300, 300, 0, 0}));
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    return testing::DecisionTexts(out.decisions).front() + ToString(SpecsOf(*plan, "l")) +
           ToString(SpecsOf(*plan, "r"));
  };
  CHECK(run() == run());
}

TEST_CASE("OptimizeSkewedJoin: Spark's vectors SKEWJOIN-D3, D4, D5 through the rule", "[aqe][skew]") {
  for (const char* id : {"SKEWJOIN-D3", "SKEWJOIN-D4", "SKEWJOIN-D5"}) {
    INFO(id);
    const auto& v = testing::Vector(id);
    const auto& in = v.at("input");
    SqlConf conf = SkewConf();
    conf.advisory_partition_size_bytes = in.at("advisoryPartitionSizeInBytes");
    conf.skewed_partition_factor = in.at("skewedPartitionFactor");
    conf.skewed_partition_threshold_bytes = in.at("skewedPartitionThresholdInBytes");
    PlanBuilder b(conf);
    auto plan = Join(b, *ParseJoinType(in.at("joinType").get<std::string>()),
                     in.at("leftMapSizes[map][reducer]").get<Matrix>(),
                     in.at("rightMapSizes[map][reducer]").get<Matrix>());
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    const auto& expected = v.at("expected");
    if (expected.contains("result") && expected.at("result").is_null()) {
      CHECK_FALSE(out.changed);  // FULL OUTER, or a skew no map split can divide
      CHECK_FALSE(plan->join->is_skew_join);
      continue;
    }
    REQUIRE(out.changed);
    CHECK(ToString(SpecsOf(*plan, "l")) == ToString(testing::SpecsFromJson(expected.at("leftSpecs"))));
    CHECK(ToString(SpecsOf(*plan, "r")) == ToString(testing::SpecsFromJson(expected.at("rightSpecs"))));
    const auto& meta = expected.at("meta");
    CHECK(out.decisions[0].fields.at("numSkewedLeft") == meta.at("numSkewedLeft"));
    CHECK(out.decisions[0].fields.at("numSkewedRight") == meta.at("numSkewedRight"));
    CHECK(out.decisions[0].fields.at("leftSkewThresholdBytes") == meta.at("leftSkewThreshold"));
    CHECK(out.decisions[0].fields.at("leftTargetSizeBytes") == meta.at("leftTargetSize"));
  }
}

}  // namespace
}  // namespace aqesim
