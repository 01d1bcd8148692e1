// Imported stage profiles against values read from the raw events of a small log (the
// TaskEnd / StageSubmitted / StageCompleted fields of aqeshuffle_eventlog, extracted with a
// separate script: Launch/Finish Time, Executor Run Time, Records Read, Bytes Read).
#include "tools/eventlog/stage_profile_import.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;
using testing::Fixture;

TEST_CASE("AddStageProfiles: aqeshuffle's stages as recorded", "[eventlog][profile]") {
  const RecordedApplication app = ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(app, ImportOptions{}, &warnings);
  const json& profiles = imported.scenario.at("profiles");
  // Stage 4: the sort-merge join's map side, 13 tasks on local[12] (12 slots): 12 first-wave
  // tasks (median Finish - Launch - Executor Run Time 85.5 ms), 1 later (18 ms); 20,000,000
  // records and 101,409,496 bytes read; submitted 1651694312247, first launch ...2259 (12 ms,
  // every slot free), last task end ...4794, completed ...4796 (2 ms); the last task to end
  // is index 12.
  const json& e1 = profiles.at("e1 map");
  CHECK(e1.at("recordedStage") == 4);
  CHECK(e1.at("tasks") == 13);
  CHECK(e1.at("rowOps").get<double>() == 20000000.0);
  CHECK(e1.at("inputBytes") == 101409496);
  CHECK(e1.at("overheadSeconds").at("firstWave").get<double>() == Approx(0.0855));
  CHECK(e1.at("overheadSeconds").at("later").get<double>() == Approx(0.018));
  CHECK(e1.at("launchDelaySeconds").get<double>() == Approx(0.012));
  CHECK(e1.at("tailSeconds").get<double>() == Approx(0.002));
  CHECK(e1.at("critical").at("task") == 12);
  CHECK(e1.at("rates") == "stage");                       // its tasks read 0.4-2.5 M records each
  CHECK(e1.at("residuals").at("firstWave").size() == 1);  // 12 tasks: one table
  // Stage 0: range() map stage, no records read: fixed rates; submitted ...0413, first launch
  // ...0585 (172 ms), last end ...2036, completed ...2051 (15 ms).
  const json& e2 = profiles.at("e2 map");
  CHECK(e2.at("recordedStage") == 0);
  CHECK(e2.at("rates") == "fixed");
  CHECK(e2.at("secondsPerRowOp").get<double>() == 0.0);
  CHECK(e2.at("launchDelaySeconds").get<double>() == Approx(0.172));
  CHECK(e2.at("tailSeconds").get<double>() == Approx(0.015));
  CHECK(profiles.at("result").at("recordedStage") == 8);
  // Execution start 1651694310051 -> first submission ...0413: 0.362 s.
  CHECK(imported.scenario.at("driver").at("startSeconds").get<double>() == Approx(0.362));

  ImportOptions without;
  without.profiles = false;
  CHECK_FALSE(ImportScenario(app, without, &warnings).scenario.contains("profiles"));
}

