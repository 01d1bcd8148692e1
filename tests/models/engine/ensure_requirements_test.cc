// EnsureRequirements: exchanges inserted where a child's partitioning does not satisfy the
// distribution its parent requires, with the partition counts Spark gives them.
#include "models/engine/ensure_requirements.h"

#include <catch2/catch.hpp>

#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::PlanBuilder;

struct Ensured {
  std::deque<PlanNode> sources;
  std::vector<Decision> decisions;
};

Ensured Ensure(ExecNode* plan, const SqlConf& conf) {
  Ensured e;
  EnsureRequirements(plan, conf, &e.sources, &e.decisions);
  return e;
}

TEST_CASE("EnsureRequirements: a sort-merge join of two scans gets an exchange on each side",
          "[engine][ensure]") {
  PlanBuilder b;
  auto plan =
      b.SortMergeJoin("j", JoinType::kInner, b.Scan("a", 10LL << 30, 64), b.Scan("b", 10LL << 30, 64));
  const Ensured e = Ensure(plan.get(), b.conf());
  REQUIRE(plan->child(0).is_exchange());
  REQUIRE(plan->child(1).is_exchange());
  CHECK(plan->child(0).id == "a-exchange");
  CHECK(plan->child(0).child(0).id == "a");
  CHECK(plan->child(0).origin() == ShuffleOrigin::kEnsureRequirements);
  CHECK(plan->child(0).planned_partitions == 200);  // spark.sql.shuffle.partitions
  CHECK(plan->planned_partitions == 200);
  REQUIRE(e.decisions.size() == 2);
  CHECK(e.decisions[0].rule == "EnsureRequirements");
  CHECK(e.decisions[0].message ==
        "j: ShuffleExchange a-exchange inserted on the left (scan a does not satisfy ClusteredDistribution "
        "(join)), 200 partitions (spark.sql.shuffle.partitions)");
  CHECK(e.decisions[1].fields["exchange"] == "b-exchange");
}

TEST_CASE("EnsureRequirements: initialPartitionNum with AQE and coalescing on", "[engine][ensure]") {
  SqlConf conf;
  conf.initial_partition_num = 1000;
  PlanBuilder b(conf);
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Scan("a", 1000, 4), b.Scan("b", 1000, 4));
  const Ensured e = Ensure(plan.get(), b.conf());
  CHECK(plan->child(0).planned_partitions == 1000);
  CHECK(e.decisions[0].fields["numPartitions"] == 1000);
  b.conf().coalesce_partitions_enabled = false;  // initialPartitionNum only with coalescing on
  auto plan2 = b.SortMergeJoin("k", JoinType::kInner, b.Scan("c", 1000, 4), b.Scan("d", 1000, 4));
  const Ensured e2 = Ensure(plan2.get(), b.conf());
  CHECK(e2.decisions.size() == 2);
  CHECK(plan2->child(0).planned_partitions == 200);
}

TEST_CASE("EnsureRequirements: a side beside an exchange with a fixed count is shuffled to that count",
          "[engine][ensure]") {
  PlanBuilder b;
  auto fixed = b.PendingShuffle("e", b.Scan("a", 1000, 4), 50);
  PlanBuilder::SourceOf(*fixed).num_partitions = 50;
  auto plan = b.SortMergeJoin("j", JoinType::kInner, std::move(fixed), b.Scan("b", 1000, 4));
  const Ensured e = Ensure(plan.get(), b.conf());
  CHECK(plan->child(0).id == "e");  // the scenario's exchange is kept as it is
  REQUIRE(plan->child(1).is_exchange());
  CHECK(plan->child(1).source->num_partitions == 50);
  REQUIRE(e.decisions.size() == 1);
  CHECK(e.decisions[0].message ==
        "j: ShuffleExchange b-exchange inserted on the right (scan b does not satisfy ClusteredDistribution "
        "(join)), 50 partitions (the other side's fixed count)");
}

