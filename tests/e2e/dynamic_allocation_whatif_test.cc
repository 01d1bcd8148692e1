// A dynamic-allocation what-if on an imported log (`--conf spark.dynamicAllocation.*`, also
// through sweep and scale) replaces the recorded executor timeline with Spark's policy, started
// where the application's ExecutorAllocationManager stood when the selection began: the
// executors registered then, not spark.executor.instances (2 in this log) or initialExecutors.
// The counts are read by hand from the log's ExecutorAdded / ExecutorRemoved and task events
// (times in seconds since 1727966000 s; executorIdleTimeout 10 s).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

const char kLog[] = "tests/data/eventlogs/eventlog_4nodes_8cores_dynamic_alloc.zstd";

nlohmann::json Json(const CommandResult& r) {
  INFO(r.stderr_text);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.stdout_text);
}

TEST_CASE("dynamic-allocation what-if on an imported log starts from the executors alive at its start",
          "[e2e][import]") {
  eventlog::testing::TempDir dir;
  SECTION("SQL execution 4 (imported by default): executors 7, 8, 11, 12") {
    // Execution 4 starts at 160.964 s. Registered then and taking tasks: 7 (added 138.004 s)
    // and 8 (139.045 s), which ran execution 3's tasks (the last ending 7.675 s and 7.306 s
    // before), 11 (156.152 s) and 12 (155.807 s), which had run none. 6, 9 and 10 were idle
    // since 131.4-131.7 s: past the 10 s timeout the driver had killed them (ExecutorRemoved at
    // 154.6, 154.5 and 165.4 s); 13 registers at 162.639 s, during the execution.
    const std::string scenario = dir.File("da.json");
    REQUIRE(RunAqesim({"import-eventlog", SourcePath(kLog), "-o", scenario, "-q"}).exit_code == 0);
    const std::vector<std::string> what_if = {"--conf", "spark.dynamicAllocation.maxExecutors=20"};
    std::vector<std::string> args = {"run", scenario, "--aqe", "on", "--format", "json"};
    args.insert(args.end(), what_if.begin(), what_if.end());
    const CommandResult r = RunAqesim(args);
    CHECK_THAT(
        r.stderr_text,
        Catch::Contains("--conf spark.dynamicAllocation.maxExecutors=20 replaces the recorded executor "
                        "timeline (5 executors) with Spark's dynamic allocation policy, started from the 4 "
                        "executors alive at the selection's start"));
    CHECK_THAT(r.stderr_text, Catch::Contains("2 of them keep their warm JVMs"));
    const nlohmann::json run = Json(r)["runs"][0];
    REQUIRE(run["executors"].is_array());
    REQUIRE_FALSE(run["executors"].empty());
    CHECK(run["executors"][0]["seconds"] == 0.0);
    CHECK(run["executors"][0]["executors"] == 4);

    // The same what-if as a sweep point: the same loader, the same run.
    const CommandResult sweep = RunAqesim(
        {"sweep", scenario, "--grid", "spark.dynamicAllocation.maxExecutors=20", "-o", dir.File("s.json")});
    REQUIRE(sweep.exit_code == 0);
    const nlohmann::json rows =
        nlohmann::json::parse(eventlog::testing::ReadBytes(dir.File("s.json")))["rows"];
    REQUIRE(rows.size() == 1);
    CHECK(rows[0]["makespanSecondsAqeOn"] == run["makespanSeconds"]);
    // And scale, whose 100 % runs the policy to find its peak: from the same start.
    std::vector<std::string> scale = {"scale",     scenario, "--aqe",    "on",
                                      "--percent", "100",    "--format", "json"};
    scale.insert(scale.end(), what_if.begin(), what_if.end());
    const CommandResult scaled = RunAqesim(scale);
    CHECK(scaled.exit_code == 0);
    CHECK_THAT(scaled.stderr_text,
               Catch::Contains("started from the 4 executors alive at the selection's start"));
  }
  SECTION("SQL execution 1: executors 3, 4, 5, 6 with their idle times") {
    // Execution 1 starts at 106.076 s. Registered then: 4 (95.765 s), 3 (97.743 s) and 5
    // (98.826 s), which ran execution 0's tasks, the last ending 3.044, 3.440 and 1.854 s before,
    // and 6 (105.352 s, 0.724 s before), fresh. spark.executor.instances 2 would start at 2.
    const std::string scenario = dir.File("da1.json");
    REQUIRE(RunAqesim({"import-eventlog", SourcePath(kLog), "--execution", "1", "-o", scenario, "-q"})
                .exit_code == 0);
    const nlohmann::json doc = nlohmann::json::parse(eventlog::testing::ReadBytes(scenario));
    std::vector<double> idle;
    for (const nlohmann::json& e : doc["cluster"]["executorTimeline"])
      if (e["add"] == 0.0) idle.push_back(e.value("idleSeconds", 0.0));
    CHECK(idle == std::vector<double>{3.044, 3.44, 1.854, 0.724});  // 4, 3, 5, 6: the log's order
    const nlohmann::json run = Json(RunAqesim({"run", scenario, "--aqe", "on", "--format", "json", "--conf",
                                               "spark.dynamicAllocation.maxExecutors=10"}))["runs"][0];
    REQUIRE_FALSE(run["executors"].empty());
    CHECK(run["executors"][0]["executors"] == 4);
  }
}

}  // namespace
}  // namespace aqesim::e2e
