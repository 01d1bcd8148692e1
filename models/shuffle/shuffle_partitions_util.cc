#include "models/shuffle/shuffle_partitions_util.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace aqesim {
namespace {

using StatsList = std::vector<std::optional<std::vector<int64_t>>>;
using SpecsList = std::vector<std::optional<std::vector<ShufflePartitionSpec>>>;

CoalesceResult Unchanged() { return CoalesceResult{}; }

CoalesceResult Error(std::string message) {
  CoalesceResult r;
  r.status = CoalesceResult::Status::kError;
  r.error = std::move(message);
  return r;
}

int64_t SumRange(const std::vector<int64_t>& bytes, int start, int end) {
  int64_t total = 0;
  for (int i = start; i < end; ++i) total += bytes[static_cast<size_t>(i)];
  return total;
}

// attachDataSize (docs/aqe-behaviour.md §4.5): each shuffle gets the ranges with its own bytes (0 without
// stats).
void AppendWithDataSize(const std::vector<CoalescedPartitionSpec>& ranges, const StatsList& stats,
                        std::vector<std::vector<ShufflePartitionSpec>>* out) {
  for (size_t s = 0; s < stats.size(); ++s) {
    for (const CoalescedPartitionSpec& range : ranges) {
      CoalescedPartitionSpec spec = range;
      spec.data_size_bytes =
          stats[s] ? SumRange(*stats[s], range.start_reducer_index, range.end_reducer_index) : int64_t{0};
      (*out)[s].emplace_back(spec);
    }
  }
}

CoalesceResult CoalesceWithoutSkew(const StatsList& stats, int64_t target, int64_t min_size) {
  std::vector<const std::vector<int64_t>*> valid;
  for (const auto& s : stats) {
    if (s) valid.push_back(&*s);
  }
  CoalesceResult result;
  result.specs_per_shuffle.resize(stats.size());
  // Every input had 0 partitions: one empty partition per shuffle so the stage still runs.
  if (valid.empty()) {
    result.status = CoalesceResult::Status::kCoalesced;
    for (auto& list : result.specs_per_shuffle) list.emplace_back(CoalescedPartitionSpec{0, 0, int64_t{0}});
    return result;
  }
  // Shuffles of one group must have the same number of reducers to be coalesced together.
  const size_t n = valid.front()->size();
  for (const auto* v : valid) {
    if (v->size() != n) return Unchanged();
  }
  const std::vector<CoalescedPartitionSpec> ranges =
      CoalesceRange(0, static_cast<int>(n), valid, target, min_size, /*allow_empty=*/false);
  // Nothing gained: keep the original plan.
  if (ranges.size() >= n) return Unchanged();
  AppendWithDataSize(ranges, stats, &result.specs_per_shuffle);
  result.status = CoalesceResult::Status::kCoalesced;
  return result;
}

// The reducer a spec stands for in the skew walk: a one-reducer Coalesced spec or a
// PartialReducer spec; -1 for anything else.
int SpecIndex(const ShufflePartitionSpec& spec) {
  if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) {
    return c->end_reducer_index - c->start_reducer_index == 1 ? c->start_reducer_index : -1;
  }
  if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) return p->reducer_index;
  return -1;
}

