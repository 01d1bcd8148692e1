// Reading what a scenario says about range partitioning (README "Range partitioning",
// docs/aqe-behaviour.md §15): an exchange's `partitioning`, a sort's `global` and a scan's
// `keyDistribution`.
#ifndef AQESIM_MODELS_SCENARIO_RANGE_READER_H_
#define AQESIM_MODELS_SCENARIO_RANGE_READER_H_

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// A scan's `keyDistribution`: {"distribution": "uniform" | "zipf" | "hotKeys", "distinctKeys",
/// "exponent", "hotCount", "hotFraction"} or {"keys": [[...], ...]} (one list of integer keys
/// per scan task; sets the scan's tasks, which `tasks` / `taskBytes` must agree with). Reads
/// after the scan's `tasks` and `taskBytes`.
void ReadKeyDistribution(const Json& v, PlanNode* scan, DiagnosticSink* sink);

/// An exchange's `partitioning`: "hash" (default) or "range" — a range exchange takes no
/// `sizes` (they come from the keys), no `singlePartition` and no rebalance origin. Reads after
/// the exchange's other fields.
void ReadExchangePartitioning(const Json& v, PlanNode* exchange, DiagnosticSink* sink);

/// A sort's `global` (a boolean; ORDER BY when true).
void ReadSortGlobal(const Json& v, PlanNode* sort, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_RANGE_READER_H_
