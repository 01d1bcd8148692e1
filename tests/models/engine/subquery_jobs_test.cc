// Subqueries gating scans (models/engine/subquery_jobs.h) against hand-computed schedules: every
// task takes 1 s (launch only), 1 executor x 2 slots, FIFO.
#include <catch2/catch.hpp>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

using nlohmann::json;

json Scan(const char* id, int tasks) {
  return {{"op", "scan"}, {"id", id}, {"bytes", 1000 * tasks}, {"tasks", tasks}};
}
json Exchange(const char* id, json child) {
  return {{"op", "exchange"}, {"id", id}, {"child", std::move(child)}};
}

/// A sort-merge join of e1 (scan a, 4 tasks) and e2 (scan b, 2 tasks), 2 reducers, no
/// coalescing; a bloom-filter subquery sq1 over scan c (2 tasks) → a single-partition exchange
/// → a global aggregate gates scan a.
json Doc() {
  json sub = {
      {"op", "aggregate"},
      {"id", "sqagg"},
      {"grouped", false},
      {"child", {{"op", "exchange"}, {"id", "se"}, {"singlePartition", true}, {"child", Scan("c", 2)}}}};
  return {{"name", "t"},
          {"cluster", testing::InstantIoCluster(2)},
          {"cost", testing::LaunchOnlyCost(1.0)},
          {"conf",
           {{"spark.sql.shuffle.partitions", 2},
            {"spark.sql.autoBroadcastJoinThreshold", -1},
            {"spark.sql.adaptive.coalescePartitions.enabled", false}}},
          {"plan",
           {{"op", "join"},
            {"id", "j1"},
            {"strategy", "SortMergeJoin"},
            {"left", Exchange("e1", Scan("a", 4))},
            {"right", Exchange("e2", Scan("b", 2))}}},
          {"subqueries",
           json::array({{{"id", "sq1"}, {"kind", "bloomFilter"}, {"gates", {"a"}}, {"plan", sub}}})}};
}

