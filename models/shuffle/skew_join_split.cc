#include "models/shuffle/skew_join_split.h"

#include <cmath>
#include <limits>

#include "models/shuffle/map_status.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {
namespace {

// Java's (long) cast of a double: truncation toward zero, saturating, NaN -> 0.
int64_t JavaLongCast(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9.223372036854775807e18) return std::numeric_limits<int64_t>::max();
  if (v <= -9.223372036854775808e18) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

}  // namespace

SkewSideStats ComputeSkewSideStats(const std::vector<int64_t>& sizes, const SkewJoinParams& params) {
  SkewSideStats out;
  out.median = MedianBytes(sizes);
  out.threshold = std::max(params.skewed_partition_threshold_bytes,
                           JavaLongCast(static_cast<double>(out.median) * params.skewed_partition_factor));
  int64_t non_skew_total = 0;
  int64_t non_skew_count = 0;
  for (int64_t s : sizes) {
    if (s <= out.threshold) {
      non_skew_total += s;
      ++non_skew_count;
    }
  }
  out.target = non_skew_count == 0
                   ? params.advisory_partition_size_bytes
                   : std::max(params.advisory_partition_size_bytes, non_skew_total / non_skew_count);
  return out;
}

bool CanSplitLeftSide(JoinType type) {
  switch (type) {
    case JoinType::kInner:
    case JoinType::kCross:
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi:
    case JoinType::kLeftAnti:
      return true;
    case JoinType::kRightOuter:
    case JoinType::kFullOuter:
      return false;
  }
  return false;
}

bool CanSplitRightSide(JoinType type) {
  switch (type) {
    case JoinType::kInner:
    case JoinType::kCross:
    case JoinType::kRightOuter:
      return true;
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi:
    case JoinType::kLeftAnti:
    case JoinType::kFullOuter:
      return false;
  }
  return false;
}

SkewJoinSplitResult SplitSkewedJoin(JoinType join_type, const std::vector<int64_t>& left_bytes,
                                    const std::vector<int64_t>& right_bytes,
                                    const MapSizesForReducerFn& left_map_sizes,
                                    const MapSizesForReducerFn& right_map_sizes, const SkewJoinParams& params,
                                    const ExtraSkewSplitFn& left_extra, const ExtraSkewSplitFn& right_extra) {
  SkewJoinSplitResult result;
  SkewJoinMeta& meta = result.meta;
  meta.left_sizes_bytes = left_bytes;
  meta.right_sizes_bytes = right_bytes;
  const SkewSideStats left = ComputeSkewSideStats(left_bytes, params);
  const SkewSideStats right = ComputeSkewSideStats(right_bytes, params);
  meta.left_median_bytes = left.median;
  meta.right_median_bytes = right.median;
  meta.left_skew_threshold_bytes = left.threshold;
  meta.right_skew_threshold_bytes = right.threshold;
  meta.left_target_size_bytes = left.target;
  meta.right_target_size_bytes = right.target;

  const bool split_left = CanSplitLeftSide(join_type);
  const bool split_right = CanSplitRightSide(join_type);
  if (!split_left && !split_right) {
    result.reason = "join type " + std::string(JoinTypeName(join_type)) + " cannot be split";
    return result;
  }
  if (left_bytes.size() != right_bytes.size()) {
    result.reason = "left has " + std::to_string(left_bytes.size()) + " partitions, right has " +
                    std::to_string(right_bytes.size());
    return result;
  }

  SkewJoinSpecs specs;
  const int n = static_cast<int>(left_bytes.size());
  for (int p = 0; p < n; ++p) {
    std::vector<ShufflePartitionSpec> lparts{CoalescedPartitionSpec{p, p + 1, left_bytes[p]}};
    std::vector<ShufflePartitionSpec> rparts{CoalescedPartitionSpec{p, p + 1, right_bytes[p]}};
    std::optional<std::vector<PartialReducerPartitionSpec>> lpieces, rpieces;
    if (split_left && left_bytes[p] > left.threshold)
      lpieces = CreateSkewPartitionSpecs(p, left_map_sizes(p), left.target);
    if (split_left && !lpieces && left_extra) lpieces = left_extra(p);
    if (lpieces) {
      lparts.assign(lpieces->begin(), lpieces->end());
      ++meta.num_skewed_left;
      meta.left_splits.push_back({p, static_cast<int>(lpieces->size())});
    }
    if (split_right && right_bytes[p] > right.threshold)
      rpieces = CreateSkewPartitionSpecs(p, right_map_sizes(p), right.target);
    if (split_right && !rpieces && right_extra) rpieces = right_extra(p);
    if (rpieces) {
      rparts.assign(rpieces->begin(), rpieces->end());
      ++meta.num_skewed_right;
      meta.right_splits.push_back({p, static_cast<int>(rpieces->size())});
    }
    for (const ShufflePartitionSpec& a : lparts) {
      for (const ShufflePartitionSpec& b : rparts) {
        specs.left.push_back(a);
        specs.right.push_back(b);
      }
    }
  }
  if (meta.num_skewed_left == 0 && meta.num_skewed_right == 0) {
    result.reason = "no skewed partition could be split";
    return result;
  }
  result.specs = std::move(specs);
  return result;
}

SkewJoinSplitResult SplitSkewedJoin(JoinType join_type, const ReportedShuffleSizes& left,
                                    const ReportedShuffleSizes& right, const SkewJoinParams& params) {
  return SplitSkewedJoin(
      join_type, left.BytesByPartitionId(), right.BytesByPartitionId(),
      [&left](int r) { return left.MapSizesForReducer(r); },
      [&right](int r) { return right.MapSizesForReducer(r); }, params);
}

}  // namespace aqesim
