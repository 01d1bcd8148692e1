#include "models/shuffle/shuffle_records.h"

#include "models/shuffle/generators.h"

namespace aqesim {

std::vector<int64_t> RecordsByPartitionId(std::span<const int64_t> partition_bytes,
                                          std::optional<int64_t> total_records,
                                          const std::vector<int64_t>& given) {
  if (!given.empty() && given.size() == partition_bytes.size()) return given;
  int64_t bytes = 0;
  for (int64_t b : partition_bytes) bytes += b;
  const int64_t total = total_records.value_or(bytes / kDefaultBytesPerRecord);
  const std::vector<double> weights(partition_bytes.begin(), partition_bytes.end());
  return SplitByLargestRemainder(total < 0 ? 0 : total, weights);
}

}  // namespace aqesim
