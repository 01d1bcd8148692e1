// Calibration on the small fixtures: the targets (median |stage error| <= 15%,
// makespan error <= 10% on the log fitted to) as assertions. Deterministic: the simulator
// is seeded and noise is off.
#include "tools/validate/calibration.h"

#include <catch2/catch.hpp>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::validate {
namespace {

using eventlog::testing::Fixture;

void CheckCalibrationMeetsTargets(const std::string& fixture) {
  const eventlog::RecordedApplication app = eventlog::ReadEventLog(Fixture(fixture), nullptr);
  const CalibrationResult r = Calibrate({&app}, {}, nullptr);
  // 6 + 6 + 13 + 1 tasks, all matched by index.
  CHECK(r.quality.task_rows == 26);
  CHECK(r.quality.stage_rows == 0);
  CHECK(r.quality.r_squared > 0.9);
  REQUIRE(r.after.size() == 1);
  REQUIRE(r.after[0].median_abs_stage_error);
  REQUIRE(r.after[0].makespan_relative_error);
  CHECK(*r.after[0].median_abs_stage_error <= 0.15);
  CHECK(std::abs(*r.after[0].makespan_relative_error) <= 0.10);
  CHECK(r.after[0].decisions_matched == 3);
  // Before: the defaults are far off (local-mode tasks are CPU bound on range() data).
  CHECK(*r.before[0].median_abs_stage_error > 0.5);
  // Every fitted parameter is in the cost file and non-negative.
  for (const auto& p : TaskLevelParameters()) {
    REQUIRE(r.cost.contains(p));
    CHECK(r.cost[p].get<double>() >= 0);
  }
}

TEST_CASE("Calibrate: aqeshuffle meets the targets on itself", "[validate][calibrate]") {
  CheckCalibrationMeetsTargets("aqeshuffle_eventlog.zstd");
}

TEST_CASE("Calibrate: customshuffle meets the targets on itself", "[validate][calibrate]") {
  CheckCalibrationMeetsTargets("customshuffle_eventlog.zstd");
}

}  // namespace
}  // namespace aqesim::validate
