// simulation.skewExponent: each exchange's reducer totals reshaped to T · c^γ ÷ Σ c^γ, by hand.
#include "models/scenario/skew_reshape.h"

#include <catch2/catch.hpp>
#include <variant>

#include "models/plan/plan.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"

namespace aqesim {
namespace {

// One map task writing 90 and 10 bytes to two reducers, and an empty third.
Json Document(std::optional<double> gamma, const Json& sizes = Json::parse(R"({"matrix": [[90, 10, 0]]})")) {
  Json doc = Json::parse(R"({
    "name": "reshaped",
    "cluster": {"executors": 1, "executorCores": 2},
    "plan": {"op": "aggregate", "child": {"op": "exchange", "id": "e1",
             "child": {"op": "scan", "bytes": 100, "tasks": 1}}}
  })");
  doc["plan"]["child"]["sizes"] = sizes;
  if (gamma) doc["simulation"] = {{"skewExponent", *gamma}};
  return doc;
}

const SizesSpec& Sizes(const LoadResult& r) { return *r.scenario->plan->child().sizes; }

LoadResult Load(const Json& doc) {
  return BuildScenario(*ReadScenarioBase(doc, "reshaped.json", nullptr), ScenarioOverrides{});
}

TEST_CASE("skewExponent 2 makes the hot partition hotter, 0.5 flatter; the total and empty partitions stay") {
  // γ 2: 90² : 10² = 8100 : 100 of 100 bytes → 98.78, 1.22 → 99, 1.
  LoadResult hot = Load(Document(2.0));
  REQUIRE(hot.errors.empty());
  const SizeMatrix& h = std::get<SizeMatrix>(Sizes(hot).form);
  CHECK(h.at(0, 0) == 99);
  CHECK(h.at(0, 1) == 1);
  CHECK(h.at(0, 2) == 0);
  // γ 0.5: √90 : √10 = 3 : 1 → 75, 25.
  LoadResult flat = Load(Document(0.5));
  REQUIRE(flat.errors.empty());
  const SizeMatrix& f = std::get<SizeMatrix>(Sizes(flat).form);
  CHECK(f.at(0, 0) == 75);
  CHECK(f.at(0, 1) == 25);
  CHECK(f.at(0, 2) == 0);
}

TEST_CASE("skewExponent on marginals and a zipf generator") {
  LoadResult m =
      Load(Document(0.5, Json::parse(R"({"marginals": {"mapBytes": [100], "partitionBytes": [90, 10]}})")));
  REQUIRE(m.errors.empty());
  CHECK(std::get<MarginalsSizes>(Sizes(m).form).partition_bytes == std::vector<int64_t>{75, 25});
  CHECK(std::get<MarginalsSizes>(Sizes(m).form).map_bytes == std::vector<int64_t>{100});
  LoadResult z =
      Load(Document(2.0, Json::parse(R"({"generate": {"distribution": "zipf", "exponent": 1.2}})")));
  REQUIRE(z.errors.empty());
  CHECK(std::get<GenerateSizes>(Sizes(z).form).exponent == Approx(2.4));
}

TEST_CASE("a bad skewExponent names /simulation/skewExponent") {
  for (const Json& bad : {Json(0), Json(-1), Json("2"), Json(11), Json(0.05)}) {
    Json doc = Document(std::nullopt);
    doc["simulation"] = {{"skewExponent", bad}};
    const LoadResult r = Load(doc);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].pointer == "/simulation/skewExponent");
    CHECK(r.errors[0].message.rfind("expected a skew exponent from 0.1 to 10", 0) == 0);
  }
}

}  // namespace
}  // namespace aqesim
