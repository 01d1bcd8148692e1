// Two kinds of log Spark itself does not write but tools do: a stage whose Stage Info says
// "Number of Tasks": 0 although its tasks ran (imported with the tasks seen, a warning naming
// the line), and a SQL execution whose description is megabytes of query text (the scenario's
// description keeps its first kMaxCopiedTextBytes bytes).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/execution_listing.h"
#include "tools/eventlog/import_description.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

/// The aqeshuffle fixture's lines (1-based: lines[0] is line 1).
std::vector<std::string> FixtureLines() {
  std::vector<std::string> lines;
  std::istringstream in(testing::AqeShuffleText());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

/// Replaces the one `from` in line `n` (1-based) by `to`.
void ReplaceIn(std::vector<std::string>* lines, size_t n, const std::string& from, const std::string& to) {
  std::string& line = (*lines)[n - 1];
  const size_t at = line.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(line.find(from, at + 1) == std::string::npos);
  line.replace(at, from.size(), to);
}

TEST_CASE("import-eventlog: a stage whose Number of Tasks is 0 but whose tasks ran takes the tasks seen",
          "[eventlog][import]") {
  std::vector<std::string> lines = FixtureLines();
  REQUIRE(lines.size() == 85);
  testing::TempDir dir;
  const std::string original = dir.path() + "/original.log";
  testing::WriteBytes(original, Joined(lines));
  // Stage 4 (e1's map stage, 13 tasks): JobStart line 47, StageSubmitted 48, StageCompleted 75.
  // Stage 8 (the final stage, 1 task): JobStart 78, StageSubmitted 79, StageCompleted 82.
  for (size_t n : {47, 48, 75}) ReplaceIn(&lines, n, "\"Number of Tasks\":13,", "\"Number of Tasks\":0,");
  for (size_t n : {79, 82}) ReplaceIn(&lines, n, "\"Number of Tasks\":1,", "\"Number of Tasks\":0,");
  SECTION("every Stage Info says 0: the count is the highest task index + 1") {
    ReplaceIn(&lines, 78, "\"Number of Tasks\":1,", "\"Number of Tasks\":0,");
    const std::string log = dir.path() + "/zero.log";
    testing::WriteBytes(log, Joined(lines));
    std::vector<std::string> warnings;
    const RecordedApplication app = ReadEventLog(log, &warnings);
    CHECK(app.stage(4)->num_tasks == 13);
    CHECK(app.stage(8)->num_tasks == 1);
    CHECK(std::count(warnings.begin(), warnings.end(),
                     log + ":47: stage 4: Number of Tasks 0, but tasks with indexes up to 12 ran (TaskEnd): "
                           "imported with 13 tasks") == 1);
    CHECK(std::count(warnings.begin(), warnings.end(),
                     log + ":78: stage 8: Number of Tasks 0, but tasks with indexes up to 0 ran (TaskEnd): "
                           "imported with 1 task") == 1);
    // The scenario is the one the unmodified log gives, but for the file name in its name and
    // description.
    nlohmann::json imported = ImportScenario(app, {}, &warnings).scenario;
    nlohmann::json expected = ImportScenario(ReadEventLog(original, nullptr), {}, nullptr).scenario;
    for (const char* key : {"name", "description"}) {
      imported.erase(key);
      expected.erase(key);
    }
    CHECK(imported == expected);
  }
  SECTION("the JobStart keeps its count: it stays, the 0 is named") {
    const std::string log = dir.path() + "/zero_submitted.log";
    testing::WriteBytes(log, Joined(lines));
    std::vector<std::string> warnings;
    const RecordedApplication app = ReadEventLog(log, &warnings);
    CHECK(app.stage(8)->num_tasks == 1);
    CHECK(std::count(warnings.begin(), warnings.end(),
                     log + ":79: stage 8: Number of Tasks 0, but tasks with indexes up to 0 ran (TaskEnd): "
                           "imported with the 1 task its other events say") == 1);
  }
}

TEST_CASE("import-eventlog: a SQL execution's description is copied up to kMaxCopiedTextBytes",
          "[eventlog][import]") {
  CHECK(CappedLogText("count at <console>:25") == "count at <console>:25");
  CHECK(CappedLogText(std::string(kMaxCopiedTextBytes, 'a')) == std::string(kMaxCopiedTextBytes, 'a'));
  // "é" (2 bytes) straddling the limit: cut before it.
  const std::string straddling = std::string(kMaxCopiedTextBytes - 1, 'a') + "\xC3\xA9" + "bc";
  CHECK(CappedLogText(straddling) ==
        std::string(kMaxCopiedTextBytes - 1, 'a') + "\xE2\x80\xA6 [4 more bytes not copied]");

  std::vector<std::string> lines = FixtureLines();
  // Line 45: the SQLExecutionStart, description "count at <console>:25"; 10 MiB of SQL instead.
  size_t start = 0;
  while (start < lines.size() && lines[start].find("SparkListenerSQLExecutionStart") == std::string::npos)
    ++start;
  REQUIRE(start < lines.size());
  const std::string sql = "SELECT " + std::string((size_t{10} << 20) - 7, 'x');
  ReplaceIn(&lines, start + 1, "\"description\":\"count at <console>:25\"",
            "\"description\":\"" + sql + "\"");
  testing::TempDir dir;
  const std::string log = dir.path() + "/long_sql.log";
  testing::WriteBytes(log, Joined(lines));
  const ImportedScenario imp = ImportScenario(ReadEventLog(log, nullptr), {}, nullptr);
  const std::string description = imp.scenario["description"].get<std::string>();
  const std::string kept = "SQL execution 0 (\"SELECT " + std::string(kMaxCopiedTextBytes - 7, 'x') +
                           "\xE2\x80\xA6 [" + std::to_string((size_t{10} << 20) - kMaxCopiedTextBytes) +
                           " more bytes not copied]\"). ";
  CHECK(description.find(kept) != std::string::npos);
  CHECK(description.size() < 2 * kMaxCopiedTextBytes);
  // --list shows the description as the scenario keeps it.
  const std::vector<ListedExecution> listed = ListExecutions(ReadEventLog(log, nullptr));
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].description == "SELECT " + std::string(kMaxCopiedTextBytes - 7, 'x') + "\xE2\x80\xA6 [" +
                                     std::to_string((size_t{10} << 20) - kMaxCopiedTextBytes) +
                                     " more bytes not copied]");
}

}  // namespace
}  // namespace aqesim::eventlog
