// Variant bytedance.oneToManyBucketJoin: a 3-vs-6-bucket join without a shuffle, the 3-bucket
// side read through a bucket union (hand-computed tasks, bytes and messages).
#include "models/engine/bytedance_one_to_many_bucket_join.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "models/engine/query_execution.h"
#include "models/engine/static_planner.h"
#include "models/plan/bucketed_scan.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const std::string& join_type, const std::string& conf) {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"name": "t", "cluster": {"executors": 2, "executorCores": 4},
          "conf": {"spark.sql.autoBroadcastJoinThreshold": -1, )" +
      conf + R"(},
          "plan": {"op": "join", "id": "j", "strategy": "SortMergeJoin", "joinType": ")" +
      join_type + R"(", "keys": ["user_id"],
                   "left": {"op": "scan", "id": "a", "bytes": "3g",
                            "bucketing": {"keys": ["user_id"], "numBuckets": 3}},
                   "right": {"op": "scan", "id": "b", "bytes": "6g",
                             "bucketing": {"keys": ["user_id"], "numBuckets": 6}}}})");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  for (const Diagnostic& d : lr.errors) FAIL_CHECK(d.ToString());
  REQUIRE(lr.errors.empty());
  return std::move(lr.scenario);
}

const std::string kOn = R"("aqesim.variant.bytedance.oneToManyBucketJoin": true)";

TEST_CASE("OneToManyBucketJoin: a 3-vs-6-bucket inner join needs no shuffle",
          "[engine][bucketing][variant]") {
  const auto s = Load("Inner", kOn);
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).op == PlanOp::kScan);
  REQUIRE(p.root->child(1).op == PlanOp::kScan);
  CHECK(*p.root->child(0).bucketed_read_tasks == 6);
  CHECK(p.root->planned_partitions == 6);
  CHECK_FALSE(BucketUnionFilters(p.root->child(0)));
  REQUIRE(p.decisions.size() == 3);
  CHECK(p.decisions[0].rule == "EnsureRequirements");
  CHECK(
      p.decisions[0].message ==
      "j: bucket union of a: its 3 buckets read by the 6 tasks of b's buckets (task t reads bucket t mod 3, "
      "each bucket 2 times), no shuffle — variant bytedance.oneToManyBucketJoin changed this decision "
      "(Spark: ShuffleExchange on the left, a shuffled to 6 partitions)");
  CHECK(p.decisions[0].fields["variants"] == nlohmann::json::array({"bytedance.oneToManyBucketJoin"}));
  CHECK(p.decisions[1].message ==
        "j: bucketed scan a satisfies ClusteredDistribution (join) with HashPartitioning(user_id, 6) as a "
        "bucket "
        "union of its 3 buckets: no exchange on the left (AQE cannot coalesce or split a side without a "
        "shuffle)");
  const RunResult r = SimulateQuery(*s, true);
  REQUIRE(r.stages.size() == 1);
  CHECK(r.stages[0].tasks == 6);
  // Task 4: bucket 4 of b (1 GiB) and bucket 4 mod 3 = 1 of a (1 GiB); a is read twice in all.
  CHECK(r.stages[0].task_results[4].input_bytes == int64_t{2} << 30);
  CHECK(r.stages[0].input_bytes == int64_t{12} << 30);
  CHECK(r.stages[0].shuffle_read_bytes == 0);
}

TEST_CASE("OneToManyBucketJoin: the duplicated side's copies filter when it is preserved",
          "[engine][bucketing][variant]") {
  SECTION("LeftOuter: a's unmatched rows are output, each copy keeps its own keys") {
    const auto s = Load("LeftOuter", kOn);
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(BucketUnionFilters(p.root->child(0)));
    CHECK(
        p.decisions[0].message ==
        "j: bucket union of a: its 3 buckets read by the 6 tasks of b's buckets (task t reads bucket t mod "
        "3, "
        "each bucket 2 times; each copy keeps the rows with hash(user_id) mod 6 = t, a being the preserved "
        "side of a LeftOuter join), no shuffle — variant bytedance.oneToManyBucketJoin changed this decision "
        "(Spark: ShuffleExchange on the left, a shuffled to 6 partitions)");
  }
  SECTION("RightOuter: b is preserved, a's copies need no filter") {
    const auto s = Load("RightOuter", kOn);
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(*p.root->child(0).bucketed_read_tasks == 6);
    CHECK_FALSE(BucketUnionFilters(p.root->child(0)));
  }
}

TEST_CASE("OneToManyBucketJoin: off by default, and Spark's coalescing comes first",
          "[engine][bucketing][variant]") {
  SECTION("off: a is shuffled to 6 partitions") {
    const auto s = Load("Inner", R"("spark.sql.shuffle.partitions": 200)");
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).is_exchange());
  }
  SECTION("with coalesceBucketsInJoin on, Spark coalesces b to 3 and the variant does nothing") {
    const auto s = Load("Inner", kOn + R"(, "spark.sql.bucketing.coalesceBucketsInJoin.enabled": true)");
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(*p.root->child(0).bucketed_read_tasks == 3);
    CHECK(*p.root->child(1).bucketed_read_tasks == 3);
    CHECK(p.decisions[0].rule == "CoalesceBucketsInJoin");
  }
}

}  // namespace
}  // namespace aqesim
