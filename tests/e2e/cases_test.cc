// End-to-end checks of the real-world cases (tests/data/spark-aqe/cases.json): each case is a
// scenario under scenarios/cases/, run through `aqesim explain`; the expected numbers are the
// case file's `checks` (computed from the spec), unless a comment says why a scaled scenario
// has different ones.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::json;

const std::string kDir = "scenarios/cases/";

int64_t Bytes(const json& exchange, int reducer) {
  return exchange.at("bytesByPartitionId").at(reducer).get<int64_t>();
}

bool IsSkewJoin(const json& explain, const std::string& join) {
  return JoinById(explain, join).at("isSkewJoin").get<bool>();
}

/// The OptimizeSkewedJoin decision that split `join` (throws if there is none).
json SkewDecision(const json& explain, const std::string& join) {
  for (const json& d : DecisionsOf(explain, "OptimizeSkewedJoin"))
    if (d.value("join", "") == join) return d;
  throw std::runtime_error("no OptimizeSkewedJoin decision for " + join);
}

/// Per-task reported bytes of a two-sided join read: left spec dataSize + right spec dataSize.
std::vector<int64_t> TaskBytes(const json& explain, const std::string& left, const std::string& right) {
  const std::vector<int64_t> l = SpecDataSizes(ReadSpecsOf(explain, left));
  const std::vector<int64_t> r = SpecDataSizes(ReadSpecsOf(explain, right));
  REQUIRE(l.size() == r.size());
  std::vector<int64_t> out;
  for (size_t i = 0; i < l.size(); ++i) out.push_back(l[i] + r[i]);
  return out;
}

int64_t Max(const std::vector<int64_t>& v) {
  int64_t m = 0;
  for (int64_t x : v) m = std::max(m, x);
  return m;
}

}  // namespace

TEST_CASE("C01 SPARK-36967: HighlyCompressedMapStatus hides a skewed reducer", "[e2e][cases][slow]") {
  const std::string file = kDir + "c01_hcms_hides_skew.json";
  SECTION("accurateBlockSkewedFactor=-1 (default): every block reported as the map average, no skew") {
    const json ex = Explain(file);
    const json& left = ExchangeById(ex, "left");
    CHECK(left.at("mapStatus") == "HighlyCompressedMapStatus");
    // Scaled to 2001 reducers: average (52,428,800 + 2000 x 10,240) / 2001 = 36,436 B per block
    // (the case's 10000 reducers give 15,481), x 10000 maps.
    CHECK(Bytes(left, 0) == 364360000);
    CHECK(Bytes(left, 1) == 364360000);
    CHECK(Bytes(left, 2000) == 364360000);
    CHECK_FALSE(IsSkewJoin(ex, "j1"));
    CHECK(SplitReducers(ReadSpecsOf(ex, "left")).empty());
  }
  SECTION("accurateBlockSkewedFactor=5: reducer 0 recorded accurately, skewed, split into 5000 pieces") {
    const json ex = Explain(file, {"spark.shuffle.accurateBlockSkewedFactor=5"});
    const json& left = ExchangeById(ex, "left");
    CHECK(Bytes(left, 0) == 550087940000);  // 10000 x 55,008,794 (50 MiB log-encoded)
    CHECK(Bytes(left, 1) == 102400000);     // the small blocks now average exactly 10,240 B
    CHECK(Bytes(left, 2000) == 102400000);
    CHECK(IsSkewJoin(ex, "j1"));
    const json& specs = ReadSpecsOf(ex, "left");
    CHECK(SplitReducers(specs) == std::vector<int>{0});
    CHECK(CountSpecs(specs, "PartialReducerPartitionSpec") == 5000);
    const json d = SkewDecision(ex, "j1");
    CHECK(d.at("numSkewedLeft") == 1);
    CHECK(d.at("numSkewedRight") == 0);
    CHECK(d.at("leftTargetSizeBytes") == 102400000);
    // Map blocks paired: two 55,008,794 B blocks = 110,017,588 < 1.2 x target.
    const std::vector<int> starts = SplitStartsOf(specs, 0);
    REQUIRE(starts.size() == 5000);
    CHECK(starts[1] == 2);
    CHECK(starts.back() == 9998);
  }
}

