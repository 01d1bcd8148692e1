// A collectLimit plan root: executeTake's jobs over the final stage, one after the other, against
// hand-computed schedules; the scenario fields' errors.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

/// show()-like: collectLimit over a 10-split scan (splits 3 and 9 hold data), 1 executor x 2 slots.
nlohmann::json Doc(const nlohmann::json& limit) {
  nlohmann::json plan = limit;
  plan["op"] = "collectLimit";
  plan["child"] = {{"op", "scan"},
                   {"id", "s1"},
                   {"bytes", 200},
                   {"tasks", 10},
                   {"taskBytes", {0, 0, 0, 100, 0, 0, 0, 0, 0, 100}}};
  return {{"name", "t"},
          {"cluster", testing::InstantIoCluster(2)},
          {"cost", testing::LaunchOnlyCost(1.0)},
          {"plan", plan}};
}

RunResult Run(const nlohmann::json& doc, bool adaptive) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return SimulateQuery(*r.scenario, adaptive);
}

TEST_CASE("QueryExecution: a collectLimit runs executeTake's jobs one after the other", "[engine][take]") {
  for (bool adaptive : {false, true}) {
    INFO("adaptive " << adaptive);
    // Without rows, a split that reads anything yields the limit: job 1 = split 0 (empty), job 2 =
    // 1 x 4 splits 1-4 (split 3 has data): done. 1 task [0, 1]; 4 tasks on 2 slots [1, 3].
    RunResult r = Run(Doc({{"limit", 5}}), adaptive);
    REQUIRE(r.stages.size() == 2);
    CHECK(r.stages[0].name == "result");
    CHECK(r.stages[0].tasks == 1);
    CHECK(r.stages[0].complete_seconds == Approx(1.0));
    CHECK(r.stages[1].name == "result 2");
    CHECK(r.stages[1].tasks == 4);
    CHECK(r.stages[1].submit_seconds == Approx(1.0));
    CHECK(r.makespan_seconds == Approx(3.0));
    // 2 rows (one per split with data): job 2 finds 1 after 5 splits, left 4 -> min(ceil(1.5 x 4
    // x 5 / 1) = 30, 5 x 4 = 20), capped at the 5 left: 5 tasks [3, 6]; 2 < 5 rows: all read.
    r = Run(Doc({{"limit", 5}, {"rows", 2}}), adaptive);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.stages[2].name == "result 3");
    CHECK(r.stages[2].tasks == 5);
    CHECK(r.makespan_seconds == Approx(6.0));
    // Limit 0: no job (Spark returns an empty array).
    r = Run(Doc({{"limit", 0}}), adaptive);
    CHECK(r.makespan_seconds == Approx(0.0));
  }
  // spark.sql.limit.initialNumPartitions = 4: job 1 reads splits 0-3 (split 3 has data): done.
  nlohmann::json doc = Doc({{"limit", 5}});
  doc["conf"] = {{"spark.sql.limit.initialNumPartitions", 4}};
  const RunResult r = Run(doc, false);
  REQUIRE(r.stages.size() == 1);
  CHECK(r.stages[0].tasks == 4);
  CHECK(r.makespan_seconds == Approx(2.0));
}

TEST_CASE("Scenario: collectLimit errors name their place", "[scenario][take]") {
  auto error_of = [](const nlohmann::json& plan) {
    nlohmann::json doc = Doc({{"limit", 5}});
    doc["plan"] = plan;
    LoadResult r = LoadScenarioJson(doc, "test.json", {});
    return r.errors.empty() ? std::string() : r.errors[0].pointer + ": " + r.errors[0].message;
  };
  const nlohmann::json scan = {{"op", "scan"}, {"bytes", 10}};
  CHECK(error_of({{"op", "collectLimit"}, {"child", scan}}) ==
        "/plan: missing field \"limit\" (the rows collected: show() takes 21, take(n) n)");
  CHECK(error_of({{"op", "collectLimit"}, {"limit", -1}, {"child", scan}}).rfind("/plan/limit: ", 0) == 0);
  CHECK(error_of({{"op", "collectLimit"}, {"limit", 1}, {"rows", 1.5}, {"child", scan}})
            .rfind("/plan/rows: ", 0) == 0);
  CHECK(error_of({{"op", "filter"}, {"child", {{"op", "collectLimit"}, {"limit", 1}, {"child", scan}}}}) ==
        "/plan/child/op: a collectLimit is read only as the plan's root (a collect, show() or take())");
}

}  // namespace
}  // namespace aqesim
