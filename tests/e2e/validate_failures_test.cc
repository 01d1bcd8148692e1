// End to end: `aqesim validate` on SQL execution 27 of tasks_executors_fail (the fixture cut from
// the corpus log, tests/data/eventlogs/README.md): the stage with failed attempts is listed,
// recorded against replayed, in the table and the JSON.
#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

const char* kLog = "tests/data/eventlogs/tasks_executors_fail_execution27.zstd";

TEST_CASE("aqesim validate: a stage's failed attempts, recorded and replayed", "[e2e][validate][failures]") {
  const CommandResult table = RunAqesim({"validate", SourcePath(kLog), "-q"});
  REQUIRE(table.exit_code == 0);
  CHECK(table.stdout_text.find(
            "\nstages with failed or resubmitted attempts:\n  SQL execution 27, stage 238 (e1 map): "
            "53 failed attempts recorded (50 Resubmitted, 2 FetchFailed, 1 ExecutorLostFailure), ") !=
        std::string::npos);
  CHECK(table.stdout_text.find(
            "\n    replayed: stopped (FetchFailed), its job failed; recorded: 1 stage attempt, "
            "failed: org.apache.spark.shuffle.FetchFailedException") != std::string::npos);

  const CommandResult r = RunAqesim({"validate", SourcePath(kLog), "--format", "json", "-q"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json v = nlohmann::json::parse(r.stdout_text);
  // SQLExecutionStart 1623285426377 -> SQLExecutionEnd ...6976.
  CHECK(v["makespan"]["recordedSeconds"].get<double>() == Approx(0.599));
  const nlohmann::json* e1 = nullptr;
  for (const nlohmann::json& s : v["stages"])
    if (s["stageId"] == 238) e1 = &s;
  REQUIRE(e1 != nullptr);
  CHECK((*e1)["failedAttempts"]["recorded"] == 53);
  CHECK((*e1)["failedAttempts"]["recordedByReason"]["Resubmitted"] == 50);
  CHECK((*e1)["failedAttempts"]["simulated"].get<int>() > 0);
  CHECK((*e1)["stageAttempts"] == 1);
  CHECK((*e1)["failed"]["recorded"].get<std::string>().rfind("org.apache.spark.shuffle.FetchFailedException",
                                                             0) == 0);
  CHECK((*e1)["failed"]["simulated"] == "FetchFailed");
  for (const nlohmann::json& s : v["stages"])
    if (s["stageId"] == 237) CHECK_FALSE(s.contains("failedAttempts"));
}

}  // namespace
}  // namespace aqesim::e2e
