// The report's recommendation: spark-defaults.conf lines with the reason for each, and
// warnings — written as an ordered chain of rules, each with its "why not" early-outs.
//
// Guardrails (always applied last, whatever the rules said):
//  - never more shuffle partitions when the slowness is skew (a hot key stays in one
//    partition whatever the partition count; AQE's skew join is the lever);
//  - warn when a broadcast build side, or the broadcast threshold itself, comes near
//    executor memory (>= kBroadcastMemoryFraction of the heap);
//  - warn when a shuffle has more than spark.shuffle.minNumPartitionsToHighlyCompress
//    partitions and the driver cannot see its skew (HighlyCompressedMapStatus averages),
//    and suggest spark.shuffle.accurateBlockSkewedFactor.
#ifndef AQESIM_TOOLS_REPORT_RECOMMEND_H_
#define AQESIM_TOOLS_REPORT_RECOMMEND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "tools/report/analysis.h"
#include "tools/report/why_not_advice.h"
#include "tools/sweep/sweep_output.h"
#include "tools/tune/recommendation.h"

namespace aqesim::report {

/// A broadcast build side at or above this fraction of executor memory is flagged.
inline constexpr double kBroadcastMemoryFraction = 0.3;

/// One spark-defaults.conf line.
struct ConfLine {
  std::string key;
  std::string value;
  std::string reason;  // one sentence, shown as a comment above the line
};

struct Recommendation {
  /// One sentence: what limits the run (or "nothing to change").
  std::string diagnosis;
  std::vector<ConfLine> lines;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
  /// The lines as a spark-defaults.conf fragment ("# reason" above "key value").
  std::string SparkDefaults() const;
  bool Sets(const std::string& key) const;
};

/// Whether a shuffle's true partition sizes are skewed: the largest is at least
/// kSeveritySevere × the median and above the advisory size.
bool IsSizeSkewed(const ShuffleFacts& s, int64_t advisory_bytes);
/// Whether skew makes the run slow: a size-skewed shuffle whose reading stage has a
/// severe (>= 3.16) max÷median task time with AQE off or on.
bool IsSlowedBySkew(const ShuffleFacts& s, int64_t advisory_bytes);

/// The smallest join side AQE's JoinSelection found above the runtime broadcast threshold
/// (explain's notApplied aboveBroadcastThreshold with runtime statistics) by at most
/// kBroadcastReachFactor (why_not_advice.h), with a threshold value that would broadcast it and stays under
/// the memory guardrail; `join` empty when none.
struct RuntimeBroadcastReach {
  std::string join, side, exchange, strategy;  // strategy as executed ("SortMergeJoin")
  int64_t side_bytes = 0, threshold_bytes = 0;
  int64_t value_bytes = 0;  // the next power of two MiB above 1.1 × side_bytes
  /// "spark.sql.adaptive.autoBroadcastJoinThreshold (unset: spark.sql.autoBroadcastJoinThreshold 10.0 MiB)".
  std::string ThresholdText(const SqlConf& conf) const;
};
RuntimeBroadcastReach RuntimeBroadcastWithinReach(const TuningFacts& facts);

/// Rules for one configuration (a scenario or RESULT.json).
Recommendation Recommend(const TuningFacts& facts);

/// The best point of a sweep, and the rows the guardrails excluded.
struct SweepBest {
  std::optional<uint64_t> point;    // nullopt when no point ran
  std::vector<std::string> values;  // per swept key
  double makespan_seconds = 0;
  std::optional<double> baseline_makespan_seconds;  // the point at the scenario's own values
  std::optional<uint64_t> baseline_point;
};

/// Rules for a sweep (`aqesim sweep` JSON output): the fastest point (AQE on) that passes the
/// guardrails, as conf lines for the keys whose best value differs from the scenario's.
Recommendation RecommendFromSweep(const sweep::SweepDocument& sweep, SweepBest* best);

/// The least simulated gain the report recommends: aqesim tune's default --min-gain (the replay
/// error bound, README "How far to trust the seconds"), so the two agree on what is worth a change.
inline constexpr double kMinGain = tune::kDefaultMinGain;

/// Checks a scenario's recommendation by simulating it. The lines are kept only when, applied
/// together, they cut the makespan by kMinGain of `current_seconds` (a note then gives the
/// simulated gain), and each line only when the others without it lose kMinGain (a note names a
/// line dropped); with several lines each one's reason ends with its makespan applied alone;
/// otherwise — or when the scenario does not run with them — they are
/// withdrawn and a note says what the simulation gave. With `guardrails_with`, the lines that
/// pass are also judged as aqesim tune judges a change by default (tools/tune/objective.h's
/// no-loss): no copy of its guardrails may lose more than kLossTolerance (a note names the copy
/// that does) and the geometric mean over them must gain kMinGain (a note gives that mean and the
/// copy that gains least), or they are withdrawn. Warnings are kept
/// either way: they are about risk, not speed.
void CheckBySimulation(Recommendation* r, double current_seconds, const MakespanWith& makespan_with,
                       const GuardrailsWith& guardrails_with = {});

/// What the decisions `after` change from `before` (matched by rule and target), one short clause
/// each (the message without its reasons in parentheses): "e1: 200 → 100 partitions instead of
/// 200 → 40 partitions", a new decision as it reads ("j: SortMergeJoin → BroadcastHashJoin
/// BuildRight") or "no longer ..."; at most two, then "and N other changes"; "" when none differs.
/// EnsureRequirements' planning is left out.
std::string DecisionsChanged(const std::vector<Decision>& before, const std::vector<Decision>& after);

/// "64m"-style rendering Spark accepts for a byte count (binary units, exact when possible).
std::string SparkByteString(int64_t bytes);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_RECOMMEND_H_