std::unique_ptr<Scenario> Load(const json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

const StageResult& Stage(const RunResult& r, const std::string& name) {
  for (const StageResult& st : r.stages)
    if (st.name == name) return st;
  FAIL("no stage " << name);
  return r.stages.front();
}

TEST_CASE("SubqueryJobs: AQE on, a bloom filter's job gates only the stage scanning what it filters",
          "[engine][subquery]") {
  // The first step creates e1 map (id 0: scan a, held for sq1, whose job starts now) and e2 map
  // (id 1), which takes both slots [0, 1]. sq1's own adaptive plan: se map (id 2) [1, 2] on both
  // slots, then its final stage "sq1 result" (id 3, one task) [2, 3]. e1 map is submitted at 3:
  // [3, 4] x 2, [4, 5] x 2; the join (id 4) [5, 6] x 2.
  const RunResult r = SimulateQuery(*Load(Doc()), true);
  CHECK(Stage(r, "e2 map").id == 1);
  CHECK(Stage(r, "e2 map").submit_seconds == Approx(0.0));
  CHECK(Stage(r, "e2 map").complete_seconds == Approx(1.0));
  CHECK(Stage(r, "se map").id == 2);
  CHECK(Stage(r, "se map").submit_seconds == Approx(0.0));
  CHECK(Stage(r, "se map").complete_seconds == Approx(2.0));
  CHECK(Stage(r, "se map").subquery == "sq1");
  CHECK(Stage(r, "sq1 result").id == 3);
  CHECK(Stage(r, "sq1 result").submit_seconds == Approx(2.0));
  CHECK(Stage(r, "sq1 result").complete_seconds == Approx(3.0));
  CHECK(Stage(r, "e1 map").id == 0);
  CHECK(Stage(r, "e1 map").submit_seconds == Approx(3.0));
  CHECK(Stage(r, "e1 map").complete_seconds == Approx(5.0));
  CHECK(Stage(r, "e1 map").gated_by == std::vector<std::string>{"sq1"});
  CHECK(Stage(r, "e2 map").gated_by.empty());
  CHECK(Stage(r, "result").submit_seconds == Approx(5.0));
  CHECK(r.makespan_seconds == Approx(6.0));
  REQUIRE(r.subqueries.size() == 1);
  CHECK(r.subqueries[0].kind == "bloomFilter");
  CHECK(r.subqueries[0].stages == std::vector<int>{2, 3});
  CHECK(r.subqueries[0].start_seconds == Approx(0.0));
  CHECK(r.subqueries[0].complete_seconds == Approx(3.0));
  CHECK(r.subqueries[0].gated_stages == std::vector<int>{0});
}

TEST_CASE("SubqueryJobs: AQE off, the main job waits for every subquery of its plan", "[engine][subquery]") {
  // Stages created up front: e1 map 0, e2 map 1, result 2, then the subquery's se map 3 and sq1
  // result 4. The subquery's job runs first: se map [0, 1] x 2, sq1 result [1, 2]. The main
  // job's RDDs wait for it, e2 map too: e1 map [2, 3] x 2, [3, 4] x 2; e2 map [4, 5] x 2;
  // result [5, 6] x 2.
  const RunResult r = SimulateQuery(*Load(Doc()), false);
  CHECK(Stage(r, "se map").id == 3);
  CHECK(Stage(r, "se map").complete_seconds == Approx(1.0));
  CHECK(Stage(r, "sq1 result").complete_seconds == Approx(2.0));
  CHECK(Stage(r, "e1 map").submit_seconds == Approx(2.0));
  CHECK(Stage(r, "e1 map").complete_seconds == Approx(4.0));
  CHECK(Stage(r, "e2 map").submit_seconds == Approx(2.0));
  CHECK(Stage(r, "e2 map").complete_seconds == Approx(5.0));
  CHECK(Stage(r, "e2 map").gated_by == std::vector<std::string>{"sq1"});
  CHECK(r.makespan_seconds == Approx(6.0));
  CHECK(r.subqueries[0].gated_stages == std::vector<int>{0, 1, 2});
}

TEST_CASE("SubqueryJobs: dynamic pruning reusing a join's broadcast waits for that broadcast",
          "[engine][subquery]") {
  // e1 = broadcast join j2 of scan a (4 tasks) with scan d (1 task, the build side); e2 = scan b
  // (2 tasks), pruned by d's keys through j2's broadcast. AQE on: the first step creates j2
  // broadcast (id 0) and e2 map (id 1, held): j2 broadcast [0, 1] (its relation ships in no
  // time); e2 map is then submitted at 1 with e1 map (created by the step after the broadcast).
  json doc = Doc();
  doc.erase("subqueries");
  doc["plan"]["left"]["child"] = {{"op", "join"},
                                  {"id", "j2"},
                                  {"strategy", "BroadcastHashJoin"},
                                  {"buildSide", "BuildRight"},
                                  {"left", Scan("a", 4)},
                                  {"right", Scan("d", 1)}};
  doc["subqueries"] =
      json::array({{{"id", "dpp"}, {"kind", "dynamicPruning"}, {"gates", {"b"}}, {"reusesBroadcast", "j2"}}});
  const RunResult r = SimulateQuery(*Load(doc), true);
  const StageResult& b = Stage(r, "j2 broadcast");
  CHECK(b.complete_seconds == Approx(1.0).margin(1e-3));
  CHECK(Stage(r, "e2 map").submit_seconds == Approx(b.complete_seconds));
  CHECK(Stage(r, "e2 map").gated_by == std::vector<std::string>{"dpp"});
  REQUIRE(r.subqueries.size() == 1);
  CHECK_FALSE(r.subqueries[0].dropped);
  CHECK(r.subqueries[0].stages == std::vector<int>{b.id});
  CHECK(r.subqueries[0].gated_stages == std::vector<int>{Stage(r, "e2 map").id});

  // A sort-merge j2 has no broadcast to reuse: Spark drops the pruning filter, nothing waits.
  doc["plan"]["left"]["child"]["strategy"] = "SortMergeJoin";
  doc["plan"]["left"]["child"].erase("buildSide");
  doc["plan"]["left"]["child"]["left"] = Exchange("e3", Scan("a", 4));
  doc["plan"]["left"]["child"]["right"] = Exchange("e4", Scan("d", 1));
  const RunResult dropped = SimulateQuery(*Load(doc), true);
  CHECK(dropped.subqueries[0].dropped);
  CHECK(dropped.subqueries[0].gated_stages.empty());
  CHECK(Stage(dropped, "e2 map").submit_seconds == Approx(0.0));
}

TEST_CASE("Scenario: subqueries' errors name their place", "[scenario][subquery]") {
  auto errors_of = [](const json& subqueries) {
    json doc = Doc();
    doc["subqueries"] = subqueries;
    LoadResult r = LoadScenarioJson(doc, "test.json", {});
    std::vector<std::string> out;
    for (const Diagnostic& d : r.errors) out.push_back(d.ToString());
    return out;
  };
  const json sub = Doc()["subqueries"][0];
  CHECK(errors_of(json::object()) ==
        std::vector<std::string>{
            "test.json: /subqueries: expected an array of subqueries, found an empty object"});
  json g = sub;
  g["gates"] = {"a", "nope"};
  CHECK(errors_of(json::array({g})) ==
        std::vector<std::string>{
            "test.json: /subqueries/0/gates/1: expected the id of a scan of /plan, found \"nope\" "
            "(its scans: \"a\", \"b\")"});
  g["gates"] = json::array();
  CHECK(errors_of(json::array({g})) ==
        std::vector<std::string>{
            "test.json: /subqueries/0/gates: expected a non-empty array of scan ids, found an "
            "empty array"});
  json both = sub;
  both["reusesBroadcast"] = "j1";
  CHECK(errors_of(json::array({both})) ==
        std::vector<std::string>{
            "test.json: /subqueries/0: expected either \"plan\" (the subquery's own job) or "
            "\"reusesBroadcast\" (the join whose broadcast a dynamicPruning subquery reads), "
            "found both"});
  json reuse = {{"kind", "bloomFilter"}, {"gates", {"a"}}, {"reusesBroadcast", "j1"}};
  CHECK(errors_of(json::array({reuse})) ==
        std::vector<std::string>{"test.json: /subqueries/0/reusesBroadcast: expected no reusesBroadcast on a "
                                 "bloomFilter subquery (only a dynamicPruning subquery reuses a join's "
                                 "broadcast), found \"j1\""});
  reuse["kind"] = "dynamicPruning";
  reuse["reusesBroadcast"] = "j9";
  CHECK(errors_of(json::array({reuse})) ==
        std::vector<std::string>{
            "test.json: /subqueries/0/reusesBroadcast: expected the id of a join of /plan, "
            "found \"j9\" (its joins: \"j1\"); did you mean \"j1\"?"});
  json clash = sub;
  clash["plan"]["child"]["child"]["id"] = "a";
  CHECK(errors_of(json::array({clash})) ==
        std::vector<std::string>{
            "test.json: /subqueries/0/plan/child/child/id: expected a unique id, found \"a\" "
            "(already used at /plan/left/child)"});
}

}  // namespace
}  // namespace aqesim
