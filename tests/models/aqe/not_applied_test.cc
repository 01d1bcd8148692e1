// "Not applied" entries of CoalesceShufflePartitions, JoinSelection / DynamicJoinSelection and
// OptimizeShuffleWithLocalRead on small plans, one per early-out, word for word; how a run keeps
// one entry per rule and target. (OptimizeSkewedJoin's: rules/skew_join_why_not_test.cc.)
#include "models/aqe/not_applied.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "models/aqe/rules/coalesce_shuffle_partitions.h"
#include "models/aqe/rules/join_selection.h"
#include "models/aqe/rules/optimize_shuffle_with_local_read.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;

/// The single entry of `rule` in `entries`.
NotApplied Only(const std::vector<NotApplied>& entries, const std::string& rule) {
  std::vector<NotApplied> found;
  for (const NotApplied& n : entries)
    if (n.rule == rule) found.push_back(n);
  REQUIRE(found.size() == 1);
  return found[0];
}

/// advisory 100 B, minPartitionNum 1, minPartitionSize 1 B.
SqlConf SmallConf() {
  SqlConf c;
  c.advisory_partition_size_bytes = 100;
  c.coalesce_min_partition_num = 1;
  c.coalesce_min_partition_size_bytes = 1;
  return c;
}

TEST_CASE("Coalescing why not: already at the target", "[aqe][coalesce][whynot]") {
  PlanBuilder b(SmallConf());
  auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Shuffle("e1", Matrix{{50, 51}}));
  const NotApplied n = Only(CoalesceShufflePartitions().Apply(b.Context(), plan.get()).not_applied,
                            "CoalesceShufflePartitions");
  CHECK(n.reason == "alreadyAtTarget");
  CHECK(n.target == "e1");
  CHECK(n.message ==
        "e1: 2 partitions already at the target: no two adjacent fit (smallest adjacent pair 101 B, "
        "target 100 B)");
  CHECK(n.at == SimTime::Seconds(1.5));
}

TEST_CASE("Coalescing why not: the user fixed the partition count", "[aqe][coalesce][whynot]") {
  SECTION("repartition(3) under an aggregate") {
    PlanBuilder b(SmallConf());
    auto plan = b.Unary(PlanOp::kAggregate, "agg",
                        b.Shuffle("e1", Matrix{{10, 10, 10}}, ShuffleOrigin::kRepartitionByNum));
    const NotApplied n = Only(CoalesceShufflePartitions().Apply(b.Context(), plan.get()).not_applied,
                              "CoalesceShufflePartitions");
    CHECK(n.reason == "userSpecifiedPartitions");
    CHECK(n.message ==
          "e1: the user fixed 3 partitions (repartition(3), REPARTITION_BY_NUM): AQE never coalesces "
          "it, and spark.sql.shuffle.partitions does not apply");
  }
  SECTION("joined with a shuffle AQE could coalesce") {
    PlanBuilder b(SmallConf());
    auto plan = b.SortMergeJoin("j", JoinType::kInner,
                                b.Shuffle("l", Matrix{{10, 10, 10}}, ShuffleOrigin::kRepartitionByNum),
                                b.Shuffle("r", Matrix{{10, 10, 10}}));
    const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    const NotApplied n = Only(out.not_applied, "CoalesceShufflePartitions");
    CHECK(n.target == "l,r");
    CHECK(n.message ==
          "l: the user fixed 3 partitions (repartition(3), REPARTITION_BY_NUM): AQE never coalesces "
          "it nor what it is joined with (r), and spark.sql.shuffle.partitions does not apply");
  }
}

TEST_CASE("Coalescing why not: coalescePartitions.enabled=false says what it would have done",
          "[aqe][coalesce][whynot]") {
  SqlConf conf = SmallConf();
  conf.coalesce_partitions_enabled = false;
  PlanBuilder b(conf);
  auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Shuffle("e1", Matrix{{10, 0, 90, 20, 0}}));
  std::vector<NotApplied> not_applied;
  CHECK(AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get(), &not_applied).empty());
  const NotApplied n = Only(not_applied, "CoalesceShufflePartitions");
  CHECK(n.reason == "coalescingDisabled");
  CHECK(n.message ==
        "e1: spark.sql.adaptive.coalescePartitions.enabled=false: would coalesce 5 → 2 partitions (target "
        "100 B)");
  CHECK_FALSE(testing::Find(*plan, "e1").shuffle->read_specs.has_value());
}

