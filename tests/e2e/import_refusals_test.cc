// import-eventlog on a damaged copy of the aqeshuffle fixture: a stage of 2^31-1 tasks, a
// counter at INT64_MAX, values `run` would refuse. Each is exit 2 with one line naming the log
// (FILE:LINE where one event is to blame), and no scenario is written: the importer never
// writes what the scenario loader refuses.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

using eventlog::testing::AqeShuffleText;

/// The fixture's text with the first `count` (0: every) occurrence of `from` replaced by `to`.
std::string Damaged(const std::string& from, const std::string& to, int count = 0) {
  std::string text = AqeShuffleText();
  size_t at = 0;
  for (int n = 0; (count == 0 || n < count) && (at = text.find(from, at)) != std::string::npos; ++n) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
  REQUIRE(text != AqeShuffleText());
  return text;
}

struct Imported {
  CommandResult result;
  std::string log;
  std::string scenario;  // the -o path
  bool wrote = false;
};

Imported Import(const std::string& text) {
  static eventlog::testing::TempDir dir;
  static int n = 0;
  Imported out;
  out.log = dir.Write("log" + std::to_string(++n) + ".json", text);
  const std::string scenario = dir.File("out" + std::to_string(n) + ".json");
  out.scenario = scenario;
  out.result = RunAqesim({"import-eventlog", out.log, "-o", scenario, "-q"});
  out.wrote = std::filesystem::exists(scenario);
  return out;
}

/// `r` was refused: exit 2, one line "aqesim: error: LOG" + `message`, and no scenario written.
void CheckRefused(const Imported& r, const std::string& message) {
  CHECK(r.result.exit_code == 2);
  CHECK(r.result.stderr_text == "aqesim: error: " + r.log + message);
  CHECK_FALSE(r.wrote);
}

}  // namespace

TEST_CASE("import-eventlog: a stage of 2^31-1 tasks is refused at its line before anything is sized",
          "[e2e][eventlog][bad_inputs]") {
  // Lines 11-14 (JobStart, StageSubmitted) give stages 0 and 1 six tasks; line 11 is the first.
  const Imported r = Import(Damaged("\"Number of Tasks\":6", "\"Number of Tasks\":2147483647"));
  CheckRefused(r,
               ":11: stage 0: Number of Tasks: expected 0 to 10000000 (the most tasks a stage may have, "
               "README \"Input limits\"), found 2147483647\n");
}

TEST_CASE("import-eventlog: a run a little longer than its task is taken as the task's span, warned once",
          "[e2e][eventlog][bad_inputs]") {
  // tests/bad_inputs/eventlog_run_time_beyond_wall.json with its two tasks' 2e12 ms runs (refused:
  // the .expect) set to 1,600 ms: task 0 launched at ...020 and finished at ...520 (1,500 ms).
  std::ifstream in(SourcePath("tests/bad_inputs/eventlog_run_time_beyond_wall.json"));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  for (size_t at; (at = text.find("2000000000000")) != std::string::npos;) text.replace(at, 13, "1600");
  static eventlog::testing::TempDir dir;
  const std::string log = dir.Write("run_beyond_wall.json", text), out = dir.File("run_beyond_wall_out.json");
  const CommandResult r = RunAqesim({"import-eventlog", log, "-o", out});
  INFO(r.stderr_text);
  REQUIRE(r.exit_code == 0);
  const std::string warning =
      "aqesim: warning: " + log +
      ":6: TaskEnd of task 0: Executor Run Time 1600 ms is longer than the task's 1500 ms "
      "from Launch Time to Finish Time (a step of the driver's clock?): taken as the span, "
      "here and in any later task like it\n";
  CHECK_THAT(r.stderr_text, Catch::Contains(warning));
  CHECK(r.stderr_text.find("Executor Run Time") == r.stderr_text.rfind("Executor Run Time"));  // once
}

TEST_CASE("import-eventlog: a Shuffle Bytes Written of INT64_MAX is refused at its line",
          "[e2e][eventlog][bad_inputs]") {
  // Line 27: task 0 of stage 0 wrote 8694187 bytes. Was "internal error: coalesced read: map
  // tasks wrote 9223372036896786432.000000 bytes", exit 1.
  const Imported r =
      Import(Damaged("\"Shuffle Bytes Written\":8694187", "\"Shuffle Bytes Written\":9223372036854775807"));
  CheckRefused(
      r,
      ":27: TaskEnd of task 0 (stage 0): Shuffle Bytes Written: 9223372036854775807 brings the log's "
      "total past 2^60 (1152921504606846976; 1 EiB as bytes, 36,000 years as milliseconds), which no Spark "
      "application records: the log is damaged\n");
}

TEST_CASE("validate and scale: a recorded property the loader refuses is named at its log line",
          "[e2e][eventlog][bad_inputs]") {
  // As import-eventlog names it (below); was "LOG (SQL execution 0): /conf/spark.task.cpus: ..." in both.
  static eventlog::testing::TempDir dir;
  const std::string log = dir.Write(
      "cpus0.json", Damaged("\"Spark Properties\":{", "\"Spark Properties\":{\"spark.task.cpus\":\"0\","));
  const CommandResult r = RunAqesim({"validate", log});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text ==
        "aqesim: error: " + log +
            ": nothing to compare: no SQL execution of the log could be simulated; SQL execution 0: "
            "not simulated: " +
            log + ":5: Spark Properties: spark.task.cpus: expected an integer > 0, found \"0\"\n");
  const CommandResult scaled = RunAqesim({"scale", log});
  CHECK(scaled.exit_code == 2);
  CHECK(scaled.stderr_text ==
        "aqesim: error: " + log +
            ":5: Spark Properties: spark.task.cpus: expected an integer > 0, found \"0\"\n");
}

TEST_CASE("import-eventlog: a log whose scenario run would refuse writes none",
          "[e2e][eventlog][bad_inputs]") {
  SECTION("spark.task.cpus 0") {
    const Imported r =
        Import(Damaged("\"Spark Properties\":{", "\"Spark Properties\":{\"spark.task.cpus\":\"0\","));
    // Named at the environment update's line (line 5), not as the scenario's /conf/spark.task.cpus.
    CheckRefused(r,
                 ":5: Spark Properties: spark.task.cpus: expected an integer > 0, found \"0\"; the scenario "
                 "imported from this log would not load, so none is written\n");
  }
  SECTION("stages of 0 tasks (that ran tasks) are not refused: the tasks seen give the count") {
    // Was: refused as the scenario's /plan/child/child/left/child/tasks, a pointer the user never
    // wrote. Stages 0 and 1 ran 6 tasks each (indexes 0-5): imported as the undamaged log is, with a
    // warning at their lines (tests/tools/eventlog/zero_tasks_and_long_text_test.cc words it).
    const Imported r = Import(Damaged("\"Number of Tasks\":6", "\"Number of Tasks\":0"));
    CHECK(r.result.exit_code == 0);
    CHECK(r.result.stderr_text.empty());  // -q
    REQUIRE(r.wrote);
    const Imported undamaged = Import(AqeShuffleText());
    REQUIRE(undamaged.wrote);
    const auto scenario_of = [](const Imported& i) {
      std::ifstream in(i.scenario);
      nlohmann::json j = nlohmann::json::parse(in);
      j.erase("name");
      j.erase("description");
      return j;
    };
    CHECK(scenario_of(r) == scenario_of(undamaged));
  }
  SECTION("the undamaged log imports and runs") {
    const Imported r = Import(AqeShuffleText());
    CHECK(r.result.exit_code == 0);
    CHECK(r.wrote);
  }
}

}  // namespace aqesim::e2e
