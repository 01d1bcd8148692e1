// Load once, evaluate many: BuildScenario on a ScenarioBase with overrides against loading the
// edited document (what sweep and calibrate did per point before).
#include "models/scenario/scenario_overrides.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario_base.h"

namespace aqesim {
namespace {

#ifndef AQESIM_SOURCE_DIR
#define AQESIM_SOURCE_DIR "."
#endif

const std::string kPath = std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json";

nlohmann::json ReadDocument() {
  std::ifstream in(kPath);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// The task times of a run, stage by stage.
std::vector<double> TaskSeconds(const RunResult& run) {
  std::vector<double> out;
  for (const StageResult& s : run.stages)
    for (const TaskResult& t : s.task_results) out.push_back(t.end_seconds - t.start_seconds);
  return out;
}

std::vector<std::string> Messages(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.errors) out.push_back(d.ToString());
  return out;
}

TEST_CASE("BuildScenario: overrides on a base equal loading the edited document", "[scenario][overrides]") {
  const nlohmann::json doc = ReadDocument();
  const auto base = ReadScenarioBase(Json(doc), kPath, nullptr);
  const LoadResult plain = BuildScenario(*base, {});
  REQUIRE(plain.errors.empty());
  // The values below differ from the scenario's: the test would not notice an ignored override.
  REQUIRE(plain.scenario->cluster.executors != 3);
  REQUIRE(plain.scenario->cost.task_launch_seconds != 0.25);
  REQUIRE(plain.scenario->map_status_mode == MapStatusMode::kSpark);
  REQUIRE(plain.scenario->conf.shuffle_partitions != 120);

  ScenarioOverrides ov;
  ov.conf = {{"spark.sql.shuffle.partitions", "120"},
             {"spark.sql.adaptive.advisoryPartitionSizeInBytes", "32m"}};
  ov.fields = {
      {"cluster", "executors", 3}, {"cost", "taskLaunchSeconds", 0.25}, {"simulation", "mapStatus", "exact"}};
  const LoadResult built = BuildScenario(*base, ov);
  REQUIRE(built.errors.empty());

  nlohmann::json edited = doc;
  edited["cluster"]["executors"] = 3;
  edited["cost"]["taskLaunchSeconds"] = 0.25;
  edited["simulation"]["mapStatus"] = "exact";
  ConfOverrides conf;
  conf.conf = ov.conf;
  const LoadResult loaded = LoadScenarioJson(edited, kPath, conf);
  REQUIRE(loaded.errors.empty());

  const Scenario& a = *built.scenario;
  const Scenario& b = *loaded.scenario;
  CHECK(a.cluster.executors == 3);
  CHECK(a.cost.task_launch_seconds == 0.25);
  CHECK(a.map_status_mode == MapStatusMode::kExact);
  CHECK(a.conf.shuffle_partitions == 120);
  CHECK(a.raw_conf == b.raw_conf);
  CHECK(a.cluster.executors == b.cluster.executors);
  CHECK(a.cluster.executor_cores == b.cluster.executor_cores);
  CHECK(a.warnings == b.warnings);
  CHECK(a.input_files == b.input_files);
  for (bool adaptive : {false, true}) {
    const RunResult ra = SimulateQuery(a, adaptive);
    const RunResult rb = SimulateQuery(b, adaptive);
    CHECK(ra.makespan_seconds == rb.makespan_seconds);
    CHECK(TaskSeconds(ra) == TaskSeconds(rb));
  }
  // The run differs from the plain scenario's (the overrides took effect).
  CHECK(SimulateQuery(a, true).makespan_seconds != SimulateQuery(*plain.scenario, true).makespan_seconds);
  // The base is unchanged: building again without overrides gives the plain scenario.
  const LoadResult again = BuildScenario(*base, {});
  REQUIRE(again.errors.empty());
  CHECK(again.scenario->cluster.executors == plain.scenario->cluster.executors);
  CHECK(SimulateQuery(*again.scenario, true).makespan_seconds ==
        SimulateQuery(*plain.scenario, true).makespan_seconds);
}

TEST_CASE("BuildScenario: a bad override gets the edited document's message, in document order",
          "[scenario][overrides]") {
  const nlohmann::json doc = ReadDocument();
  const auto base = ReadScenarioBase(Json(doc), kPath, nullptr);
  ScenarioOverrides ov;
  ov.fields = {{"cost", "taskLaunchSeconds", -1}, {"cluster", "executors", "abc"}};
  ov.conf = {{"spark.sql.shuffle.partitions", "x"}};
  const std::vector<std::string> errors = Messages(BuildScenario(*base, ov));
  const std::vector<std::string> expected = {
      kPath + ": /cluster/executors: expected a positive integer, found \"abc\"",
      kPath + ": /cost/taskLaunchSeconds: expected a number in [0, 3600] (s), found -1",
      "--conf spark.sql.shuffle.partitions=x: expected an integer > 0 (the number of shuffle partitions must "
      "be "
      "positive), found \"x\""};
  CHECK(errors == expected);

  nlohmann::json edited = doc;
  edited["cluster"]["executors"] = "abc";
  edited["cost"]["taskLaunchSeconds"] = -1;
  ConfOverrides conf;
  conf.conf = ov.conf;
  CHECK(Messages(LoadScenarioJson(edited, kPath, conf)) == expected);
}

TEST_CASE("BuildScenario: a field the section lacks is ordered where the edited document has it",
          "[scenario][overrides]") {
  // Key-sorted sections (a document parsed into a key-sorted object): a new key goes in key
  // order, so executorCores' problem comes before executors'.
  const auto base = ReadScenarioBase(Json::parse(R"({"cluster": {"executors": 2}, "plan": {"op": "scan"}})"),
                                     "s.json", nullptr);
  ScenarioOverrides ov;
  ov.fields = {{"cluster", "executors", 0}, {"cluster", "executorCores", 0}};
  const std::vector<std::string> errors = Messages(BuildScenario(*base, ov));
  REQUIRE(errors.size() >= 2);
  CHECK(errors[0].rfind("s.json: /cluster/executorCores: ", 0) == 0);
  CHECK(errors[1].rfind("s.json: /cluster/executors: ", 0) == 0);
}

}  // namespace
}  // namespace aqesim
