// Checks of a scenario's plan that span nodes, after every node was read (plan_reader.h).
#ifndef AQESIM_MODELS_SCENARIO_PLAN_CHECKS_H_
#define AQESIM_MODELS_SCENARIO_PLAN_CHECKS_H_

#include <map>
#include <string>

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Gives ids to nodes without one ("<op><n>", n counting per operator in document order,
/// skipping ids in use) and reports ids given twice.
/// `in_use`: ids another tree of the scenario already uses (id → pointer of its "id" field; a
/// subquery's plan beside the query's): a node repeating one is an error, generated ids skip them.
void AssignIds(PlanNode* root, DiagnosticSink* sink,
               const std::map<std::string, std::string>* in_use = nullptr);

/// Partition counts fixed by numPartitions / singlePartition / sizes agree within an exchange
/// and across the sides of a shuffled join; an exchange's sizes have as many rows as its child
/// has tasks (when both are fixed).
void CheckCounts(PlanNode* root, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_PLAN_CHECKS_H_