TEST_CASE("C04 SPARK-31070: skew splits merge small pieces and a single piece is not skew", "[e2e][cases]") {
  const json ex = Explain(kDir + "c04_split_merge_small_pieces.json");
  CHECK(SplitStartsOf(ReadSpecsOf(ex, "l1"), 0) == std::vector<int>{0, 2, 5});
  CHECK(SplitStartsOf(ReadSpecsOf(ex, "l2"), 0) == std::vector<int>{0, 2, 4, 5});
  CHECK(SplitStartsOf(ReadSpecsOf(ex, "l3"), 0) == std::vector<int>{0, 3});
  CHECK(SplitStartsOf(ReadSpecsOf(ex, "l4"), 0) == std::vector<int>{0, 2, 3});
  for (const char* j : {"j1", "j2", "j3", "j4"}) {
    INFO(j);
    CHECK(IsSkewJoin(ex, j));
  }
  // [5000] from one mapper: one piece, so reducer 0 is not treated as skewed.
  CHECK(SplitReducers(ReadSpecsOf(ex, "l5")).empty());
  CHECK_FALSE(IsSkewJoin(ex, "j5"));
}

TEST_CASE("C08: skew on the null-supplying side of an outer join is never split", "[e2e][cases]") {
  const json ex = Explain(kDir + "c08_outer_join_skew_side.json");
  SECTION("LEFT OUTER: right reducer 5 stays one task") {
    CHECK_FALSE(IsSkewJoin(ex, "j_left_outer"));
    const json& right = ReadSpecsOf(ex, "lo_right");
    CHECK(SplitReducers(right).empty());
    // Every reducer is above the 64 MiB target, so the read keeps one spec per reducer; the
    // task of reducer 5 reads both sides' reported bytes of that reducer.
    CHECK(right.size() == 200);
    CHECK(Bytes(ExchangeById(ex, "lo_left"), 5) + Bytes(ExchangeById(ex, "lo_right"), 5) == 10830150000);
  }
  SECTION("INNER: right reducer 5 split into 100 pieces") {
    CHECK(IsSkewJoin(ex, "j_inner"));
    const json& right = ReadSpecsOf(ex, "in_right");
    CHECK(SplitReducers(right) == std::vector<int>{5});
    CHECK(SplitStartsOf(right, 5).size() == 100);
    CHECK(SplitReducers(ReadSpecsOf(ex, "in_left")).empty());
  }
  SECTION("FULL OUTER: nothing split") {
    CHECK_FALSE(IsSkewJoin(ex, "j_full_outer"));
    CHECK(SplitReducers(ReadSpecsOf(ex, "fo_left")).empty());
    CHECK(SplitReducers(ReadSpecsOf(ex, "fo_right")).empty());
  }
}

TEST_CASE("C10 SPARK-35923: empty partitions between split skewed partitions are dropped", "[e2e][cases]") {
  const json ex = Explain(kDir + "c10_empty_between_skewed.json");
  CHECK(IsSkewJoin(ex, "j1"));
  const json& left = ReadSpecsOf(ex, "left");
  const json& right = ReadSpecsOf(ex, "right");
  CHECK(left.size() == 4);
  CHECK(right.size() == 4);
  CHECK(SplitReducers(left) == std::vector<int>{1, 3});
  CHECK(TaskBytes(ex, "left", "right") == std::vector<int64_t>{74350704, 74350704, 74350704, 74350704});
}

TEST_CASE("C11 SPARK-31124: the partition-count floor keeps the cluster busy", "[e2e][cases]") {
  const std::string file = kDir + "c11_min_partition_num.json";
  SECTION("minPartitionNum unset, parallelismFirst: defaultParallelism = 100 cores -> 100 partitions") {
    const json ex = Explain(file);
    CHECK(ExchangeById(ex, "e1").at("bytesByPartitionId").at(0) == 575650);
    CHECK(ReadSpecsOf(ex, "e1").size() == 100);
    const auto d = DecisionsOf(ex, "CoalesceShufflePartitions");
    REQUIRE(d.size() == 1);
    CHECK(d[0].at("targetSizeBytes") == 1151300);
  }
  SECTION("minPartitionNum=100 -> 100 partitions") {
    CHECK(ReadSpecsOf(Explain(file, {"spark.sql.adaptive.coalescePartitions.minPartitionNum=100"}), "e1")
              .size() == 100);
  }
  SECTION("minPartitionNum=1 -> target 64 MiB -> 2 partitions") {
    const json ex = Explain(file, {"spark.sql.adaptive.coalescePartitions.minPartitionNum=1"});
    CHECK(ReadSpecsOf(ex, "e1").size() == 2);
    CHECK(DecisionsOf(ex, "CoalesceShufflePartitions").at(0).at("targetSizeBytes") == 67108864);
  }
}

