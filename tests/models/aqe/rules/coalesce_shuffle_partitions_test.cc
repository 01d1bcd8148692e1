// CoalesceShufflePartitions on small plans: a new stage's reads coalesced to the group's target
// size, Spark's ShufflePartitionsUtil vectors (tests/data/spark-aqe/vectors.json) through the rule.
#include "models/aqe/rules/coalesce_shuffle_partitions.h"

#include <catch2/catch.hpp>

#include "models/aqe/aqe_optimizer.h"
#include "tests/models/shuffle/spark_vectors.h"
#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;
using testing::SpecsFromJson;
using testing::SpecsOf;
using testing::ToString;

/// "e<s>", the s-th exchange of a vector's plan. Appended, not "e" + std::string&&: that trips a
/// GCC 12 -Wrestrict false positive (GCC bug 105329), an error under AQESIM_WERROR.
std::string ExchangeName(size_t s) {
  std::string name = "e";
  name += std::to_string(s);
  return name;
}

/// advisory 100 B, minPartitionNum 1, minPartitionSize 1 B.
SqlConf SmallConf() {
  SqlConf c;
  c.advisory_partition_size_bytes = 100;
  c.coalesce_min_partition_num = 1;
  c.coalesce_min_partition_size_bytes = 1;
  return c;
}

/// aggregate(read e1) with e1's single map row `sizes`.
std::unique_ptr<ExecNode> AggregateOver(PlanBuilder& b, const std::vector<int64_t>& sizes) {
  return b.Unary(PlanOp::kAggregate, "agg", b.Shuffle("e1", Matrix{sizes}));
}

TEST_CASE("CoalesceShufflePartitions: fires, packing neighbours up to the target size", "[aqe][coalesce]") {
  PlanBuilder b(SmallConf());
  auto plan = AggregateOver(b, {10, 0, 90, 20, 0});
  const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
  CHECK(out.changed);
  CHECK(ToString(SpecsOf(*plan, "e1")) == "[C(0,3,100) C(3,5,20)]");
  REQUIRE(out.decisions.size() == 1);
  const Decision& d = out.decisions[0];
  CHECK(d.rule == "CoalesceShufflePartitions");
  CHECK(d.message == "e1: 5 → 2 partitions (target 100 B)");
  CHECK(d.fields.at("partitionsBefore") == 5);
  CHECK(d.fields.at("partitionsAfter") == 2);
  CHECK(d.fields.at("targetSizeBytes") == 100);
  CHECK(d.at == SimTime::Seconds(1.5));
}

TEST_CASE("CoalesceShufflePartitions: two partitions one byte above the target stay apart",
          "[aqe][coalesce]") {
  SECTION("50 + 50 = the target: coalesced") {
    PlanBuilder b(SmallConf());
    auto plan = AggregateOver(b, {50, 50});
    CHECK(CoalesceShufflePartitions().Apply(b.Context(), plan.get()).changed);
    CHECK(ToString(SpecsOf(*plan, "e1")) == "[C(0,2,100)]");
  }
  SECTION("50 + 51: nothing gained, the read is left as it is") {
    PlanBuilder b(SmallConf());
    auto plan = AggregateOver(b, {50, 51});
    const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
    CHECK_FALSE(out.changed);
    CHECK(out.decisions.empty());
    CHECK_FALSE(testing::Find(*plan, "e1").shuffle->read_specs.has_value());
  }
}

TEST_CASE("CoalesceShufflePartitions: skipped when coalescePartitions.enabled=false", "[aqe][coalesce]") {
  SqlConf conf = SmallConf();
  conf.coalesce_partitions_enabled = false;
  PlanBuilder b(conf);
  auto plan = AggregateOver(b, {10, 0, 90, 20, 0});
  CHECK_FALSE(CoalesceShufflePartitions().Enabled(conf));
  CHECK(AqeOptimizer().OptimizeQueryStage(b.Context(), plan.get()).empty());
  CHECK_FALSE(testing::Find(*plan, "e1").shuffle->read_specs.has_value());
}

TEST_CASE("CoalesceShufflePartitions: deterministic", "[aqe][coalesce]") {
  auto run = [] {
    PlanBuilder b(SmallConf());
    auto left = b.Shuffle("l", Matrix{{30, 30, 0, 40, 110}, {1, 2, 3, 4, 5}});
    auto right = b.Shuffle("r", Matrix{{5, 0, 70, 0, 30}});
    auto plan = b.SortMergeJoin("j", JoinType::kInner, std::move(left), std::move(right));
    const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
    return testing::DecisionTexts(out.decisions).front() + ToString(SpecsOf(*plan, "l")) +
           ToString(SpecsOf(*plan, "r"));
  };
  const std::string first = run();
  CHECK(first == run());
  CHECK(first.find("l,r: 5 → ") != std::string::npos);  // one group: both sides of the join
}

