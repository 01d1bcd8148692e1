// `aqesim import-eventlog LOG --list`: the table a user reads before choosing --execution or
// --job, its JSON, and the refusals (values read by hand: tests/tools/eventlog/execution_listing_test.cc).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("import-eventlog --list: a table of the SQL executions, the default starred", "[e2e][import]") {
  const std::string log = SourcePath("tests/data/eventlogs/pandas_execs_eventlog.zstd");
  const CommandResult r = RunAqesim({"import-eventlog", log, "--list"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stdout_text.rfind(log + ": 5 SQL executions, 0 jobs importable only with --job; * = imported when "
                                  "neither --execution nor --job is given\n",
                            0) == 0);
  CHECK(r.stdout_text.find(
            "\n*  --execution 3  off       4.460     1       2    208       53.2 KiB  collect at "
            "<stdin>:1\n") != std::string::npos);
  CHECK(r.stdout_text.find("\n   --execution 2  off       0.349     1       1      8            0 B  ") !=
        std::string::npos);
}

TEST_CASE("import-eventlog --list --format json: one entry per execution or job", "[e2e][import]") {
  const CommandResult r =
      RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/application_1472176676028_407508_1.gz"),
                 "--list", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.stdout_text);
  REQUIRE(doc["executions"].size() == 8);
  CHECK(doc["executions"][0]["kind"] == "sqlExecution");
  CHECK(doc["executions"][0]["importable"] == false);
  CHECK(doc["executions"][0]["recordedSeconds"].is_null());
  CHECK(doc["executions"][1]["kind"] == "job");
  CHECK(doc["executions"][1]["id"] == 0);
  CHECK(doc["executions"][1]["default"] == true);
  CHECK(doc["executions"][1]["recordedSeconds"] == 2452.509);
  CHECK(doc["executions"][1]["shuffleWriteBytes"] == 72112846445);
  CHECK_FALSE(doc["executions"][1].contains("adaptive"));
}

TEST_CASE("import-eventlog: without -o and without --list, or --list with --execution, exit 2",
          "[e2e][import]") {
  const std::string log = SourcePath("tests/data/eventlogs/pandas_execs_eventlog.zstd");
  const CommandResult no_output = RunAqesim({"import-eventlog", log});
  CHECK(no_output.exit_code == 2);
  CHECK(no_output.stderr_text ==
        "aqesim: error: import-eventlog: -o,--output is required (or --list to see what the log holds)\n");
  const CommandResult both = RunAqesim({"import-eventlog", log, "--list", "--execution", "3"});
  CHECK(both.exit_code == 2);
  CHECK(both.stderr_text.find("--execution excludes --list") != std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
