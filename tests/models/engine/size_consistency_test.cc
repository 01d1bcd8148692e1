// Size consistency warnings (models/engine/size_consistency.h) through the static planner, on
// scenarios built in the test; the byte figures are worked out by hand from the JSON.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

std::vector<std::string> PlanWarnings(const std::string& plan) {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"name": "t", "cluster": {"executors": 2, "executorCores": 4}, "plan": )" + plan + "}");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  for (const Diagnostic& d : lr.errors) FAIL_CHECK(d.ToString());
  REQUIRE(lr.errors.empty());
  return PlanStatically(*lr.scenario, lr.scenario->conf).warnings;
}

// A grouped aggregate above an exchange of `sizes` above `below`.
std::string Aggregate(const std::string& exchange_extra, const std::string& below) {
  return R"({"op": "aggregate", "id": "a", "child": {"op": "exchange", "id": "e", )" + exchange_extra +
         R"("child": )" + below + "}}";
}

TEST_CASE("Size consistency: a shuffle writing 100x its scan is named with both pointers",
          "[engine][sizes]") {
  // 100 GiB written ÷ 1 GiB scanned = 100 > 10, and no rows.
  CHECK(PlanWarnings(Aggregate(R"("sizes": {"generate": {"totalBytes": "100g"}}, )",
                               R"({"op": "scan", "id": "s", "bytes": "1g", "tasks": 3})")) ==
        std::vector<std::string>{
            "/plan/child/sizes: the shuffle writes 100.0 GiB, 100.0× what its stage reads (1.0 GiB at "
            "/plan/child/child/bytes), and no row ratio says the data grows; check the sizes, or give "
            "`rows` on the exchange and its inputs"});
}

TEST_CASE("Size consistency: rows that grow as much explain the growth", "[engine][sizes]") {
  // 60x the rows: 100 GiB <= 10 x 1 GiB x 60, and within 2x of 1 GiB x 60 (1.7x apart).
  CHECK(PlanWarnings(Aggregate(R"("rows": 60000, "sizes": {"generate": {"totalBytes": "100g"}}, )",
                               R"({"op": "scan", "id": "s", "bytes": "1g", "rows": 1000})"))
            .empty());
  // 2x the rows only: 100 GiB > 10 × 1 GiB × 2.
  CHECK(PlanWarnings(Aggregate(R"("rows": 2000, "sizes": {"generate": {"totalBytes": "100g"}}, )",
                               R"({"op": "scan", "id": "s", "bytes": "1g", "rows": 1000})")) ==
        std::vector<std::string>{
            "/plan/child/sizes: the shuffle writes 100.0 GiB, 100.0× what its stage reads (1.0 GiB at "
            "/plan/child/child/bytes), and its rows grow only 2.0×; check the sizes, or give `rows` on the "
            "exchange and its inputs"});
}

TEST_CASE("Size consistency: sizes against a filter's selectivity", "[engine][sizes]") {
  // The new user's case: 2 GiB × 0.003 = 6,442,450 B (6.1 MiB) planned, 5 GiB given:
  // 5,368,709,120 ÷ 6,442,450 = 833.3x the plan (2.5x the scan: not a growth).
  const std::string filter = R"({"op": "filter", "id": "f", "selectivity": 0.003, "estimatedBytes": "5g",
                                 "child": {"op": "scan", "id": "s", "bytes": "2g"}})";
  CHECK(PlanWarnings(Aggregate(R"("sizes": {"generate": {"totalBytes": "5g"}}, )", filter)) ==
        std::vector<std::string>{"/plan/child/sizes: the sizes total 5.0 GiB, 833.3× the plan's bytes at "
                                 "/plan/child/child (6.1 MiB: "
                                 "its inputs × the selectivities above them); tasks read the sizes: set the "
                                 "selectivities or the sizes "
                                 "so they agree"});
  // Within 2x (3 GiB given for 2 GiB planned), less than planned (a partial aggregate's 20 MiB
  // from 2 GiB) and no sizes at all: nothing to say.
  for (const std::string total : {"3g", "20m"})
    CHECK(PlanWarnings(Aggregate(R"("sizes": {"generate": {"totalBytes": ")" + total + R"("}}, )",
                                 R"({"op": "scan", "id": "s", "bytes": "2g"})"))
              .empty());
  CHECK(PlanWarnings(Aggregate("", filter)).empty());
}

}  // namespace
}  // namespace aqesim
