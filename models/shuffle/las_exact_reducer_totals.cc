#include "models/shuffle/las_exact_reducer_totals.h"

#include "models/shuffle/map_status.h"

namespace aqesim {

ExactReducerTotals AccumulateExactReducerTotals(const ShuffleSizes& actual, double reported_size_ratio) {
  ExactReducerTotals out;
  const int reducers = actual.num_reducers();
  if (reported_size_ratio == 1.0) {
    out.bytes_by_partition_id = actual.PartitionBytes();
  } else {
    std::vector<uint64_t> acc(static_cast<size_t>(reducers), 0);  // wraps like a Java long
    actual.ForEachRow([&](int, std::span<const int64_t> row) {
      for (size_t r = 0; r < row.size(); ++r)
        acc[r] += static_cast<uint64_t>(ReportedBlockBytes(row[r], reported_size_ratio));
    });
    out.bytes_by_partition_id.assign(acc.size(), 0);
    for (size_t r = 0; r < acc.size(); ++r) out.bytes_by_partition_id[r] = static_cast<int64_t>(acc[r]);
  }
  out.driver_bytes = ReportedShuffleSizes::kArrayHeaderBytes + 8 * static_cast<int64_t>(reducers);
  out.decompressed_blocks = static_cast<int64_t>(actual.num_maps()) * reducers;
  return out;
}

}  // namespace aqesim
