// `aqesim import-eventlog LOG --list`: the table a user reads before choosing --execution or
// --job, its JSON, and the refusals (values read by hand: tests/tools/eventlog/execution_listing_test.cc).

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/support/filled_pipe.h"
#include "tests/tools/eventlog/test_util.h"
#include "tools/text/table_text.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("import-eventlog --list: a table of the SQL executions, the default starred", "[e2e][import]") {
  const std::string log = SourcePath("tests/data/eventlogs/pandas_execs_eventlog.zstd");
  const CommandResult r = RunAqesim({"import-eventlog", log, "--list"});
  REQUIRE(r.exit_code == 0);
  // The first line is wrapped at 160 columns (the path's length depends on the checkout).
  CHECK(r.stdout_text.rfind(
            WrapText(log + ": 5 SQL executions, 0 jobs importable only with --job; * = imported "
                           "when neither --execution nor --job is given",
                     kTextColumns, 2) +
                "\n",
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

TEST_CASE("import-eventlog from a pipe reads what the file holds: the codec sniff's bytes are not lost",
          "[e2e][import]") {
  // A pipe cannot be opened again from its start: sniffing the codec and then reopening lost the
  // first line (the log's SparkListenerLogStart, then its environment: 1 core instead of 12).
  const std::string log = SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd");
  std::ifstream in(log, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const CommandResult from_file = RunAqesim({"import-eventlog", log, "--list", "--format", "json"});
  testing::FilledPipe pipe(bytes);
  const CommandResult from_pipe = RunAqesim({"import-eventlog", pipe.path(), "--list", "--format", "json"});
  REQUIRE(from_file.exit_code == 0);
  REQUIRE(from_pipe.exit_code == 0);
  CHECK(from_pipe.stderr_text.empty());
  nlohmann::json a = nlohmann::json::parse(from_file.stdout_text),
                 b = nlohmann::json::parse(from_pipe.stdout_text);
  a.erase("log");
  b.erase("log");
  CHECK(a == b);
}

TEST_CASE("import-eventlog --list: a long description is cut as the importer copies log text",
          "[e2e][import]") {
  // The aqeshuffle log's one SQL execution with 10,007 bytes of SQL as its description: JSON
  // printed all of it; now its first 4,096 bytes and how many were not copied, as the imported
  // scenario's description keeps it. The table cuts the column to fit 160 columns.
  std::string text = eventlog::testing::AqeShuffleText();
  const std::string from = "\"description\":\"count at <console>:25\"";
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "\"description\":\"SELECT " + std::string(10000, 'x') + "\"");
  eventlog::testing::TempDir dir;
  const std::string log = dir.Write("long_sql.log", text);
  const CommandResult json = RunAqesim({"import-eventlog", log, "--list", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.stdout_text);
  REQUIRE(doc["executions"].size() == 1);
  CHECK(doc["executions"][0]["description"] ==
        "SELECT " + std::string(4089, 'x') + "\xE2\x80\xA6 [5911 more bytes not copied]");
  const CommandResult table = RunAqesim({"import-eventlog", log, "--list"});
  REQUIRE(table.exit_code == 0);
  CHECK(table.stdout_text.find("  SELECT xxxxx") != std::string::npos);
  CHECK(WidestLine(table.stdout_text) == kTextColumns);  // the description cut to the last column
}

}  // namespace
}  // namespace aqesim::e2e
