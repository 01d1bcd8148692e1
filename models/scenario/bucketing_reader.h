// Reading what a scenario says about bucketed tables and keys (docs/aqe-behaviour.md §14):
// a scan's `bucketing`, a join's `keys` / `leftKeys` / `rightKeys`, an aggregate's `keys` and
// `mode` (what it requires of its child's partitioning).
#ifndef AQESIM_MODELS_SCENARIO_BUCKETING_READER_H_
#define AQESIM_MODELS_SCENARIO_BUCKETING_READER_H_

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// The most buckets a table may have (spark.sql.sources.bucketing.maxBuckets' default).
inline constexpr int kMaxBuckets = 100'000;

/// A scan's `bucketing`: {"keys": [...], "numBuckets": N, "sorted": bool, "bucketBytes": [...]}.
/// Reads after the scan's `bytes` (bucketBytes must sum to them).
void ReadBucketing(const Json& v, PlanNode* scan, DiagnosticSink* sink);

/// A join's `keys` (both sides) or `leftKeys` with `rightKeys` (as many on each side).
void ReadJoinKeys(const Json& v, PlanNode* join, DiagnosticSink* sink);

/// An aggregate's grouping `keys` (not with `grouped: false`).
void ReadGroupingKeys(const Json& v, PlanNode* aggregate, DiagnosticSink* sink);

/// An aggregate's `mode`: "final" (default) or "partial" (PlanNode::partial_aggregate).
void ReadAggregateMode(const Json& v, PlanNode* aggregate, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_BUCKETING_READER_H_
