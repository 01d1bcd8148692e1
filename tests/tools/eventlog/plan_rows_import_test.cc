// Imported row counts against numbers read by hand from aqeshuffle_eventlog's raw events
// (`zstd -dc` and the TaskEnd accumulable updates of each plan node's SQL metric, summed):
// count(*) of a sort-merge join of two 10,000,000-row ranges, AQE on, 13 coalesced reducers.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;
using testing::Fixture;

TEST_CASE("ImportScenario: rows of scans, exchanges, joins and aggregates as recorded", "[eventlog][rows]") {
  const RecordedApplication app = ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const json plan = ImportScenario(app, ImportOptions{}, &warnings).scenario.at("plan");
  // aggregate a1 (HashAggregate, keys=[], metric 230: 1 row) over exchange e1 (SinglePartition,
  // "shuffle records written" 180: 13, one partial count per reducer task of stage 4).
  CHECK(plan.at("op") == "aggregate");
  CHECK(plan.at("rows") == 1);
  const json& e1 = plan.at("child");
  CHECK(e1.at("rows") == 13);
  // SortMergeJoin j1: "number of output rows" (metric 189) 10,000,000 over the 13 tasks.
  const json& j1 = e1.at("child");
  CHECK(j1.at("op") == "join");
  CHECK(j1.at("rows") == 10000000);
  // Both sides: "shuffle records written" (95, 111) 10,000,000 each (stages 0 and 1, 6 tasks);
  // their scans output 10,000,000 rows (40, 56).
  for (const char* side : {"left", "right"}) {
    CHECK(j1.at(side).at("op") == "exchange");
    CHECK(j1.at(side).at("rows") == 10000000);
    CHECK(j1.at(side).at("child").at("rows") == 10000000);
  }
}

}  // namespace
}  // namespace aqesim::eventlog
