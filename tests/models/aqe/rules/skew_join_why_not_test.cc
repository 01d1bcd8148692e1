// Why OptimizeSkewedJoin did not split: one small plan per early-out, the reason and its
// message word for word (sizes read off the matrices by hand: four maps of 25 B per reducer,
// reducer 2 "hot"; median 100 B, factor 5, threshold 300 B: skew threshold 500 B).
#include "models/aqe/rules/skew_join_why_not.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>

#include "models/aqe/aqe_optimizer.h"
#include "models/aqe/rules/optimize_skewed_join.h"
#include "tests/models/aqe/rules/skew_join_fixture.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;
using testing::SkewConf;
using testing::WithHotReducer;

const Matrix kHot = WithHotReducer({250, 250, 250, 250});  // reducer 2: 1000 B
const Matrix kUniform = WithHotReducer({25, 25, 25, 25});

/// The single entry the rule left for `target`.
NotApplied Only(const RuleOutcome& out, const std::string& target) {
  std::vector<NotApplied> found;
  for (const NotApplied& n : out.not_applied)
    if (n.target == target) found.push_back(n);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "OptimizeSkewedJoin");
  return found[0];
}

TEST_CASE("Skew join why not: the join type cannot split the skewed side", "[aqe][skew][whynot]") {
  SECTION("FullOuter: neither side") {
    PlanBuilder b(SkewConf());
    auto plan = b.SortMergeJoin("j", JoinType::kFullOuter, b.Shuffle("l", kHot), b.Shuffle("r", kUniform));
    const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
    CHECK(n.reason == "joinTypeCannotSplit");
    CHECK(n.message ==
          "j: FullOuter join cannot split either side: left partition 2 (1000 B) is above the skew threshold "
          "500 B");
    CHECK(n.numbers.at("bytes") == 1000);
    CHECK(n.numbers.at("skewThresholdBytes") == 500);
  }
  SECTION("RightOuter: not the left side") {
    PlanBuilder b(SkewConf());
    auto plan = b.SortMergeJoin("j", JoinType::kRightOuter, b.Shuffle("l", kHot), b.Shuffle("r", kUniform));
    const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
    CHECK(n.reason == "joinTypeCannotSplit");
    CHECK(n.message ==
          "j: RightOuter join cannot split the left side: left partition 2 (1000 B) is above the skew "
          "threshold "
          "500 B");
  }
}

TEST_CASE("Skew join why not: below factor x median, below the threshold", "[aqe][skew][whynot]") {
  SECTION("500 B = 5 x median 100 B") {
    PlanBuilder b(SkewConf());
    auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", WithHotReducer({125, 125, 125, 125})),
                                b.Shuffle("r", kUniform));
    const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
    CHECK(n.reason == "belowSkewFactor");
    CHECK(
        n.message ==
        "j: not skewed: largest partition left 2 is 500 B <= skewedPartitionFactor 5 × median 100 B = 500 B");
  }
  SECTION("1000 B > 500 B but <= the 2000 B threshold") {
    SqlConf conf = SkewConf();
    conf.skewed_partition_threshold_bytes = 2000;
    PlanBuilder b(conf);
    auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", kHot), b.Shuffle("r", kUniform));
    const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
    CHECK(n.reason == "belowSkewThreshold");
    CHECK(n.message ==
          "j: not skewed: largest partition left 2 is 1000 B <= skew threshold 2.0 KiB (max of "
          "skewedPartitionThresholdInBytes 2.0 KiB and skewedPartitionFactor 5 × median 100 B)");
  }
  SECTION("400 B <= 5 x median 100 B, but the 2000 B threshold is the larger bound") {
    SqlConf conf = SkewConf();
    conf.skewed_partition_threshold_bytes = 2000;
    PlanBuilder b(conf);
    auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", WithHotReducer({100, 100, 100, 100})),
                                b.Shuffle("r", kUniform));
    const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
    CHECK(n.reason == "belowSkewFactor");
    CHECK(n.message ==
          "j: not skewed: largest partition left 2 is 400 B <= skew threshold 2.0 KiB (max of "
          "skewedPartitionThresholdInBytes 2.0 KiB and skewedPartitionFactor 5 × median 100 B)");
  }
}

