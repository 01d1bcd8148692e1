// Bucketed scans at planning and at run time: EnsureRequirements' co-partitioning of bucketed
// sides, CoalesceBucketsInJoin, DisableUnnecessaryBucketedScan, the bucketed scan's tasks —
// through the static planner and the engine, on scenarios built in the test
// (docs/aqe-behaviour.md §14). Expected counts and messages are worked out by hand.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

// A sort-merge join of `left` and `right` (JSON plan nodes) with `conf` entries.
std::unique_ptr<Scenario> Load(const std::string& plan, const std::string& conf = "") {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"name": "t", "cluster": {"executors": 2, "executorCores": 4},
          "conf": {"spark.sql.autoBroadcastJoinThreshold": -1)" +
      (conf.empty() ? "" : ", " + conf) + R"(}, "plan": )" + plan + "}");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  for (const Diagnostic& d : lr.errors) FAIL_CHECK(d.ToString());
  REQUIRE(lr.errors.empty());
  return std::move(lr.scenario);
}

std::string Scan(const std::string& id, const std::string& bytes, int buckets,
                 const std::string& keys = R"(["user_id"])") {
  return R"({"op": "scan", "id": ")" + id + R"(", "bytes": ")" + bytes + R"(", "bucketing": {"keys": )" +
         keys + R"(, "numBuckets": )" + std::to_string(buckets) + R"(, "sorted": true}})";
}

std::string Join(const std::string& left, const std::string& right, const std::string& extra = "") {
  return R"({"op": "join", "id": "j", "strategy": "SortMergeJoin", "joinType": "Inner", )" + extra +
         R"("left": )" + left + R"(, "right": )" + right + "}";
}

std::vector<std::string> Messages(const StaticPlan& p) {
  std::vector<std::string> out;
  for (const Decision& d : p.decisions) out.push_back(d.rule + ": " + d.message);
  return out;
}

const std::string kNoExchangeNote = " (AQE cannot coalesce or split a side without a shuffle)";

TEST_CASE("Bucketed join: equal bucket counts need no exchange", "[engine][bucketing]") {
  const auto s = Load(Join(Scan("a", "8g", 8), Scan("b", "4g", 8)));
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).op == PlanOp::kScan);
  REQUIRE(p.root->child(1).op == PlanOp::kScan);
  CHECK(p.root->child(0).planned_partitions == 8);
  CHECK(p.root->planned_partitions == 8);
  CHECK(Messages(p) ==
        std::vector<std::string>{
            "EnsureRequirements: j: bucketed scan a satisfies ClusteredDistribution (join) with "
            "HashPartitioning(user_id, 8): no exchange on the left" +
                kNoExchangeNote,
            "EnsureRequirements: j: bucketed scan b satisfies ClusteredDistribution (join) with "
            "HashPartitioning(user_id, 8): no exchange on the right" +
                kNoExchangeNote});
  for (bool adaptive : {false, true}) {
    const RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 1);  // one stage: the join reads both tables' buckets
    CHECK(r.stages[0].tasks == 8);
    REQUIRE(r.stages[0].task_results.size() == 8);
    CHECK(r.stages[0].task_results[0].input_bytes == (int64_t{1} << 30) + (int64_t{512} << 20));
    CHECK(r.stages[0].shuffle_read_bytes == 0);
  }
}

TEST_CASE("Bucketed join: 3 vs 6 buckets shuffles the 3-bucket side to 6 partitions", "[engine][bucketing]") {
  const auto s = Load(Join(Scan("a", "3g", 3), Scan("b", "6g", 6), R"("keys": ["user_id"], )"));
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).is_exchange());
  CHECK(p.root->child(0).id == "a-exchange");
  CHECK(p.root->child(0).planned_partitions == 6);
  // No operator between the exchange and a needs a's buckets: a is read as 3 GiB / 128 MiB splits.
  CHECK_FALSE(p.root->child(0).child(0).bucketed_read_tasks.has_value());
  CHECK(p.root->child(0).child(0).planned_partitions == 24);
  CHECK(p.root->child(1).op == PlanOp::kScan);
  CHECK(p.root->child(1).planned_partitions == 6);
  CHECK(
      Messages(p) ==
      std::vector<std::string>{
          "EnsureRequirements: j: ShuffleExchange a-exchange inserted on the left (bucketed scan a's "
          "HashPartitioning(user_id, 3) is not co-partitioned with the other side), 6 partitions (the right "
          "side's HashPartitioning(user_id, 6) of bucketed scan b)",
          "EnsureRequirements: j: bucketed scan b satisfies ClusteredDistribution (join) with "
          "HashPartitioning(user_id, 6): no exchange on the right" +
              kNoExchangeNote,
          "DisableUnnecessaryBucketedScan: a: bucketed scan (3 buckets) read as a normal scan of 24 tasks "
          "(an "
          "exchange above it re-partitions it; spark.sql.sources.bucketing.autoBucketedScan.enabled)"});
  for (bool adaptive : {false, true}) {
    INFO((adaptive ? "AQE on" : "AQE off"));
    const RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 2);
    CHECK(r.stages[0].name == "a-exchange map");
    CHECK(r.stages[0].tasks == 24);
    // The join stage reads a scan: AQE leaves its 6 partitions alone (nothing to coalesce).
    CHECK(r.stages[1].tasks == 6);
    CHECK(r.stages[1].input_bytes == int64_t{6} << 30);
    CHECK(r.stages[1].shuffle_read_bytes == int64_t{3} << 30);
  }
}

