// ShuffleRecords: how many records (rows) each reducer of a shuffle receives, as the driver of
// Intel and Baidu's adaptive execution collected them (their spark.shuffle.statistics.verbose:
// every MapStatus also carried its records per reducer). Apache Spark's MapStatus carries bytes
// only, so aqesim computes them only for the variants that read them
// (VariantSwitches::needs_records, models/conf/variants.h).
//
// Where the records come from, first match:
//  1. the exchange's `rowsByPartition` (one count per reducer, as recorded or as a what-if);
//  2. the exchange's `rows` (its records written), else its child's `rows`, spread over the
//     reducers in proportion to the bytes each received (largest remainder, so they sum exactly);
//  3. one record per kDefaultBytesPerRecord bytes of the shuffle, spread the same way (the
//     range exchange's default, models/engine/range_exchange.h).
// So without recorded rows the records follow the bytes and a row-count test fires only where a
// byte test at kDefaultBytesPerRecord bytes a record would.
#ifndef AQESIM_MODELS_SHUFFLE_SHUFFLE_RECORDS_H_
#define AQESIM_MODELS_SHUFFLE_SHUFFLE_RECORDS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace aqesim {

/// Bytes per record when no rows are given (as the range exchange assumes).
inline constexpr int64_t kDefaultBytesPerRecord = 100;

/// Records per reducer. `given`: the exchange's rowsByPartition (used as is when it has one entry
/// per reducer; empty otherwise); `total_records`: the exchange's (or its child's) rows, if any;
/// `partition_bytes`: the true bytes per reducer.
std::vector<int64_t> RecordsByPartitionId(std::span<const int64_t> partition_bytes,
                                          std::optional<int64_t> total_records,
                                          const std::vector<int64_t>& given);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SHUFFLE_RECORDS_H_
