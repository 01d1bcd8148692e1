// End-to-end vectors (tests/data/spark-aqe/vectors.json, the AdaptiveQueryExecSuite ones the
// scenario format can express): each is a scenario under scenarios/vectors/, run through
// `aqesim explain` (or `aqesim run --format json` for task counts).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::json;

const std::string kDir = "scenarios/vectors/";

/// Whether the read of `exchange` is an AQE shuffle read: its specs differ from the default
/// one Coalesced(i, i+1) per reducer.
bool IsAqeRead(const json& explain, const std::string& exchange) {
  const json& specs = ReadSpecsOf(explain, exchange);
  const int reducers = ExchangeById(explain, exchange).at("numPartitions").get<int>();
  if (static_cast<int>(specs.size()) != reducers) return true;
  for (int i = 0; i < reducers; ++i) {
    const json& s = specs[i];
    if (s.at("type") != "CoalescedPartitionSpec" || s.at("startReducerIndex") != i ||
        s.at("endReducerIndex") != i + 1)
      return true;
  }
  return false;
}

bool HasCoalescedPartition(const json& specs) {
  for (const auto& r : CoalescedRanges(specs))
    if (r[1] - r[0] > 1) return true;
  return false;
}

int NumAqeReads(const json& explain) {
  int n = 0;
  for (const json& e : explain.at("exchanges")) n += IsAqeRead(explain, e.at("id").get<std::string>());
  return n;
}

int NumSkewJoins(const json& explain) {
  int n = 0;
  for (const json& j : explain.at("joins")) n += j.at("isSkewJoin").get<bool>();
  return n;
}

/// Tasks of the AQE-on run's result stage (`aqesim run --aqe on --format json`).
int ResultStageTasks(const std::string& scenario) {
  const CommandResult r = RunAqesim({"run", SourcePath(kDir + scenario), "--aqe", "on", "--format", "json"});
  INFO(r.stderr_text);
  REQUIRE(r.exit_code == 0);
  const json doc = json::parse(r.stdout_text);
  const json& stages = doc.at("runs").at(0).at("stages");
  for (const json& s : stages)
    if (s.at("kind") == "ResultStage") return s.at("tasks").get<int>();
  FAIL("no result stage");
  return -1;
}

}  // namespace

TEST_CASE("SKEWJOIN-01: join types decide which sides may be split", "[e2e][vectors]") {
  const json ex = Explain(kDir + "skewjoin01_join_types.json");
  struct Expect {
    const char* join;
    std::vector<int> left, right;
  };
  const std::vector<Expect> expected = {{"inner_smj", {0, 49}, {49}},    {"left_outer_smj", {0, 49}, {}},
                                        {"right_outer_smj", {}, {49}},   {"inner_shj", {0, 49}, {49}},
                                        {"left_outer_shj", {0, 49}, {}}, {"right_outer_shj", {}, {49}}};
  for (const Expect& e : expected) {
    INFO(e.join);
    const std::string id = e.join;
    CHECK(JoinById(ex, id).at("isSkewJoin") == true);
    CHECK(SplitReducers(ReadSpecsOf(ex, id + "_l")) == e.left);
    CHECK(SplitReducers(ReadSpecsOf(ex, id + "_r")) == e.right);
  }
  CHECK(JoinById(ex, "inner_shj").at("finalStrategy") == "ShuffledHashJoin");
}

TEST_CASE("SKEWJOIN-02: skewed partitions and splits of the shuffle reads", "[e2e][vectors]") {
  const json ex = Explain(kDir + "skewjoin02_read_metrics.json");
  const json& left = ReadSpecsOf(ex, "j_l");
  const json& right = ReadSpecsOf(ex, "j_r");
  CHECK(SplitReducers(left).size() == 2);  // numSkewedPartitions
  CHECK(SplitReducers(right).size() == 1);
  // numSkewedSplits: Spark 11 / 9 with its compressed blocks; 28-byte rows give 3 pieces for
  // each skewed reducer: left 3 (reducer 0) + 3 x 3 (reducer 49, both sides split) = 12, right 9.
  CHECK(CountSpecs(left, "PartialReducerPartitionSpec") == 12);
  CHECK(CountSpecs(right, "PartialReducerPartitionSpec") == 9);
  CHECK(HasCoalescedPartition(left));
  CHECK(HasCoalescedPartition(right));
}

