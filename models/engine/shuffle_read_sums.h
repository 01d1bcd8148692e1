// ShuffleReadSums: the per-spec totals of one read of a finished shuffle, summed in one
// row-major pass over its map outputs — bytes and fetch requests of every coalesced spec, in
// total and per executor that ran the maps, and the true column sums. They are exactly the sums
// the work model's per-map loop forms (task_work.cc): an accelerator, not a model. Without it a
// read's tasks would walk the matrix column-wise, once per task.
//
// The per-executor sums are kept for the executors that ran the shuffle's maps only (ranked in
// executor order), not for every executor of the cluster: 10^6 executors under dynamic
// allocation made every task of a read walk 10^6 addresses. They take specs × those executors cells; they are
// held for one block of at most 2^23 ÷ executors consecutive specs at a time (ShuffleReadSumsBlockSpecs), and
// a task of a spec outside the block re-forms them for its block: a read's tasks run in spec order, so a read
// of 10^6 specs on 9 executors takes two passes over its map outputs (one per block), not one per task.
#ifndef AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_
#define AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

struct ShuffleReadSums {
  const void* specs = nullptr;  // identity of the read's spec list (nullptr: the default read)
  size_t num_specs = 0;
  size_t executors = 0;  // executors that ran maps (ranks 0..executors-1)
  /// Rank -> executor index, ascending: the executors that ran the shuffle's maps.
  std::vector<int> executor_ids;
  /// The block of specs [block_begin, block_end) whose per-executor sums are held.
  size_t block_begin = 0, block_end = 0;
  /// Per spec (only CoalescedPartitionSpec ranges are summed; others stay 0).
  std::vector<int64_t> bytes, requests;
  /// Per (map executor, spec of the block), executor-major: index
  /// executor * (block_end - block_begin) + (spec - block_begin); ExecIndex gives it.
  std::vector<int64_t> exec_bytes, exec_requests;
  /// True bytes per reducer.
  std::vector<int64_t> column;

  /// Whether these are the sums of `read` as it is now (its specs have not changed since).
  bool Matches(const ShuffleState& read) const;
  /// Whether spec `spec`'s per-executor sums are held.
  bool HoldsSpec(size_t spec) const { return spec >= block_begin && spec < block_end; }
  /// Index of (executor rank, spec) in exec_bytes / exec_requests; `spec` must be held.
  size_t ExecIndex(size_t rank, size_t spec) const {
    return rank * (block_end - block_begin) + (spec - block_begin);
  }
  /// The rank of executor `executor` among executor_ids; `executors` when it ran no map.
  size_t RankOf(int executor) const;
};

/// The most (spec, executor) cells held at once, and the most (executor, reducer) cells of the
/// one-pass prefix sums (else a read sums per row and spec): 2^23 (64 MiB per int64 array).
inline constexpr size_t kShuffleReadSumsMaxCells = size_t{1} << 23;

/// How many consecutive specs' per-executor sums are held at once: max_cells ÷ executors (those
/// that ran maps), at least 1.
size_t ShuffleReadSumsBlockSpecs(int num_executors, size_t max_cells = kShuffleReadSumsMaxCells);

/// Sums `read`, whose map stage has finished, into `out`: every spec's totals, and the
/// per-executor sums of the block of specs holding `spec` (blocks of ShuffleReadSumsBlockSpecs
/// from spec 0). `fetch_in_batch`: one request per map and contiguous reducer range
/// (spark.sql.adaptive.fetchShuffleBlocksInBatch with AQE on), else one per non-empty block. A
/// streamed shuffle's skew-split columns are extracted in the same pass (the read's
/// PartialReducerPartitionSpecs then look them up).
/// `max_cells`: tests give a small one to exercise the blocks and the per-row path.
void SumShuffleRead(const ShuffleState& read, int num_executors, bool fetch_in_batch, size_t spec,
                    ShuffleReadSums* out, size_t max_cells = kShuffleReadSumsMaxCells);

/// What one local read (CoalescedMapperPartitionSpec: maps start..end-1, every reducer) fetches:
/// each of its mappers' bytes and non-empty blocks, and its bytes per reducer (the task's shares).
struct MapperRangeRead {
  std::vector<std::pair<int64_t, int64_t>> maps;  // (bytes, non-empty blocks), by map from start
  std::vector<int64_t> column;                    // bytes, by reducer
};

/// A run's local reads, each summed once when its shuffle has finished (its rows no longer
/// change). The work model evaluates a task several times per run (placement, timing, shares,
/// bytes written), and each evaluation would generate its mappers' rows of a streamed shuffle
/// again: 9 passes over a generated 4,096 x 500 shuffle instead of one.
class MapperRangeReads {
 public:
  /// The sums of `spec` over `d.actual`.
  const MapperRangeRead& Of(const ShuffleData& d, const CoalescedMapperPartitionSpec& spec);

 private:
  std::map<std::tuple<const ShuffleData*, int, int, int>, MapperRangeRead> kept_;
  MapperRangeRead unfinished_;  // a shuffle still being written: summed afresh each time
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SHUFFLE_READ_SUMS_H_
