// `run` with named variants on (models/conf/variants.h): Apache Spark's plan and each enabled
// variant's, side by side, AQE on. The rows: Spark (every variant off), each enabled variant
// alone (when more than one is on), and all enabled variants together (the scenario's run).
#ifndef AQESIM_TOOLS_AQESIM_VARIANT_COMPARISON_H_
#define AQESIM_TOOLS_AQESIM_VARIANT_COMPARISON_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/cost/defaults_band.h"
#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"

namespace aqesim::cli {

struct VariantRun {
  std::vector<std::string> variants;  // empty: Apache Spark
  RunResult run;
  /// The makespan's band (models/engine/simulated_band.h); nullopt when every stage is profiled.
  std::optional<MakespanBand> band;
};

/// The comparison rows; `with_all` is the AQE-on run with every enabled variant (already
/// simulated). Empty when no variant is on. The scenario's conf is restored before returning.
std::vector<VariantRun> SimulateVariantComparison(Scenario* scenario, const RunResult& with_all);

/// The table `run` prints: makespan, tasks, skew-split reads and the decisions variants changed.
std::string VariantComparisonText(const std::vector<VariantRun>& rows);

/// `variantComparison` of `run --format json`: one object per row.
nlohmann::ordered_json VariantComparisonJson(const std::vector<VariantRun>& rows);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_VARIANT_COMPARISON_H_
