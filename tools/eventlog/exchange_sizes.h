// An exchange's `sizes` from the stages that wrote and read it: map-output row sums exact from
// each ShuffleMapTask's Shuffle Bytes Written; per-reducer sizes observed from the reduce tasks
// when each read one reducer, reconstructed from an AQE coalesced read's recorded sizes
// (coalesced_read_sizes.h), else a uniform estimate. Whatever is derived is listed in the
// scenario's `estimated`.
#ifndef AQESIM_TOOLS_EVENTLOG_EXCHANGE_SIZES_H_
#define AQESIM_TOOLS_EVENTLOG_EXCHANGE_SIZES_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tools/eventlog/import_context.h"

namespace aqesim::eventlog {

/// Integer vector scaled to `target` total, keeping proportions (largest remainder).
std::vector<int64_t> ScaleToTotal(const std::vector<int64_t>& v, int64_t target);

/// Sum of byte counts, saturating at the int64 limits (a corrupt log must not wrap it).
int64_t Sum(const std::vector<int64_t>& v);

/// Per-reducer bytes of a consuming stage: task Index -> bytes, first success per index;
/// `ids` are SQL metric accumulator ids to sum (empty: the task's shuffle read metrics).
std::vector<int64_t> ReadBytesByIndex(const RecordedStage& st, const std::set<int64_t>& ids);

/// A scan's `bytes`, `tasks` and, when the stage's tasks read different amounts, exact
/// per-task `taskBytes` (a skewed scan stage is then reproduced task by task).
void SetScanTaskBytes(const RecordedStage& st, nlohmann::json* node);

/// What an AQE coalesced read over an exchange recorded (see coalesced_read_sizes.h).
struct CoalescedRead {
  std::vector<int64_t> driver_bytes;           // this shuffle's "partition data size" per spec
  std::vector<int64_t> combined_driver_bytes;  // summed over the shuffles coalesced together
  std::vector<int64_t> read_bytes;             // bytes each reading task fetched (empty: unknown)
  bool compressed_map_status = true;           // R <= minNumPartitionsToHighlyCompress
};

/// The exchange's `sizes` (at `ptr`) from its map stage and, when per-reducer sizes are
/// observable, `partition_bytes` (the reduce stage's reads), else `coalesced` (an AQE read's
/// recorded sizes), else uniform. `planned_map_tasks` > 0: the map stage ran over
/// AQE-coalesced input and its rows are spread over that many planned partitions. Fills
/// ex's map_tasks, shuffle_bytes, partition_sizes_* and reported_size_ratio.
nlohmann::json ExchangeSizes(ImportContext& ctx, const std::string& ptr, const RecordedStage& map_stage,
                             const std::vector<int64_t>* partition_bytes, ImportedExchange* ex,
                             int planned_map_tasks = 0, const CoalescedRead* coalesced = nullptr);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXCHANGE_SIZES_H_
