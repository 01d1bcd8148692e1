// Variant las.exactReducerTotals (ByteDance LAS, 2022; models/conf/variants.h): the driver
// adds each map task's exact block sizes to per-reducer totals as its MapStatus arrives, and
// only then keeps the (compressed) status. MapOutputTracker's statistics
// (core/.../MapOutputTracker.scala, getStatistics; spec §3.5) then no longer depend on how
// HighlyCompressedMapStatus averaged the small blocks, and OptimizeSkewedJoin detects skew on
// exact totals (models/aqe/rules/las_skew_join_view.h).
//
// What it costs the driver, reported beside Spark's own MapStatus memory:
//  * memory: one long per reducer per shuffle (kArrayHeaderBytes + 8 x reducers), on top of
//    the statuses, which stay as Spark keeps them;
//  * CPU: every map's full sizes are decompressed once on arrival (num_maps x num_reducers
//    block decodes; cached, so once per status), priced like getStatistics' per-block work
//    (cost.mapStatusAggregateSecondsPerBlock).
#ifndef AQESIM_MODELS_SHUFFLE_LAS_EXACT_REDUCER_TOTALS_H_
#define AQESIM_MODELS_SHUFFLE_LAS_EXACT_REDUCER_TOTALS_H_

#include <cstdint>
#include <vector>

#include "models/shuffle/shuffle_sizes.h"

namespace aqesim {

struct ExactReducerTotals {
  /// Per reducer, the sum over maps of the exact size each map reported (bytes).
  std::vector<int64_t> bytes_by_partition_id;
  /// Driver heap the totals take: kArrayHeaderBytes + 8 x reducers.
  int64_t driver_bytes = 0;
  /// Blocks decompressed on the driver: num_maps x num_reducers.
  int64_t decompressed_blocks = 0;
};

/// The totals of `actual` (rows = the map tasks that ran) as the maps report them: each block
/// ReportedBlockBytes(bytes, reported_size_ratio) (the identity at ratio 1).
ExactReducerTotals AccumulateExactReducerTotals(const ShuffleSizes& actual, double reported_size_ratio);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_LAS_EXACT_REDUCER_TOTALS_H_