TEST_CASE("SKEWJOIN-05: skew join through union is all or nothing", "[e2e][vectors]") {
  SECTION("skewJoin UNION ALL skewJoin: [2 joins, 2 skew]") {
    const json ex = Explain(kDir + "skewjoin05_union_two_joins.json");
    CHECK(ex.at("joins").size() == 2);
    CHECK(NumSkewJoins(ex) == 2);
  }
  SECTION("skewJoin UNION ALL aggregate: [1, 1]") {
    const json ex = Explain(kDir + "skewjoin05_union_join_aggregate.json");
    CHECK(ex.at("joins").size() == 1);
    CHECK(NumSkewJoins(ex) == 1);
  }
  SECTION("skewJoin1 UNION ALL (skewJoin2 JOIN aggregate): [3, 0]") {
    const json ex = Explain(kDir + "skewjoin05_union_join_over_join.json");
    CHECK(ex.at("joins").size() == 3);
    CHECK(NumSkewJoins(ex) == 0);
    CHECK(SplitReducers(ReadSpecsOf(ex, "j1_l")).empty());
    CHECK(SplitReducers(ReadSpecsOf(ex, "j2_l")).empty());
  }
}

TEST_CASE("LOCALREAD-04: a repartition that cannot be coalesced is read locally", "[e2e][vectors]") {
  const std::string file = kDir + "localread04_repartition_local_read.json";
  SECTION("coalescing disabled: 4 local specs") {
    const json ex = Explain(file);
    const json& specs = ReadSpecsOf(ex, "repartition");
    CHECK(specs.size() == 4);
    CHECK(CountSpecs(specs, "PartialMapperPartitionSpec") == 4);
    CHECK(DecisionsOf(ex, "OptimizeShuffleWithLocalRead").size() == 1);
  }
  SECTION("coalescing enabled, minPartitionNum 1: one coalesced, non-local spec") {
    const json ex = Explain(file, {"spark.sql.adaptive.coalescePartitions.enabled=true",
                                   "spark.sql.adaptive.coalescePartitions.minPartitionNum=1"});
    CHECK(CoalescedRanges(ReadSpecsOf(ex, "repartition")) == std::vector<std::vector<int>>{{0, 5}});
    CHECK(DecisionsOf(ex, "OptimizeShuffleWithLocalRead").empty());
  }
}

TEST_CASE("REBAL-02: REBALANCE without columns splits partitions above the advisory size", "[e2e][vectors]") {
  const json ex = Explain(kDir + "rebal02_rebalance_no_columns.json");
  const json& specs = ReadSpecsOf(ex, "rebalance");
  CHECK(CountSpecs(specs, "PartialReducerPartitionSpec") == 6);
  CHECK(specs.size() == 7);
  CHECK(SpecDataSizes(specs) == std::vector<int64_t>{144, 72, 144, 72, 72, 144, 72});
}

TEST_CASE("REBAL-03: nothing above a large advisory size: no split, one coalesced spec", "[e2e][vectors]") {
  const json ex = Explain(kDir + "rebal03_rebalance_large_advisory.json");
  const json& specs = ReadSpecsOf(ex, "rebalance");
  CHECK(CountSpecs(specs, "PartialReducerPartitionSpec") == 0);
  CHECK(specs.size() == 1);
}

TEST_CASE("REBAL-04: rebalancePartitionsSmallPartitionFactor", "[e2e][vectors]") {
  const std::string file = kDir + "rebal04_small_partition_factor.json";
  SECTION("0.2: [0,2) 185 B and [2,3) 97 B") {
    const json ex = Explain(file, {"spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor=0.2"});
    CHECK(IsAqeRead(ex, "rebalance"));
    const json& specs = ReadSpecsOf(ex, "rebalance");
    REQUIRE(specs.size() == 2);
    CHECK(SplitStartsOf(specs, 0) == std::vector<int>{0, 2});
    CHECK(specs[0].at("endMapIndex") == 2);
    CHECK(specs[1].at("endMapIndex") == 3);
    CHECK(SpecDataSizes(specs) == std::vector<int64_t>{185, 97});
  }
  SECTION("0.5: no split and no AQE shuffle read") {
    const json ex = Explain(file, {"spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor=0.5"});
    CHECK_FALSE(IsAqeRead(ex, "rebalance"));
    CHECK(DecisionsOf(ex, "OptimizeSkewInRebalancePartitions").empty());
  }
}

