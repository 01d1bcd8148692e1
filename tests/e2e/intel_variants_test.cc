// End-to-end checks of the Intel–Baidu variants' scenarios (scenarios/variants/intel-*.json):
// Apache Spark's decision with the variant off, then the variant's, numbers computed by hand in
// the scenarios' descriptions.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::json;

TEST_CASE("Variant intel.skewByRowCount: a reducer of ordinary bytes and 16 x the median records, split in 5",
          "[e2e][variants]") {
  const std::string file = "scenarios/variants/intel-skew-by-row-count.json";
  SECTION("Spark: bytes only, nothing skewed, 50 join tasks") {
    const json ex = Explain(file, {"aqesim.variant.intel.skewByRowCount=false"});
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK_FALSE(ExchangeById(ex, "e1").contains("recordsByPartitionId"));
    CHECK(DecisionsOf(ex, "OptimizeSkewedJoin").empty());
  }
  SECTION("the variant: reducer 7 split into 5 pieces of 2 maps, the right side's reducer 7 read 5 times") {
    const json ex = Explain(file);
    const json& e1 = ExchangeById(ex, "e1");
    REQUIRE(e1.contains("recordsByPartitionId"));
    CHECK(e1.at("recordsByPartitionId").at(7) == 48000000);
    CHECK(e1.at("recordsByPartitionId").at(0) == 3000000);
    CHECK(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK(SplitReducers(ReadSpecsOf(ex, "e1")) == std::vector<int>{7});
    CHECK(SplitStartsOf(ReadSpecsOf(ex, "e1"), 7) == std::vector<int>{0, 2, 4, 6, 8});
    CHECK(ReadSpecsOf(ex, "e1").size() == 54);
    CHECK(ReadSpecsOf(ex, "e2").size() == 54);
    const std::vector<json> d = DecisionsOf(ex, "OptimizeSkewedJoin");
    REQUIRE(d.size() == 1);
    CHECK(d[0].at("variants") == json::array({"intel.skewByRowCount"}));
    CHECK(d[0].at("tasks") == 54);
    CHECK(d[0].at("message").get<std::string>().find("— variant intel.skewByRowCount changed this decision "
                                                     "(Spark: no skewed partition could be split)") !=
          std::string::npos);
  }
  SECTION("a threshold above 48 million records: not row-skewed") {
    const json ex = Explain(file, {"aqesim.variant.intel.skewedPartitionRowCountThreshold=48000000"});
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
  }
  SECTION("at most 3 splits: 2, 2 maps, then the last 6") {
    const json ex = Explain(file, {"aqesim.variant.intel.skewedPartitionMaxSplits=3"});
    // n = min(3, 16, 10) = 3; 10 / 3 = 3 maps each, the last 4: [0,3) [3,6) [6,10).
    CHECK(SplitStartsOf(ReadSpecsOf(ex, "e1"), 7) == std::vector<int>{0, 3, 6});
  }
}

TEST_CASE(
    "Variant intel.rowCountTargets: 2 x 10^9 records in 2000 MiB, coalesced by records as well as bytes",
    "[e2e][variants]") {
  const std::string file = "scenarios/variants/intel-row-count-targets.json";
  const json spark = Explain(file, {"aqesim.variant.intel.rowCountTargets=false"});
  const std::vector<json> sd = DecisionsOf(spark, "CoalesceShufflePartitions");
  REQUIRE(sd.size() == 1);
  const int spark_after = sd[0].at("partitionsAfter").get<int>();
  CHECK_FALSE(sd[0].contains("variants"));
  const json ex = Explain(file);
  const std::vector<json> d = DecisionsOf(ex, "CoalesceShufflePartitions");
  REQUIRE(d.size() == 1);
  // 10,000,000 records a reducer, 20,000,000 a partition: two reducers each, 100 partitions.
  CHECK(d[0].at("partitionsAfter") == 100);
  CHECK(d[0].at("sparkPartitionsAfter") == spark_after);
  CHECK(d[0].at("targetRecords") == 20000000);
  CHECK(d[0].at("variants") == json::array({"intel.rowCountTargets"}));
  const json& e1 = ExchangeById(ex, "e1");
  for (const json& r : e1.at("recordsByPartitionId")) CHECK(r == 10000000);
  for (const std::vector<int>& range : CoalescedRanges(ReadSpecsOf(ex, "e1")))
    CHECK(range[1] - range[0] == 2);
  // Spark's coalesced partitions hold more than the target: the row explosion the variant sees.
  CHECK(spark_after < 100);
  CHECK(d[0].at("message").get<std::string>().find("(Spark: " + std::to_string(spark_after) +
                                                   " partitions)") != std::string::npos);
}

TEST_CASE("Intel variants: rowsByPartition must have one count per reducer and sum to rows",
          "[e2e][variants]") {
  const CommandResult r = RunAqesim({"explain", SourcePath("scenarios/variants/intel-skew-by-row-count.json"),
                                     "--conf", "spark.sql.shuffle.partitions=40"});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find(
            "/plan/left/rowsByPartition: expected one record count per reducer (40), found 50") !=
        std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
