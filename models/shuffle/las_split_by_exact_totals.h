// Variant las.splitByExactTotals (ByteDance LAS, 2022; models/conf/variants.h): the per-map
// sizes a skewed reducer is split by (createSkewPartitionSpecs' input, spec §4.7) rebuilt from
// the reducer's exact total instead of HighlyCompressedMapStatus' per-map averages.
//
// Blocks reported at or above spark.shuffle.accurateBlockThreshold are taken as reported
// (the status stores them, log-encoded); the rest of the exact total is spread evenly over the
// other non-empty blocks (reported > 0): each gets floor(rest / count), and the first
// rest mod count of them one byte more, so the sizes sum to the total. An exact total below
// the accurately reported bytes leaves the others at 0. Missing outputs (-1) are kept, so the
// split still gives up on them as Spark's does. The split by target itself is Spark's
// (splitSizeListByTargetSize).
//
// ByteDance's example: a 1 GB reducer over 100 maps, map 0 holding 100 MB: Spark sees 100 MB
// + 99 x ~1 MB (averages) and splits in 2; from the exact total the 99 others get ~9 MB each
// and the split by a 100 MB target gives ~10 pieces.
#ifndef AQESIM_MODELS_SHUFFLE_LAS_SPLIT_BY_EXACT_TOTALS_H_
#define AQESIM_MODELS_SHUFFLE_LAS_SPLIT_BY_EXACT_TOTALS_H_

#include <cstdint>
#include <vector>

namespace aqesim {

/// The per-map sizes of one reducer from its reported sizes (map order; -1 = missing) and
/// its exact total, bytes.
std::vector<int64_t> MapSizesFromExactTotal(const std::vector<int64_t>& reported_map_sizes,
                                            int64_t exact_total_bytes,
                                            int64_t accurate_block_threshold_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_LAS_SPLIT_BY_EXACT_TOTALS_H_