TEST_CASE("Skew join why not: HighlyCompressedMapStatus averaged the skewed block away",
          "[aqe][skew][whynot]") {
  // 5 reducers > minNumPartitionsToHighlyCompress 2: every block is under the 100 MiB
  // accurate threshold, so each map reports its average (25 x 4 + 250) / 5 = 70 B per block and
  // every reducer 4 x 70 = 280 B; the true reducer 2 is 1000 B.
  SqlConf conf = SkewConf();
  conf.min_num_partitions_to_highly_compress = 2;
  PlanBuilder b(conf);
  auto left = b.Shuffle("l", kHot);
  MapStatusConfig hcms;
  hcms.min_num_partitions_to_highly_compress = 2;
  ShuffleData& d = *left->shuffle->data;
  d.reported =
      std::make_unique<ReportedShuffleSizes>(ReportShuffleSizes(d.actual, hcms, MapStatusMode::kSpark));
  REQUIRE(d.reported->BytesByPartitionId() == std::vector<int64_t>{280, 280, 280, 280, 280});
  auto plan = b.SortMergeJoin("j", JoinType::kInner, std::move(left), b.Shuffle("r", kUniform));
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  const NotApplied n = Only(out, "j");
  CHECK(n.reason == "hiddenByMapStatus");
  CHECK(n.message ==
        "j: left partition 2 is skewed (true 1000 B > skew threshold 500 B) but the driver sees 280 B: "
        "HighlyCompressedMapStatus (5 partitions > spark.shuffle.minNumPartitionsToHighlyCompress 2) reports "
        "blocks under spark.shuffle.accurateBlockThreshold 100.0 MiB as each map's average");
  CHECK(n.numbers.at("trueBytes") == 1000);
  CHECK(n.numbers.at("reportedBytes") == 280);
}

TEST_CASE("Skew join why not: an aggregate with a hot key is never split", "[aqe][skew][whynot]") {
  PlanBuilder b(SkewConf());
  auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Shuffle("e", kHot));
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK_FALSE(out.changed);
  const NotApplied n = Only(out, "e");
  CHECK(n.reason == "notAJoin");
  CHECK(n.message ==
        "e (read by aggregate agg): partition 2 is 1000 B, 10.0× the median 100 B (driver-seen MapStatus "
        "sizes; skew "
        "threshold 500 B): "
        "AQE never "
        "splits an aggregate's partitions; salt the key or pre-aggregate");
  CHECK(n.numbers.at("aggregate") == "agg");
  // A uniform aggregate input says nothing.
  PlanBuilder u(SkewConf());
  auto flat = u.Unary(PlanOp::kAggregate, "agg", u.Shuffle("e", kUniform));
  CHECK(OptimizeSkewedJoin().Apply(u.Context(), flat.get()).not_applied.empty());
}

/// A sort over a range exchange `e` of five partitions (bounds 9, 19, 29, 39) whose maps write
/// 1000 B into `hot` (4000 B = 3.9 KiB; the others 100 B), the input's keys `min_key` to `max_key`.
NotApplied RangeEntry(int hot, std::optional<int64_t> min_key, std::optional<int64_t> max_key) {
  Matrix m;
  for (int map = 0; map < 4; ++map) {
    m.push_back({25, 25, 25, 25, 25});
    m.back()[static_cast<size_t>(hot)] = 1000;
  }
  PlanBuilder b(SkewConf());
  auto e = b.Shuffle("e", m);
  auto range = std::make_shared<RangeSampling>();
  range->bounds = {9, 19, 29, 39};
  range->min_key = min_key;
  range->max_key = max_key;
  e->shuffle->data->range = range;
  auto plan = b.Unary(PlanOp::kSort, "s", std::move(e));
  const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "e");
  CHECK(n.reason == "rangePartitioned");
  CHECK(n.numbers.at("partition") == hot);
  return n;
}

