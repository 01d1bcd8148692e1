// CompareRuns on hand-built runs: stages matched by name (one only in B), durations and task
// counts, decisions that only one run took (equal lines pair one to one; the same outcome with
// another target is the same decision, as `aqesim scale` counts it), and the table's lines.
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

Decision Coalesced(const std::string& exchange, int before, int after, int64_t target_bytes,
                   const std::string& target_text) {
  Decision d = Decided("CoalesceShufflePartitions", exchange + ": " + std::to_string(before) + " → " +
                                                        std::to_string(after) + " partitions (target " +
                                                        target_text + ")");
  d.fields = {{"exchanges", {exchange}},
              {"partitionsBefore", before},
              {"partitionsAfter", after},
              {"targetSizeBytes", target_bytes},
              {"advisoryPartitionSizeBytes", 67108864},
              {"minNumPartitions", 40}};
  return d;
}

TEST_CASE("CompareRuns: a coalescing whose target moved is the same decision, another count is not",
          "[compare]") {
  RunResult a, b;
  a.adaptive = b.adaptive = true;
  a.makespan_seconds = b.makespan_seconds = 70;
  // demo.json at the default advisory size (A) and at 128m (B): e3 is 200 → 40 in both, its target
  // 54.2 MiB in A and 52.8 MiB in B; e1,e2 went 307 → 259 in A and 250 → 139 in B.
  a.decisions = {Coalesced("e1,e2", 307, 259, 67108864, "64.0 MiB"),
                 Coalesced("e3", 200, 40, 56816385, "54.2 MiB")};
  b.decisions = {Coalesced("e1,e2", 250, 139, 134217728, "128.0 MiB"),
                 Coalesced("e3", 200, 40, 55364812, "52.8 MiB")};
  b.decisions[1].fields["advisoryPartitionSizeBytes"] = 134217728;
  const RunComparison c = CompareRuns(a, b, std::nullopt, std::nullopt);
  CHECK(c.decisions_only_in_a ==
        std::vector<std::string>{"CoalesceShufflePartitions: e1,e2: 307 → 259 partitions (target 64.0 MiB)"});
  CHECK(
      c.decisions_only_in_b ==
      std::vector<std::string>{"CoalesceShufflePartitions: e1,e2: 250 → 139 partitions (target 128.0 MiB)"});
  REQUIRE(c.decisions_inputs_moved.size() == 1);
  CHECK(c.decisions_inputs_moved[0].first ==
        "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 54.2 MiB)");
  CHECK(c.decisions_inputs_moved[0].second ==
        "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 52.8 MiB)");
  const std::string table = ComparisonTable("a.json", "b.json", {c});
  CHECK(table.find("only in A: CoalesceShufflePartitions: e3") == std::string::npos);
  CHECK(table.find("only in B: CoalesceShufflePartitions: e3") == std::string::npos);
  CHECK(
      table.find("  same outcome, inputs moved: A CoalesceShufflePartitions: e3: 200 → 40 partitions (target "
                 "54.2 MiB)\n                              B CoalesceShufflePartitions: e3: 200 → 40 "
                 "partitions (target 52.8 MiB)\n") != std::string::npos);
  const nlohmann::json j = ComparisonJson("a.json", "b.json", {c});
  CHECK(j["runs"][0]["decisionsInputsMoved"] ==
        nlohmann::json::array(
            {{{"a", "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 54.2 MiB)"},
              {"b", "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 52.8 MiB)"}}}));

  // 200 → 41 is another decision: both lines are listed as only in one run.
  b.decisions[1] = Coalesced("e3", 200, 41, 55364812, "52.8 MiB");
  const RunComparison d = CompareRuns(a, b, std::nullopt, std::nullopt);
  CHECK(d.decisions_inputs_moved.empty());
  CHECK(d.decisions_only_in_a.size() == 2);
  CHECK(d.decisions_only_in_b.size() == 2);
  // Only the targets moved, every line the same: "the same in both", with the note.
  b.decisions = a.decisions;
  b.decisions[1] = Coalesced("e3", 200, 40, 55364812, "52.8 MiB");
  CHECK(ComparisonTable("a.json", "b.json", {CompareRuns(a, b, std::nullopt, std::nullopt)})
            .find("  decisions: the same in both (the same outcome; targets or thresholds moved)\n") !=
        std::string::npos);
}

}  // namespace
}  // namespace aqesim::compare
