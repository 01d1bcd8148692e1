// Changing the shape of a size matrix while conserving its bytes exactly: a recorded matrix
// given for another reducer count than the configuration asks for, or rows given for another
// map-task count than the plan below the exchange has.
#ifndef AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_RESAMPLE_H_
#define AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_RESAMPLE_H_

#include "models/shuffle/size_matrix.h"

namespace aqesim {

/// Changes the reducer count of a matrix. When the new count divides the old one, reducers
/// fold exactly as hash partitioning does (reducer r of N goes to r mod N'); otherwise each
/// old reducer's bytes spread over the new reducers its [r/N, (r+1)/N) interval overlaps
/// (largest-remainder rounding, so every row keeps its total).
SizeMatrix ResampleReducers(const SizeMatrix& m, int new_reducers);

/// Changes the map-task count of a matrix (rows), spreading each old row over the new rows
/// its interval overlaps (or summing rows when shrinking).
SizeMatrix ResampleMaps(const SizeMatrix& m, int new_maps);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_RESAMPLE_H_