CoalesceResult CoalesceWithSkew(const StatsList& stats, const SpecsList& specs, int64_t target,
                                int64_t min_size) {
  for (size_t s = 0; s < stats.size(); ++s) {
    if (!stats[s] || !specs[s]) return Unchanged();
  }
  const size_t num_reducers = stats[0]->size();
  for (const auto& st : stats) {
    if (st->size() != num_reducers) return Error("shuffles of the group have different partition counts");
  }
  // The index sequence must be the same for every shuffle.
  std::vector<int> idx;
  idx.reserve(specs[0]->size());
  for (const ShufflePartitionSpec& spec : *specs[0]) idx.push_back(SpecIndex(spec));
  for (size_t s = 1; s < specs.size(); ++s) {
    if (specs[s]->size() != idx.size()) return Error("input specs of the shuffles differ in length");
    for (size_t i = 0; i < idx.size(); ++i) {
      if (SpecIndex((*specs[s])[i]) != idx[i]) {
        return Error("input specs of the shuffles do not have the same partition indices");
      }
    }
  }
  if (idx.empty()) return Error("input specs are empty");
  for (int v : idx) {
    if (v < 0) return Error("input specs must be single-reducer Coalesced or PartialReducer specs");
    if (static_cast<size_t>(v) >= num_reducers) return Error("input spec reducer index out of range");
  }
  if (idx[0] != 0) return Error("input specs must start at reducer 0");

  std::vector<const std::vector<int64_t>*> all;
  for (const auto& st : stats) all.push_back(&*st);
  CoalesceResult result;
  result.specs_per_shuffle.resize(stats.size());
  const size_t n = idx.size();
  size_t start = 0;  // first position not yet emitted
  size_t i = 1;
  while (i < n) {
    if (idx[i - 1] == idx[i]) {
      // A skew section begins at position i-1: coalesce what lies before it ...
      if (i - 1 > start) {
        AppendWithDataSize(CoalesceRange(idx[start], idx[i], all, target, min_size, /*allow_empty=*/true),
                           stats, &result.specs_per_shuffle);
      }
      // ... and keep the section's specs as they are.
      size_t run_end = i + 1;
      while (run_end < n && idx[run_end] == idx[i]) ++run_end;
      for (size_t s = 0; s < specs.size(); ++s) {
        for (size_t k = i - 1; k < run_end; ++k) result.specs_per_shuffle[s].push_back((*specs[s])[k]);
      }
      start = run_end;
      i = run_end;
    } else {
      if (idx[i] != idx[i - 1] + 1)
        return Error("partition indices outside skew sections must be consecutive");
      ++i;
    }
  }
  if (start < n) {
    AppendWithDataSize(CoalesceRange(idx[start], idx[n - 1] + 1, all, target, min_size, /*allow_empty=*/true),
                       stats, &result.specs_per_shuffle);
  }
  if (result.specs_per_shuffle[0].size() >= n) return Unchanged();
  result.status = CoalesceResult::Status::kCoalesced;
  return result;
}

}  // namespace

int64_t CoalesceTargetSize(int64_t total_bytes, int min_num_partitions, int64_t advisory_target_size_bytes,
                           int64_t min_partition_size_bytes) {
  const int min_num = std::max(min_num_partitions, 1);
  const int64_t max_target =
      static_cast<int64_t>(std::ceil(static_cast<double>(total_bytes) / static_cast<double>(min_num)));
  return std::max(std::min(max_target, advisory_target_size_bytes), min_partition_size_bytes);
}

CoalesceResult CoalescePartitions(const StatsList& bytes_by_partition_id, const SpecsList& input_specs,
                                  int64_t advisory_target_size_bytes, int min_num_partitions,
                                  int64_t min_partition_size_bytes) {
  if (bytes_by_partition_id.size() != input_specs.size()) {
    return Error("one statistics entry and one spec entry per shuffle are required");
  }
  if (bytes_by_partition_id.empty()) return Unchanged();
  int64_t total = 0;
  for (const auto& s : bytes_by_partition_id) {
    if (s) total += std::accumulate(s->begin(), s->end(), int64_t{0});
  }
  const int64_t target =
      CoalesceTargetSize(total, min_num_partitions, advisory_target_size_bytes, min_partition_size_bytes);
  const bool no_specs = std::all_of(input_specs.begin(), input_specs.end(), [](const auto& s) { return !s; });
  return no_specs ? CoalesceWithoutSkew(bytes_by_partition_id, target, min_partition_size_bytes)
                  : CoalesceWithSkew(bytes_by_partition_id, input_specs, target, min_partition_size_bytes);
}

