// OptimizeSkewedJoin with the LAS variants (las_skew_join_view.h): the left side's skew hidden by
// HighlyCompressedMapStatus, detected on exact totals, split by averages or by the exact total;
// explain names the variant that changed the decision.
#include "models/aqe/rules/las_skew_join_view.h"

#include <catch2/catch.hpp>

#include "models/aqe/rules/optimize_skewed_join.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Find;
using testing::Matrix;
using testing::PlanBuilder;
using testing::SpecsOf;
using testing::ToString;

SqlConf VariantConf(bool exact_totals, bool split_by_totals) {
  SqlConf c;
  c.advisory_partition_size_bytes = 50;
  c.skewed_partition_factor = 5.0;
  c.skewed_partition_threshold_bytes = 300;
  c.auto_broadcast_join_threshold_bytes = -1;
  c.min_num_partitions_to_highly_compress = 2;
  c.accurate_block_threshold_bytes = 1000;
  c.variants.las_exact_reducer_totals = exact_totals;
  c.variants.las_split_by_exact_totals = split_by_totals;
  return c;
}

// Left: 4 maps, reducer 2 gets 250 B from each, the others 25 B. As HCMS (5 reducers > 2) every
// block is the map's average (250 + 4 x 25) / 5 = 70 B, so every reducer reads as 280 B.
std::unique_ptr<ExecNode> HiddenSkewJoin(PlanBuilder& b) {
  Matrix left, right;
  for (int m = 0; m < 4; ++m) {
    left.push_back({25, 25, 250, 25, 25});
    right.push_back({25, 25, 25, 25, 25});
  }
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", left), b.Shuffle("r", right));
  MapStatusConfig hcms;
  hcms.min_num_partitions_to_highly_compress = 2;
  hcms.accurate_block_threshold_bytes = 1000;
  ShuffleData& d = *Find(*plan, "l").shuffle->data;
  d.reported =
      std::make_unique<ReportedShuffleSizes>(ReportShuffleSizes(d.actual, hcms, MapStatusMode::kSpark));
  d.exact_totals = AccumulateExactReducerTotals(d.actual, 1.0);
  return plan;
}

TEST_CASE("LAS variants: Spark does not see the skew HCMS hides", "[aqe][skew][variants]") {
  PlanBuilder b(VariantConf(false, false));
  auto plan = HiddenSkewJoin(b);
  REQUIRE(Find(*plan, "l").shuffle->data->reported->BytesByPartitionId() ==
          std::vector<int64_t>{280, 280, 280, 280, 280});
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  CHECK(out.decisions.empty());
}

TEST_CASE("LAS exactReducerTotals: detected on exact totals, split by the averaged map sizes",
          "[aqe][skew][variants]") {
  PlanBuilder b(VariantConf(true, false));
  auto plan = HiddenSkewJoin(b);
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  // Exact [100, 100, 1000, 100, 100]: median 100, threshold max(300, 500) = 500, target
  // max(50, 100) = 100; reducer 2's maps as reported, 70 B each: 70 + 70 > 100 and two pieces
  // never merge (140 >= 120, 70 >= 20), so 4 pieces of 70 B.
  CHECK(ToString(SpecsOf(*plan, "l")) ==
        "[C(0,1,100) C(1,2,100) PR(2,0,1,70) PR(2,1,2,70) PR(2,2,3,70) PR(2,3,4,70) C(3,4,100) C(4,5,100)]");
  REQUIRE(out.decisions.size() == 1);
  CHECK(
      out.decisions[0].message ==
      "j: split 1 left / 0 right skewed partitions (left 2→4), 8 tasks (left threshold 500 B, target 100 B; "
      "right threshold 500 B, target 100 B) — variant las.exactReducerTotals changed this decision (Spark: "
      "no skewed partition could be split)");
  CHECK(out.decisions[0].fields["variants"] == nlohmann::json::array({"las.exactReducerTotals"}));
  CHECK(out.decisions[0].fields["sparkTasks"].is_null());
}

TEST_CASE("LAS splitByExactTotals: the pieces carry the exact total, both variants named",
          "[aqe][skew][variants]") {
  PlanBuilder b(VariantConf(true, true));
  auto plan = HiddenSkewJoin(b);
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  // 1000 B over the 4 non-empty blocks (none >= accurateBlockThreshold 1000): 250 B each.
  CHECK(ToString(SpecsOf(*plan, "l")) ==
        "[C(0,1,100) C(1,2,100) PR(2,0,1,250) PR(2,1,2,250) PR(2,2,3,250) "
        "PR(2,3,4,250) C(3,4,100) C(4,5,100)]");
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].fields["variants"] ==
        nlohmann::json::array({"las.exactReducerTotals", "las.splitByExactTotals"}));
}

TEST_CASE("LAS splitByExactTotals alone: Spark's detection, nothing to change here",
          "[aqe][skew][variants]") {
  PlanBuilder b(VariantConf(false, true));
  auto plan = HiddenSkewJoin(b);
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  CHECK(out.decisions.empty());
}

}  // namespace
}  // namespace aqesim
