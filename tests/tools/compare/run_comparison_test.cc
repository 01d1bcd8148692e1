// CompareRuns on hand-built runs: stages matched by name (one only in B), durations and task
// counts, decisions that only one run took (equal lines pair one to one), and the table's lines.
#include "tools/compare/run_comparison.h"

#include <catch2/catch.hpp>
#include <string>

namespace aqesim::compare {
namespace {

StageResult Stage(const std::string& name, double submit, double complete, int tasks,
                  const std::string& timed = "modelled") {
  StageResult s;
  s.name = name;
  s.submit_seconds = submit;
  s.complete_seconds = complete;
  s.tasks = tasks;
  s.time_source = timed;
  return s;
}

Decision Decided(const std::string& rule, const std::string& message) {
  Decision d;
  d.rule = rule;
  d.message = message;
  return d;
}

TEST_CASE("CompareRuns: stages by name, a stage only in B, decisions only in one run", "[compare]") {
  RunResult a, b;
  a.adaptive = b.adaptive = true;
  a.makespan_seconds = 100;
  b.makespan_seconds = 80;
  a.stages = {Stage("e1 map", 0, 40, 64), Stage("result", 40, 100, 200)};
  b.stages = {Stage("e1 map", 0, 40, 64), Stage("j1 broadcast", 40, 42, 1), Stage("result", 42, 80, 40)};
  a.decisions = {Decided("CoalesceShufflePartitions", "e1: 200 → 200 partitions"),
                 Decided("OptimizeSkewedJoin", "j1: split 1 partition"),
                 Decided("OptimizeSkewedJoin", "j1: split 1 partition")};
  b.decisions = {Decided("OptimizeSkewedJoin", "j1: split 1 partition"),
                 Decided("CoalesceShufflePartitions", "e1: 200 → 40 partitions")};
  const RunComparison c = CompareRuns(a, b, Band{66, 440}, std::nullopt);
  CHECK(c.adaptive);
  CHECK(c.difference_seconds() == -20);
  REQUIRE(c.stages.size() == 3);
  CHECK(c.stages[0].name == "e1 map");
  CHECK(c.stages[0].a_seconds == 40);
  CHECK(c.stages[0].b_seconds == 40);
  CHECK(c.stages[1].name == "result");
  CHECK(c.stages[1].a_seconds == 60);
  CHECK(c.stages[1].b_seconds == 38);
  CHECK(c.stages[1].a_tasks == 200);
  CHECK(c.stages[1].b_tasks == 40);
  CHECK(c.stages[2].name == "j1 broadcast");  // only in B: after A's stages
  CHECK_FALSE(c.stages[2].a_seconds.has_value());
  CHECK(c.stages[2].b_seconds == 2);
  // The second equal split line of A has no partner in B.
  CHECK(c.decisions_only_in_a ==
        std::vector<std::string>{"CoalesceShufflePartitions: e1: 200 → 200 partitions",
                                 "OptimizeSkewedJoin: j1: split 1 partition"});
  CHECK(c.decisions_only_in_b ==
        std::vector<std::string>{"CoalesceShufflePartitions: e1: 200 → 40 partitions"});

  const std::string table = ComparisonTable("a.json", "b.json", {c});
  CHECK(table.find("A: a.json\nB: b.json\n\nAQE on: makespan A 100.000 s (66–440 s), B 80.000 s "
                   "(profiled); B − A -20.000 s -20.0 %\n") != std::string::npos);
  CHECK(table.find("  result        60.000  38.000  -22.000  -36.7 %      200       40  modelled\n") !=
        std::string::npos);
  CHECK(table.find("  j1 broadcast       —   2.000                          —        1  modelled\n") !=
        std::string::npos);
  CHECK(table.find("  only in B: CoalesceShufflePartitions: e1: 200 → 40 partitions\n") != std::string::npos);
  const nlohmann::json j = ComparisonJson("a.json", "b.json", {c});
  CHECK(j["runs"][0]["makespanSeconds"]["difference"] == -20.0);
  CHECK(j["runs"][0]["band"]["a"] == nlohmann::json::array({66.0, 440.0}));
  CHECK(j["runs"][0]["band"]["b"].is_null());
  CHECK(j["runs"][0]["stages"][2]["a"].is_null());
}

}  // namespace
}  // namespace aqesim::compare