std::vector<CoalescedPartitionSpec> CoalesceRange(
    int start, int end, const std::vector<const std::vector<int64_t>*>& bytes_by_partition_id,
    int64_t target_size_bytes, int64_t min_partition_size_bytes, bool allow_empty) {
  std::vector<CoalescedPartitionSpec> out;
  int64_t cur = 0;         // bytes of the open group
  int open_start = start;  // first reducer of the open group
  int64_t prev_group = 0;  // bytes of the most recently closed group
  for (int i = start; i < end; ++i) {
    int64_t size = 0;
    for (const auto* bytes : bytes_by_partition_id) size += (*bytes)[static_cast<size_t>(i)];
    if (i > open_start && cur + size > target_size_bytes) {
      if (cur < min_partition_size_bytes) {
        // The open group is too small to stand alone: fold it into the previous group if that
        // one is smaller than the next reducer, else keep it open and absorb the reducer.
        if (prev_group > 0 && prev_group < size) {
          out.back().end_reducer_index = i;
          open_start = i;
          prev_group += cur;
          cur = size;
        } else {
          cur += size;
        }
      } else {
        if (cur > 0)
          out.push_back(CoalescedPartitionSpec{open_start, i, std::nullopt});  // never emit empty groups
        open_start = i;
        prev_group = cur;
        cur = size;
      }
    } else {
      cur += size;
    }
  }
  if (cur < min_partition_size_bytes && prev_group > 0) {
    out.back().end_reducer_index = end;
  } else if (cur > 0 || (!allow_empty && out.empty())) {
    out.push_back(CoalescedPartitionSpec{open_start, end, std::nullopt});
  }
  return out;
}

std::vector<int> SplitSizeListByTargetSize(std::span<const int64_t> sizes, int64_t target_size_bytes,
                                           double small_partition_factor) {
  std::vector<int> starts{0};
  int64_t cur = 0;
  int64_t last = -1;  // size of the previous finished group; -1 = none
  const double target = static_cast<double>(target_size_bytes);
  auto try_merge = [&]() {
    const bool merge = last > -1 && (static_cast<double>(cur + last) < target * kMergedPartitionFactor ||
                                     static_cast<double>(cur) < target * small_partition_factor ||
                                     static_cast<double>(last) < target * small_partition_factor);
    if (merge) {
      starts.pop_back();
      last += cur;
    } else {
      last = cur;
    }
  };
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0 && cur + sizes[i] > target_size_bytes) {
      try_merge();
      starts.push_back(static_cast<int>(i));
      cur = sizes[i];
    } else {
      cur += sizes[i];
    }
  }
  try_merge();
  return starts;
}

std::optional<std::vector<PartialReducerPartitionSpec>> CreateSkewPartitionSpecs(
    int reducer, std::span<const int64_t> map_sizes_bytes, int64_t target_size_bytes,
    double small_partition_factor) {
  for (int64_t s : map_sizes_bytes) {
    if (s < 0) return std::nullopt;  // a missing map output
  }
  const std::vector<int> starts =
      SplitSizeListByTargetSize(map_sizes_bytes, target_size_bytes, small_partition_factor);
  if (starts.size() <= 1) return std::nullopt;
  std::vector<PartialReducerPartitionSpec> out;
  out.reserve(starts.size());
  const int num_maps = static_cast<int>(map_sizes_bytes.size());
  for (size_t k = 0; k < starts.size(); ++k) {
    const int begin = starts[k];
    const int end = k + 1 < starts.size() ? starts[k + 1] : num_maps;
    int64_t bytes = 0;
    for (int m = begin; m < end; ++m) bytes += map_sizes_bytes[static_cast<size_t>(m)];
    out.push_back(PartialReducerPartitionSpec{reducer, begin, end, bytes});
  }
  return out;
}

std::vector<int> MinNumPartitionsByGroup(int min_num_partitions,
                                         const std::vector<int64_t>& group_total_bytes) {
  const int floor_one = std::max(min_num_partitions, 1);
  if (group_total_bytes.size() <= 1) return std::vector<int>(group_total_bytes.size(), floor_one);
  int64_t total = 0;
  for (int64_t b : group_total_bytes) total += b;
  std::vector<int> out;
  out.reserve(group_total_bytes.size());
  for (int64_t size : group_total_bytes) {
    if (total > 0) {
      // Java's Math.round: half-up; the value is never negative here.
      const double share =
          static_cast<double>(min_num_partitions) * static_cast<double>(size) / static_cast<double>(total);
      out.push_back(std::max(static_cast<int>(std::llround(share)), 1));
    } else {
      out.push_back(floor_one);
    }
  }
  return out;
}

}  // namespace aqesim