TEST_CASE("Coalescing why not: skew-split reads with nothing to merge between the splits",
          "[aqe][coalesce][whynot]") {
  PlanBuilder b(SmallConf());
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", Matrix{{60, 60}, {60, 60}}),
                              b.Shuffle("r", Matrix{{10, 10}}));
  // Reducer 0 of l split in two by maps (as OptimizeSkewedJoin leaves it).
  testing::Find(*plan, "l").shuffle->read_specs = std::vector<ShufflePartitionSpec>{
      PartialReducerPartitionSpec{0, 0, 1, 60}, PartialReducerPartitionSpec{0, 1, 2, 60},
      CoalescedPartitionSpec{1, 2, 120}};
  testing::Find(*plan, "r").shuffle->read_specs = std::vector<ShufflePartitionSpec>{
      CoalescedPartitionSpec{0, 1, 10}, CoalescedPartitionSpec{0, 1, 10}, CoalescedPartitionSpec{1, 2, 10}};
  const NotApplied n = Only(CoalesceShufflePartitions().Apply(b.Context(), plan.get()).not_applied,
                            "CoalesceShufflePartitions");
  CHECK(n.reason == "skewSplitKept");
  CHECK(n.message ==
        "l,r: skew-split reads keep their 3 tasks: only partitions between the split ones may "
        "coalesce, and none fit (smallest adjacent pair 260 B, target 100 B)");
}

/// Sides of `left_bytes` and `right_bytes` (runtime data sizes), 4 reducers each.
std::unique_ptr<ExecNode> Join(PlanBuilder& b, JoinType type, int64_t left_bytes, int64_t right_bytes) {
  return b.SortMergeJoin(
      "j", type, b.Shuffle("l", Matrix{{1, 1, 1, 1}}, ShuffleOrigin::kEnsureRequirements, left_bytes),
      b.Shuffle("r", Matrix{{1, 1, 1, 1}}, ShuffleOrigin::kEnsureRequirements, right_bytes));
}

SqlConf RuntimeThreshold(std::optional<int64_t> threshold) {
  SqlConf c;
  c.auto_broadcast_join_threshold_bytes = -1;
  c.adaptive_auto_broadcast_join_threshold_bytes = threshold;
  return c;
}

TEST_CASE("Join selection why not: above the threshold, by how much", "[aqe][joinselection][whynot]") {
  SECTION("one byte above") {
    PlanBuilder b(RuntimeThreshold(159));
    auto plan = Join(b, JoinType::kInner, 1600, 160);
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "aboveBroadcastThreshold");
    CHECK(n.target == "j");
    CHECK(n.message ==
          "j: smallest buildable side right (r, runtime 160 B) > adaptive broadcast threshold 159 B "
          "(spark.sql.adaptive.autoBroadcastJoinThreshold) (by 1 B, 1.0×)");
  }
  SECTION("runtime statistics, the adaptive key unset: AQE's threshold falls back to the static one") {
    SqlConf c;
    c.auto_broadcast_join_threshold_bytes = 100;
    PlanBuilder b(c);
    auto plan = Join(b, JoinType::kInner, 1600, 160);
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "aboveBroadcastThreshold");
    CHECK(n.message ==
          "j: smallest buildable side right (r, runtime 160 B) > adaptive broadcast threshold 100 B "
          "(spark.sql.adaptive.autoBroadcastJoinThreshold, unset: spark.sql.autoBroadcastJoinThreshold) "
          "(by 60 B, 1.6×)");
  }
  SECTION("no runtime statistics: static planning's key, even with the adaptive one set") {
    SqlConf c;
    c.auto_broadcast_join_threshold_bytes = 100;
    c.adaptive_auto_broadcast_join_threshold_bytes = 1 << 20;
    PlanBuilder b(c);
    auto plan = b.SortMergeJoin("j", JoinType::kInner, b.PendingShuffle("l", b.Scan("a", 1600, 4), 4),
                                b.PendingShuffle("r", b.Scan("b", 160, 4), 4));
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "aboveBroadcastThreshold");
    CHECK(n.message ==
          "j: smallest buildable side right (r, estimated 160 B) > spark.sql.autoBroadcastJoinThreshold "
          "100 B (by 60 B, 1.6×)");
  }
  SECTION("a smaller side the join type cannot build") {
    PlanBuilder b(RuntimeThreshold(100));
    auto plan = Join(b, JoinType::kLeftOuter, 50, 1600);
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "aboveBroadcastThreshold");
    CHECK(n.message ==
          "j: smallest buildable side right (r, runtime 1.6 KiB) > adaptive broadcast threshold 100 B "
          "(spark.sql.adaptive.autoBroadcastJoinThreshold) (by 1.5 KiB, 16.0×); the left side is "
          "smaller (50 B) but a LeftOuter join cannot build it");
  }
  SECTION("broadcast disabled") {
    PlanBuilder b(RuntimeThreshold(-1));
    auto plan = Join(b, JoinType::kInner, 1600, 160);
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "broadcastDisabled");
    CHECK(n.message ==
          "j: broadcast disabled (spark.sql.adaptive.autoBroadcastJoinThreshold = -1); smallest "
          "buildable side right (r, runtime 160 B)");
  }
}

