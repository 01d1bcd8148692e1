// OptimizeSkewedJoin with the ByteDance LAS shape variants: a join with an aggregate or window
// side (las.skewJoinAggWindowSides), consecutive joins of one stage
// (las.multipleSkewedJoinsInStage), joins under a union (las.skewJoinsUnderUnion). Each shape
// first as Spark leaves it (variant off), then as the variant splits it. Sizes by hand (the
// skew_join_fixture.h setting): four maps x five reducers of 25 B, the hot reducer 2 at 4 x 250 B
// = 1000 B; median 100 B, skew threshold max(300 B, 5 x 100 B) = 500 B, target 100 B, so the hot
// reducer splits into 4 pieces of 250 B and a stage reads 4 + 4 = 8 tasks.
#include "models/aqe/rules/las_skew_join_shapes.h"

#include <catch2/catch.hpp>

#include "models/aqe/rules/optimize_skewed_join.h"
#include "tests/models/aqe/rules/skew_join_fixture.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Find;
using testing::Matrix;
using testing::PlanBuilder;
using testing::SkewConf;
using testing::SpecsOf;
using testing::ToString;
using testing::WithHotReducer;

const Matrix kHot = WithHotReducer({250, 250, 250, 250});
const Matrix kUniform = WithHotReducer({25, 25, 25, 25});
const char* kSplit =
    "[C(0,1,100) C(1,2,100) PR(2,0,1,250) PR(2,1,2,250) PR(2,2,3,250) PR(2,3,4,250) C(3,4,100) C(4,5,100)]";
const char* kReplicated =
    "[C(0,1,100) C(1,2,100) C(2,3,100) C(2,3,100) C(2,3,100) C(2,3,100) C(3,4,100) C(4,5,100)]";
const char* kWhole = "[C(0,1,none) C(1,2,none) C(2,3,none) C(3,4,none) C(4,5,none)]";  // the default read

SqlConf Conf(bool agg_window, bool multiple, bool union_branches) {
  SqlConf c = SkewConf();
  c.variants.las_skew_join_agg_window_sides = agg_window;
  c.variants.las_multiple_skewed_joins_in_stage = multiple;
  c.variants.las_skew_joins_under_union = union_branches;
  return c;
}

std::vector<std::string> Reasons(const RuleOutcome& out, const std::string& target) {
  std::vector<std::string> r;
  for (const NotApplied& n : out.not_applied)
    if (n.target == target) r.push_back(n.reason);
  return r;
}

// join j(l, <op> side(r)): the left side hot, the right an aggregate or window over its shuffle.
std::unique_ptr<ExecNode> AggSideJoin(PlanBuilder& b, PlanOp op, const Matrix& left, const Matrix& right,
                                      JoinType type = JoinType::kInner) {
  return b.SortMergeJoin("j", type, b.Shuffle("l", left), b.Unary(op, "side", b.Shuffle("r", right)));
}

TEST_CASE(
    "las.skewJoinAggWindowSides: Spark leaves a join with an aggregate side whole, the variant splits it",
    "[aqe][skew][variants]") {
  for (PlanOp op : {PlanOp::kAggregate, PlanOp::kWindow}) {
    const std::string name(PlanOpName(op));
    SECTION("off: " + name) {
      PlanBuilder b(Conf(false, false, false));
      auto plan = AggSideJoin(b, op, kHot, kUniform);
      const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
      CHECK_FALSE(out.changed);
      CHECK(out.decisions.empty());
      CHECK(out.not_applied.empty());  // Spark's rule never looks at the join: not a candidate
      CHECK(ToString(SpecsOf(*plan, "l")) == kWhole);
    }
    SECTION("on: " + name) {
      PlanBuilder b(Conf(true, false, false));
      auto plan = AggSideJoin(b, op, kHot, kUniform);
      const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
      CHECK(out.changed);
      CHECK(plan->join->is_skew_join);
      CHECK(ToString(SpecsOf(*plan, "l")) == kSplit);
      CHECK(ToString(SpecsOf(*plan, "r")) == kReplicated);  // the side's reducer 2 read by all 4 pieces
      REQUIRE(out.decisions.size() == 1);
      CHECK(
          out.decisions[0].message ==
          "j: split l 2→4 (r under " + name +
              " side read whole by every piece), 8 tasks (l threshold 500 B, target 100 B) — variant "
              "las.skewJoinAggWindowSides changed this decision (Spark: j is not a candidate (its right side "
              "is " +
              name + " side, not a sort over a shuffle stage))");
      CHECK(out.decisions[0].fields.at("tasks") == 8);
      CHECK(out.decisions[0].fields.at("sparkTasks") == 5);
      CHECK(out.decisions[0].fields.at("replicated") == nlohmann::json::array({"r"}));
    }
  }
}