TEST_CASE("C12 SPARK-35968: parallelismFirst and minPartitionSize", "[e2e][cases]") {
  const std::string pf_false = "spark.sql.adaptive.coalescePartitions.parallelismFirst=false";
  SECTION("(a) 200 x 5.5 MB, 400 cores: pf=true target 2,835,000 -> 200; pf=false -> 19") {
    const std::string file = kDir + "c12a_parallelism_first.json";
    const json on = Explain(file);
    CHECK(ReadSpecsOf(on, "e1").size() == 200);
    CHECK(DecisionsOf(on, "CoalesceShufflePartitions").empty());  // nothing gained: plan unchanged
    CHECK(ReadSpecsOf(Explain(file, {pf_false}), "e1").size() == 19);
  }
  SECTION("(b) 2000 x ~72 KB, 400 cores: pf=true 1 MiB floor -> 133; pf=false -> 3") {
    const std::string file = kDir + "c12b_min_partition_size.json";
    const json on = Explain(file);
    CHECK(ExchangeById(on, "e1").at("mapStatus") == "CompressedMapStatus");
    CHECK(ReadSpecsOf(on, "e1").size() == 133);
    CHECK(DecisionsOf(on, "CoalesceShufflePartitions").at(0).at("targetSizeBytes") == 1048576);
    CHECK(ReadSpecsOf(Explain(file, {pf_false}), "e1").size() == 3);
  }
  SECTION("(c) [64 MiB, 0.5 MiB, 64 MiB], pf=false: the small group joins its next neighbour") {
    const json ex = Explain(kDir + "c12c_small_middle_partition.json");
    CHECK(CoalescedRanges(ReadSpecsOf(ex, "e1")) == std::vector<std::vector<int>>{{0, 1}, {1, 3}});
  }
}

TEST_CASE("C13 SPARK-32698: the coalesced partition count follows the registered cores", "[e2e][cases]") {
  const std::string file = kDir + "c13_parallelism_varies.json";
  const std::string pf_false = "spark.sql.adaptive.coalescePartitions.parallelismFirst=false";
  CHECK(ReadSpecsOf(Explain(file), "e1").size() == 167);  // 8 cores
  CHECK(ReadSpecsOf(Explain(file, {"spark.default.parallelism=2000"}), "e1").size() == 1000);
  CHECK(ReadSpecsOf(Explain(file, {pf_false}), "e1").size() == 167);
  CHECK(ReadSpecsOf(Explain(file, {pf_false, "spark.default.parallelism=2000"}), "e1").size() == 167);
}

TEST_CASE("C16 SPARK-32083: an all-empty shuffle is read by exactly one task", "[e2e][cases]") {
  const json ex = Explain(kDir + "c16_all_empty_shuffle.json");
  const std::vector<std::vector<int>> one = {{0, 200}};
  CHECK(CoalescedRanges(ReadSpecsOf(ex, "left")) == one);
  CHECK(CoalescedRanges(ReadSpecsOf(ex, "right")) == one);
  CHECK(ReadSpecsOf(ex, "left").size() == 1);
  CHECK(JoinById(ex, "j1").at("finalStrategy") == "SortMergeJoin");
  // The aggregate's shuffle (above the join) is all-empty too: one task.
  CHECK(CoalescedRanges(ReadSpecsOf(ex, "e_agg")) == one);
}

