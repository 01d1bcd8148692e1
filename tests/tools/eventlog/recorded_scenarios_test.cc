// The importer's output must load with the scenario loader (models/scenario).
#include <catch2/catch.hpp>
#include <string>

#include "models/scenario/scenario.h"
#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

void CheckLoads(const std::string& fixture) {
  const RecordedApplication app = ReadEventLog(testing::Fixture(fixture), nullptr);
  nlohmann::json doc = ImportScenario(app, {}, nullptr).scenario;
  // "estimated" is the importer's extension of the format; the loader may not know it yet.
  doc.erase("estimated");
  const LoadResult result = LoadScenarioJson(doc, fixture + ".json", {});
  for (const auto& e : result.errors) UNSCOPED_INFO(e.ToString());
  CHECK(result.errors.empty());
  REQUIRE(result.scenario != nullptr);
  CHECK(result.scenario->plan != nullptr);
}

TEST_CASE("Imported scenarios load with the scenario loader", "[eventlog][import]") {
  SECTION("aqeshuffle") { CheckLoads("aqeshuffle_eventlog.zstd"); }
  SECTION("customshuffle") { CheckLoads("customshuffle_eventlog.zstd"); }
  SECTION("Spark 1.6 job") { CheckLoads("application_1472176676028_407508_1.gz"); }
  SECTION("dynamic allocation") { CheckLoads("eventlog_4nodes_8cores_dynamic_alloc.zstd"); }
  SECTION("EMR join_agg") { CheckLoads("join_agg_on_yarn_eventlog.zstd"); }
}

}  // namespace
}  // namespace aqesim::eventlog
