#include "models/shuffle/intel_row_count_skew.h"

#include <algorithm>
#include <utility>

#include "models/shuffle/map_status.h"

namespace aqesim {

RowCountSkew::RowCountSkew(std::vector<int64_t> records, std::vector<int64_t> bytes,
                           RowCountSkewParams params)
    : records_(std::move(records)), bytes_(std::move(bytes)), params_(params) {
  median_records_ = MedianBytes(records_);
  median_bytes_ = MedianBytes(bytes_);
}

bool RowCountSkew::IsSkewed(int reducer) const {
  if (reducer < 0 || reducer >= static_cast<int>(records_.size())) return false;
  const int64_t r = records_[static_cast<size_t>(reducer)];
  const double limit = static_cast<double>(median_records_) * params_.skewed_partition_factor;
  return static_cast<double>(r) > limit && r > params_.row_count_threshold;
}

std::optional<std::vector<PartialReducerPartitionSpec>> RowCountSkew::Split(
    int reducer, std::span<const int64_t> map_sizes) const {
  if (!IsSkewed(reducer)) return std::nullopt;
  const int maps = static_cast<int>(map_sizes.size());
  for (int64_t s : map_sizes)
    if (s < 0) return std::nullopt;
  const int64_t by_bytes =
      reducer < static_cast<int>(bytes_.size()) ? bytes_[static_cast<size_t>(reducer)] / median_bytes_ : 0;
  const int64_t by_records = records_[static_cast<size_t>(reducer)] / median_records_;
  const int64_t factor = std::max(by_bytes, by_records);
  const int n = static_cast<int>(
      std::min<int64_t>({static_cast<int64_t>(params_.max_splits), factor, static_cast<int64_t>(maps)}));
  if (n <= 1) return std::nullopt;
  const int per_piece = maps / n;
  std::vector<PartialReducerPartitionSpec> out;
  for (int k = 0; k < n; ++k) {
    const int start = k * per_piece;
    const int end = k + 1 == n ? maps : start + per_piece;
    int64_t size = 0;
    for (int m = start; m < end; ++m) size += map_sizes[static_cast<size_t>(m)];
    out.push_back({reducer, start, end, size});
  }
  return out;
}

}  // namespace aqesim