TEST_CASE("Join selection why not: the join type builds no side, a MERGE hint",
          "[aqe][joinselection][whynot]") {
  SECTION("FullOuter") {
    PlanBuilder b(RuntimeThreshold(1000));
    auto plan = Join(b, JoinType::kFullOuter, 1600, 160);
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "joinTypeCannotBuild");
    CHECK(n.message == "j: a FullOuter join cannot broadcast either side");
  }
  SECTION("MERGE") {
    PlanBuilder b(RuntimeThreshold(1000));
    auto plan = Join(b, JoinType::kInner, 1600, 160);
    PlanBuilder::SourceOf(*plan).left_hint = JoinHint::kMerge;
    const NotApplied n = Only(JoinSelection().Apply(b.Context(), plan.get()).not_applied, "JoinSelection");
    CHECK(n.reason == "mergeHint");
    CHECK(n.message == "j: a MERGE hint keeps the sort-merge join");
  }
}

TEST_CASE("Join selection why not: DynamicJoinSelection demoted a small, mostly empty side",
          "[aqe][djs][whynot]") {
  // l: 1 of 10 partitions non-empty (0.1 < 0.2), 30 B <= 1000 B; r: 1600 B.
  PlanBuilder b(RuntimeThreshold(1000));
  auto plan = b.SortMergeJoin(
      "j", JoinType::kInner,
      b.Shuffle("l", Matrix{{10, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, ShuffleOrigin::kEnsureRequirements, 30),
      b.Shuffle("r", Matrix{{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}}, ShuffleOrigin::kEnsureRequirements,
                1600));
  const AqeOptimizer::Reoptimized re = AqeOptimizer().ReOptimize(b.Context(), *plan);
  const NotApplied n = Only(re.not_applied, "JoinSelection");
  CHECK(n.reason == "demotedByEmptyPartitions");
  CHECK(n.message ==
        "j: left (l, runtime 30 B) fits adaptive broadcast threshold 1000 B "
        "(spark.sql.adaptive.autoBroadcastJoinThreshold) but "
        "DynamicJoinSelection demoted it: 1 of 10 partitions of l are non-empty, under "
        "spark.sql.adaptive.nonEmptyPartitionRatioForBroadcastJoin 0.2");
}

const Matrix kTwoMapsFiveReducers = {{160, 160, 160, 160, 160}, {160, 160, 160, 160, 160}};

std::unique_ptr<ExecNode> BroadcastJoin(PlanBuilder& b,
                                        ShuffleOrigin probe_origin = ShuffleOrigin::kEnsureRequirements) {
  return b.Join("j", JoinStrategy::kBroadcastHash, JoinType::kInner,
                b.Shuffle("p", kTwoMapsFiveReducers, probe_origin),
                b.Shuffle("b", Matrix{{10, 10, 10, 10, 10}}), BuildSide::kRight);
}

TEST_CASE("Local read why not: what the stage needs of the probe side", "[aqe][localread][whynot]") {
  SECTION("an operator above needs the partitioning") {
    PlanBuilder b;
    auto plan = b.Unary(PlanOp::kAggregate, "agg", BroadcastJoin(b));
    const NotApplied n = Only(OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get()).not_applied,
                              "OptimizeShuffleWithLocalRead");
    CHECK(n.reason == "partitioningRequiredAbove");
    CHECK(n.target == "p");
    CHECK(n.message ==
          "p (probe side of j): an operator above j in the stage needs p's hash partitioning: a local "
          "read would need an extra shuffle");
  }
  SECTION("a partial aggregate above needs nothing: the local read is made") {
    PlanBuilder b;
    auto plan = b.Unary(PlanOp::kAggregate, "agg", BroadcastJoin(b));
    PlanBuilder::SourceOf(*plan).partial_aggregate = true;
    const RuleOutcome out = OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get());
    CHECK(out.not_applied.empty());
    REQUIRE(out.decisions.size() == 1);
    // 5 partitions over 2 mappers: 5 / 2 = 2 reducer ranges per mapper (Spark's local read specs).
    CHECK(out.decisions[0].message == "p: local shuffle read (probe side of j), 5 → 4 tasks over 2 mappers");
  }
  SECTION("a user repartition") {
    PlanBuilder b;
    auto plan = BroadcastJoin(b, ShuffleOrigin::kRepartitionByCol);
    const NotApplied n = Only(OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get()).not_applied,
                              "OptimizeShuffleWithLocalRead");
    CHECK(n.reason == "probeNotLocalReadable");
    CHECK(n.message ==
          "p (probe side of j): a REPARTITION_BY_COL shuffle: a local read keeps only "
          "ENSURE_REQUIREMENTS shuffles (or an uncoalesced REBALANCE_PARTITIONS_BY_NONE), the "
          "partitioning the user asked for stays");
  }
  SECTION("localShuffleReader.enabled=false") {
    SqlConf conf;
    conf.local_shuffle_reader_enabled = false;
    conf.coalesce_partitions_enabled = false;  // coalescing would leave one partition to read
    PlanBuilder b(conf);
    auto plan = BroadcastJoin(b);
    std::vector<NotApplied> not_applied;
    AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get(), &not_applied);
    const NotApplied n = Only(not_applied, "OptimizeShuffleWithLocalRead");
    CHECK(n.reason == "localReadDisabled");
    CHECK(n.message ==
          "p (probe side of j): spark.sql.adaptive.localShuffleReader.enabled=false: would read its 5 "
          "partitions locally over 2 mappers");
  }
}

