#include "tools/text/band_difference.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

const std::string kScope = "across the band (every modelled task × 0.79 to × 7.6 in both runs) ";

TEST_CASE("DifferenceAcrossBand: a difference that holds at both ends of the band", "[text][band]") {
  // AQE off 10 s (8–76 s), AQE on 8 s (6.5–60 s): on is faster by 1.5 at the low end, 2 at the
  // value, 16 at the high end.
  const auto text =
      DifferenceAcrossBand({"AQE off", 10, MakespanBand{8, 76}}, {"AQE on", 8, MakespanBand{6.5, 60}});
  REQUIRE(text);
  CHECK(*text == kScope + "AQE on stays faster, by 1.5 to 16 s");
}

TEST_CASE("DifferenceAcrossBand: a difference the band reverses is within the uncertainty", "[text][band]") {
  // A profiled AQE off (no band, 4.52 s at both ends) against a modelled AQE on of 4.0 s (3.2 to
  // 30 s): on is faster by 0.52 at the value and 1.32 at the low end, off by 25.48 at the high end.
  const auto text =
      DifferenceAcrossBand({"AQE off", 4.52, std::nullopt}, {"AQE on", 4.0, MakespanBand{3.2, 30}});
  REQUIRE(text);
  CHECK(*text ==
        kScope +
            "the difference runs from AQE on faster by 1.4 s to AQE off faster by 26 s: within the model's "
            "uncertainty (import a log of the job to narrow it: README \"How far to trust the seconds\")");
}

TEST_CASE("DifferenceAcrossBand: a difference under 3 % of the makespan at an end is too small to tell",
          "[text][band]") {
  // A profiled AQE on of 25.487 s against a modelled AQE off of 26.191 s (25.565 to 46.5 s): on is
  // faster by 0.078 s at the low end (0.3 % of 25.565), 0.704 s at the value (2.7 % of 26.191),
  // 21.013 s at the high end (45 %).
  const auto text =
      DifferenceAcrossBand({"AQE off", 26.191, MakespanBand{25.565, 46.5}}, {"AQE on", 25.487, std::nullopt});
  REQUIRE(text);
  CHECK(*text ==
        kScope +
            "AQE on is faster by 0.078 to 22 s, but by less than 3 % of the makespan at the low end, "
            "the value: within the model's uncertainty (README \"How far to trust the seconds\")");
  // 0.0625 s of a 743 s job at every end (values exact in binary).
  const auto tiny = DifferenceAcrossBand({"AQE on", 743.5, MakespanBand{580.25, 5700.5}},
                                         {"AQE off", 743.4375, MakespanBand{580.1875, 5700.4375}});
  REQUIRE(tiny);
  CHECK(*tiny ==
        kScope +
            "AQE off is faster by 0.062 to 0.063 s, but by less than 3 % of the makespan at the low "
            "end, the value, the high end: within the model's uncertainty (README \"How far to trust "
            "the seconds\")");
}

TEST_CASE("DifferenceAcrossBand: nothing to say without a band or without a difference", "[text][band]") {
  CHECK_FALSE(DifferenceAcrossBand({"AQE off", 5, std::nullopt}, {"AQE on", 4, std::nullopt}));
  CHECK_FALSE(DifferenceAcrossBand({"AQE off", 5, MakespanBand{4, 38}}, {"AQE on", 5, MakespanBand{4, 38}}));
  // The slower one second: the faster is named first all the same.
  const auto text =
      DifferenceAcrossBand({"AQE off", 8, MakespanBand{6.5, 60}}, {"AQE on", 10, MakespanBand{8, 76}});
  REQUIRE(text);
  CHECK(*text == kScope + "AQE off stays faster, by 1.5 to 16 s");
}

}  // namespace
}  // namespace aqesim
