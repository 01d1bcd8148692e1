#include "tools/report/simulation_progress.h"

#include <catch2/catch.hpp>
#include <sstream>

namespace aqesim::report {

TEST_CASE("SimulationProgress: silent for 5 s, then a line at most every 5 s", "[report]") {
  double now = 100;
  std::ostringstream out;
  SimulationProgress progress(&out, [&now] { return now; });
  progress.Begin("executor counts (aqesim scale)", 9);
  now = 101;
  progress.Tick();  // 1 s in: a short report prints nothing
  CHECK(out.str().empty());
  now = 105;
  progress.Tick();
  CHECK(out.str() == "report: simulated 2 of 9 executor counts (aqesim scale) (5 s so far)\n");
  now = 108;
  progress.Tick();  // 3 s after the last line
  progress.Begin("points of the sweep", 24);
  now = 110;
  progress.Tick();
  now = 171;
  progress.TickIn("checks against tune's guardrails (6 runs each)");
  progress.TickIn("checks against tune's guardrails (6 runs each)");
  CHECK(out.str() ==
        "report: simulated 2 of 9 executor counts (aqesim scale) (5 s so far)\n"
        "report: simulated 1 of 24 points of the sweep (10 s so far)\n"
        "report: simulated 1 checks against tune's guardrails (6 runs each) (1m11s so far)\n");
}

TEST_CASE("SimulationProgress: no stream, no output; elapsed texts", "[report]") {
  double now = 0;
  SimulationProgress progress(nullptr, [&now] { return now; });
  now = 60;
  progress.Tick();  // nothing to write to, nothing thrown
  CHECK(ElapsedText(4.9) == "4 s");
  CHECK(ElapsedText(65) == "1m05s");
  CHECK(ElapsedText(7380) == "2h03m");
}

}  // namespace aqesim::report
