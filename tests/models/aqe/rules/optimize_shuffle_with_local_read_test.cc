// OptimizeShuffleWithLocalRead on small plans: a broadcast hash join's probe read (or a stage
// whose whole input is one shuffle) read by mapper; Spark's LOCALREAD vectors through the rule.
#include "models/aqe/rules/optimize_shuffle_with_local_read.h"

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

const Matrix kTwoMapsFiveReducers = {{160, 160, 160, 160, 160}, {160, 160, 160, 160, 160}};

/// BroadcastHashJoin j (BuildRight): probe read p (2 maps x 5 reducers), build read b.
std::unique_ptr<ExecNode> BroadcastJoin(PlanBuilder& b,
                                        ShuffleOrigin probe_origin = ShuffleOrigin::kEnsureRequirements) {
  return b.Join("j", JoinStrategy::kBroadcastHash, JoinType::kInner,
                b.Shuffle("p", kTwoMapsFiveReducers, probe_origin),
                b.Shuffle("b", Matrix{{10, 10, 10, 10, 10}}), BuildSide::kRight);
}

TEST_CASE("OptimizeShuffleWithLocalRead: fires on a broadcast hash join's probe read", "[aqe][localread]") {
  PlanBuilder b;
  auto plan = BroadcastJoin(b);
  const RuleOutcome out = OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  // 5 reducers over 2 mappers: each mapper's reducers in two ranges (LOCALREAD-04's 4 specs).
  CHECK(ToString(SpecsOf(*plan, "p")) == "[PM(0,0,3) PM(0,3,5) PM(1,0,3) PM(1,3,5)]");
  CHECK_FALSE(testing::Find(*plan, "b").shuffle->read_specs.has_value());  // the build side is another stage
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].message == "p: local shuffle read (probe side of j), 5 → 4 tasks over 2 mappers");
}

TEST_CASE("OptimizeShuffleWithLocalRead: not when an operator above needs the shuffle's partitioning",
          "[aqe][localread]") {
  SECTION("an aggregate above the join in the same stage") {
    PlanBuilder b;
    auto plan = b.Unary(PlanOp::kAggregate, "agg", BroadcastJoin(b));
    const RuleOutcome out = OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    CHECK_FALSE(testing::Find(*plan, "p").shuffle->read_specs.has_value());
  }
  SECTION("a user repartition by columns is never read locally") {
    PlanBuilder b;
    auto plan = BroadcastJoin(b, ShuffleOrigin::kRepartitionByCol);
    CHECK_FALSE(OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get()).changed);
  }
}

TEST_CASE("OptimizeShuffleWithLocalRead: skipped when localShuffleReader.enabled=false", "[aqe][localread]") {
  SqlConf conf;
  conf.local_shuffle_reader_enabled = false;
  conf.coalesce_partitions_enabled = false;  // the pipeline's coalescing would set specs too
  PlanBuilder b(conf);
  auto plan = BroadcastJoin(b);
  CHECK_FALSE(OptimizeShuffleWithLocalRead().Enabled(conf));
  for (const Decision& d : AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get()))
    CHECK(d.rule != "OptimizeShuffleWithLocalRead");
  CHECK_FALSE(testing::Find(*plan, "p").shuffle->read_specs.has_value());
}

TEST_CASE("OptimizeShuffleWithLocalRead: deterministic", "[aqe][localread]") {
  auto run = [] {
    PlanBuilder b;
    auto plan = BroadcastJoin(b);
    const RuleOutcome out = OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get());
    return testing::DecisionTexts(out.decisions).front() + ToString(SpecsOf(*plan, "p"));
  };
  CHECK(run() == run());
}

TEST_CASE("OptimizeShuffleWithLocalRead: Spark's vectors LOCALREAD-01 and LOCALREAD-04", "[aqe][localread]") {
  SECTION("LOCALREAD-01: the coalesced spec count is the local read's parallelism") {
    const auto& in = testing::Vector("LOCALREAD-01").at("input");
    PlanBuilder b;
    const std::vector<int64_t> sizes = in.at("preShufflePartitionSizes");
    Matrix m(static_cast<size_t>(in.at("numMappers").get<int>()), std::vector<int64_t>(sizes.size(), 0));
    m[0] = sizes;  // one mapper holds the 72 B
    auto plan = b.Join("j", JoinStrategy::kBroadcastHash, JoinType::kInner, b.Shuffle("p", m),
                       b.Shuffle("b", Matrix{{1, 1, 1, 1, 1}}), BuildSide::kRight);
    testing::Find(*plan, "p").shuffle->read_specs = testing::SpecsFromJson(in.at("coalescedSpecs"));
    CHECK(OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get()).changed);
    CHECK(ToString(SpecsOf(*plan, "p")) ==
          ToString(testing::SpecsFromJson(testing::Vector("LOCALREAD-01").at("expected").at("specs"))));
  }
  SECTION("LOCALREAD-04: a root REBALANCE without columns that coalescing left alone") {
    PlanBuilder b;
    auto plan = b.Shuffle("repartition", kTwoMapsFiveReducers, ShuffleOrigin::kRebalancePartitionsByNone);
    const RuleOutcome out = OptimizeShuffleWithLocalRead().Apply(b.Context(), plan.get());
    CHECK(out.changed);
    CHECK(SpecsOf(*plan, "repartition").size() ==
          testing::Vector("LOCALREAD-04").at("expected").at("numSpecs").get<size_t>());
    CHECK(out.decisions[0].message ==
          "repartition: local shuffle read (whole stage input), 5 → 4 tasks over 2 mappers");
  }
}

}  // namespace
}  // namespace aqesim
