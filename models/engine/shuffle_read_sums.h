// ShuffleReadSums: the per-spec totals of one read of a finished shuffle, summed in one
// row-major pass over its map outputs — bytes and fetch requests of every coalesced spec, in
// total and per executor that ran the maps, and the true column sums. They are exactly the sums
// the work model's per-map loop forms (task_work.cc): an accelerator, not a model. Without it a
// read's tasks would walk the matrix column-wise, once per task.
#ifndef AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_
#define AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

struct ShuffleReadSums {
  const void* specs = nullptr;  // identity of the read's spec list (nullptr: the default read)
  size_t num_specs = 0;
  size_t executors = 0;
  /// Per spec (only CoalescedPartitionSpec ranges are summed; others stay 0).
  std::vector<int64_t> bytes, requests;
  /// Per (map executor, spec), executor-major: index executor * num_specs + spec.
  std::vector<int64_t> exec_bytes, exec_requests;
  /// True bytes per reducer.
  std::vector<int64_t> column;

  /// Whether these are the sums of `read` as it is now (its specs have not changed since).
  bool Matches(const ShuffleState& read) const;
};

/// Whether the sums of `read` fit in memory: at most 2^23 (spec, executor) cells. When they do
/// not, the work model loops per map instead.
bool ShuffleReadSumsFit(const ShuffleState& read, int num_executors);

/// Sums `read`, whose map stage has finished, into `out`. `fetch_in_batch`: one request per map
/// and contiguous reducer range (spark.sql.adaptive.fetchShuffleBlocksInBatch with AQE on),
/// else one per non-empty block. A streamed shuffle's skew-split columns are extracted in the
/// same pass (the read's PartialReducerPartitionSpecs then look them up).
void SumShuffleRead(const ShuffleState& read, int num_executors, bool fetch_in_batch, ShuffleReadSums* out);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_
