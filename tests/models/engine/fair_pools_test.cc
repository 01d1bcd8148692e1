// spark.scheduler.mode=FAIR with the scenario's pools (driver.pools), against hand-computed
// schedules.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

/// A sort-merge join of two 4-task scans, 2 reducers, on 1 executor x 2 slots, AQE off: both
/// map stages are submitted at 0.
nlohmann::json Doc(const nlohmann::json& conf) {
  auto side = [](const char* exchange, const char* scan) {
    return nlohmann::json{{"op", "exchange"},
                          {"id", exchange},
                          {"child", {{"op", "scan"}, {"id", scan}, {"bytes", 4000}, {"tasks", 4}}}};
  };
  nlohmann::json c = conf;
  c["spark.sql.shuffle.partitions"] = 2;
  c["spark.sql.autoBroadcastJoinThreshold"] = -1;
  return {{"name", "t"},
          {"cluster", testing::InstantIoCluster(2)},
          {"cost", testing::LaunchOnlyCost(1.0)},
          {"conf", c},
          {"plan",
           {{"op", "join"},
            {"id", "j1"},
            {"strategy", "SortMergeJoin"},
            {"left", side("e1", "a")},
            {"right", side("e2", "b")}}}};
}

double Complete(const RunResult& r, const std::string& name) {
  for (const StageResult& st : r.stages)
    if (st.name == name) return st.complete_seconds;
  FAIL("no stage " << name);
  return -1;
}

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

TEST_CASE("QueryExecution: a FAIR pool shares the slots among the query's stages", "[engine][fair]") {
  // FIFO (and FAIR mode with the default pool, which Spark creates FIFO): e1 map takes both
  // slots, [0, 1] and [1, 2]: done at 2 s; e2 map [2, 3], [3, 4]; the join's 2 tasks [4, 5].
  // A FAIR default pool: each freed slot to the stage running fewer tasks (ties: the first
  // stage), so e1 and e2 run a task each at a time: both done at 4 s; the join [4, 5].
  for (const nlohmann::json& conf :
       {nlohmann::json::object(), nlohmann::json{{"spark.scheduler.mode", "FAIR"}}}) {
    INFO(conf.dump());
    const RunResult r = SimulateQuery(*Load(Doc(conf)), false);
    CHECK(Complete(r, "e1 map") == Approx(2.0));
    CHECK(Complete(r, "e2 map") == Approx(4.0));
    CHECK(r.makespan_seconds == Approx(5.0));
  }
  nlohmann::json fair = Doc({{"spark.scheduler.mode", "FAIR"}});
  fair["driver"] = {{"pools", {{"default", {{"schedulingMode", "FAIR"}}}}}};
  const RunResult r = SimulateQuery(*Load(fair), false);
  CHECK(Complete(r, "e1 map") == Approx(4.0));
  CHECK(Complete(r, "e2 map") == Approx(4.0));
  CHECK(r.makespan_seconds == Approx(5.0));

  // The query's pool is spark.scheduler.pool: a FAIR pool of another name changes nothing.
  fair["conf"]["spark.scheduler.pool"] = "etl";
  CHECK(Complete(SimulateQuery(*Load(fair), false), "e1 map") == Approx(2.0));
  fair["driver"]["pools"]["etl"] = {{"schedulingMode", "fair"}, {"weight", 2}, {"minShare", 1}};
  CHECK(Complete(SimulateQuery(*Load(fair), false), "e1 map") == Approx(4.0));
}

TEST_CASE("Scenario: driver.pools errors name their place", "[scenario][fair]") {
  auto error_of = [](const nlohmann::json& pools) {
    nlohmann::json doc = Doc(nlohmann::json::object());
    doc["driver"] = {{"pools", pools}};
    LoadResult r = LoadScenarioJson(doc, "test.json", {});
    return r.errors.empty() ? std::string() : r.errors[0].pointer;
  };
  CHECK(error_of({{"default", {{"schedulingMode", "LIFO"}}}}) == "/driver/pools/default/schedulingMode");
  CHECK(error_of({{"default", {{"weight", -1}}}}) == "/driver/pools/default/weight");
  CHECK(error_of({{"default", {{"minShare", 1.5}}}}) == "/driver/pools/default/minShare");
  CHECK(error_of({{"default", 3}}) == "/driver/pools/default");
  CHECK(error_of(nlohmann::json::array()) == "/driver/pools");
  CHECK(error_of({{"default", {{"schedulingMode", "FAIR"}, {"weight", 0}, {"minShare", 2}}}}).empty());
}

}  // namespace
}  // namespace aqesim
