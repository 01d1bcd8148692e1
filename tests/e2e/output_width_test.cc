// Every table and footer a command prints within 160 columns, with no trailing blanks (the
// new-user trial of issue 17, finding 12: `tune`'s space line was 399 wide, `validate
// --profile-from` 192, the `scale LOG` footer 182, `import-eventlog --list`'s first line 161 and
// its rows padded with blanks), on q72 and the corpus logs; the JSON holds the full text.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tools/text/table_text.h"

namespace aqesim::e2e {
namespace {

void CheckFits(const std::vector<std::string>& args) {
  const CommandResult r = RunAqesim(args);
  std::string command;
  for (const std::string& a : args) command += a + " ";
  INFO(command);
  REQUIRE(r.exit_code == 0);
  CHECK(WidestLine(r.stdout_text) <= kTextColumns);
  std::istringstream lines(r.stdout_text);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK((line.empty() || line.back() != ' '));
  }
}

const char* const kLogs[] = {"tests/data/eventlogs/nds_q72_dataproc_2_2_execution24.zstd",
                             "tests/data/eventlogs/attempt_2_eventlog.zstd",
                             "tests/data/eventlogs/pandas_execs_eventlog.zstd",
                             "tests/data/eventlogs/tasks_executors_fail_execution27.zstd"};

TEST_CASE("output width: tune's space, guardrails and decisions wrapped", "[e2e][width]") {
  const CommandResult r = RunAqesim({"tune", SourcePath("scenarios/demo.json"), "--budget", "6"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stdout_text.find("\nspace:\n  spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1024m:log\n") !=
        std::string::npos);
  CheckFits({"tune", SourcePath("scenarios/demo.json"), "--budget", "6"});
  CheckFits({"tune", SourcePath("scenarios/recorded/nds_q72_dataproc_2_2.json"), "--budget", "3"});
}

TEST_CASE("output width: scale, import-eventlog --list and validate on the logs", "[e2e][width]") {
  const std::string q72 = SourcePath(kLogs[0]);
  for (const char* log : kLogs) {
    const std::string path = SourcePath(log);
    if (path.find("pandas") == std::string::npos)
      CheckFits({"scale", path});  // five executions: scale refuses
    CheckFits({"import-eventlog", path, "--list"});
    CheckFits({"validate", path});
    CheckFits({"validate", path, "--profile-from", path});
    CheckFits({"validate", path, "--profile-from", q72});
  }
}

TEST_CASE("output width: validate --profile-from names the source stage in the row", "[e2e][width]") {
  const std::string log = SourcePath("tests/data/eventlogs/attempt_2_eventlog.zstd");
  const CommandResult same = RunAqesim({"validate", log, "--profile-from", log});
  REQUIRE(same.exit_code == 0);
  CHECK(same.stdout_text.find("  profile from\n") != std::string::npos);
  CHECK(same.stdout_text.find("  stage 3\n") != std::string::npos);  // e1 map, timed by its own stage 3
  // Another log's selections do not fit in the row: they follow the table, the JSON unchanged.
  const CommandResult other = RunAqesim({"validate", log, "--profile-from", SourcePath(kLogs[0])});
  REQUIRE(other.exit_code == 0);
  CHECK(other.stdout_text.find("\nprofile from:\n  SQL execution 0, stage ") != std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