TEST_CASE("NotApplied: one entry per rule and target; a decision on it removes it", "[aqe][whynot]") {
  auto entry = [](const char* reason, double at) {
    return NotApplied{std::string("JoinSelection"), std::string("j"),     std::string(reason),
                      std::string(reason),          SimTime::Seconds(at), nlohmann::json::object()};
  };
  std::vector<NotApplied> list;
  MergeNotApplied({entry("aboveBroadcastThreshold", 1)}, &list);
  MergeNotApplied({entry("aboveBroadcastThreshold", 2)}, &list);  // the same stop: keeps its first time
  REQUIRE(list.size() == 1);
  CHECK(list[0].at == SimTime::Seconds(1));
  MergeNotApplied({entry("demotedByEmptyPartitions", 3)}, &list);  // stopped elsewhere: replaced
  REQUIRE(list.size() == 1);
  CHECK(list[0].reason == "demotedByEmptyPartitions");
  Decision other;
  other.rule = "OptimizeSkewedJoin";
  other.fields = {{"join", "j"}};
  Decision converted;
  converted.rule = "JoinSelection";
  converted.fields = {{"join", "j"}, {"to", "BroadcastHashJoin"}};
  DropActedOn({other}, &list);
  CHECK(list.size() == 1);
  DropActedOn({converted}, &list);
  CHECK(list.empty());
}

TEST_CASE("NotApplied: a split of several joins together drops each join's entry", "[aqe][whynot]") {
  auto entry = [](const char* target) {
    return NotApplied{std::string("OptimizeSkewedJoin"),
                      std::string(target),
                      std::string("needsExtraShuffle"),
                      std::string("m"),
                      SimTime::Seconds(1),
                      nlohmann::json::object()};
  };
  std::vector<NotApplied> list = {entry("j1"), entry("j3")};
  Decision count_only;  // Spark's "not applied to any join" counts its joins in a string
  count_only.rule = "OptimizeSkewedJoin";
  count_only.fields = {{"applied", false}, {"joins", "2"}};
  DropActedOn({count_only}, &list);
  CHECK(list.size() == 2);
  Decision unit;  // las.multipleSkewedJoinsInStage: top j2, joins j1 and j2
  unit.rule = "OptimizeSkewedJoin";
  unit.fields = {{"join", "j2"}, {"joins", nlohmann::json::array({"j1", "j2"})}};
  DropActedOn({unit}, &list);
  REQUIRE(list.size() == 1);
  CHECK(list[0].target == "j3");
}

}  // namespace
}  // namespace aqesim