TEST_CASE("AddStageProfiles: a submission that waited for a stage outside the plan's parents",
          "[eventlog][profile]") {
  // attempt_2 (EMR, a repeat of join_agg_on_yarn), execution 0, starting at 1724884595268.
  // Which build is which, by the SQL metrics their tasks updated: stage 1's tasks update
  // accumulators 82/83 (Filter/Range under the top BroadcastExchange: j1's build), stage 2's
  // 74/75 (under the BroadcastExchange inside e1's map side: j2's build). Stage 2 (j2 broadcast)
  // completes at 1724884597016 (+1748 ms), stage 1 (j1 broadcast) at 1724884598566 (+3298 ms);
  // e1 map (stage 3), whose plan waits only for j2's build, is submitted at 1724884598625
  // (+3357 ms): 59 ms after j1's build, 1609 ms after its plan parent's.
  const RecordedApplication app = ReadEventLog(Fixture("attempt_2_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(app, ImportOptions{}, &warnings);
  const json& profiles = imported.scenario.at("profiles");
  INFO(profiles.dump());
  CHECK(profiles.at("j1 broadcast").at("recordedStage") == 1);
  CHECK(profiles.at("j2 broadcast").at("recordedStage") == 2);
  const json& e1 = profiles.at("e1 map");
  CHECK(e1.at("recordedStage") == 3);
  CHECK(e1.at("waitsFor") == json::array({"j1 broadcast"}));
  CHECK(e1.at("submitGapSeconds").get<double>() == Approx(0.059));
  // The result stage (stage 5, submitted at +22067 ms) waits for its plan parent, e1 map, the
  // last to complete before it (+21923 ms).
  CHECK_FALSE(profiles.at("result").contains("waitsFor"));
  CHECK(profiles.at("result").at("submitGapSeconds").get<double>() == Approx(0.144));
}

TEST_CASE("AddStageProfiles: no waitsFor when the plan's parent completed last", "[eventlog][profile]") {
  // join_agg_on_yarn, execution 0 (ms from its start, 1724884688934): here stage 1's tasks update
  // accumulators 74/75 (j2's build, e1 map's plan parent) and complete at +3316, stage 2's 82/83
  // (j1's build) at +1823; e1 map (stage 3) is submitted at +3956, 640 ms after its plan parent,
  // the later build: nothing outside the plan to wait for.
  const RecordedApplication app = ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const json profiles = ImportScenario(app, ImportOptions{}, &warnings).scenario.at("profiles");
  INFO(profiles.dump());
  CHECK(profiles.at("j2 broadcast").at("recordedStage") == 1);
  CHECK(profiles.at("j1 broadcast").at("recordedStage") == 2);
  CHECK_FALSE(profiles.at("e1 map").contains("waitsFor"));
  CHECK(profiles.at("e1 map").at("submitGapSeconds").get<double>() == Approx(0.640));
}

TEST_CASE("AddStageProfiles: a stage whose run times fall with its rows takes no other stage's rate",
          "[eventlog][profile]") {
  // join_agg_on_yarn, stage 5 (the result stage: 16 reducers, one task per executor slot, all
  // first wave). Executor Run Time (ms) and records read per task index, from its TaskEnd events:
  // 0: 1234 / 35958, 1: 1491 / 36276, 2: 2080 / 36342, 3: 1881 / 36252, 4: 1326 / 35724,
  // 5: 1470 / 36258, 6: 1940 / 36252, 7: 1902 / 35592, 8: 1350 / 35940, 9: 1986 / 35898,
  // 10: 1212 / 36150, 11: 1516 / 36198, 12: 2069 / 35616, 13: 1497 / 36060, 14: 1326 / 35856,
  // 15: 1496 / 59610. U varies (reducer 15 read 1.65x the others) but run time does not follow
  // (least-squares slope < 0): "fixed", A = the median run, (1496 + 1497) / 2 ms; before, the
  // log's B tied the residuals to task size.
  const RecordedApplication app = ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(app, ImportOptions{}, &warnings);
  const json& result = imported.scenario.at("profiles").at("result");
  CHECK(result.at("recordedStage") == 5);
  CHECK(result.at("rates") == "fixed");
  CHECK(result.at("fixedSeconds").get<double>() == Approx(1.4965));
  CHECK(result.at("secondsPerRowOp").get<double>() == 0.0);
}

TEST_CASE("PlanStageParents: exchanges and broadcast builds end a stage", "[eventlog][profile]") {
  const json plan = {
      {"op", "join"},
      {"id", "j1"},
      {"strategy", "BroadcastHashJoin"},
      {"buildSide", "BuildRight"},
      {"left", {{"op", "exchange"}, {"id", "e1"}, {"child", {{"op", "scan"}, {"id", "s1"}}}}},
      {"right", {{"op", "exchange"}, {"id", "e2"}, {"child", {{"op", "scan"}, {"id", "s2"}}}}}};
  const auto parents = PlanStageParents(plan);
  CHECK(parents.at("result") == std::vector<std::string>{"j1 broadcast", "e1 map"});
  CHECK(parents.at("j1 broadcast") == std::vector<std::string>{"e2 map"});
  CHECK(parents.at("e1 map").empty());
}

}  // namespace
}  // namespace aqesim::eventlog
