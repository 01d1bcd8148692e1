// End-to-end checks of the named variants' scenarios (scenarios/variants/): Apache Spark's
// decision with every variant off, then each variant's, with the numbers computed by hand in the
// scenarios' descriptions.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::json;

const std::string kSpark = "aqesim.variant.las.exactReducerTotals=false";
const std::string kNoSplit = "aqesim.variant.las.splitByExactTotals=false";

int SplitPieces(const json& explain, const std::string& exchange, int reducer) {
  return static_cast<int>(SplitStartsOf(ReadSpecsOf(explain, exchange), reducer).size());
}

TEST_CASE(
    "Variant las.splitByExactTotals: ByteDance's 1 GB reducer, 2 pieces by Spark's split, 10 by the exact "
    "total",
    "[e2e][variants]") {
  const std::string file = "scenarios/variants/las-split-by-exact-totals.json";
  SECTION("Spark: the HCMS view (107,196,577 + 99 x 1,218,254 B) is below 5 x the median, no skew") {
    const json ex = Explain(file, {kSpark, kNoSplit});
    const json& e1 = ExchangeById(ex, "e1");
    CHECK(e1.at("mapStatus") == "HighlyCompressedMapStatus");
    CHECK(e1.at("bytesByPartitionId").at(0) == 227803723);
    CHECK(e1.at("bytesByPartitionId").at(1) == 121655722);
    CHECK_FALSE(e1.contains("driverExactTotalsBytes"));
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK_FALSE(ex.contains("variants"));
  }
  SECTION("exactReducerTotals: detected on the exact 1000 MiB, Spark's split over the averages: 2 pieces") {
    const json ex = Explain(file, {kNoSplit});
    CHECK(ex.at("variants") == json::array({"las.exactReducerTotals"}));
    CHECK(ExchangeById(ex, "e1").at("exactBytesByPartitionId").at(0) == 1048576000);
    CHECK(SplitPieces(ex, "e1", 0) == 2);
    const std::vector<json> d = DecisionsOf(ex, "OptimizeSkewedJoin");
    REQUIRE(d.size() == 1);
    CHECK(d[0].at("variants") == json::array({"las.exactReducerTotals"}));
    CHECK(d[0].at("leftTargetSizeBytes") == 104857600);
  }
  SECTION("both: 10 pieces, map 0 then 11 maps each") {
    const json ex = Explain(file);
    CHECK(SplitStartsOf(ReadSpecsOf(ex, "e1"), 0) == std::vector<int>{0, 1, 12, 23, 34, 45, 56, 67, 78, 89});
    const std::vector<json> d = DecisionsOf(ex, "OptimizeSkewedJoin");
    REQUIRE(d.size() == 1);
    CHECK(d[0].at("variants") == json::array({"las.exactReducerTotals", "las.splitByExactTotals"}));
  }
}

TEST_CASE(
    "Variant las.exactReducerTotals: a 2,500-partition shuffle's hidden skew, driver memory for both "
    "settings",
    "[e2e][variants]") {
  const std::string file = "scenarios/variants/las-exact-reducer-totals.json";
  SECTION("Spark, minNumPartitionsToHighlyCompress=2000: HCMS averages reducer 0 away; 160 B a map") {
    const json ex = Explain(file, {kSpark, kNoSplit});
    const json& e1 = ExchangeById(ex, "e1");
    CHECK(e1.at("mapStatus") == "HighlyCompressedMapStatus");
    CHECK(e1.at("bytesByPartitionId").at(0) == 2466000);
    CHECK(e1.at("driverMapStatusBytes") == 160000);
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
  }
  SECTION("Spark, minNumPartitionsToHighlyCompress=5000: CompressedMapStatus finds it; 2,568 B a map") {
    const json ex = Explain(file, {kSpark, kNoSplit, "spark.shuffle.minNumPartitionsToHighlyCompress=5000"});
    const json& e1 = ExchangeById(ex, "e1");
    CHECK(e1.at("mapStatus") == "CompressedMapStatus");
    CHECK(e1.at("bytesByPartitionId").at(0) == 1104923000);
    CHECK(e1.at("driverMapStatusBytes") == 2568000);
    CHECK(SplitPieces(ex, "e1", 0) == 17);
  }
  SECTION("exactReducerTotals alone: detected, but the averaged blocks (1000 x 2,466 B) fit one piece") {
    const json ex = Explain(file, {kNoSplit});
    CHECK(ExchangeById(ex, "e1").at("exactBytesByPartitionId").at(0) == 1048576000);
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    // The same outcome as Spark's (no split), so no decision claims a change.
    CHECK(DecisionsOf(ex, "OptimizeSkewedJoin").empty());
  }
  SECTION("both variants: HCMS memory + 20,016 B of totals, 2,500,000 blocks decompressed, 16 pieces") {
    const json ex = Explain(file);
    const json& e1 = ExchangeById(ex, "e1");
    CHECK(e1.at("driverMapStatusBytes") == 160000);
    CHECK(e1.at("driverExactTotalsBytes") == 20016);
    CHECK(e1.at("driverDecompressedBlocks") == 2500000);
    CHECK(e1.at("exactBytesByPartitionId").at(0) == 1048576000);
    CHECK(SplitPieces(ex, "e1", 0) == 16);
  }
}

TEST_CASE(
    "EnsureRequirements: two scans joined without bucketing get two exchanges of shuffle.partitions reducers",
    "[e2e][ensure]") {
  const std::string file = "scenarios/variants/ensure-requirements-two-scans.json";
  for (const char* aqe : {"false", "true"}) {
    const json ex = Explain(file, {std::string("spark.sql.adaptive.enabled=") + aqe});
    const std::vector<json> inserted = DecisionsOf(ex, "EnsureRequirements");
    REQUIRE(inserted.size() == 2);
    CHECK(inserted[0]["exchange"] == "a-exchange");
    CHECK(inserted[1]["exchange"] == "b-exchange");
    CHECK(ExchangeById(ex, "a-exchange").at("numPartitions") == 200);
    CHECK(ExchangeById(ex, "b-exchange").at("numPartitions") == 200);
  }
  // spark.sql.shuffle.partitions decides the count; initialPartitionNum does when AQE coalesces.
  const json p64 = Explain(file, {"spark.sql.adaptive.enabled=false", "spark.sql.shuffle.partitions=64"});
  CHECK(ExchangeById(p64, "a-exchange").at("numPartitions") == 64);
  const json initial = Explain(file, {"spark.sql.adaptive.coalescePartitions.initialPartitionNum=400"});
  CHECK(ExchangeById(initial, "b-exchange").at("numPartitions") == 400);
}

}  // namespace
}  // namespace aqesim::e2e
