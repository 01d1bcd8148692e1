// End to end: the uncertainty band of modelled seconds (models/engine/simulated_band.h): `run` JSON's
// makespanSecondsLow / makespanSecondsHigh and the table's "(low–high s)", `validate` JSON's
// simulatedLowSeconds / simulatedHighSeconds; none when every stage is profiled.
#include <catch2/catch.hpp>

#include "models/cost/defaults_band.h"
#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"
#include "tools/text/table_text.h"

namespace aqesim::e2e {
namespace {

// Two map stages of 8 tasks and a result stage of 4 on 2 x 2 slots, every task 1 s (launch
// only; no driver time): AQE off, the makespan is 2 waves + 2 waves + 1 wave = 5 s, and at the
// band's factors every task lasts `factor` seconds: 5 × factor.
constexpr const char* kLaunchOnly = R"({
  "name": "band", "seed": 1,
  "cluster": {"executors": 2, "executorCores": 2, "executorMemory": "8g",
              "diskBytesPerSecond": "1000g", "networkBytesPerSecond": "1000g"},
  "conf": {"spark.sql.shuffle.partitions": 4, "spark.sql.adaptive.enabled": "false",
           "spark.sql.autoBroadcastJoinThreshold": "-1"},
  "cost": {"taskLaunchSeconds": 1, "executorStartupSeconds": 0, "executorStageWarmupSeconds": 0,
           "coldCodeSlowdown": 0, "stageOverheadSeconds": 0, "replanSeconds": 0,
           "remoteFetchRequestSeconds": 0, "localFetchRequestSeconds": 0, "scanSecondsPerByte": 0,
           "shuffleWriteSecondsPerByte": 0, "shuffleReadSecondsPerByte": 0, "sortSecondsPerByte": 0,
           "hashBuildSecondsPerByte": 0, "joinProbeSecondsPerByte": 0, "aggregateSecondsPerByte": 0,
           "streamSecondsPerByte": 0, "mapStatusAggregateSecondsPerBlock": 0},
  "plan": {"op": "join", "id": "j", "strategy": "SortMergeJoin", "joinType": "Inner",
           "left": {"op": "exchange", "id": "e1", "child": {"op": "scan", "id": "a", "bytes": 8000, "tasks": 8}},
           "right": {"op": "exchange", "id": "e2", "child": {"op": "scan", "id": "b", "bytes": 8000, "tasks": 8}}}
})";