TEST_CASE("DJS-SHJ-400: PREFER_SHUFFLE_HASH when every partition fits the local map threshold",
          "[e2e][vectors]") {
  const std::string file = kDir + "djs_shj_400_prefer_shuffle_hash.json";
  SECTION("advisory 100: right side hinted, ShuffledHashJoin BuildRight") {
    const json ex = Explain(file);
    const auto hints = DecisionsOf(ex, "DynamicJoinSelection");
    REQUIRE(hints.size() == 1);
    CHECK(hints[0].at("side") == "right");
    CHECK(hints[0].at("hint") == "PREFER_SHUFFLE_HASH");
    CHECK(JoinById(ex, "j1").at("finalStrategy") == "ShuffledHashJoin");
    CHECK(JoinById(ex, "j1").at("buildSide") == "BuildRight");
  }
  SECTION("advisory 100000: no hint, SortMergeJoin") {
    const json ex = Explain(file, {"spark.sql.adaptive.advisoryPartitionSizeInBytes=100000"});
    CHECK(DecisionsOf(ex, "DynamicJoinSelection").empty());
    CHECK(JoinById(ex, "j1").at("finalStrategy") == "SortMergeJoin");
  }
}

TEST_CASE("BHJ-01: runtime sizes use the adaptive broadcast threshold", "[e2e][vectors]") {
  const std::string file = kDir + "bhj01_adaptive_broadcast_threshold.json";
  CHECK(JoinById(Explain(file), "j1").at("finalStrategy") == "SortMergeJoin");
  CHECK(JoinById(Explain(file, {"spark.sql.adaptive.autoBroadcastJoinThreshold=-1"}), "j1")
            .at("finalStrategy") == "SortMergeJoin");
  const json ex = Explain(file, {"spark.sql.adaptive.autoBroadcastJoinThreshold=160"});
  CHECK(JoinById(ex, "j1").at("finalStrategy") == "BroadcastHashJoin");  // 160 <= 160
  CHECK(JoinById(ex, "j1").at("buildSide") == "BuildRight");
}

TEST_CASE("DJS-EMPTY-01: a build side with too many empty partitions is not broadcast", "[e2e][vectors]") {
  const std::string file = kDir + "djs_empty01_many_empty_partitions.json";
  SECTION("threshold 80: NO_BROADCAST_HASH on testData, SortMergeJoin") {
    const json ex = Explain(file);
    const auto hints = DecisionsOf(ex, "DynamicJoinSelection");
    REQUIRE(hints.size() == 1);
    CHECK(hints[0].at("side") == "left");
    CHECK(hints[0].at("hint") == "NO_BROADCAST_HASH");
    CHECK(JoinById(ex, "j1").at("finalStrategy") == "SortMergeJoin");
  }
  SECTION("threshold 2000: testData2 broadcast instead, BroadcastHashJoin BuildRight") {
    const json ex = Explain(file, {"spark.sql.autoBroadcastJoinThreshold=2000"});
    CHECK(JoinById(ex, "j1").at("finalStrategy") == "BroadcastHashJoin");
    CHECK(JoinById(ex, "j1").at("buildSide") == "BuildRight");
  }
}

TEST_CASE("E2E-COAL-03: every union child is its own coalesce group", "[e2e][vectors]") {
  struct Expect {
    const char* file;
    int shuffle_reads, partitions;
  };
  const std::vector<Expect> expected = {{"e2e_coal03_q1_agg_t2.json", 1, 5},
                                        {"e2e_coal03_q2_agg_t2_t1.json", 1, 7},
                                        {"e2e_coal03_q3_smj_agg_t1.json", 3, 4},
                                        {"e2e_coal03_q4_t1_t2.json", 0, 6}};
  for (const Expect& e : expected) {
    INFO(e.file);
    CHECK(NumAqeReads(Explain(kDir + e.file)) == e.shuffle_reads);
    CHECK(ResultStageTasks(e.file) == e.partitions);
  }
}

}  // namespace aqesim::e2e
