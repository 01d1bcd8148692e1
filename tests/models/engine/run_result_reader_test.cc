// RunFromJson / ExplainFromJson read back exactly what RunToJson / ExplainToJson wrote, and refuse
// a damaged result with a pointer.
#include "models/engine/run_result_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/engine/explain_reader.h"
#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

TEST_CASE("RunFromJson and ExplainFromJson: the simulator's runs survive their files unchanged",
          "[engine][run_result]") {
  // Skew splits, runtime broadcasts, dynamic allocation (executors over time) and coalescing
  // between them, and a range exchange's sampling stages and bounds, give every member RunToJson
  // and ExplainToJson write; c08's joins give `notApplied` entries of three reasons.
  size_t not_applied = 0;
  for (const char* name : {"skew-join", "broadcast-at-runtime", "dynamic-allocation", "demo",
                           "variants/range-sort-hot-key", "cases/c08_outer_join_skew_side"}) {
    LoadResult lr = LoadScenarioFile(std::string(AQESIM_SOURCE_DIR) + "/scenarios/" + name + ".json", {});
    REQUIRE(lr.errors.empty());
    for (bool adaptive : {false, true}) {
      INFO(name << (adaptive ? " AQE on" : " AQE off"));
      const RunResult run = SimulateQuery(*lr.scenario, adaptive);
      REQUIRE_FALSE(run.stages.empty());
      // Through text, as a file holds it.
      const nlohmann::json run_file = nlohmann::json::parse(RunToJson(run, true).dump());
      const nlohmann::json explain_file = nlohmann::json::parse(ExplainToJson(lr.scenario->name, run).dump());
      std::vector<std::string> errors;
      const std::optional<RunResult> back = RunFromJson(run_file, "r.json", "/runs/0", &errors);
      const std::optional<RunResult> explain = ExplainFromJson(explain_file, "r.json", "/explain", &errors);
      CHECK(errors.empty());
      REQUIRE(back);
      REQUIRE(explain);
      CHECK(RunToJson(*back, true).dump() == RunToJson(run, true).dump());
      CHECK(ExplainToJson(lr.scenario->name, *explain).dump() ==
            ExplainToJson(lr.scenario->name, run).dump());
      REQUIRE(back->stages.size() == run.stages.size());
      CHECK(back->stages.back().task_results.size() == run.stages.back().task_results.size());
      CHECK(explain->exchanges.size() == run.exchanges.size());
      CHECK(explain->reads.size() == run.reads.size());
      REQUIRE(explain->not_applied.size() == run.not_applied.size());
      for (size_t i = 0; i < run.not_applied.size(); ++i) {
        CHECK(explain->not_applied[i].message == run.not_applied[i].message);
        CHECK(explain->not_applied[i].numbers == run.not_applied[i].numbers);
      }
      not_applied += run.not_applied.size();
    }
  }
  CHECK(not_applied >= 5);
}

TEST_CASE("RunFromJson: a damaged run is refused with a pointer", "[engine][run_result]") {
  std::vector<std::string> errors;
  const nlohmann::json ok = {
      {"adaptive", true}, {"makespanSeconds", 12.5}, {"stages", nlohmann::json::array()}};
  REQUIRE(RunFromJson(ok, "r.json", "/runs/0", &errors));
  CHECK(errors.empty());

  CHECK_FALSE(RunFromJson({{"adaptive", true}}, "r.json", "/runs/1", &errors));
  CHECK(errors ==
        std::vector<std::string>{"r.json: /runs/1: expected a run (adaptive, makespanSeconds, stages)"});

  errors.clear();
  nlohmann::json bad = ok;
  bad["stages"] = {{{"id", 0}, {"name", 7}, {"tasks", 2}, {"reads", {"e1", 2}}},
                   {{"id", 1}, {"submitSeconds", 1.0}, {"completeSeconds", 3.0}, {"durationSeconds", 5.0}}};
  bad["decisions"] = {{{"rule", "CoalesceShufflePartitions"}, {"atSeconds", "soon"}}};
  CHECK_FALSE(RunFromJson(bad, "r.json", "/runs/0", &errors));
  CHECK(errors ==
        std::vector<std::string>{
            "r.json: /runs/0/stages/0/name: expected a string, found 7",
            "r.json: /runs/0/stages/0/reads/1: expected a string, found 2",
            "r.json: /runs/0/stages/1/durationSeconds: expected completeSeconds − submitSeconds, found 5.0",
            "r.json: /runs/0/decisions/0/atSeconds: expected a number, found \"soon\""});

  // A hand-written stage may give its duration alone.
  errors.clear();
  nlohmann::json short_stage = ok;
  short_stage["stages"] = {
      {{"id", 3}, {"durationSeconds", 4.5}, {"taskSeconds", {{"median", 1.0}, {"max", 3.0}}}}};
  const std::optional<RunResult> r = RunFromJson(short_stage, "r.json", "/runs/0", &errors);
  REQUIRE(r);
  CHECK(r->stages[0].duration_seconds() == 4.5);
  CHECK(r->stages[0].task_max_seconds == 3.0);
}

TEST_CASE("ExplainFromJson: an unknown partition spec is refused with a pointer", "[engine][run_result]") {
  std::vector<std::string> errors;
  const nlohmann::json explain = {{"reads",
                                   {{{"exchange", "e1"},
                                     {"stage", 2},
                                     {"specs",
                                      {{{"type", "CoalescedPartitionSpec"},
                                        {"startReducerIndex", 0},
                                        {"endReducerIndex", 4},
                                        {"dataSize", 1024}},
                                       {{"type", "WholePartitionSpec"}}}}}}}};
  CHECK_FALSE(ExplainFromJson(explain, "r.json", "/explain", &errors));
  REQUIRE(errors.size() == 1);
  CHECK(
      errors[0] ==
      "r.json: /explain/reads/0/specs/1/type: expected CoalescedPartitionSpec, PartialReducerPartitionSpec, "
      "PartialMapperPartitionSpec or CoalescedMapperPartitionSpec, found \"WholePartitionSpec\"");
}

}  // namespace
}  // namespace aqesim
