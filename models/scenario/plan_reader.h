// Reading the `plan` of a scenario (plan nodes and their `sizes`), with diagnostics.
// Format: docs/user-contract.md §2 and models/plan/plan.h.
#ifndef AQESIM_MODELS_SCENARIO_PLAN_READER_H_
#define AQESIM_MODELS_SCENARIO_PLAN_READER_H_

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

/// Deepest plan accepted (nodes from the root to a leaf); deeper nesting is an error.
inline constexpr int kMaxPlanDepth = 1000;
/// Largest plan accepted (nodes in all; README "Input limits"): a union's children are
/// planned per task.
inline constexpr int kMaxPlanNodes = 10'000;

/// Reads an exchange's `sizes` (one of matrix, csv, marginals, generate). A relative csv
/// path is resolved against `scenario_dir` ("" = current directory).
std::optional<SizesSpec> ReadSizes(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                                   DiagnosticSink* sink);

/// Reads the plan tree at `pointer`, then gives ids to nodes without one ("<op><n>", n
/// counting per operator in document order, skipping ids in use), and checks what spans
/// nodes: unique ids; partition counts fixed by numPartitions / singlePartition / sizes
/// agree within an exchange and across the sides of a shuffled join; an exchange's sizes
/// have as many rows as its child has tasks (when both are fixed). Returns the tree even
/// when problems were found (missing parts are left out); null when the root is unusable.
/// `ids_in_use` (AssignIds): ids of the scenario's other plan trees, which this one must not repeat.
std::unique_ptr<PlanNode> ReadPlan(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                                   DiagnosticSink* sink,
                                   const std::map<std::string, std::string>* ids_in_use = nullptr);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_PLAN_READER_H_
