#include "models/shuffle/intel_row_count_targets.h"

namespace aqesim {
namespace {

int64_t SumOver(const std::vector<const std::vector<int64_t>*>& lists, int reducer) {
  int64_t s = 0;
  for (const std::vector<int64_t>* l : lists)
    if (reducer < static_cast<int>(l->size())) s += (*l)[static_cast<size_t>(reducer)];
  return s;
}

int64_t SumIn(const std::vector<const std::vector<int64_t>*>& lists, int start, int end) {
  int64_t s = 0;
  for (int r = start; r < end; ++r) s += SumOver(lists, r);
  return s;
}

const CoalescedPartitionSpec* Coalesced(const ShufflePartitionSpec& s) {
  return std::get_if<CoalescedPartitionSpec>(&s);
}

}  // namespace

std::vector<std::vector<ShufflePartitionSpec>> PackByBytesAndRecords(
    const std::vector<std::vector<ShufflePartitionSpec>>& specs_per_shuffle,
    const std::vector<const std::vector<int64_t>*>& records_by_partition,
    const std::vector<const std::vector<int64_t>*>& bytes_by_partition, int64_t target_bytes,
    int64_t target_records) {
  std::vector<std::vector<ShufflePartitionSpec>> out(specs_per_shuffle.size());
  if (specs_per_shuffle.empty()) return out;
  const std::vector<ShufflePartitionSpec>& first = specs_per_shuffle[0];
  const size_t n = first.size();
  size_t i = 0;
  while (i < n) {
    // The run [i, j) of consecutive coalesced specs (each starting where the previous ended).
    // Every shuffle's spec at an index of the run is coalesced (a skew split on either side and
    // its copies on the other are kept).
    auto all_coalesced = [&](size_t k) {
      for (const std::vector<ShufflePartitionSpec>& specs : specs_per_shuffle)
        if (!Coalesced(specs[k])) return false;
      return true;
    };
    size_t j = i;
    while (j < n && all_coalesced(j) &&
           (j == i || Coalesced(first[j])->start_reducer_index == Coalesced(first[j - 1])->end_reducer_index))
      ++j;
    if (j == i) {  // a skew split: kept
      for (size_t s = 0; s < specs_per_shuffle.size(); ++s) out[s].push_back(specs_per_shuffle[s][i]);
      ++i;
      continue;
    }
    bool binds = false;
    for (size_t k = i; k < j; ++k) {
      const CoalescedPartitionSpec& c = *Coalesced(first[k]);
      binds |= c.end_reducer_index - c.start_reducer_index > 1 &&
               SumIn(records_by_partition, c.start_reducer_index, c.end_reducer_index) > target_records;
    }
    if (!binds) {
      for (size_t s = 0; s < specs_per_shuffle.size(); ++s)
        for (size_t k = i; k < j; ++k) out[s].push_back(specs_per_shuffle[s][k]);
      i = j;
      continue;
    }
    const int a = Coalesced(first[i])->start_reducer_index, b = Coalesced(first[j - 1])->end_reducer_index;
    std::vector<int> starts{a};
    int64_t bytes = 0, records = 0;
    for (int r = a; r < b; ++r) {
      const int64_t nb = SumOver(bytes_by_partition, r), nr = SumOver(records_by_partition, r);
      if (r > starts.back() && (bytes + nb > target_bytes || records + nr > target_records)) {
        starts.push_back(r);
        bytes = records = 0;
      }
      bytes += nb;
      records += nr;
    }
    for (size_t s = 0; s < specs_per_shuffle.size(); ++s) {
      const std::vector<const std::vector<int64_t>*> own{bytes_by_partition[s]};
      for (size_t k = 0; k < starts.size(); ++k) {
        const int end = k + 1 < starts.size() ? starts[k + 1] : b;
        out[s].push_back(CoalescedPartitionSpec{starts[k], end, SumIn(own, starts[k], end)});
      }
    }
    i = j;
  }
  return out;
}

}  // namespace aqesim
