// NotApplied: why an AQE rule left a stage, exchange or join as it was — the first early-out
// of the rule that stopped it, in Spark's terms, with the numbers (`aqesim explain`'s
// `notApplied`, one line each under `run`'s decisions, the report's advice).
//
// Reason codes (docs/aqe-behaviour.md §16 lists each with its wording):
//  * CoalesceShufflePartitions: coalescingDisabled, userSpecifiedPartitions,
//    alreadyAtTarget, skewSplitKept;
//  * OptimizeSkewedJoin: skewJoinDisabled, notAJoin, rangePartitioned, bucketedScan,
//    joinTypeCannotSplit, partitionCountsDiffer, belowSkewFactor, belowSkewThreshold,
//    hiddenByMapStatus, singleMapPartition, needsExtraShuffle;
//  * OptimizeSkewInRebalancePartitions: rebalanceSkewDisabled, belowAdvisorySize, singleMapPartition;
//  * JoinSelection / DynamicJoinSelection: aboveBroadcastThreshold, broadcastDisabled,
//    joinTypeCannotBuild, mergeHint, demotedByEmptyPartitions;
//  * OptimizeShuffleWithLocalRead: localReadDisabled, probeNotLocalReadable, partitioningRequiredAbove.
#ifndef AQESIM_MODELS_AQE_NOT_APPLIED_H_
#define AQESIM_MODELS_AQE_NOT_APPLIED_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "sim/units.h"

namespace aqesim {

struct NotApplied {
  /// Spark's rule name (as Decision::rule).
  std::string rule;
  /// What the rule left alone: an exchange id, several ("e1,e2", a coalesce group) or a join id.
  std::string target;
  /// The early-out, a stable code (see the list above).
  std::string reason;
  /// One readable line with the numbers, e.g. "e3: FullOuter join: Spark splits neither side ...".
  std::string message;
  /// Simulated time of the last evaluation that stopped there.
  SimTime at = SimTime::Zero();
  /// The numbers behind the message (bytes, counts, factors), by name.
  nlohmann::json numbers = nlohmann::json::object();

  /// numbers[key] when it is an integer of int64's range; 0 otherwise (absent, or of another type).
  int64_t Integer(const char* key) const;
  /// numbers[key] when it is true or false; false otherwise.
  bool Flag(const char* key) const;
  /// numbers[key] when it is a string; "" otherwise.
  std::string Text(const char* key) const;
};

/// Adds `entries` to `*list`: one entry per (rule, target), a later evaluation that stopped
/// elsewhere replacing an earlier one in place (a rule re-evaluates a join at every
/// re-optimization); the same stop again keeps its first time.
void MergeNotApplied(std::vector<NotApplied> entries, std::vector<NotApplied>* list);

/// What a decision acted on, as NotApplied::target: its "join", "exchange" or "exchanges"
/// field; "" for a decision that changed nothing (`"applied": false`) or names no target.
std::string DecisionTarget(const Decision& d);

/// Drops the entries a later decision acted on (same rule, DecisionTarget = target, or a join
/// of its "joins" list when that is an array).
void DropActedOn(const std::vector<Decision>& decisions, std::vector<NotApplied>* list);

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_NOT_APPLIED_H_
