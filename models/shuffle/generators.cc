#include "models/shuffle/generators.h"

#include "models/shuffle/generated_rows.h"
#include "sim/rng.h"

namespace aqesim {

// Both functions are implemented by generated_rows.h (allocation-free split, row stream);
// the results are the ones documented in generators.h, bit for bit.

std::vector<int64_t> SplitByLargestRemainder(int64_t total, std::span<const double> weights,
                                             size_t tie_start) {
  std::vector<int64_t> out(weights.size(), 0);
  SplitScratch scratch;
  SplitByLargestRemainderInto(total, weights, tie_start, out, &scratch);
  return out;
}

SizeMatrix GenerateSizeMatrix(const GenerateSizes& g, int map_tasks, int partitions, int64_t total_bytes,
                              uint64_t seed) {
  GeneratedRowStream rows(g, map_tasks, partitions, total_bytes, seed);
  SizeMatrix m(rows.num_maps(), rows.num_reducers());
  while (!rows.done()) rows.NextRow(m.mutable_row(rows.next_map()));
  return m;
}

uint64_t SizesSeedFor(uint64_t scenario_seed, std::string_view exchange_id) {
  return MixSeed(scenario_seed, "sizes", exchange_id);
}

}  // namespace aqesim