TEST_CASE("Bucketed join: CoalesceBucketsInJoin reads the 6-bucket side in 3 tasks", "[engine][bucketing]") {
  const std::string plan = Join(Scan("a", "3g", 3), Scan("b", "6g", 6));
  const std::string on = R"("spark.sql.bucketing.coalesceBucketsInJoin.enabled": true)";
  SECTION("enabled, ratio 2 <= 4: no exchange") {
    const auto s = Load(plan, on);
    const StaticPlan p = PlanStatically(*s, s->conf);
    REQUIRE(p.root->child(1).op == PlanOp::kScan);
    CHECK(*p.root->child(1).bucketed_read_tasks == 3);
    CHECK(p.root->planned_partitions == 3);
    REQUIRE(p.decisions.size() == 3);
    CHECK(p.decisions[0].rule == "CoalesceBucketsInJoin");
    CHECK(p.decisions[0].message ==
          "j: buckets of b coalesced 6 → 3 (the left side has 3; ratio 2 <= "
          "spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio 4): each of its 3 tasks reads 2 buckets");
    CHECK(p.decisions[2].message ==
          "j: bucketed scan b satisfies ClusteredDistribution (join) with HashPartitioning(user_id, 3): no "
          "exchange on the right" +
              kNoExchangeNote);
    const RunResult r = SimulateQuery(*s, true);
    REQUIRE(r.stages.size() == 1);
    CHECK(r.stages[0].tasks == 3);
    // Task 0: bucket 0 of a (1 GiB) and buckets 0 and 3 of b (1 GiB each).
    CHECK(r.stages[0].task_results[0].input_bytes == int64_t{3} << 30);
  }
  SECTION("ratio 2 above maxBucketRatio 1: shuffled as without coalescing") {
    const auto s = Load(plan, on + R"(, "spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio": 1)");
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).is_exchange());
    CHECK(p.root->planned_partitions == 6);
  }
  SECTION("3 vs 7: not a multiple, shuffled to 7") {
    const auto s = Load(Join(Scan("a", "3g", 3), Scan("b", "7g", 7)), on);
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).is_exchange());
    CHECK(p.root->planned_partitions == 7);
  }
  SECTION("a shuffled hash join building the 6-bucket side does not coalesce it") {
    const auto s = Load(R"({"op": "join", "id": "j", "strategy": "ShuffledHashJoin", "joinType": "Inner",
                            "buildSide": "BuildRight", "left": )" +
                            Scan("a", "3g", 3) + R"(, "right": )" + Scan("b", "6g", 6) + "}",
                        on);
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).is_exchange());
    CHECK(*p.root->child(1).bucketed_read_tasks == 6);
  }
}

TEST_CASE("Bucketed join: bucketing disabled gives two exchanges of spark.sql.shuffle.partitions",
          "[engine][bucketing]") {
  const auto s =
      Load(Join(Scan("a", "3g", 3), Scan("b", "6g", 6)), R"("spark.sql.sources.bucketing.enabled": false)");
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).is_exchange());
  REQUIRE(p.root->child(1).is_exchange());
  CHECK(p.root->child(0).planned_partitions == 200);
  CHECK(p.root->child(1).planned_partitions == 200);
  CHECK(p.root->child(0).child(0).planned_partitions == 24);  // 3 GiB / 128 MiB
  CHECK(p.root->child(1).child(0).planned_partitions == 48);
  CHECK(p.decisions.size() == 2);  // the two insertions; nothing about buckets
}

TEST_CASE("Bucketed join: a plain side is shuffled to the bucket count", "[engine][bucketing]") {
  const auto s = Load(Join(R"({"op": "scan", "id": "a", "bytes": "1g", "tasks": 10})", Scan("b", "6g", 6)));
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).is_exchange());
  CHECK(p.root->child(0).planned_partitions == 6);
  CHECK(p.decisions[0].message ==
        "j: ShuffleExchange a-exchange inserted on the left (scan a does not satisfy ClusteredDistribution "
        "(join)), 6 partitions (the right side's HashPartitioning(user_id, 6) of bucketed scan b)");
}

