// End-to-end checks of ByteDance LAS's skew-join shapes
// (scenarios/variants/las-skew-join-agg-window-sides.json, las-multiple-skewed-joins-in-stage.json,
// las-skew-joins-under-union.json): Apache Spark's decision and its "why not" with the variant off, the
// variant's split with it on, numbers as the scenarios' descriptions give them.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::json;

/// Reasons of explain's notApplied entries for `target` (OptimizeSkewedJoin's).
std::vector<std::string> SkewWhyNot(const json& explain, const std::string& target) {
  std::vector<std::string> out;
  for (const json& n : explain.at("notApplied"))
    if (n.at("rule") == "OptimizeSkewedJoin" && n.at("target") == target) out.push_back(n.at("reason"));
  return out;
}

int Tasks(const json& explain, const std::string& exchange) {
  return static_cast<int>(ReadSpecsOf(explain, exchange).size());
}

/// Specs of `exchange` that read reducer `reducer` whole.
int WholeReads(const json& explain, const std::string& exchange, int reducer) {
  int n = 0;
  for (const json& s : ReadSpecsOf(explain, exchange))
    if (s.at("type") == "CoalescedPartitionSpec" && s.at("startReducerIndex") == reducer &&
        s.at("endReducerIndex") == reducer + 1)
      ++n;
  return n;
}

TEST_CASE(
    "Variant las.skewJoinAggWindowSides: a join with an aggregate side, 200 tasks under Spark, 299 split",
    "[e2e][variants]") {
  const std::string file = "scenarios/variants/las-skew-join-agg-window-sides.json";
  SECTION("Spark: not a candidate, no split and nothing said about the join") {
    const json ex = Explain(file, {"aqesim.variant.las.skewJoinAggWindowSides=false"});
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK(Tasks(ex, "e1") == 200);
    CHECK(SkewWhyNot(ex, "j1").empty());
    CHECK(DecisionsOf(ex, "OptimizeSkewedJoin").empty());
  }
  SECTION("variant: e1's reducer 5 in 100 pieces, agg's reducer 5 read by each") {
    const json ex = Explain(file);
    CHECK(ExchangeById(ex, "e1").at("bytesByPartitionId").at(5) == 10719657700);
    CHECK(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK(Tasks(ex, "e1") == 299);
    CHECK(Tasks(ex, "e2") == 299);
    CHECK(SplitStartsOf(ReadSpecsOf(ex, "e1"), 5).size() == 100);
    CHECK(WholeReads(ex, "e2", 5) == 100);
    const std::vector<json> d = DecisionsOf(ex, "OptimizeSkewedJoin");
    REQUIRE(d.size() == 1);
    CHECK(d[0].at("variants") == json::array({"las.skewJoinAggWindowSides"}));
    CHECK(d[0].at("replicated") == json::array({"e2"}));
    CHECK(d[0].at("sparkTasks") == 200);
  }
}

TEST_CASE("Variant las.multipleSkewedJoinsInStage: Spark withdraws j1's split, the variant splits j1 and j2",
          "[e2e][variants]") {
  const std::string file = "scenarios/variants/las-multiple-skewed-joins-in-stage.json";
  SECTION("Spark: needsExtraShuffle, 200 tasks") {
    const json ex = Explain(file, {"aqesim.variant.las.multipleSkewedJoinsInStage=false"});
    CHECK(SkewWhyNot(ex, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(Tasks(ex, "e1") == 200);
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
  }
  SECTION("variant: 20 pieces of 5 maps, e2 and e3 read whole by each, 219 tasks") {
    const json ex = Explain(file);
    CHECK(SkewWhyNot(ex, "j1").empty());
    CHECK(SplitStartsOf(ReadSpecsOf(ex, "e1"), 5) ==
          std::vector<int>{0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95});
    for (const char* e : {"e1", "e2", "e3"}) CHECK(Tasks(ex, e) == 219);
    CHECK(WholeReads(ex, "e2", 5) == 20);
    CHECK(WholeReads(ex, "e3", 5) == 20);
    CHECK(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK(JoinById(ex, "j2").at("isSkewJoin").get<bool>());
    const std::vector<json> d = DecisionsOf(ex, "OptimizeSkewedJoin");
    REQUIRE(d.size() == 2);  // the first re-optimization (e1, e2 done) withdrew j1's split, as Spark
    CHECK(d[1].at("joins") == json::array({"j1", "j2"}));
    CHECK(d[1].at("variants") == json::array({"las.multipleSkewedJoinsInStage"}));
  }
}

TEST_CASE("Variant las.skewJoinsUnderUnion: the plain branch keeps its split when the aggregated one cannot",
          "[e2e][variants]") {
  const std::string file = "scenarios/variants/las-skew-joins-under-union.json";
  SECTION("Spark: all or nothing, needsExtraShuffle on both joins") {
    const json ex = Explain(file, {"aqesim.variant.las.skewJoinsUnderUnion=false"});
    CHECK(SkewWhyNot(ex, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(SkewWhyNot(ex, "j2") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(Tasks(ex, "e3") == 200);
  }
  SECTION("variant: j1 whole, j2's reducer 5 in 100 pieces") {
    const json ex = Explain(file);
    CHECK(SkewWhyNot(ex, "j1") == std::vector<std::string>{"needsExtraShuffle"});
    CHECK(SkewWhyNot(ex, "j2").empty());
    CHECK(Tasks(ex, "e1") == 200);
    CHECK(Tasks(ex, "e3") == 299);
    CHECK(WholeReads(ex, "e4", 5) == 100);
    CHECK_FALSE(JoinById(ex, "j1").at("isSkewJoin").get<bool>());
    CHECK(JoinById(ex, "j2").at("isSkewJoin").get<bool>());
  }
}

}  // namespace
}  // namespace aqesim::e2e
