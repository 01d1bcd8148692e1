// simulation.skewExponent: the scenario's shuffles made hotter or flatter — "what if the hot keys
// got hotter?" and the skew guardrails of `aqesim tune`. Applied when a scenario is built
// (scenario_overrides.h), after dataScale; γ = 1 changes nothing.
//
// Each exchange's reducer totals c_j are reshaped to T · c_j^γ ÷ Σ_k c_k^γ (T the exchange's total,
// kept): γ > 1 concentrates the bytes in the partitions that already hold the most (hotter),
// γ < 1 evens them out (flatter), an empty partition stays empty.
//   matrix (inline, CSV)  every cell of column j × (target_j ÷ c_j), rounded half away from zero, a
//                         non-zero cell never below 1
//   marginals             partitionBytes reshaped; the largest entry absorbs the rounding so that
//                         both margins keep one total
//   generate zipf         the exponent × γ (weights k^-e become k^-(e·γ): the same reshaping)
//   generate uniform      unchanged (equal totals stay equal)
//   generate hotKeys      unchanged: its weights depend on the reducer count, known only when
//                         the exchange is planned (a documented limit)
// Task and partition counts, the cluster, configuration, cost and profiles are not touched.
#ifndef AQESIM_MODELS_SCENARIO_SKEW_RESHAPE_H_
#define AQESIM_MODELS_SCENARIO_SKEW_RESHAPE_H_

#include "models/scenario/scenario.h"

namespace aqesim {

/// Bounds of simulation.skewExponent.
inline constexpr double kMinSkewExponent = 0.1;
inline constexpr double kMaxSkewExponent = 10;

/// Reshapes every exchange of `scenario` by `gamma` (kMinSkewExponent..kMaxSkewExponent) as the
/// header says.
void ReshapeSkew(double gamma, Scenario* scenario);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SKEW_RESHAPE_H_
