#include "models/plan/plan.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("Plan names: every enum value round-trips through its JSON name", "[plan]") {
  for (PlanOp op : {PlanOp::kScan, PlanOp::kExchange, PlanOp::kJoin, PlanOp::kAggregate, PlanOp::kUnion,
                    PlanOp::kFilter, PlanOp::kProject, PlanOp::kSort})
    CHECK(ParsePlanOp(PlanOpName(op)) == op);
  for (ShuffleOrigin o : {ShuffleOrigin::kEnsureRequirements, ShuffleOrigin::kRepartitionByCol,
                          ShuffleOrigin::kRepartitionByNum, ShuffleOrigin::kRebalancePartitionsByNone,
                          ShuffleOrigin::kRebalancePartitionsByCol})
    CHECK(ParseShuffleOrigin(ShuffleOriginName(o)) == o);
  for (JoinStrategy s : {JoinStrategy::kSortMerge, JoinStrategy::kShuffledHash, JoinStrategy::kBroadcastHash,
                         JoinStrategy::kBroadcastNestedLoop, JoinStrategy::kCartesianProduct})
    CHECK(ParseJoinStrategy(JoinStrategyName(s)) == s);
  for (JoinType t : {JoinType::kInner, JoinType::kCross, JoinType::kLeftOuter, JoinType::kRightOuter,
                     JoinType::kFullOuter, JoinType::kLeftSemi, JoinType::kLeftAnti})
    CHECK(ParseJoinType(JoinTypeName(t)) == t);
  for (BuildSide b : {BuildSide::kLeft, BuildSide::kRight}) CHECK(ParseBuildSide(BuildSideName(b)) == b);
  for (JoinHint h : {JoinHint::kNone, JoinHint::kBroadcast, JoinHint::kMerge, JoinHint::kShuffleHash,
                     JoinHint::kShuffleReplicateNl})
    CHECK(ParseJoinHint(JoinHintName(h)) == h);
}

TEST_CASE("Plan names: Spark's spellings", "[plan]") {
  CHECK(PlanOpName(PlanOp::kExchange) == "exchange");
  CHECK(ShuffleOriginName(ShuffleOrigin::kRebalancePartitionsByNone) == "REBALANCE_PARTITIONS_BY_NONE");
  CHECK(JoinStrategyName(JoinStrategy::kBroadcastNestedLoop) == "BroadcastNestedLoopJoin");
  CHECK(JoinTypeName(JoinType::kLeftAnti) == "LeftAnti");
  CHECK(BuildSideName(BuildSide::kRight) == "BuildRight");
  CHECK(JoinHintName(JoinHint::kShuffleReplicateNl) == "SHUFFLE_REPLICATE_NL");
  // JoinType.apply's aliases and JoinStrategyHint's hint names, case-insensitive.
  CHECK(ParseJoinType("left_outer") == JoinType::kLeftOuter);
  CHECK(ParseJoinType("full") == JoinType::kFullOuter);
  CHECK(ParseJoinType("outer") == JoinType::kFullOuter);
  CHECK(ParseJoinType("semi") == JoinType::kLeftSemi);
  CHECK_FALSE(ParseJoinType("sideways"));
  CHECK(ParseJoinHint("mapjoin") == JoinHint::kBroadcast);
  CHECK(ParseJoinHint("shuffle_merge") == JoinHint::kMerge);
  CHECK_FALSE(ParsePlanOp("Scan"));
  CHECK_FALSE(ParseShuffleOrigin("ensure_requirements"));
}

TEST_CASE("ClonePlan: deep copy of every field", "[plan]") {
  PlanNode join;
  join.op = PlanOp::kJoin;
  join.id = "j1";
  join.pointer = "/plan";
  join.strategy = JoinStrategy::kShuffledHash;
  join.join_type = JoinType::kLeftOuter;
  join.build_side = BuildSide::kRight;
  join.left_hint = JoinHint::kMerge;
  join.selectivity = 0.5;
  auto exchange = std::make_unique<PlanNode>();
  exchange->op = PlanOp::kExchange;
  exchange->id = "e1";
  exchange->num_partitions = 3;
  exchange->origin = ShuffleOrigin::kRepartitionByNum;
  SizeMatrix m(1, 3);
  m.at(0, 2) = 7;
  exchange->sizes = SizesSpec{m, "matrix"};
  exchange->data_size_bytes = 99;
  exchange->advisory_partition_size_bytes = 5;
  exchange->single_partition = true;
  auto scan = std::make_unique<PlanNode>();
  scan->id = "s1";
  scan->scan_bytes = 123;
  scan->rows = 4;
  scan->tasks = 2;
  scan->estimated_bytes = 50;
  exchange->children.push_back(std::move(scan));
  join.children.push_back(std::move(exchange));
  auto agg = std::make_unique<PlanNode>();
  agg->op = PlanOp::kAggregate;
  agg->grouped = false;
  join.children.push_back(std::move(agg));

  const auto copy = ClonePlan(join);
  CHECK(copy->id == "j1");
  CHECK(copy->pointer == "/plan");
  CHECK(copy->strategy == JoinStrategy::kShuffledHash);
  CHECK(copy->join_type == JoinType::kLeftOuter);
  CHECK(copy->build_side == BuildSide::kRight);
  CHECK(copy->left_hint == JoinHint::kMerge);
  CHECK(copy->selectivity == 0.5);
  REQUIRE(copy->children.size() == 2);
  const PlanNode& e = copy->child(0);
  CHECK(e.num_partitions == 3);
  CHECK(e.origin == ShuffleOrigin::kRepartitionByNum);
  REQUIRE(e.sizes);
  CHECK(std::get<SizeMatrix>(e.sizes->form).at(0, 2) == 7);
  CHECK(e.data_size_bytes == 99);
  CHECK(e.advisory_partition_size_bytes == 5);
  CHECK(e.single_partition);
  CHECK(e.child().scan_bytes == 123);
  CHECK(e.child().rows == 4);
  CHECK(e.child().tasks == 2);
  CHECK(e.child().estimated_bytes == 50);
  CHECK_FALSE(copy->child(1).grouped);
  // Independent: changing the copy leaves the original alone.
  copy->child(0).child().scan_bytes = 1;
  CHECK(join.child(0).child().scan_bytes == 123);
  CHECK(copy->children[0].get() != join.children[0].get());
}

}  // namespace
}  // namespace aqesim
