// A profile applied to a stage of another task count (models/cost/stage_profile.h, "Resized
// stages") against hand-computed task times.
#include "models/cost/stage_profile.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
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

/// The join_agg EMR runs' reducer stage, in round numbers: 16 coalesced tasks of 1 MB and
/// 40,000 row-operations, every one its executor's first (no later tables), 1.5 s of run each
/// that does not grow with rows ("fixed": A = 1.5, B = 0), overhead 0.2 s.
StageProfile SixteenColdReducers() {
  StageProfile p;
  p.tasks = 16;
  p.input_bytes = 16000000;
  p.row_ops = 640000;
  p.overhead_first_wave_seconds = 0.2;
  p.overhead_later_seconds = 0.2;  // none recorded: the importer copies the first wave's
  p.fixed_seconds = 1.5;
  p.rates = "fixed";
  p.residuals[0] = {Constant(1.0)};
  return p;
}

TEST_CASE("ProfiledStageTimes: 16 cold tasks resized to 1000 price each task's rows at the log's rate",
          "[cost][profile]") {
  // AQE off: 1000 reducers of 16,000 bytes, U = 640,000 x 16,000 / 16,000,000 = 640; Ū = 40,000.
  // The log's rate B' = 1 us per row-operation, its warm overhead 0.03 s.
  // First wave: C = 1.5 + 0 - 1e-6 x 40,000 = 1.46 (the cold task's run beyond its rows'
  // work), T = 0.2 + 1.46 + 1e-6 x 640 = 1.66064. Later: T = 0.03 + 0.00064 = 0.03064 — not
  // the recorded 1.5 s (nor 1.5 x 640 / 40,000 + 0.2 = 0.224 s: the cold run per row).
  const StageProfile p = SixteenColdReducers();
  ProfiledStageTimes t(p, 1000, 30, std::nullopt, LogRates{1e-6, 0.03, std::nullopt});
  CHECK_FALSE(t.NeedsModelledWork());
  CHECK(t.TaskSeconds(0, 16000, true) == Approx(1.66064));
  CHECK(t.TaskSeconds(1, 16000, false) == Approx(0.03064));
  CHECK(ResizeFactor(p, 1000) == Approx(62.5));
  CHECK(ResizeFactor(p, 8) == Approx(2.0));
  CHECK(ResizeFactor(p, 16) == Approx(1.0));
}

TEST_CASE("ProfiledStageTimes: a cold-only profile with no rate in its log takes the cost model's",
          "[cost][profile]") {
  // The cost model's warm work of a 640-row task: 5 ms, i.e. B' = 0.005 / 640 per row-operation;
  // first wave C = 1.5 - 0.005 x 40,000 / 640 = 1.1875, T = 0.2 + 1.1875 + 0.005 = 1.3925;
  // later (no warm overhead in the log: the profile's 0.2) T = 0.205.
  const StageProfile p = SixteenColdReducers();
  ProfiledStageTimes t(p, 1000, 30);
  CHECK(t.NeedsModelledWork());
  CHECK(t.TaskSeconds(0, 16000, true, 0.005) == Approx(1.3925));
  CHECK(t.TaskSeconds(1, 16000, false, 0.005) == Approx(0.205));
  // At the recorded task count nothing is resized: O + A.
  ProfiledStageTimes same(p, 16, 30);
  CHECK_FALSE(same.NeedsModelledWork());
  CHECK(same.TaskSeconds(0, 1000000, true) == Approx(1.7));
}

