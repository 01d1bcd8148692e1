// Decision: one adaptive (or planning) decision, as `aqesim explain` lists it.
#ifndef AQESIM_MODELS_AQE_DECISION_H_
#define AQESIM_MODELS_AQE_DECISION_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/units.h"

namespace aqesim {

struct Decision {
  /// Spark's rule name: CoalesceShufflePartitions, OptimizeSkewedJoin,
  /// OptimizeShuffleWithLocalRead, OptimizeSkewInRebalancePartitions, DynamicJoinSelection,
  /// JoinSelection.
  std::string rule;
  /// One readable line, e.g. "e1,e2: 200 → 13 partitions (target 4.2 MiB)".
  std::string message;
  /// Simulated time of the decision (explain's `atSeconds`); 0 for static planning.
  SimTime at = SimTime::Zero();
  /// Structured fields merged into the explain JSON object (e.g. "join", "exchanges",
  /// "from", "to", "buildSide", "partitionsBefore", "partitionsAfter").
  nlohmann::json fields = nlohmann::json::object();
};

/// Formats a byte count for messages: "4.2 MiB", "600.0 KiB", "17 B".
std::string FormatBytes(int64_t bytes);

/// A count and its noun in agreement: "1 partition", "0 partitions", "3 skewed partitions";
/// `plural` defaults to `singular` + "s" ("1 match", Counted(n, "match", "matches")).
std::string Counted(int64_t n, std::string_view singular, std::string_view plural = {});

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_DECISION_H_
