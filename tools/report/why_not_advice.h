// What the report makes of the simulator's "not applied" entries (models/aqe/not_applied.h,
// docs/aqe-behaviour.md §16): advice a tuning engineer can act on, beyond configuration where no
// key helps (an aggregate's hot key, a side the join type cannot split: salting, pre-aggregation,
// splitting the hot key out).
#ifndef AQESIM_TOOLS_REPORT_WHY_NOT_ADVICE_H_
#define AQESIM_TOOLS_REPORT_WHY_NOT_ADVICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "models/aqe/not_applied.h"

namespace aqesim::report {

/// A join side above the broadcast threshold by at most this factor is "within reach": raising
/// the threshold is a real option (the advice here and recommend.h's RuntimeBroadcastWithinReach agree).
/// 8: Spark's default 10 MiB then reaches sides up to 80 MiB, under thresholds Spark users
/// commonly set (64m–128m); the memory guardrail (kBroadcastMemoryFraction of an executor's
/// memory) and the simulation of every proposal decide whether it is set. Was 4: a 61 MiB side of
/// a new user's job, which tune's search broadcast at 130m for a 13.8 % gain, got no advice from
/// the report. (16 reached the customshuffle log's 152.6 MiB side, whose proposal gains nothing,
/// and its headline then hid that AQE on is slower there.)
inline constexpr int64_t kBroadcastReachFactor = 8;

/// Why no AQE rule can split `exchange`'s skew, when OptimizeSkewedJoin said so: "notAJoin" (an
/// aggregate's skewed input), "rangePartitioned" (a sort's range exchange) or
/// "joinTypeCannotSplit" (the skewed side of a join whose type Spark never splits on that side,
/// e.g. a LeftOuter join's right side); "" otherwise. No skew-join key can split it, so the
/// report neither recommends nor simulates one for it.
std::string SkewAqeCannotSplit(const std::vector<NotApplied>& not_applied, const std::string& exchange);

/// One sentence per entry a user can act on: the entry's message, then what to do ("" entries
/// — not skewed, already at the target, broadcast disabled on purpose, ... — are left out).
std::vector<std::string> WhyNotAdvice(const std::vector<NotApplied>& not_applied);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_WHY_NOT_ADVICE_H_