TEST_CASE("LogResizeRates: the median stage-fitted rate and warm overhead of a log", "[cost][profile]") {
  std::map<std::string, StageProfile> profiles;
  profiles["a"] = Recorded(0.1, 1e-6);  // "stage" below, later tables, O[later] 0.05
  profiles["a"].rates = "stage";
  profiles["b"] = Recorded(0.1, 3e-6, false);  // "stage", no later tasks
  profiles["b"].rates = "stage";
  profiles["c"] = Recorded(0.1, 0.0);  // "fixed" with later tasks
  profiles["c"].overhead_later_seconds = 0.01;
  profiles["d"] = Recorded(0.1, 5e-6, false);  // "log": not its own rate
  profiles["d"].rates = "log";
  const LogRates r = LogResizeRates(profiles, 0.5);
  REQUIRE(r.seconds_per_row_op);
  CHECK(*r.seconds_per_row_op == Approx(2e-6));  // median of 1e-6 and 3e-6
  REQUIRE(r.warm_overhead_seconds);
  CHECK(*r.warm_overhead_seconds == Approx(0.03));  // median of 0.05 and 0.01
  // First-wave extras: a, run(Ū) = 0.1 + 1e-6 x 1,000 = 0.101: (0.2 + 0.101) x 3 - (0.05 +
  // 0.101) x 1 = 0.752; c, run 0.1: (0.2 + 0.1) x 3 - (0.01 + 0.1) = 0.79; b and d have no later
  // tasks. K = the larger of the largest (0.79) and the cost model's 0.5.
  CHECK(*FirstWaveExtraSeconds(profiles["a"]) == Approx(0.752));
  CHECK_FALSE(FirstWaveExtraSeconds(profiles["b"]));
  REQUIRE(r.cold_start_cap_seconds);
  CHECK(*r.cold_start_cap_seconds == Approx(0.79));
  CHECK(*LogResizeRates(profiles, 7.59).cold_start_cap_seconds == Approx(7.59));
  CHECK_FALSE(LogResizeRates({}, 0.5).seconds_per_row_op);
  CHECK(*LogResizeRates({}, 0.5).cold_start_cap_seconds == Approx(0.5));
}

TEST_CASE("ProfiledStageTimes: a cold-only run longer than any cold start is work on its rows",
          "[cost][profile]") {
  // The 16 cold reducers (1.5 s of run, 40,000 row-operations each), the log's rate 1 us and
  // warm overhead 0.03 s, but a cold start costs a task at most K = 0.5 s: of C0 = 1.5 - 1e-6 x
  // 40,000 = 1.46, C = 0.5 is cold and 0.96 work on the rows, B'' = 1e-6 + 0.96 / 40,000 =
  // 2.5e-5 per row-operation.
  const StageProfile p = SixteenColdReducers();
  SECTION("1000 tasks of 640 row-operations: work 0.016") {
    ProfiledStageTimes t(p, 1000, 30, std::nullopt, LogRates{1e-6, 0.03, 0.5});
    CHECK(t.TaskSeconds(0, 16000, true) == Approx(0.2 + 0.5 + 0.016));
    CHECK(t.TaskSeconds(1, 16000, false) == Approx(0.03 + 0.016));
  }
  SECTION("8 tasks of 80,000: twice a recorded task's work, cold start once") {
    ProfiledStageTimes t(p, 8, 4, std::nullopt, LogRates{1e-6, 0.03, 0.5});
    CHECK(t.TaskSeconds(0, 2000000, true) == Approx(0.2 + 0.5 + 2.0));
    for (int i = 1; i < 4; ++i) t.TaskSeconds(i, 2000000, true);
    CHECK(t.TaskSeconds(4, 2000000, false) == Approx(0.03 + 2.0));
  }
  SECTION("a cap above C0 changes nothing") {
    ProfiledStageTimes t(p, 1000, 30, std::nullopt, LogRates{1e-6, 0.03, 7.59});
    CHECK(t.TaskSeconds(0, 16000, true) == Approx(1.66064));
    CHECK(t.TaskSeconds(1, 16000, false) == Approx(0.03064));
  }
  SECTION("a stage that read no rows keeps the excess per task, in every wave") {
    StageProfile none = p;
    none.input_bytes = 0;
    none.row_ops = 0;
    ProfiledStageTimes t(none, 32, 30, std::nullopt, LogRates{1e-6, 0.03, 0.5});
    CHECK(t.TaskSeconds(0, 0, true) == Approx(0.2 + 0.5 + 1.0));
    for (int i = 1; i < 30; ++i) t.TaskSeconds(i, 0, true);
    CHECK(t.TaskSeconds(30, 0, false) == Approx(0.03 + 1.0));
  }
}

}  // namespace
}  // namespace aqesim
