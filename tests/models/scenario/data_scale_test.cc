// simulation.dataScale: every byte and row count of the data × F, counts rounded half away from
// zero and never a non-zero one to 0; checked values by hand, and end to end through the loader.
#include "models/scenario/data_scale.h"

#include <catch2/catch.hpp>
#include <variant>

#include "models/engine/query_execution.h"
#include "models/plan/plan.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"

namespace aqesim {
namespace {

// A 1000-byte scan of 2 tasks (300 + 700 bytes, 40 rows) under an exchange whose matrix is
// [[3, 0], [5, 7]] (14 bytes, 2 map tasks × 2 reducers).
Json Document(std::optional<double> scale) {
  Json doc = Json::parse(R"({
    "name": "scaled",
    "cluster": {"executors": 1, "executorCores": 2},
    "plan": {"op": "aggregate", "child": {"op": "exchange", "id": "e1", "rows": 9,
             "sizes": {"matrix": [[3, 0], [5, 7]]},
             "child": {"op": "scan", "bytes": 1000, "rows": 40, "taskBytes": [300, 700]}}}
  })");
  if (scale) doc["simulation"] = {{"dataScale", *scale}};
  return doc;
}

LoadResult Load(const Json& doc) {
  return BuildScenario(*ReadScenarioBase(doc, "scaled.json", nullptr), ScenarioOverrides{});
}

const PlanNode& Exchange(const Scenario& s) { return s.plan->child(); }
const PlanNode& Scan(const Scenario& s) { return s.plan->child().child(); }

TEST_CASE("ScaleCount: half away from zero, 0 stays 0, a positive count never below 1") {
  CHECK(ScaleCount(3, 2) == 6);
  CHECK(ScaleCount(5, 0.5) == 3);  // 2.5 → 3
  CHECK(ScaleCount(3, 0.5) == 2);  // 1.5 → 2
  CHECK(ScaleCount(1, 0.5) == 1);  // 0.5 → 1, and never 0 anyway
  CHECK(ScaleCount(1, 0.001) == 1);
  CHECK(ScaleCount(0, 1000) == 0);
  CHECK(ScaleCount(int64_t{1} << 61, 1000) == int64_t{1} << 62);  // capped
}

TEST_CASE("dataScale 2 doubles the scan, the rows and the matrix") {
  const LoadResult r = Load(Document(2.0));
  REQUIRE(r.errors.empty());
  const Scenario& s = *r.scenario;
  CHECK(Scan(s).scan_bytes == 2000);
  CHECK(Scan(s).task_bytes == std::vector<int64_t>{600, 1400});
  CHECK(Scan(s).rows == 80);
  CHECK(Exchange(s).rows == 18);
  const SizeMatrix& m = std::get<SizeMatrix>(Exchange(s).sizes->form);
  CHECK(m.at(0, 0) == 6);
  CHECK(m.at(0, 1) == 0);
  CHECK(m.at(1, 0) == 10);
  CHECK(m.at(1, 1) == 14);
}

TEST_CASE("dataScale 0.5 halves, keeping empty partitions empty and others non-empty") {
  Json doc = Document(0.5);
  doc["plan"]["child"]["sizes"]["matrix"] = Json::parse("[[3, 0], [5, 1]]");
  const LoadResult r = Load(doc);
  REQUIRE(r.errors.empty());
  const SizeMatrix& m = std::get<SizeMatrix>(Exchange(*r.scenario).sizes->form);
  CHECK(m.at(0, 0) == 2);
  CHECK(m.at(0, 1) == 0);
  CHECK(m.at(1, 0) == 3);
  CHECK(m.at(1, 1) == 1);
  CHECK(Scan(*r.scenario).task_bytes == std::vector<int64_t>{150, 350});
  CHECK(Scan(*r.scenario).scan_bytes == 500);
}

TEST_CASE("dataScale 1 and no dataScale give the same run") {
  const LoadResult a = Load(Document(std::nullopt));
  const LoadResult b = Load(Document(1.0));
  REQUIRE(a.errors.empty());
  REQUIRE(b.errors.empty());
  CHECK(SimulateQuery(*a.scenario, true).makespan_seconds ==
        SimulateQuery(*b.scenario, true).makespan_seconds);
}

TEST_CASE("a bad dataScale names /simulation/dataScale") {
  for (const Json& bad : {Json(0), Json(-2), Json("2"), Json(1001), Json(0.0001)}) {
    Json doc = Document(std::nullopt);
    doc["simulation"] = {{"dataScale", bad}};
    const LoadResult r = Load(doc);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].pointer == "/simulation/dataScale");
    CHECK(r.errors[0].message.rfind("expected a data volume factor from 0.001 to 1000", 0) == 0);
  }
}

TEST_CASE("a field override sets dataScale as the document would") {
  ScenarioOverrides ov;
  ov.fields.push_back({"simulation", "dataScale", Json(2.0)});
  const LoadResult r = BuildScenario(*ReadScenarioBase(Document(std::nullopt), "scaled.json", nullptr), ov);
  REQUIRE(r.errors.empty());
  CHECK(Scan(*r.scenario).scan_bytes == 2000);
}

}  // namespace
}  // namespace aqesim
