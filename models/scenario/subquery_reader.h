// Reading a scenario's `subqueries` (models/plan/subquery.h): jobs whose results scans of the
// plan wait for. Format: docs/user-contract.md §2, README "Subqueries and runtime filters".
#ifndef AQESIM_MODELS_SCENARIO_SUBQUERY_READER_H_
#define AQESIM_MODELS_SCENARIO_SUBQUERY_READER_H_

#include <string>
#include <vector>

#include "models/plan/plan.h"
#include "models/plan/subquery.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// `subqueries`: an array of {"id", "kind", "gates": [scan ids], "plan" | "reusesBroadcast"}.
/// Each `plan` is read as `/plan` is (plan_reader.h), its ids unique across the query's plan
/// and the subqueries before it (generated ids skip those in use). `plan` is the query's plan
/// (null when it could not be read: gates and reusesBroadcast are then not checked).
/// Problems, each at its pointer:
///   not an array / an element not an object; an unknown field ("did you mean");
///   `id` not a string, or used by a plan node or another subquery;
///   `kind` not one of scalar, inSubquery, bloomFilter, dynamicPruning;
///   `gates` not a non-empty array of strings, or naming no scan of /plan, or a scan twice;
///   neither or both of `plan` and `reusesBroadcast`; `reusesBroadcast` on a kind other than
///   dynamicPruning, or naming no join of /plan.
void ReadSubqueries(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                    const PlanNode* plan, std::vector<Subquery>* out, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SUBQUERY_READER_H_
