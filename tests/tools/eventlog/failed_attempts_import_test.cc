// Imported failed attempts against values read by hand from the raw events of SQL execution 27
// of tasks_executors_fail_compressed_eventlog (the fixture keeps its lines and the application's
// header events; tests/data/eventlogs/README.md): its stage 238 (200 tasks, e1 map) lost
// executor 2 (ExecutorRemoved 1623285426654) and executor 1 (...6806) at shutdown.
#include "tools/eventlog/failed_attempts_import.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;
using testing::Fixture;

/// The attempts of partition `task`, in order.
std::vector<json> Of(const json& attempts, int task) {
  std::vector<json> out;
  for (const json& a : attempts)
    if (a.at("task") == task) out.push_back(a);
  return out;
}

TEST_CASE("FailedAttemptsJson: stage 238 of tasks_executors_fail as recorded",
          "[eventlog][profile][failures]") {
  const RecordedApplication app = ReadEventLog(Fixture("tasks_executors_fail_execution27.zstd"), nullptr);
  const RecordedStage* st = app.stage(238);
  REQUIRE(st != nullptr);
  const json attempts = FailedAttemptsJson(app, *st);
  // 53 TaskEnds without output: 50 Resubmitted (the successes of executors 1 and 2), task 8519's
  // ExecutorLostFailure, tasks 8560 and 8574 FetchFailed.
  std::map<std::string, int> by_reason;
  for (const json& a : attempts) ++by_reason[a.at("reason")];
  CHECK(attempts.size() == 53);
  CHECK(by_reason ==
        std::map<std::string, int>{{"ExecutorLostFailure", 1}, {"FetchFailed", 2}, {"Resubmitted", 50}});
  // Partition 168: task 8519 on executor 2, Launch ...6574, Finish ...6652, Exit Caused By App.
  const std::vector<json> p168 = Of(attempts, 168);
  REQUIRE(p168.size() == 1);
  CHECK(p168[0].at("reason") == "ExecutorLostFailure");
  CHECK(p168[0].at("seconds").get<double>() == Approx(0.078));
  CHECK(p168[0].at("causedByApp") == true);
  CHECK(p168[0].at("executor") == "2");
  CHECK_FALSE(p168[0].contains("retryAfterSeconds"));
  // Partition 51: task 8409 on executor 2 (...6511 to ...6516), its output lost when executor 2
  // was removed at ...6654: pending again 0.138 s after its end.
  const std::vector<json> p51 = Of(attempts, 51);
  REQUIRE(p51.size() == 1);
  CHECK(p51[0].at("reason") == "Resubmitted");
  CHECK(p51[0].at("seconds").get<double>() == Approx(0.005));
  CHECK(p51[0].at("retryAfterSeconds").get<double>() == Approx(0.138));
  // Partition 72: task 8356 on executor 1 (...6465 to ...6481) lost at ...6806 (0.325 s later),
  // then attempt 1, task 8560 on executor 7 (...6810 to ...6837), FetchFailed; the stage had one
  // attempt (the application stopped): not resubmitted.
  const std::vector<json> p72 = Of(attempts, 72);
  REQUIRE(p72.size() == 2);
  CHECK(p72[0].at("reason") == "Resubmitted");
  CHECK(p72[0].at("seconds").get<double>() == Approx(0.016));
  CHECK(p72[0].at("retryAfterSeconds").get<double>() == Approx(0.325));
  CHECK(p72[0].at("executor") == "1");
  CHECK(p72[1].at("reason") == "FetchFailed");
  CHECK(p72[1].at("seconds").get<double>() == Approx(0.027));
  CHECK(p72[1].at("stageResubmitted") == false);
  CHECK(p72[1].at("executor") == "7");
  // A stage without failures has none.
  CHECK(FailedAttemptsJson(app, *app.stage(237)).empty());
}

TEST_CASE("Import and replay: SQL execution 27's job fails on its FetchFailed, as recorded",
          "[eventlog][profile][failures]") {
  const RecordedApplication app = ReadEventLog(Fixture("tasks_executors_fail_execution27.zstd"), nullptr);
  std::vector<std::string> warnings;
  ImportOptions options;
  options.execution_id = 27;
  const ImportedScenario imported = ImportScenario(app, options, &warnings);
  const json& e1 = imported.scenario.at("profiles").at("e1 map");
  CHECK(e1.at("recordedStage") == 238);
  CHECK(e1.at("tasks") == 200);
  CHECK(e1.at("failedAttempts").size() == 53);
  CHECK_FALSE(imported.scenario.at("profiles").at("e2 map").contains("failedAttempts"));
  json doc = imported.scenario;
  doc.erase("estimated");
  LoadResult loaded = LoadScenarioJson(doc, "e27.json", {});
  INFO((loaded.errors.empty() ? std::string() : loaded.errors[0].ToString()));
  REQUIRE(loaded.errors.empty());
  const RunResult r = SimulateQuery(*loaded.scenario, false);
  // The job fails on partition 72's or 138's FetchFailed (their outputs were lost with executor 1
  // at 0.325 / 0.315 s after their ends); the result stage never runs.
  REQUIRE(r.job_failure.has_value());
  CHECK(r.job_failure->stage == "e1 map");
  CHECK(r.job_failure->reason == "FetchFailed");
  CHECK((r.job_failure->task == 72 || r.job_failure->task == 138));
  const StageResult* e1_stage = nullptr;
  for (const StageResult& s : r.stages)
    if (s.name == "e1 map") e1_stage = &s;
  REQUIRE(e1_stage != nullptr);
  CHECK(e1_stage->failed == "FetchFailed");
  // Every recorded failed attempt but partition 138's FetchFailed (the stage stopped on 72's
  // first, with no other attempt in flight).
  CHECK(r.job_failure->task == 72);
  CHECK(e1_stage->failed_attempts == 52);
  // Recorded: submitted ...6455, failed ...6841 (0.386 s); replayed 0.426 s (partition 72 runs
  // later in its stage than Spark ran it, its retry waits the recorded 0.325 s after its end).
  // Without the failed attempts it was 0.168 s.
  CHECK(e1_stage->duration_seconds() == Approx(0.386).margin(0.045));
}

}  // namespace
}  // namespace aqesim::eventlog
