// An event whose strings hold invalid UTF-8 (a description written byte for byte) is read with
// those bytes as U+FFFD, not dropped: dropping a SQLExecutionStart lost the execution's plan
// (hostile round 2026-12-03, I4).
#include <catch2/catch.hpp>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/execution_listing.h"
#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {
namespace {

TEST_CASE("a SQL execution whose description is not UTF-8 keeps its plan; the bytes read as U+FFFD",
          "[eventlog]") {
  std::string text = testing::AqeShuffleText();
  const size_t start = text.find("SparkListenerSQLExecutionStart");
  REQUIRE(start != std::string::npos);
  const size_t desc = text.find("\"description\":\"", start);
  REQUIRE(desc != std::string::npos);
  text.insert(desc + 15, "bad \xff\xfe ");
  testing::TempDir dir;
  const std::string log = dir.path() + "/invalid_utf8.log";
  testing::WriteBytes(log, text);
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(log, &warnings);
  const std::vector<ListedExecution> listed = ListExecutions(app);
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].kind == ListedExecution::Kind::kSqlExecution);
  CHECK(listed[0].importable);  // the plan is there
  CHECK(listed[0].description.rfind("bad \xEF\xBF\xBD\xEF\xBF\xBD count at <console>:25", 0) == 0);
  bool warned = false;
  for (const std::string& w : warnings)
    warned |= w.find(": invalid UTF-8 in the event, read as U+FFFD") != std::string::npos;
  CHECK(warned);
}

}  // namespace
}  // namespace aqesim::eventlog
