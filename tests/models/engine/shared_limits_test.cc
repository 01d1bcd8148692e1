// The cluster's shared limits inside simulated queries (models/engine/shared_limits.h): the
// aggregate storage throughput and the driver's event loop, against schedules computed by hand.
#include "models/engine/shared_limits.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim {
namespace {

std::vector<std::string> Errors(const nlohmann::json& doc) {
  std::vector<std::string> out;
  for (const Diagnostic& d : LoadScenarioJson(doc, "test.json", {}).errors) out.push_back(d.ToString());
  return out;
}

/// 100 scan tasks of 1 GB (10^9 bytes) on `executors` executors of one core whose disk reads
/// 1 GB/s; tasks cost nothing else. `cluster_extra`: the limits.
nlohmann::json ScanScenario(int executors, const nlohmann::json& cluster_extra) {
  nlohmann::json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = executors;
  cluster["diskBytesPerSecond"] = 1'000'000'000;
  cluster.update(cluster_extra);
  return {{"name", "scan"},
          {"cluster", cluster},
          {"cost", testing::LaunchOnlyCost(0)},
          {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 100'000'000'000LL}, {"tasks", 100}}}};
}

RunResult Simulate(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return SimulateQuery(*r.scenario, false);
}

TEST_CASE("SharedLimits: an aggregate of 10 GB/s caps 100 scans of 1 GB at 10 s, however many executors",
          "[engine][limits]") {
  const nlohmann::json limit = {{"storageBytesPerSecond", 10'000'000'000LL}};
  // 10 executors: 10 readers × 1 GB/s = the aggregate; 10 waves of 1 s. Not bound.
  const RunResult ten = Simulate(ScanScenario(10, limit));
  CHECK(ten.makespan_seconds == Approx(10.0));
  REQUIRE(ten.stages.size() == 1);
  CHECK_FALSE(ten.stages[0].limits.has_value());
  // 20 executors: 20 readers share 10 GB/s, 0.5 GB/s each: 5 waves of 2 s = still 10 s; every
  // task bound, +1 s each, from 0 to 10 s.
  const RunResult twenty = Simulate(ScanScenario(20, limit));
  CHECK(twenty.makespan_seconds == Approx(10.0));
  REQUIRE(twenty.stages[0].limits.has_value());
  const SharedLimitUse& u = *twenty.stages[0].limits;
  CHECK(u.storage_bound_tasks == 100);
  CHECK(u.storage_seconds_added == Approx(100.0));
  CHECK(u.storage_bound_from_seconds == Approx(0.0));
  CHECK(u.storage_bound_to_seconds == Approx(10.0));
  CHECK(u.driver_wait_seconds == 0);
  // 40 executors: 40 readers at 0.25 GB/s: 100 tasks in 3 waves (40, 40, 20) of 4, 4 and 2 s.
  CHECK(Simulate(ScanScenario(40, limit)).makespan_seconds == Approx(10.0));
  // Without the limit: 20 executors take 5 s.
  CHECK(Simulate(ScanScenario(20, nlohmann::json::object())).makespan_seconds == Approx(5.0));
}

TEST_CASE("SharedLimits: the driver launches 1000 tasks of 10 ms no faster than one per millisecond",
          "[engine][limits]") {
  nlohmann::json doc = ScanScenario(100, {{"driverSecondsPerTask", 0.001}});
  doc["cost"]["taskLaunchSeconds"] = 0.01;
  doc["plan"] = {{"op", "scan"}, {"id", "s"}, {"bytes", 1000}, {"tasks", 1000}};
  doc["cluster"]["diskBytesPerSecond"] = "1p";
  // Without the driver 10 waves of 10 ms = 0.1 s; with it task k launches at k ms: 1.009 s,
  // the slots waiting 0.999 s for the driver.
  const RunResult r = Simulate(doc);
  CHECK(r.makespan_seconds == Approx(1.009));
  REQUIRE(r.stages[0].limits.has_value());
  CHECK(r.stages[0].limits->driver_wait_seconds == Approx(0.999));
  CHECK(r.stages[0].limits->storage_bound_tasks == 0);
  doc["cluster"].erase("driverSecondsPerTask");
  CHECK(Simulate(doc).makespan_seconds == Approx(0.1));
}

TEST_CASE("SharedLimits: the limits' values are checked at their pointer", "[engine][limits]") {
  CHECK(Errors(ScanScenario(1, {{"driverSecondsPerTask", -1}})) ==
        std::vector<std::string>{
            "test.json: /cluster/driverSecondsPerTask: expected a number of seconds in [0, 60], found -1"});
  CHECK(Errors(ScanScenario(1, {{"driverSecondsPerStage", 4000}})) ==
        std::vector<std::string>{"test.json: /cluster/driverSecondsPerStage: expected a number of seconds in "
                                 "[0, 3600], found 4000"});
  CHECK(Errors(ScanScenario(1, {{"storageBytesPerSecond", 0}})).size() == 1);
}

}  // namespace
}  // namespace aqesim
