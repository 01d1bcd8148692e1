// Seeded synthetic partition-size matrices (the `generate` form of SizesSpec) and the
// integer splitting they share with the marginal fit.
//
// Deterministic in (seed, parameters) on every platform: the only randomness is sim/rng.h's
// Rng, no std:: distributions.
#ifndef AQESIM_MODELS_SHUFFLE_GENERATORS_H_
#define AQESIM_MODELS_SHUFFLE_GENERATORS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "models/shuffle/size_matrix.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

/// Largest matrix (map tasks x reducers) the loader accepts: 200 million cells = 1.6 GB of
/// int64 sizes (a 10^4 x 10^4 shuffle fits; larger generated shuffles are for the streaming
/// statistics path, generated_rows.h).
inline constexpr int64_t kMaxSizeMatrixCells = 200'000'000;

/// Splits `total` (>= 0) into integers proportional to `weights` (>= 0) whose sum is exactly
/// `total` (largest-remainder method). Ties between equal remainders go to the index that
/// comes first counting from `tie_start` (so rows can rotate which cell gets the odd byte).
/// All-zero weights split evenly. Empty `weights` returns {} (total must then be 0).
std::vector<int64_t> SplitByLargestRemainder(int64_t total, std::span<const double> weights,
                                             size_t tie_start = 0);

/// The `generate` matrix: `map_tasks` rows x `partitions` columns (both >= 1), total
/// `total_bytes` (ignored when g.map_bytes is given: its entries are the row sums).
/// Column weights by distribution (uniform: equal; zipf: rank^-exponent with ranks from a
/// seeded permutation; hotKeys: hot_fraction spread evenly over the hot partitions, the
/// rest evenly over the others), times per-cell noise; each row's bytes are split over
/// its cells by SplitByLargestRemainder, so row sums and the total are exact.
SizeMatrix GenerateSizeMatrix(const GenerateSizes& g, int map_tasks, int partitions, int64_t total_bytes,
                              uint64_t seed);

/// The seed of an exchange's generated sizes when the spec gives none: the scenario seed
/// mixed with the exchange id (MixSeed(scenario_seed, "sizes", exchange_id)).
uint64_t SizesSeedFor(uint64_t scenario_seed, std::string_view exchange_id);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_GENERATORS_H_
