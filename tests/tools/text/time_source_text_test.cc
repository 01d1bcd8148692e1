#include "tools/text/time_source_text.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

StageTimeCounts Counts(size_t profiled, size_t resized, size_t modelled) {
  StageTimeCounts c;
  c.profiled = profiled;
  c.resized = resized;
  c.modelled = modelled;
  return c;
}

TEST_CASE("TimeSourceCell: the label with the stages it leaves out", "[text][trust]") {
  CHECK(TimeSourceCell(Counts(20, 0, 0)) == "profiled");
  CHECK(TimeSourceCell(Counts(15, 5, 0)) == "profiled (5 resized)");
  CHECK(TimeSourceCell(Counts(15, 3, 2)) == "mixed (2 of 20 modelled)");
  CHECK(TimeSourceCell(Counts(0, 0, 3)) == "modelled");
}

TEST_CASE("StageTimesText: the kinds present, the first with its noun", "[text][trust]") {
  CHECK(StageTimesText(Counts(0, 0, 4)) == "4 stages modelled");
  CHECK(
      StageTimesText(Counts(3, 1, 0)) ==
      "3 stages profiled from the log, 1 resized from a profile (recorded tasks extrapolated to another task "
      "count)");
  CHECK(StageTimesText(Counts(0, 1, 2)) ==
        "1 stage resized from a profile (recorded tasks extrapolated to another task count), 2 modelled");
}

}  // namespace
}  // namespace aqesim
