// DecisionOutcome: when two AQE decisions of two runs are the same decision. Two decisions are
// the same when their rule, subject (the join, exchanges or node they are about) and outcome
// are: the decision's structured fields without its inputs — the sizes it compared against
// (fields in bytes: targets, thresholds, medians, the advisory size), minNumPartitions, a
// why-not's numbers — and without its time. A coalescing 200 → 40 partitions at a target of
// 54.2 MiB and one 200 → 40 at 52.8 MiB did the same; 200 → 40 and 200 → 41 did not.
// A decision without structured fields is told by its message. `aqesim scale` compares its rows' decisions by
// it, `aqesim compare` its two runs'.
#ifndef AQESIM_MODELS_AQE_DECISION_OUTCOME_H_
#define AQESIM_MODELS_AQE_DECISION_OUTCOME_H_

#include <string>

#include "models/aqe/decision.h"

namespace aqesim {

/// What identifies a decision: `prefix` (scale's part of a multi-query log, "" otherwise), its
/// rule and what it is about (its join, joins, exchange, exchanges, node or target fields).
std::string DecisionSubject(const std::string& prefix, const Decision& d);

/// The subject and what the decision did (its fields without its inputs, see above): equal
/// strings are the same decision.
std::string DecisionOutcome(const std::string& prefix, const Decision& d);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_DECISION_OUTCOME_H_
