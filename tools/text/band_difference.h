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
// Neither run with a band (both profiled from a log: the recorded task times re-scheduled), the
// difference is compared with the replay error, kLeastTrustedDifference of the slower makespan:
//     "both profiled from a log (no band): AQE on is faster by 0.520 s (1.2 % of the slower
//      makespan): within replay error (3 %)"
//     "both profiled from a log (no band): AQE on is faster by 5.100 s (12.0 % of the slower
//      makespan), more than the replay error (3 %)"
// `run` says it of AQE off and on, `compare` of its two results (JudgeDifference, with the
// verdict's parts for JSON).
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

/// The verdict on B − A (JudgeDifference): the sentence of the header comment and its parts.
struct DifferenceVerdict {
  /// "band": a run has a band (the modelled rule); "replay": neither has (the replay error).
  std::string basis;
  /// The name of the faster at the value (`a.name` or `b.name`).
  std::string faster;
  /// The difference holds: the same run faster by kLeastTrustedDifference or more of the slower
  /// at every end of the band ("stays faster"), or, profiled, at the value.
  bool holds = false;
  /// B − A at the band's low and high ends (both runs' low makespans, both high; a run without a
  /// band keeps its makespan at both), seconds; "replay": both the difference.
  double difference_low_seconds = 0;
  double difference_high_seconds = 0;
  std::string text;
};

/// The verdict of the header comment on `a` against `b`; nullopt when their makespans are equal.
inline std::optional<DifferenceVerdict> JudgeDifference(const BandedMakespan& a, const BandedMakespan& b) {
  const double at[3] = {a.low() - b.low(), a.seconds - b.seconds, a.high() - b.high()};  // > 0: b faster
  if (at[1] == 0) return std::nullopt;
  DifferenceVerdict v;
  v.difference_low_seconds = -at[0];
  v.difference_high_seconds = -at[2];
  const bool b_faster = at[1] > 0;
  const BandedMakespan& faster = b_faster ? b : a;
  const BandedMakespan& slower = b_faster ? a : b;
  v.faster = faster.name;
  if (!a.band && !b.band) {
    v.basis = "replay";
    const double share = std::abs(at[1]) / slower.seconds;
    v.holds = share >= kLeastTrustedDifference;
    v.text = "both profiled from a log (no band): " + faster.name + " is faster by " +
             Fixed(std::abs(at[1]), 3) + " s (" + Fixed(100 * share, 1) + " % of the slower makespan)" +
             (v.holds ? ", more than the replay error (3 %)" : ": within replay error (3 %)");
    return v;
  }
  v.basis = "band";
  const std::string scope = "across the band (every modelled task × " + TwoDigits(kDefaultsBand.low) +
                            " to × " + TwoDigits(kDefaultsBand.high) + " in both runs) ";
  const bool same_sign =
      std::all_of(std::begin(at), std::end(at), [&](double d) { return (d > 0) == b_faster && d != 0; });
  if (same_sign) {
    const double lo = std::min({std::abs(at[0]), std::abs(at[1]), std::abs(at[2])});
    const double hi = std::max({std::abs(at[0]), std::abs(at[1]), std::abs(at[2])});
    // The ends where the difference is under kLeastTrustedDifference of the slower makespan.
    const double slower_at[3] = {slower.low(), slower.seconds, slower.high()};
    const char* end_name[3] = {"the low end", "the value", "the high end"};
    std::string small;
    for (int i = 0; i < 3; ++i)
      if (std::abs(at[i]) < kLeastTrustedDifference * slower_at[i])
        small += std::string(small.empty() ? "" : ", ") + end_name[i];
    v.holds = small.empty();
    if (v.holds)
      v.text = scope + faster.name + " stays faster, by " + TwoDigitsOutwards(lo, false) + " to " +
               TwoDigitsOutwards(hi, true) + " s";
    else
      v.text = scope + faster.name + " is faster by " + TwoDigitsOutwards(lo, false) + " to " +
               TwoDigitsOutwards(hi, true) + " s, but by less than 3 % of the makespan at " + small +
               ": within the model's uncertainty (README \"How far to trust the seconds\")";
    return v;
  }
  // The ends on either side: where `faster` leads most and where `slower` does.
  double most_faster = 0, most_slower = 0;
  for (double d : at) {
    const double lead = b_faster ? d : -d;  // > 0: `faster` leads
    most_faster = std::max(most_faster, lead);
    most_slower = std::max(most_slower, -lead);
  }
  v.text = scope + "the difference runs from " + faster.name + " faster by " +
           TwoDigitsOutwards(most_faster, true) + " s to " + slower.name + " faster by " +
           TwoDigitsOutwards(most_slower, true) +
           " s: within the model's uncertainty (import a log of the job to narrow it: README \"How far to "
           "trust the seconds\")";
  return v;
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_BAND_DIFFERENCE_H_