TEST_CASE("las.skewJoinAggWindowSides: the aggregate side itself is never split", "[aqe][skew][variants]") {
  PlanBuilder b(Conf(true, false, false));
  auto plan = AggSideJoin(b, PlanOp::kAggregate, kUniform, kHot);
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  CHECK_FALSE(plan->join->is_skew_join);
  CHECK(ToString(SpecsOf(*plan, "r")) == kWhole);
  // Spark's own entry for the aggregate's hot input stays.
  CHECK(Reasons(out, "r") == std::vector<std::string>{"notAJoin"});
}

TEST_CASE("las.skewJoinAggWindowSides: an outer join splits only the side Spark would",
          "[aqe][skew][variants]") {
  // Right outer: the left (hot) side is preserved, so it may not be split; nothing is.
  PlanBuilder b(Conf(true, false, false));
  auto plan = AggSideJoin(b, PlanOp::kAggregate, kHot, kUniform, JoinType::kRightOuter);
  CHECK_FALSE(OptimizeSkewedJoin().Apply(b.Context(), plan.get()).changed);
  // Left outer: the left side may be split, the aggregate side is replicated.
  PlanBuilder lb(Conf(true, false, false));
  auto left_outer = AggSideJoin(lb, PlanOp::kAggregate, kHot, kUniform, JoinType::kLeftOuter);
  CHECK(OptimizeSkewedJoin().Apply(lb.Context(), left_outer.get()).changed);
  CHECK(ToString(SpecsOf(*left_outer, "l")) == kSplit);
}

// j2(j1(a, b), c): a key joined to two tables in one stage.
std::unique_ptr<ExecNode> Chain(PlanBuilder& b, const Matrix& a, const Matrix& c,
                                JoinType top = JoinType::kInner) {
  return b.SortMergeJoin("j2", top,
                         b.SortMergeJoin("j1", JoinType::kInner, b.Shuffle("a", a), b.Shuffle("b", kUniform)),
                         b.Shuffle("c", c));
}

