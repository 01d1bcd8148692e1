// Whether a difference between two simulated configurations is larger than the uncertainty of
// the seconds (issue: "comparisons say whether a difference exceeds the band's effect on it").
//
// A modelled makespan's band (models/engine/simulated_band.h) is the run simulated again with
// every modelled task × kDefaultsBand.low and × .high. The two configurations of one scenario
// share the model, so its error moves both together: the difference is compared at the band's
// low end (both runs' low makespans), at the value and at the high end (both high makespans). A
// run without a band (every stage profiled) keeps its makespan at both ends. A difference under
// kLeastTrustedDifference (3 %) of the slower makespan at any of the three is no difference the
// seconds can tell: profiled replays of the shared logs land within a few percent of the
// recorded makespan (results/validation.md), and 3 % is the least gain `tune` and `report`
// recommend.
//   same sign at all three,  the difference holds across the band:
//   3 % or more at each
//     "across the band (every modelled task × 0.79 to × 7.6 in both runs) AQE on stays faster,
//      by 0.90 to 8.4 s"
//   same sign, under 3 % at one end at least: too small to tell:
//     "across the band ... AQE on is faster by 0.078 to 21 s, but by less than 3 % of the makespan
//      at the low end: within the model's uncertainty (README "How far to trust the seconds")"
//   otherwise                the model cannot tell which is faster:
//     "across the band ... the difference runs from AQE on faster by 0.40 s to AQE off faster by
//      2.1 s: within the model's uncertainty (import a log of the job to narrow it: README "How
//      far to trust the seconds")"
#ifndef AQESIM_TOOLS_TEXT_BAND_DIFFERENCE_H_
#define AQESIM_TOOLS_TEXT_BAND_DIFFERENCE_H_

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "models/cost/defaults_band.h"
#include "tools/text/table_text.h"

namespace aqesim {

/// The least difference, as a fraction of the slower makespan, a comparison calls real.
inline constexpr double kLeastTrustedDifference = 0.03;

/// One configuration's makespan and its band (absent: no modelled stage).
struct BandedMakespan {
  std::string name;  // "AQE on"
  double seconds = 0;
  std::optional<MakespanBand> band;
  double low() const { return band ? band->low_seconds : seconds; }
  double high() const { return band ? band->high_seconds : seconds; }
};

/// The sentence of the header comment comparing `a` and `b`; nullopt when neither has a band
/// (profiled seconds: no band to compare against) or the two are equal.
inline std::optional<std::string> DifferenceAcrossBand(const BandedMakespan& a, const BandedMakespan& b) {
  if (!a.band && !b.band) return std::nullopt;
  const double at[3] = {a.low() - b.low(), a.seconds - b.seconds, a.high() - b.high()};  // > 0: b faster
  if (at[1] == 0) return std::nullopt;
  const std::string scope = "across the band (every modelled task × " + TwoDigits(kDefaultsBand.low) +
                            " to × " + TwoDigits(kDefaultsBand.high) + " in both runs) ";
  const bool b_faster = at[1] > 0;
  const BandedMakespan& faster = b_faster ? b : a;
  const BandedMakespan& slower = b_faster ? a : b;
  const bool holds =
      std::all_of(std::begin(at), std::end(at), [&](double d) { return (d > 0) == b_faster && d != 0; });
  if (holds) {
    const double lo = std::min({std::abs(at[0]), std::abs(at[1]), std::abs(at[2])});
    const double hi = std::max({std::abs(at[0]), std::abs(at[1]), std::abs(at[2])});
    // The ends where the difference is under kLeastTrustedDifference of the slower makespan.
    const double slower_at[3] = {slower.low(), slower.seconds, slower.high()};
    const char* end_name[3] = {"the low end", "the value", "the high end"};
    std::string small;
    for (int i = 0; i < 3; ++i)
      if (std::abs(at[i]) < kLeastTrustedDifference * slower_at[i])
        small += std::string(small.empty() ? "" : ", ") + end_name[i];
    if (small.empty())
      return scope + faster.name + " stays faster, by " + TwoDigitsOutwards(lo, false) + " to " +
             TwoDigitsOutwards(hi, true) + " s";
    return scope + faster.name + " is faster by " + TwoDigitsOutwards(lo, false) + " to " +
           TwoDigitsOutwards(hi, true) + " s, but by less than 3 % of the makespan at " + small +
           ": within the model's uncertainty (README \"How far to trust the seconds\")";
  }
  // The ends on either side: where `faster` leads most and where `slower` does.
  double most_faster = 0, most_slower = 0;
  for (double d : at) {
    const double lead = b_faster ? d : -d;  // > 0: `faster` leads
    most_faster = std::max(most_faster, lead);
    most_slower = std::max(most_slower, -lead);
  }
  return scope + "the difference runs from " + faster.name + " faster by " +
         TwoDigitsOutwards(most_faster, true) + " s to " + slower.name + " faster by " +
         TwoDigitsOutwards(most_slower, true) +
         " s: within the model's uncertainty (import a log of the job to narrow it: README \"How far to "
         "trust "
         "the seconds\")";
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_BAND_DIFFERENCE_H_
