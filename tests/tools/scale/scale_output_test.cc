// scale's statement of how far its seconds can be trusted (new-user finding 9: on q72's log the
// 10 % and 20 % rows carried a band while the footer said "no band").
#include "tools/scale/scale_output.h"

#include <catch2/catch.hpp>

namespace aqesim::scale {
namespace {

TEST_CASE("scale TrustText: a profiled log's rows with a band are named", "[scale]") {
  ScaleResult r;
  r.time_source = "profiled";
  r.rows.resize(3);
  r.rows[0].percent = 10;
  r.rows[1].percent = 20;
  r.rows[2].percent = 100;
  CHECK(TrustText(r, false) ==
        "every stage timed by the log's recorded profiles (extrapolated to each cluster; no band)");
  r.rows[0].band = MakespanBand{340, 1900};
  r.rows[1].band = MakespanBand{200, 1000};
  CHECK(
      TrustText(r, false) ==
      "every stage timed by the log's recorded profiles (extrapolated to each cluster; no band), except on "
      "the rows with a band (10 %, 20 %): there AQE gave a stage 2× or more, or half or fewer, of the "
      "recorded tasks, its profile resized to them (run's timed column: profiled (resized ×N)) and carrying "
      "the cost model's band (a smaller change is resized without one)");
  CHECK_THAT(
      TrustText(r, true),
      Catch::EndsWith("; Sparklens s: the recorded task times re-scheduled on that many executors, the "
                      "recorded time between stages kept as driver time, a recorded wait for executors "
                      "included (Sparklens' method, no model)"));
}

}  // namespace
}  // namespace aqesim::scale