TEST_CASE("EnsureRequirements: aggregates, broadcast joins and satisfied children", "[engine][ensure]") {
  PlanBuilder b;
  SECTION("grouped aggregate over a scan: ClusteredDistribution") {
    auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Scan("a", 1000, 4));
    const Ensured e = Ensure(plan.get(), b.conf());  // owns the inserted exchange's source
    CHECK(plan->child(0).is_exchange());
    CHECK_FALSE(plan->child(0).single_partition());
  }
  SECTION("global aggregate: AllTuples, one partition") {
    auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Scan("a", 1000, 4));
    PlanBuilder::SourceOf(*plan).grouped = false;
    const Ensured e = Ensure(plan.get(), b.conf());
    REQUIRE(plan->child(0).is_exchange());
    CHECK(plan->child(0).single_partition());
    CHECK(plan->child(0).planned_partitions == 1);
    CHECK(
        e.decisions[0].message ==
        "agg: ShuffleExchange a-exchange inserted on the child (scan a does not satisfy AllTuples (a global "
        "aggregate)), 1 partition (SinglePartition)");
  }
  SECTION("window over a scan: ClusteredDistribution on its partition keys; over a join, none") {
    auto plan = b.Unary(PlanOp::kWindow, "w", b.Scan("a", 1000, 4));
    const Ensured e = Ensure(plan.get(), b.conf());
    REQUIRE(plan->child(0).is_exchange());
    CHECK(plan->child(0).planned_partitions == 200);
    REQUIRE(e.decisions.size() == 1);
    CHECK(
        e.decisions[0].message ==
        "w: ShuffleExchange a-exchange inserted on the child (scan a does not satisfy ClusteredDistribution "
        "(window)), 200 partitions (spark.sql.shuffle.partitions)");
    auto join = b.SortMergeJoin("j", JoinType::kInner, b.PendingShuffle("l", b.Scan("a", 1000, 4), 200),
                                b.PendingShuffle("r", b.Scan("b", 1000, 4), 200));
    auto over_join = b.Unary(PlanOp::kWindow, "w2", std::move(join));
    CHECK(Ensure(over_join.get(), b.conf()).decisions.empty());
  }
  SECTION("partial aggregate over a scan (mode partial): no required distribution, nothing inserted") {
    auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Scan("a", 1000, 4));
    PlanBuilder::SourceOf(*plan).partial_aggregate = true;
    CHECK(Ensure(plan.get(), b.conf()).decisions.empty());
    CHECK(plan->child(0).op == PlanOp::kScan);
    PlanBuilder::SourceOf(*plan).grouped = false;  // a partial global aggregate: no AllTuples either
    CHECK(Ensure(plan.get(), b.conf()).decisions.empty());
  }
  SECTION("broadcast hash join of two scans: nothing to insert") {
    auto plan = b.Join("j", JoinStrategy::kBroadcastHash, JoinType::kInner, b.Scan("a", 1000, 4),
                       b.Scan("b", 10, 1), BuildSide::kRight);
    CHECK(Ensure(plan.get(), b.conf()).decisions.empty());
    CHECK(plan->child(0).op == PlanOp::kScan);
  }
  SECTION("aggregate over a sort-merge join over exchanges: hash partitioning kept, no exchange") {
    auto join = b.SortMergeJoin("j", JoinType::kInner, b.PendingShuffle("l", b.Scan("a", 1000, 4), 200),
                                b.PendingShuffle("r", b.Scan("b", 1000, 4), 200));
    auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Unary(PlanOp::kFilter, "f", std::move(join)));
    CHECK(Ensure(plan.get(), b.conf()).decisions.empty());
  }
  SECTION("aggregate over a union of exchanges: unknown partitioning, an exchange") {
    std::vector<std::unique_ptr<ExecNode>> kids;
    kids.push_back(b.PendingShuffle("l", b.Scan("a", 1000, 4), 200));
    kids.push_back(b.PendingShuffle("r", b.Scan("b", 1000, 4), 200));
    auto plan = b.Unary(PlanOp::kAggregate, "agg", b.Union("u", std::move(kids)));
    const Ensured e = Ensure(plan.get(), b.conf());
    CHECK(e.decisions.size() == 1);
    CHECK(plan->child(0).is_exchange());
  }
}

TEST_CASE("EnsureRequirements: an inserted exchange never takes an id the plan already uses",
          "[engine][ensure]") {
  // The adversarial trial's plan: the left scan is "a", the right side an explicit exchange named
  // "a-exchange"; the exchange inserted above "a" becomes "a-exchange-2".
  PlanBuilder b;
  auto plan = b.SortMergeJoin("j", JoinType::kInner, b.Scan("a", 1000, 4),
                              b.PendingShuffle("a-exchange", b.Scan("b", 1000, 4), 200));
  const Ensured e = Ensure(plan.get(), b.conf());
  REQUIRE(e.decisions.size() == 1);
  CHECK(plan->child(0).id == "a-exchange-2");
  CHECK(plan->child(1).id == "a-exchange");
  CHECK(e.decisions[0].fields["exchange"] == "a-exchange-2");
}

}  // namespace
}  // namespace aqesim
