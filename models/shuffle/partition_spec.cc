#include "models/shuffle/partition_spec.h"

#include <set>
#include <type_traits>

namespace aqesim {

std::string SpecTypeName(const ShufflePartitionSpec& spec) {
  return std::visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CoalescedPartitionSpec>) return "CoalescedPartitionSpec";
        if constexpr (std::is_same_v<T, PartialReducerPartitionSpec>) return "PartialReducerPartitionSpec";
        if constexpr (std::is_same_v<T, PartialMapperPartitionSpec>) return "PartialMapperPartitionSpec";
        if constexpr (std::is_same_v<T, CoalescedMapperPartitionSpec>) return "CoalescedMapperPartitionSpec";
      },
      spec);
}

ReadClassification ClassifyRead(const std::vector<ShufflePartitionSpec>& specs) {
  ReadClassification c;
  std::set<int> skewed_reducers;
  for (const ShufflePartitionSpec& spec : specs) {
    if (const auto* co = std::get_if<CoalescedPartitionSpec>(&spec)) {
      const bool empty_marker = co->start_reducer_index == 0 && co->end_reducer_index == 0;
      if (empty_marker || co->end_reducer_index - co->start_reducer_index > 1) c.has_coalesced = true;
    } else if (const auto* pr = std::get_if<PartialReducerPartitionSpec>(&spec)) {
      c.has_skewed = true;
      ++c.num_skewed_splits;
      skewed_reducers.insert(pr->reducer_index);
    } else {
      c.is_local = true;
    }
  }
  c.num_skewed_partitions = static_cast<int>(skewed_reducers.size());
  return c;
}

}  // namespace aqesim
