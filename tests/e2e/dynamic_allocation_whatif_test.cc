// A dynamic-allocation what-if on an imported log starts from the log's own policy: the
// dynamic_alloc fixture sets spark.executor.instances 2 (ExecutorAllocationManager's initial
// target is max(minExecutors 0, initialExecutors unset, instances 2) = 2), so replacing its
// recorded timeline with the policy starts at 2 executors, not 0 as it did when the importer
// dropped the keys.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("dynamic-allocation what-if on an imported log starts from the recorded policy", "[e2e][import]") {
  eventlog::testing::TempDir dir;
  const std::string scenario = dir.File("da.json");
  REQUIRE(RunAqesim({"import-eventlog",
                     SourcePath("tests/data/eventlogs/eventlog_4nodes_8cores_dynamic_alloc.zstd"), "-o",
                     scenario, "-q"})
              .exit_code == 0);
  const CommandResult r = RunAqesim({"run", scenario, "--aqe", "on", "--conf",
                                     "spark.dynamicAllocation.maxExecutors=20", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stderr_text.find("replaces the recorded executor timeline") != std::string::npos);
  const nlohmann::json run = nlohmann::json::parse(r.stdout_text)["runs"][0];
  REQUIRE(run["executors"].is_array());
  REQUIRE_FALSE(run["executors"].empty());
  CHECK(run["executors"][0]["seconds"] == 0.0);
  CHECK(run["executors"][0]["executors"] == 2);
}

}  // namespace
}  // namespace aqesim::e2e
