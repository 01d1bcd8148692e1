// A SQL event whose executionId is not an integer >= 0 belongs to no execution: skipped with a
// warning naming the line, not filed under -1 (hostile round 2026-12-03, I6: "abc" listed as
// `--execution -1`, 1.5 as execution 1, and the default import became an empty execution).
#include <catch2/catch.hpp>
#include <regex>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/execution_listing.h"
#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {
namespace {

TEST_CASE("SQL events without a valid executionId are skipped; the job is read as outside SQL",
          "[eventlog]") {
  for (const std::string bad : {"\"abc\"", "1.5", "9223372036854775813", "-3"}) {
    INFO(bad);
    // Every executionId and the jobs' spark.sql.execution.id of the aqeshuffle fixture set to `bad`.
    std::string text = std::regex_replace(testing::AqeShuffleText(), std::regex("\"executionId\":[0-9]+"),
                                          "\"executionId\":" + bad);
    text = std::regex_replace(text, std::regex("\"spark\\.sql\\.execution\\.id\":\"[0-9]+\""),
                              "\"spark.sql.execution.id\":" + bad);
    testing::TempDir dir;
    const std::string log = dir.Write("bad_id.log", text);
    std::vector<std::string> warnings;
    const RecordedApplication app = ReadEventLog(log, &warnings);
    CHECK(app.executions.empty());
    const std::vector<ListedExecution> listed = ListExecutions(app);
    REQUIRE_FALSE(listed.empty());
    for (const ListedExecution& e : listed) CHECK(e.kind == ListedExecution::Kind::kJob);
    bool skipped = false, outside = false;
    for (const std::string& w : warnings) {
      skipped |=
          w.find(
              ": SparkListenerSQLExecutionStart without a valid executionId (expected an integer >= 0, "
              "found " +
              bad + "), event skipped") != std::string::npos;
      outside |= w.find("'s spark.sql.execution.id is not an integer >= 0; the job is read as outside SQL") !=
                 std::string::npos;
    }
    CHECK(skipped);
    CHECK(outside);
  }
}

}  // namespace
}  // namespace aqesim::eventlog
