// Sweep grids: `--grid KEY=V1,V2,...` axes, their cartesian product in grid order, and
// `--shard K/N` slices.
//
// Grid order: the first axis varies slowest (like nested loops written in --grid order), so
// point i of axes with sizes n0, n1, ..., nk has value index (i / (n1·…·nk)) % n0 on axis 0
// and i % nk on the last axis.
#ifndef AQESIM_TOOLS_SWEEP_GRID_H_
#define AQESIM_TOOLS_SWEEP_GRID_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aqesim::sweep {

/// One `--grid KEY=V1,V2,...` argument: the key (a Spark conf key, `cluster.FIELD`,
/// `cost.PARAM` or `simulation.FIELD`) and its values in the order given.
struct GridAxis {
  std::string key;
  std::vector<std::string> values;
};

/// Parses "KEY=V1,V2,...". Values are trimmed of spaces; empty values, an empty key or a
/// missing '=' are errors (`*error` gets one sentence, the result is nullopt).
std::optional<GridAxis> ParseGridArg(const std::string& arg, std::string* error);

/// What makes an axis unusable, in one sentence ("" when none): an empty value, a control
/// character (a newline would split a CSV row) in the key or a value, a value given twice
/// (two identical rows). Axes from --grid and from a sweep definition are both checked.
std::string GridAxisProblem(const GridAxis& axis);

/// Number of points of the cartesian product (1 for no axes). Saturates at UINT64_MAX.
uint64_t GridPointCount(const std::vector<GridAxis>& axes);

/// The values of point `index` (< GridPointCount), one per axis, in axis order.
std::vector<std::string> GridPointValues(const std::vector<GridAxis>& axes, uint64_t index);

/// `--shard K/N` (1 <= K <= N): point i belongs to the shard when i % N == K - 1.
struct Shard {
  int k = 1;
  int n = 1;
  bool Contains(uint64_t index) const {
    return index % static_cast<uint64_t>(n) == static_cast<uint64_t>(k - 1);
  }
  bool IsWhole() const { return n == 1; }
  std::string ToString() const { return std::to_string(k) + "/" + std::to_string(n); }
};

/// Parses "K/N"; nullopt with `*error` set when malformed or out of range.
std::optional<Shard> ParseShard(const std::string& arg, std::string* error);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_GRID_H_