TEST_CASE("Bucketed join: join keys a superset of the bucket keys", "[engine][bucketing]") {
  const std::string keys = R"("keys": ["user_id", "day"], )";
  SECTION("equal counts: compatible, no exchange (Spark 3.3+)") {
    const auto s = Load(Join(Scan("a", "3g", 4), Scan("b", "6g", 4), keys));
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).op == PlanOp::kScan);
    CHECK(p.root->child(1).op == PlanOp::kScan);
  }
  SECTION("different counts: neither side can re-partition the other, both shuffled to 200") {
    const auto s = Load(Join(Scan("a", "3g", 4), Scan("b", "6g", 8), keys));
    const StaticPlan p = PlanStatically(*s, s->conf);
    REQUIRE(p.root->child(0).is_exchange());
    REQUIRE(p.root->child(1).is_exchange());
    CHECK(p.root->planned_partitions == 200);
    CHECK_FALSE(p.root->child(1).child(0).bucketed_read_tasks.has_value());
  }
}

TEST_CASE("Bucketed scan: an aggregate on its keys needs no exchange", "[engine][bucketing]") {
  auto agg = [](const std::string& keys) {
    return R"({"op": "aggregate", "id": "agg", )" + keys + R"("child": )" + Scan("a", "3g", 3) + "}";
  };
  SECTION("keys not given: taken to be the bucket keys") {
    const auto s = Load(agg(""));
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).op == PlanOp::kScan);
    CHECK(p.root->planned_partitions == 3);
    REQUIRE(p.decisions.size() == 1);
    CHECK(
        p.decisions[0].message ==
        "agg: bucketed scan a satisfies ClusteredDistribution (aggregate) with HashPartitioning(user_id, 3): "
        "no exchange on the child" +
            kNoExchangeNote);
    const RunResult r = SimulateQuery(*s, true);
    REQUIRE(r.stages.size() == 1);
    CHECK(r.stages[0].tasks == 3);
  }
  SECTION("grouping keys a superset of the bucket keys: satisfied") {
    const auto s = Load(agg(R"("keys": ["day", "user_id"], )"));
    const StaticPlan p = PlanStatically(*s, s->conf);
    CHECK(p.root->child(0).op == PlanOp::kScan);
  }
  SECTION("other grouping keys: an exchange, and the scan is read normally") {
    const auto s = Load(agg(R"("keys": ["day"], )"));
    const StaticPlan p = PlanStatically(*s, s->conf);
    REQUIRE(p.root->child(0).is_exchange());
    CHECK(p.root->child(0).planned_partitions == 200);
    CHECK(p.root->child(0).child(0).planned_partitions == 24);
  }
}

TEST_CASE("Bucketed scan: read normally when nothing above needs its partitioning", "[engine][bucketing]") {
  const auto s = Load(R"({"op": "filter", "id": "f", "child": )" + Scan("a", "3g", 3) + "}");
  const StaticPlan p = PlanStatically(*s, s->conf);
  CHECK(p.root->child(0).planned_partitions == 24);
  REQUIRE(p.decisions.size() == 1);
  CHECK(p.decisions[0].message ==
        "a: bucketed scan (3 buckets) read as a normal scan of 24 tasks (no operator above needs its "
        "partitioning; spark.sql.sources.bucketing.autoBucketedScan.enabled)");
  const auto kept = Load(R"({"op": "filter", "id": "f", "child": )" + Scan("a", "3g", 3) + "}",
                         R"("spark.sql.sources.bucketing.autoBucketedScan.enabled": false)");
  const StaticPlan q = PlanStatically(*kept, kept->conf);
  CHECK(q.root->child(0).planned_partitions == 3);
  CHECK(q.decisions.empty());
}

TEST_CASE("Bucketed join: the scenario's exchange beside a bucketed side takes its count",
          "[engine][bucketing]") {
  const auto s = Load(Join(R"({"op": "exchange", "id": "e", "child": {"op": "scan", "id": "a", "bytes": "1g",
                               "tasks": 10}})",
                           Scan("b", "6g", 6)));
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.root->child(0).id == "e");
  CHECK(p.root->child(0).planned_partitions == 6);
  CHECK(p.root->child(0).shuffle->data->num_reducers == 6);
  CHECK(p.decisions[0].message ==
        "j: ShuffleExchange e on the left re-partitioned 200 → 6 partitions (the right side's "
        "HashPartitioning(user_id, 6) of bucketed scan b)");
}

}  // namespace
}  // namespace aqesim
