// Byte totals of a scenario's plan that must fit in 64 bits: user-given sizes are each below
// 2^63, but the simulator adds them up (a union's or a join's estimated output, a stage's
// input, a run's totals). The loader checks them here once, so later sums cannot wrap.
#ifndef AQESIM_MODELS_SCENARIO_BYTE_TOTALS_H_
#define AQESIM_MODELS_SCENARIO_BYTE_TOTALS_H_

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Checks, with exact (wide) arithmetic, that
///  - every node's estimated output stays below 2^63 bytes — computed as the static planner
///    does (models/engine/static_planner.cc): a scan's bytes; an exchange, sort: its child's;
///    a join: (left + right) × selectivity; a union: the sum of its children; others:
///    child × selectivity; a node's `estimatedBytes` replaces the computed value —
///    reported at the first (deepest, leftmost) node that exceeds it;
///  - the sum over the whole plan of every node's estimate and every exchange's sizes total
///    and dataSizeBytes stays below 2^63 bytes, reported at the plan's root.
/// Records at most one error.
void CheckPlanByteTotals(const PlanNode& root, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_BYTE_TOTALS_H_