TEST_CASE("C18 SPARK-29002: a mostly-empty build side is not broadcast", "[e2e][cases]") {
  SECTION("10% non-empty: NO_BROADCAST_HASH, stays SortMergeJoin") {
    const json ex = Explain(kDir + "c18_small_side_10pct.json");
    const auto hints = DecisionsOf(ex, "DynamicJoinSelection");
    REQUIRE_FALSE(hints.empty());
    CHECK(hints[0].at("side") == "right");
    CHECK(hints[0].at("hint") == "NO_BROADCAST_HASH");
    CHECK(JoinById(ex, "j1").at("finalStrategy") == "SortMergeJoin");
  }
  SECTION("25% non-empty: BroadcastHashJoin building the small side") {
    const json ex = Explain(kDir + "c18_small_side_25pct.json");
    CHECK(DecisionsOf(ex, "DynamicJoinSelection").empty());
    const json& j = JoinById(ex, "j1");
    CHECK(j.at("finalStrategy") == "BroadcastHashJoin");
    CHECK(j.at("buildSide") == "BuildRight");
  }
}

TEST_CASE("C20 SPARK-35264: the adaptive broadcast threshold, compared with dataSize", "[e2e][cases]") {
  const std::string adaptive_10mb = "spark.sql.adaptive.autoBroadcastJoinThreshold=10MB";
  const std::string a = kDir + "c20_adaptive_broadcast_small_a.json";
  const std::string b = kDir + "c20_adaptive_broadcast_small_b.json";
  SECTION("static -1, adaptive unset: never converted") {
    CHECK(JoinById(Explain(a), "j1").at("finalStrategy") == "SortMergeJoin");
    CHECK(JoinById(Explain(b), "j1").at("finalStrategy") == "SortMergeJoin");
  }
  SECTION("adaptive 10MB: 3 MB dataSize converted, 12 MB dataSize (3 MB of files) not") {
    const json ea = Explain(a, {adaptive_10mb});
    CHECK(ExchangeById(ea, "small_a").at("dataSizeBytes") == 3000000);
    CHECK(JoinById(ea, "j1").at("finalStrategy") == "BroadcastHashJoin");
    CHECK(JoinById(ea, "j1").at("buildSide") == "BuildRight");
    const json eb = Explain(b, {adaptive_10mb});
    CHECK(ExchangeById(eb, "small_b").at("dataSizeBytes") == 12000000);
    CHECK(JoinById(eb, "j1").at("finalStrategy") == "SortMergeJoin");
  }
}

TEST_CASE("C22 SPARK-37357: rebalancePartitionsSmallPartitionFactor", "[e2e][cases]") {
  const std::string file = kDir + "c22_rebalance_small_factor.json";
  SECTION("factor 0.2: split starts [0,5] (pieces 50 MiB + 10 MiB)") {
    const json ex = Explain(file);
    const json& specs = ReadSpecsOf(ex, "rebalance");
    CHECK(SplitStartsOf(specs, 0) == std::vector<int>{0, 5});
    CHECK(SpecDataSizes(specs) == std::vector<int64_t>{52428800, 10485760});
  }
  SECTION("factor 0.5: the 10 MiB tail merges back, the reducer is not split") {
    const json ex = Explain(file, {"spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor=0.5"});
    const json& specs = ReadSpecsOf(ex, "rebalance");
    CHECK(SplitReducers(specs).empty());
    CHECK(specs.size() == 1);
    CHECK(DecisionsOf(ex, "OptimizeSkewInRebalancePartitions").empty());
  }
}

TEST_CASE("C24 Databricks AQE demo: hot item split into 100 pieces, 141 tasks", "[e2e][cases]") {
  const json ex = Explain(kDir + "c24_databricks_demo_skew.json");
  CHECK(IsSkewJoin(ex, "j1"));
  CHECK(ExchangeById(ex, "sales").at("bytesByPartitionId").at(17) == 8859221300);
  const json& sales = ReadSpecsOf(ex, "sales");
  CHECK(SplitReducers(sales) == std::vector<int>{17});
  CHECK(SplitStartsOf(sales, 17).size() == 100);
  CHECK(SplitReducers(ReadSpecsOf(ex, "items")).empty());
  CHECK(sales.size() == 141);
  CHECK(Max(TaskBytes(ex, "sales", "items")) == 90259613);
}

}  // namespace aqesim::e2e
