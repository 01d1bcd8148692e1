// A profile applied to a stage of another task count (models/cost/stage_profile.h, "Resized
// stages") against hand-computed task times.
#include "models/cost/stage_profile.h"

#include <catch2/catch.hpp>
#include <vector>

namespace aqesim {
namespace {

std::vector<double> Constant(double r) { return std::vector<double>(kResidualQuantiles, r); }

/// 4 recorded tasks of 1 MB and 1,000 row-operations each; first wave 0.2 s overhead and
/// residual 3 (cold), later 0.05 s and residual 1; the critical task 0 had residual 9.
StageProfile Recorded(double fixed, double per_row, bool later_tables = true) {
  StageProfile p;
  p.tasks = 4;
  p.input_bytes = 4000000;
  p.row_ops = 4000;
  p.overhead_first_wave_seconds = 0.2;
  p.overhead_later_seconds = 0.05;
  p.fixed_seconds = fixed;
  p.seconds_per_row_op = per_row;
  p.residuals[0] = {Constant(3.0)};
  if (later_tables) p.residuals[1] = {Constant(1.0)};
  p.critical = StageProfile::Critical{0, 9.0, std::nullopt};
  return p;
}

TEST_CASE("ProfiledStageTimes: the recorded task count keeps the replay formula", "[cost][profile]") {
  const StageProfile p = Recorded(0.1, 0.0);
  ProfiledStageTimes t(p, 4, 1);
  CHECK(t.TaskSeconds(0, 1000000, true) == Approx((0.2 + 0.1) * 9.0));  // the critical task
  CHECK(t.TaskSeconds(1, 1000000, false) == Approx(0.05 + 0.1));
  CHECK(t.TaskSeconds(2, 2000000, false) == Approx(0.05 + 0.1));  // "fixed": no per-row rate
}

TEST_CASE("ProfiledStageTimes: a fixed-rate stage resized prices rows at its per-row run",
          "[cost][profile]") {
  // Coalesced to 2 tasks of 2 MB: U = 2,000, Ū = 1,000; run(U) = 0.1 × 2 = 0.2, run(Ū) = 0.1.
  // First wave (1 slot): (0.2 + 0.1) × 3 + (0.2 − 0.1) × 1 = 1.0 (the cold extra stays per
  // task, the extra rows at the warm rate); later: (0.05 + 0.2) × 1 = 0.25. No critical task.
  const StageProfile p = Recorded(0.1, 0.0);
  ProfiledStageTimes t(p, 2, 1);
  CHECK(t.TaskSeconds(0, 2000000, true) == Approx(1.0));
  CHECK(t.TaskSeconds(1, 2000000, false) == Approx(0.25));
}

TEST_CASE("ProfiledStageTimes: a stage-rated stage resized up and down", "[cost][profile]") {
  // A = 0.1, B = 1 ms: run(Ū) = 1.1.
  const StageProfile p = Recorded(0.1, 0.001);
  SECTION("2 tasks of 2,000 row-operations: run 2.1") {
    ProfiledStageTimes t(p, 2, 1);
    CHECK(t.TaskSeconds(0, 2000000, true) == Approx((0.2 + 1.1) * 3 + (2.1 - 1.1)));  // 4.9
    CHECK(t.TaskSeconds(1, 2000000, false) == Approx((0.05 + 2.1) * 1));              // 2.15
  }
  SECTION("8 tasks of 500: run 0.6") {
    ProfiledStageTimes t(p, 8, 1);
    CHECK(t.TaskSeconds(0, 500000, true) == Approx((0.2 + 1.1) * 3 + (0.6 - 1.1)));  // 3.4
    CHECK(t.TaskSeconds(1, 500000, false) == Approx(0.05 + 0.6));
  }
  SECTION("without later tasks the first wave scales as a whole") {
    const StageProfile q = Recorded(0.1, 0.001, false);
    ProfiledStageTimes t(q, 2, 1);
    CHECK(t.TaskSeconds(0, 2000000, true) == Approx((0.2 + 2.1) * 3));  // 6.9
  }
}

}  // namespace
}  // namespace aqesim
