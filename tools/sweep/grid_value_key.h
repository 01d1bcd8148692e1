// A grid value as points are told apart: "64m" and "67108864" are one byte size, "2", "2.0"
// and "2e0" one number, "true" and "TRUE" one boolean. `compare` matches two sweeps' points by it; a grid, a
// sweep file's grid and a tune space give each value once by it (hostile round: "2,2.0,2e0" made three
// identical points).
#ifndef AQESIM_TOOLS_SWEEP_GRID_VALUE_KEY_H_
#define AQESIM_TOOLS_SWEEP_GRID_VALUE_KEY_H_

#include <string>

namespace aqesim::sweep {

/// A byte size (Spark's binary units), a number or a boolean (any case) by its value, anything
/// else by its text: equal keys for equal values.
std::string GridValueKey(const std::string& value);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_GRID_VALUE_KEY_H_