TEST_CASE("run: a modelled makespan comes with the band, every modelled task at the band's factors",
          "[e2e][band]") {
  const testing::TempDir dir("aqesim_band");
  const std::string scenario = dir.Write("band.json", kLaunchOnly);
  const CommandResult json = RunAqesim({"run", scenario, "--aqe", "off", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto run = nlohmann::json::parse(json.stdout_text)["runs"][0];
  CHECK(run["makespanSeconds"].get<double>() == Approx(5.0));
  CHECK(run["makespanSecondsLow"].get<double>() == Approx(5.0 * kDefaultsBand.low).margin(1e-6));
  CHECK(run["makespanSecondsHigh"].get<double>() == Approx(5.0 * kDefaultsBand.high).margin(1e-6));
  // The band follows makespanSeconds in the object.
  const std::string text = json.stdout_text;
  CHECK(text.find("\"makespanSeconds\"") < text.find("\"makespanSecondsLow\""));
  CHECK(text.find("\"makespanSecondsLow\"") < text.find("\"makespanSecondsHigh\""));
  CHECK(text.find("\"makespanSecondsHigh\"") < text.find("\"stages\""));

  const CommandResult table = RunAqesim({"run", scenario, "--aqe", "off"});
  REQUIRE(table.exit_code == 0);
  // Above the stage table, how its three stages were timed and their band's factors.
  const std::string expected =
      "AQE off: makespan 5.000 s" + BandText(5.0 * kDefaultsBand.low, 5.0 * kDefaultsBand.high) +
      "\nstage seconds (timed): 3 stages modelled; a modelled stage's seconds carry the cost model's band, "
      "roughly × 0.79 to × 7.6 each (the makespan's band above\n  re-simulates the run at those factors: "
      "README "
      "\"How far to trust the seconds\")\nstage  ";
  CHECK(table.stdout_text.find(expected) != std::string::npos);
}

TEST_CASE("validate: the band with --no-profile, none when every stage is profiled", "[e2e][band]") {
  const std::string log = SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd");
  const CommandResult modelled = RunAqesim({"validate", "-q", log, "--no-profile", "--format", "json"});
  REQUIRE(modelled.exit_code == 0);
  const auto m = nlohmann::json::parse(modelled.stdout_text)["makespan"];
  const double simulated = m["simulatedSeconds"].get<double>();
  REQUIRE(m.contains("simulatedLowSeconds"));
  // Driver time (submission gaps, re-planning) is not scaled: the band is within the factors.
  CHECK(m["simulatedLowSeconds"].get<double>() >= simulated * kDefaultsBand.low - 1e-6);
  CHECK(m["simulatedLowSeconds"].get<double>() < simulated);
  CHECK(m["simulatedHighSeconds"].get<double>() <= simulated * kDefaultsBand.high + 1e-6);
  CHECK(m["simulatedHighSeconds"].get<double>() > simulated);

  const CommandResult profiled = RunAqesim({"validate", "-q", log, "--format", "json"});
  REQUIRE(profiled.exit_code == 0);
  const auto p = nlohmann::json::parse(profiled.stdout_text)["makespan"];
  CHECK_FALSE(p.contains("simulatedLowSeconds"));
  CHECK_FALSE(p.contains("simulatedHighSeconds"));
  // The text says which: the band, or "(profiled)" (the four stages of its one execution replayed
  // from their recorded task times).
  const CommandResult text = RunAqesim({"validate", "-q", log});
  REQUIRE(text.exit_code == 0);
  CHECK(
      Contains(text.stdout_text,
               "makespan (sum of SQL execution wall times): recorded 4.885 s, simulated 4.908 s (profiled), "
               "error +0.5% (application 17.896 s)\n"));
}

TEST_CASE("run: a run whose every stage is profiled says so on its makespan line", "[e2e][band]") {
  // The aqeshuffle log imported: AQE on is the recorded run, each stage timed by its profile; AQE
  // off reads 200 partitions where the log ran 13, so its e1 map is modelled.
  const testing::TempDir dir("run_profiled");
  const std::string scenario = dir.File("aqeshuffle.json");
  REQUIRE(RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "-o",
                     scenario, "-q"})
              .exit_code == 0);
  const CommandResult on = RunAqesim({"run", scenario, "--aqe", "on"});
  REQUIRE(on.exit_code == 0);
  CHECK(on.stdout_text.find("\nAQE on: makespan 4.908 s (profiled)\nstage seconds: every stage profiled from "
                            "the log (its recorded task times re-scheduled; no band)\nstage  ") !=
        std::string::npos);
  // AQE off: the log's e1 map read 13 partitions, this run 200: its profile resized ×15.4, the
  // other three as recorded; the resized stage carries the band.
  const CommandResult off = RunAqesim({"run", scenario, "--aqe", "off"});
  REQUIRE(off.exit_code == 0);
  CHECK(Contains(
      off.stdout_text,
      "\nAQE off: makespan 3.994 s (3.6–15 s)\nstage seconds (timed): 3 stages profiled from the log, 1 "
      "resized from a profile (recorded tasks extrapolated to another task count); a resized stage's "
      "seconds\n  carry the cost model's band, roughly × 0.79 to × 7.6 each"));
  CHECK(Contains(off.stdout_text, "profiled (resized ×15.4)"));
}

}  // namespace
}  // namespace aqesim::e2e