TEST_CASE(
    "las.multipleSkewedJoinsInStage: Spark withdraws the bottom join's split, the variant splits the chain",
    "[aqe][skew][variants]") {
  SECTION("off: needsExtraShuffle (j2 needs j1's partitioning)") {
    PlanBuilder b(Conf(false, false, false));
    auto plan = Chain(b, kHot, kUniform);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    CHECK(Reasons(out, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(ToString(SpecsOf(*plan, "a")) == kWhole);
  }
  SECTION("on: a split, b and c read whole by every piece, both joins skew joins") {
    PlanBuilder b(Conf(false, true, false));
    auto plan = Chain(b, kHot, kUniform);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK(out.changed);
    CHECK(out.not_applied.empty());
    CHECK(ToString(SpecsOf(*plan, "a")) == kSplit);
    CHECK(ToString(SpecsOf(*plan, "b")) == kReplicated);
    CHECK(ToString(SpecsOf(*plan, "c")) == kReplicated);
    CHECK(plan->join->is_skew_join);
    CHECK(Find(*plan, "j1").join->is_skew_join);
    REQUIRE(out.decisions.size() == 1);
    CHECK(out.decisions[0].message ==
          "j2: split a 2→4 across joins j1, j2 (b, c read whole by every piece), 8 tasks (a threshold 500 B, "
          "target 100 B) — variant las.multipleSkewedJoinsInStage changed this decision (Spark: j2 is not a "
          "candidate (its left side is join j1, not a sort over a shuffle stage); splitting j1 alone would "
          "need "
          "an extra shuffle, so no join is split)");
    // Re-deciding the same split at the next re-optimization changes nothing.
    const RuleOutcome again = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK_FALSE(again.changed);
    CHECK(again.decisions.empty());
    CHECK(ToString(SpecsOf(*plan, "c")) == kReplicated);
  }
  SECTION("on: the last table skewed, which Spark never looks at") {
    PlanBuilder b(Conf(false, true, false));
    auto plan = Chain(b, kUniform, kHot);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK(ToString(SpecsOf(*plan, "c")) == kSplit);
    CHECK(ToString(SpecsOf(*plan, "a")) == kReplicated);
    REQUIRE(out.decisions.size() == 1);
    CHECK(out.decisions[0].fields.at("splits") ==
          nlohmann::json::array({{{"exchange", "c"}, {"reducer", 2}, {"pieces", 4}}}));
  }
  SECTION("on: a left outer top join does not split its right table") {
    PlanBuilder b(Conf(false, true, false));
    auto plan = Chain(b, kUniform, kHot, JoinType::kLeftOuter);
    CHECK_FALSE(OptimizeSkewedJoin().Apply(b.Context(), plan.get()).changed);
    CHECK(ToString(SpecsOf(*plan, "c")) == kWhole);
  }
}

// u(agg(j1(l1, r1)), j2(l2, r2)): j1's split would need a shuffle for the aggregate above it.
std::unique_ptr<ExecNode> UnionOfJoins(PlanBuilder& b) {
  std::vector<std::unique_ptr<ExecNode>> children;
  children.push_back(
      b.Unary(PlanOp::kAggregate, "agg",
              b.SortMergeJoin("j1", JoinType::kInner, b.Shuffle("l1", kHot), b.Shuffle("r1", kUniform))));
  children.push_back(
      b.SortMergeJoin("j2", JoinType::kInner, b.Shuffle("l2", kHot), b.Shuffle("r2", kUniform)));
  return b.Union("u", std::move(children));
}

TEST_CASE("las.skewJoinsUnderUnion: one branch needing a shuffle no longer stops the other's split",
          "[aqe][skew][variants]") {
  SECTION("off: all or nothing over the plan") {
    PlanBuilder b(Conf(false, false, false));
    auto plan = UnionOfJoins(b);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    CHECK(Reasons(out, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(Reasons(out, "j2") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(ToString(SpecsOf(*plan, "l2")) == kWhole);
  }
  SECTION("on: j2 keeps its split, j1 is withdrawn") {
    PlanBuilder b(Conf(false, false, true));
    auto plan = UnionOfJoins(b);
    const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
    CHECK(out.changed);
    CHECK(Reasons(out, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(Reasons(out, "j2").empty());
    CHECK(ToString(SpecsOf(*plan, "l1")) == kWhole);
    CHECK(ToString(SpecsOf(*plan, "l2")) == kSplit);
    CHECK(ToString(SpecsOf(*plan, "r2")) == kReplicated);
    REQUIRE(out.decisions.size() == 2);
    CHECK(out.decisions[0].message ==
          "not applied to 1 of 2 joins: splitting j1 would need an extra shuffle; the other union branches "
          "keep "
          "theirs (j2) — variant las.skewJoinsUnderUnion changed this decision (Spark: no join split)");
    CHECK(out.decisions[0].fields.at("variants") == nlohmann::json::array({"las.skewJoinsUnderUnion"}));
    CHECK(out.decisions[1].fields.at("join") == "j2");
  }
}

}  // namespace
}  // namespace aqesim
