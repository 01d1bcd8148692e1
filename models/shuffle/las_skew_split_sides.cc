#include "models/shuffle/las_skew_split_sides.h"

#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {

SkewSplitSidesResult SplitSkewedSides(const std::vector<SkewSplitSide>& sides, const SkewJoinParams& params) {
  SkewSplitSidesResult out;
  for (const SkewSplitSide& s : sides)
    out.sides.push_back({ComputeSkewSideStats(s.bytes_by_partition_id, params), {}});
  if (sides.empty()) {
    out.reason = "no side";
    return out;
  }
  const size_t n = sides[0].bytes_by_partition_id.size();
  for (const SkewSplitSide& s : sides) {
    if (s.bytes_by_partition_id.size() != n) {
      out.reason = sides[0].id + " has " + std::to_string(n) + " partitions, " + s.id + " has " +
                   std::to_string(s.bytes_by_partition_id.size());
      return out;
    }
  }
  std::vector<std::vector<ShufflePartitionSpec>> specs(sides.size());
  bool any = false;
  for (int p = 0; p < static_cast<int>(n); ++p) {
    // Each side's pieces of reducer p: its split, or the whole reducer.
    std::vector<std::vector<ShufflePartitionSpec>> parts(sides.size());
    for (size_t i = 0; i < sides.size(); ++i) {
      const SkewSplitSide& s = sides[i];
      const int64_t bytes = s.bytes_by_partition_id[static_cast<size_t>(p)];
      std::optional<std::vector<PartialReducerPartitionSpec>> pieces;
      if (s.splittable && bytes > out.sides[i].stats.threshold)
        pieces = CreateSkewPartitionSpecs(p, s.map_sizes(p), out.sides[i].stats.target);
      if (pieces) {
        parts[i].assign(pieces->begin(), pieces->end());
        out.sides[i].splits.push_back({p, static_cast<int>(pieces->size())});
        any = true;
      } else {
        parts[i].push_back(CoalescedPartitionSpec{p, p + 1, bytes});
      }
    }
    // Every combination of pieces, first side major (an odometer over the sides).
    std::vector<size_t> at(sides.size(), 0);
    while (true) {
      for (size_t i = 0; i < sides.size(); ++i) specs[i].push_back(parts[i][at[i]]);
      size_t i = sides.size();
      while (i > 0 && ++at[i - 1] == parts[i - 1].size()) at[--i] = 0;
      if (i == 0) break;
    }
  }
  if (!any) {
    out.reason = "no skewed partition could be split";
    return out;
  }
  out.specs = std::move(specs);
  return out;
}

}  // namespace aqesim