TEST_CASE("Skew join why not: the keys of the first, a middle and the last range partition",
          "[aqe][skew][whynot]") {
  const std::string tail =
      " is 3.9 KiB, 40.0× the median 100 B (driver-seen MapStatus sizes; skew threshold 500 B): a range "
      "partitioner puts all rows of a "
      "key "
      "in "
      "one partition, and AQE never splits a sort's partitions; salt the sort key or sort the hot key's rows "
      "apart";
  // Partition 0 holds the keys up to the first bound: from the input's least key on.
  NotApplied n = RangeEntry(0, 9, 99);
  CHECK(n.message ==
        "e (range partitioning for sort s): partition 0 (the first range, sort key 9 only)" + tail);
  CHECK(n.numbers.at("oneKey") == true);
  n = RangeEntry(0, 0, 99);
  CHECK(n.message ==
        "e (range partitioning for sort s): partition 0 (the first range, sort keys 0 to 9)" + tail);
  CHECK(n.numbers.at("oneKey") == false);
  CHECK(RangeEntry(0, std::nullopt, std::nullopt).message ==
        "e (range partitioning for sort s): partition 0 (the first range, sort keys up to 9)" + tail);
  // A middle partition: (bounds[p-1], bounds[p]].
  CHECK(RangeEntry(2, 0, 99).message ==
        "e (range partitioning for sort s): partition 2 (sort keys 20 to 29)" + tail);
  // The last holds the keys above the last bound, up to the input's greatest.
  n = RangeEntry(4, 0, 40);
  CHECK(n.message ==
        "e (range partitioning for sort s): partition 4 (the last range, sort key 40 only)" + tail);
  CHECK(n.numbers.at("oneKey") == true);
  CHECK(RangeEntry(4, 0, 99).message ==
        "e (range partitioning for sort s): partition 4 (the last range, sort keys 40 to 99)" + tail);
  CHECK(RangeEntry(4, std::nullopt, std::nullopt).message ==
        "e (range partitioning for sort s): partition 4 (the last range, sort keys from 40)" + tail);
}

TEST_CASE("Skew join why not: one map task holds the whole skewed partition", "[aqe][skew][whynot]") {
  PlanBuilder b(SkewConf());
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", WithHotReducer({1000, 0, 0, 0})),
                              b.Shuffle("r", kUniform));
  const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
  CHECK(n.reason == "singleMapPartition");
  CHECK(n.message ==
        "j: left partition 2 (1000 B) is above the skew threshold 500 B but its map outputs do not split "
        "into more "
        "than one range of the target 100 B (4 map tasks)");
}

TEST_CASE("Skew join why not: an extra shuffle would be needed", "[aqe][skew][whynot]") {
  PlanBuilder b(SkewConf());
  auto plan = b.Unary(PlanOp::kAggregate, "agg",
                      b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", kHot), b.Shuffle("r", kUniform)));
  const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
  CHECK(n.reason == "needsExtraShuffle");
  CHECK(
      n.message ==
      "j: splitting j would need an extra shuffle (an operator above needs the join's hash partitioning) and "
      "spark.sql.adaptive.forceOptimizeSkewedJoin is false");
}

TEST_CASE("Skew join why not: sides with different partition counts", "[aqe][skew][whynot]") {
  PlanBuilder b(SkewConf());
  auto plan =
      b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", kHot), b.Shuffle("r", Matrix{{1, 1, 1, 1}}));
  const NotApplied n = Only(OptimizeSkewedJoin().Apply(b.Context(), plan.get()), "j");
  CHECK(n.reason == "partitionCountsDiffer");
  CHECK(n.message == "j: not split: left has 5 partitions, right has 4");
}

TEST_CASE("Skew join why not: skewJoin.enabled=false says what it would have split", "[aqe][skew][whynot]") {
  SqlConf conf = SkewConf();
  conf.skew_join_enabled = false;
  PlanBuilder b(conf);
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", kHot), b.Shuffle("r", kUniform));
  const AqeOptimizer::Reoptimized re = AqeOptimizer().ReOptimize(b.Context(), *plan);
  std::vector<NotApplied> skew;
  for (const NotApplied& n : re.not_applied)
    if (n.rule == "OptimizeSkewedJoin") skew.push_back(n);
  REQUIRE(skew.size() == 1);
  CHECK(skew[0].reason == "skewJoinDisabled");
  CHECK(skew[0].message ==
        "j: spark.sql.adaptive.skewJoin.enabled=false: would split 1 left / 0 right skewed partitions into 8 "
        "tasks");
  CHECK_FALSE(plan->join->is_skew_join);
}

TEST_CASE("Skew join why not: a split join leaves no entry", "[aqe][skew][whynot]") {
  PlanBuilder b(SkewConf());
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", kHot), b.Shuffle("r", kUniform));
  const RuleOutcome out = OptimizeSkewedJoin().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  CHECK(out.not_applied.empty());
}

}  // namespace
}  // namespace aqesim
