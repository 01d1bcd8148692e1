#include "tools/text/band_difference.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

namespace aqesim {
namespace {

/// JudgeDifference's sentence; nullopt when it has none (equal makespans).
std::optional<std::string> Text(const BandedMakespan& a, const BandedMakespan& b) {
  std::optional<DifferenceVerdict> v = JudgeDifference(a, b);
  if (!v) return std::nullopt;
  return v->text;
}

const std::string kScope = "across the band (every modelled task × 0.79 to × 7.6 in both runs) ";

TEST_CASE("JudgeDifference: a difference that holds at both ends of the band", "[text][band]") {
  // AQE off 10 s (8–76 s), AQE on 8 s (6.5–60 s): on is faster by 1.5 at the low end, 2 at the
  // value, 16 at the high end.
  const auto text = Text({"AQE off", 10, MakespanBand{8, 76}}, {"AQE on", 8, MakespanBand{6.5, 60}});
  REQUIRE(text);
  CHECK(*text == kScope + "AQE on stays faster, by 1.5 to 16 s");
}

TEST_CASE("JudgeDifference: a difference the band reverses is within the uncertainty", "[text][band]") {
  // A profiled AQE off (no band, 4.52 s at both ends) against a modelled AQE on of 4.0 s (3.2 to
  // 30 s): on is faster by 0.52 at the value and 1.32 at the low end, off by 25.48 at the high end.
  const auto text = Text({"AQE off", 4.52, std::nullopt}, {"AQE on", 4.0, MakespanBand{3.2, 30}});
  REQUIRE(text);
  CHECK(*text ==
        kScope +
            "the difference runs from AQE on faster by 1.4 s to AQE off faster by 26 s: within the model's "
            "uncertainty (import a log of the job to narrow it: README \"How far to trust the seconds\")");
}

TEST_CASE("JudgeDifference: a difference under 3 % of the makespan at an end is too small to tell",
          "[text][band]") {
  // A profiled AQE on of 25.487 s against a modelled AQE off of 26.191 s (25.565 to 46.5 s): on is
  // faster by 0.078 s at the low end (0.3 % of 25.565), 0.704 s at the value (2.7 % of 26.191),
  // 21.013 s at the high end (45 %).
  const auto text = Text({"AQE off", 26.191, MakespanBand{25.565, 46.5}}, {"AQE on", 25.487, std::nullopt});
  REQUIRE(text);
  CHECK(*text ==
        kScope +
            "AQE on is faster by 0.078 to 22 s, but by less than 3 % of the makespan at the low end, "
            "the value: within the model's uncertainty (README \"How far to trust the seconds\")");
  // 0.0625 s of a 743 s job at every end (values exact in binary).
  const auto tiny = Text({"AQE on", 743.5, MakespanBand{580.25, 5700.5}},
                         {"AQE off", 743.4375, MakespanBand{580.1875, 5700.4375}});
  REQUIRE(tiny);
  CHECK(*tiny ==
        kScope +
            "AQE off is faster by 0.062 to 0.063 s, but by less than 3 % of the makespan at the low "
            "end, the value, the high end: within the model's uncertainty (README \"How far to trust "
            "the seconds\")");
}

TEST_CASE("JudgeDifference: nothing to say without a difference", "[text][band]") {
  CHECK_FALSE(Text({"AQE off", 5, MakespanBand{4, 38}}, {"AQE on", 5, MakespanBand{4, 38}}));
  CHECK_FALSE(Text({"AQE off", 5, std::nullopt}, {"AQE on", 5, std::nullopt}));
  // The slower one second: the faster is named first all the same.
  const auto text = Text({"AQE off", 8, MakespanBand{6.5, 60}}, {"AQE on", 10, MakespanBand{8, 76}});
  REQUIRE(text);
  CHECK(*text == kScope + "AQE off stays faster, by 1.5 to 16 s");
}

TEST_CASE("JudgeDifference: two profiled runs against the replay error, 3 % of the slower", "[text][band]") {
  // 4.908 s against 4.800 s: 0.108 s, 2.2 % of the slower 4.908: within replay error.
  const auto within = JudgeDifference({"A", 4.908, std::nullopt}, {"B", 4.8, std::nullopt});
  REQUIRE(within);
  CHECK(within->basis == "replay");
  CHECK(within->faster == "B");
  CHECK_FALSE(within->holds);
  CHECK(within->difference_low_seconds == Approx(-0.108));
  CHECK(within->difference_high_seconds == Approx(-0.108));
  CHECK(within->text ==
        "both profiled from a log (no band): B is faster by 0.108 s (2.2 % of the slower makespan): within "
        "replay error (3 %)");
  // 9.5 s against 10 s: 0.5 s, 5 % of the slower: more than the replay error.
  const auto holds = JudgeDifference({"A", 9.5, std::nullopt}, {"B", 10, std::nullopt});
  REQUIRE(holds);
  CHECK(holds->faster == "A");
  CHECK(holds->holds);
  CHECK(holds->difference_low_seconds == Approx(0.5));
  CHECK(
      holds->text ==
      "both profiled from a log (no band): A is faster by 0.500 s (5.0 % of the slower makespan), more than "
      "the replay error (3 %)");
}

TEST_CASE("JudgeDifference: the verdict's parts follow its sentence", "[text][band]") {
  // The first case above: on faster by 1.5, 2 and 16 s, at least 3 % of the slower at each end
  // (1.5 / 8 = 19 %): it holds; B − A is -1.5 s at the low end and -16 s at the high end.
  const auto stays =
      JudgeDifference({"AQE off", 10, MakespanBand{8, 76}}, {"AQE on", 8, MakespanBand{6.5, 60}});
  REQUIRE(stays);
  CHECK(stays->basis == "band");
  CHECK(stays->faster == "AQE on");
  CHECK(stays->holds);
  CHECK(stays->difference_low_seconds == Approx(-1.5));
  CHECK(stays->difference_high_seconds == Approx(-16));
  // Reversed by the band: the faster at the value is named, and it does not hold.
  const auto reversed =
      JudgeDifference({"AQE off", 4.52, std::nullopt}, {"AQE on", 4.0, MakespanBand{3.2, 30}});
  REQUIRE(reversed);
  CHECK(reversed->faster == "AQE on");
  CHECK_FALSE(reversed->holds);
  CHECK(reversed->difference_low_seconds == Approx(-1.32));
  CHECK(reversed->difference_high_seconds == Approx(25.48));
}

}  // namespace
}  // namespace aqesim