TEST_CASE("CoalesceShufflePartitions: Spark's coalescePartitions vectors through the rule",
          "[aqe][coalesce]") {
  // One shuffle: an aggregate over its read; two: a sort-merge join's two reads (one group).
  for (const auto& v : testing::VectorsWithPrefix("COAL-")) {
    INFO(v.at("id").get<std::string>());
    const auto& in = v.at("input");
    const auto& stats = in.at("bytesByPartitionId");
    bool missing_stats = false;
    for (const auto& s : stats) missing_stats |= s.is_null();
    if (missing_stats) continue;  // a stage without map statistics has no read to coalesce
    SqlConf conf;
    conf.advisory_partition_size_bytes = in.at("advisoryTargetSize");
    conf.coalesce_min_partition_num = in.at("minNumPartitions").get<int>();
    conf.coalesce_min_partition_size_bytes = in.at("minPartitionSize");
    PlanBuilder b(conf);
    std::vector<std::unique_ptr<ExecNode>> reads;
    for (size_t s = 0; s < stats.size(); ++s) {
      reads.push_back(b.Shuffle(ExchangeName(s), Matrix{stats[s].get<std::vector<int64_t>>()}));
      if (!in.at("inputPartitionSpecs")[s].is_null())
        reads.back()->shuffle->read_specs = SpecsFromJson(in.at("inputPartitionSpecs")[s]);
    }
    std::vector<std::optional<std::vector<ShufflePartitionSpec>>> before;
    for (auto& r : reads) before.push_back(r->shuffle->read_specs);
    auto plan = reads.size() == 1
                    ? b.Unary(PlanOp::kAggregate, "agg", std::move(reads[0]))
                    : b.SortMergeJoin("j", JoinType::kInner, std::move(reads[0]), std::move(reads[1]));
    const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
    const auto& expected = v.at("expected");
    if (expected.contains("error")) {  // Spark asserts: the rule leaves the reads and says why
      REQUIRE(out.decisions.size() == 1);
      CHECK(out.decisions[0].fields.at("applied") == false);
    }
    const bool applied = expected.value("coalescingApplied", false);
    CHECK(out.changed == applied);
    for (size_t s = 0; s < stats.size(); ++s) {
      const ExecNode& read = testing::Find(*plan, ExchangeName(s));
      if (applied) {
        REQUIRE(read.shuffle->read_specs.has_value());
        CHECK(ToString(*read.shuffle->read_specs) ==
              ToString(SpecsFromJson(expected.at("specsPerShuffle")[s])));
      } else {
        const bool unchanged = read.shuffle->read_specs == before[s];
        CHECK(unchanged);
      }
    }
  }
}

TEST_CASE("CoalesceShufflePartitions: union children are groups sharing minNumPartitions (GROUPS-D1)",
          "[aqe][coalesce]") {
  // minNumPartitions 8 over groups of 300 B and 100 B: 6 and 2 (vector GROUPS-D1).
  SqlConf conf;
  conf.advisory_partition_size_bytes = 1000;
  conf.coalesce_min_partition_num = 8;
  conf.coalesce_min_partition_size_bytes = 1;
  PlanBuilder b(conf);
  std::vector<std::unique_ptr<ExecNode>> children;
  children.push_back(
      b.Unary(PlanOp::kAggregate, "a1", b.Shuffle("e1", Matrix{std::vector<int64_t>(12, 25)})));
  children.push_back(
      b.Unary(PlanOp::kAggregate, "a2", b.Shuffle("e2", Matrix{std::vector<int64_t>(10, 10)})));
  auto plan = b.Union("u", std::move(children));
  const RuleOutcome out = CoalesceShufflePartitions().Apply(b.Context(), plan.get());
  REQUIRE(out.decisions.size() == 2);
  // 300 B / 6 = 50 B: pairs of 25 B; 100 B / 2 = 50 B: fives of 10 B.
  CHECK(out.decisions[0].fields.at("minNumPartitions") == 6);
  CHECK(out.decisions[0].fields.at("partitionsAfter") == 6);
  CHECK(out.decisions[1].fields.at("minNumPartitions") == 2);
  CHECK(out.decisions[1].fields.at("partitionsAfter") == 2);
}

TEST_CASE("CoalesceShufflePartitions: tiny data on a big cluster coalesces to minPartitionSize (TARGET-D2)",
          "[aqe][coalesce]") {
  // 10 MiB over 20 reducers, advisory 64 MiB, defaultParallelism 1000 with parallelismFirst:
  // ceil(10 MiB / 1000) = 10486 B is lifted to minPartitionSize 1 MiB.
  SqlConf conf;
  conf.coalesce_min_partition_size_bytes = 1 << 20;
  PlanBuilder b(conf);
  auto plan = AggregateOver(b, std::vector<int64_t>(20, 512 << 10));
  RuleContext ctx = b.Context();
  ctx.default_parallelism = 1000;
  const RuleOutcome out = CoalesceShufflePartitions().Apply(ctx, plan.get());
  REQUIRE(out.decisions.size() == 1);
  CHECK(out.decisions[0].fields.at("targetSizeBytes") == 1048576);
  CHECK(out.decisions[0].fields.at("partitionsAfter") == 10);
}

}  // namespace
}  // namespace aqesim
