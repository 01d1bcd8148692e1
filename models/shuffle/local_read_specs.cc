#include "models/shuffle/local_read_specs.h"

#include <algorithm>

namespace aqesim {

std::vector<int> EquallyDivide(int num_elements, int num_buckets) {
  std::vector<int> starts;
  if (num_buckets <= 0) return starts;
  const int per_bucket = num_elements / num_buckets;
  const int remaining = num_elements % num_buckets;
  const int split_point = (per_bucket + 1) * remaining;
  starts.reserve(static_cast<size_t>(num_buckets));
  for (int i = 0; i < remaining; ++i) starts.push_back(i * (per_bucket + 1));
  for (int i = remaining; i < num_buckets; ++i) starts.push_back(split_point + (i - remaining) * per_bucket);
  return starts;
}

std::vector<ShufflePartitionSpec> LocalShuffleReadSpecs(int num_mappers, int num_reducers,
                                                        int advisory_parallelism) {
  std::vector<ShufflePartitionSpec> specs;
  if (num_mappers <= 0 || advisory_parallelism <= 0) return specs;
  if (advisory_parallelism >= num_mappers) {
    const std::vector<int> cuts =
        EquallyDivide(num_reducers, std::max(1, advisory_parallelism / num_mappers));
    specs.reserve(static_cast<size_t>(num_mappers) * cuts.size());
    for (int m = 0; m < num_mappers; ++m) {
      for (size_t k = 0; k < cuts.size(); ++k) {
        const int end = k + 1 < cuts.size() ? cuts[k + 1] : num_reducers;
        specs.emplace_back(PartialMapperPartitionSpec{m, cuts[k], end});
      }
    }
  } else {
    const std::vector<int> cuts = EquallyDivide(num_mappers, advisory_parallelism);
    specs.reserve(cuts.size());
    for (size_t k = 0; k < cuts.size(); ++k) {
      const int end = k + 1 < cuts.size() ? cuts[k + 1] : num_mappers;
      specs.emplace_back(CoalescedMapperPartitionSpec{cuts[k], end, num_reducers});
    }
  }
  return specs;
}

}  // namespace aqesim
