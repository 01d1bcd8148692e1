// Per-reducer block sizes behind one AQE coalesced shuffle read (AQEShuffleReadExec, 3.2+ /
// CustomShuffleReaderExec, 3.0-3.1), reconstructed from what the event log records about it.
//
// What the log holds for a read that coalesced R reducers into G partition specs
// (SparkListenerDriverAccumUpdates and task metrics; AQEShuffleReadExec.scala's metrics):
//  * the driver's size of each spec, "partition data size" (SparkListenerDriverAccumUpdates,
//    one value per spec, spec order): the sum over the spec's reducers and all map tasks of
//    the MapStatus-decoded block sizes (core/.../scheduler/MapStatus.scala: one byte per
//    block, ceil(log_1.1(size)), decoded as floor(1.1^code)) — what CoalesceShufflePartitions
//    (sql/core/.../adaptive/ShufflePartitionsUtil.scala) packed;
//  * the bytes each reading task fetched (the exchange's "remote/local bytes read" SQL metric
//    updates; task Index = spec index): the true size of each group;
//  * Shuffle Bytes Written of every map task: the exact row sums.
// Not logged: where each spec starts (its reducer range), how a group's bytes split among its
// reducers, and how they split among the map tasks.
//
// The estimate (the importer lists the resulting matrix as estimated):
//  1. Group lengths (EstimateGroupStarts): proportional to the specs' driver sizes summed over
//     the shuffles coalesced together (both sides of a join share the spec boundaries), each
//     at least 1, summing to R (largest remainder). Exact when reducers are of similar size.
//  2. (map, group) bytes fitted to both margins — the map row sums and the true group sizes —
//     (FitMarginals), each split evenly over the group's reducers.
//  3. Blocks are then moved within their (map, group) — row sums and group sizes stay exact —
//     until the MapStatus-encoded sum of each group comes as close to Spark's recorded driver
//     size as it can without exceeding it: a block is raised across one encoding step
//     (to decode(code) + 1 bytes), paid for by the other blocks of its (map, group) without
//     changing their codes, or lowered to decode(code - 1), the bytes going to the others the
//     same way. Raises go to the first reducers of a group first, lowerings to the last first.
//     Why this way: Spark closed each group where adding the next reducer would overflow its
//     target; a group whose encoded sum stays within the recorded one stays within the target,
//     and the largest first reducer keeps the overflow that ended the group before it. So
//     the simulator's own coalescing rule, fed with these blocks, groups as Spark did whenever
//     the recorded driver sizes are reachable — which they are for Spark's MapStatus of the
//     bytes read: every block's decoded size lies within 10% above its true size.
//     A single-reducer group cannot move bytes (its (map, group) cells are fixed);
//     EncodedGroupBytes reports how close each group came.
//  4. A build whose driver sizes lie outside what encoding the bytes read allows (more than
//     10% above them, or below) reported other sizes than it wrote: EstimateReportedSizeRatio
//     estimates the ratio, and step 3's encoding is of the blocks scaled by it.
#ifndef AQESIM_TOOLS_EVENTLOG_COALESCED_READ_SIZES_H_
#define AQESIM_TOOLS_EVENTLOG_COALESCED_READ_SIZES_H_

#include <cstdint>
#include <vector>

namespace aqesim::eventlog {

/// First reducer of each of the G groups (ascending, starts[0] == 0) for R = num_reducers:
/// lengths proportional to `driver_bytes` (one per spec, summed over the shuffles coalesced
/// together), each >= 1, summing to R; ties to the lower index. Equal lengths when every size
/// is 0. Empty when G == 0 or G > R.
std::vector<int> EstimateGroupStarts(const std::vector<int64_t>& driver_bytes, int num_reducers);

/// The reconstructed true block sizes (rows = map tasks, columns = reducers, bytes) of a
/// shuffle read through coalesced specs starting at `group_starts` (from EstimateGroupStarts).
/// map_bytes: exact row sums. group_true_bytes: bytes the reading task of each spec fetched;
/// their sum must equal the row total (the caller rescales otherwise). group_driver_bytes:
/// the recorded "partition data size" of each spec (the encoded sum to approach from below).
/// reported_size_ratio: the exchange's `reportedSizeRatio` (EstimateReportedSizeRatio): the
/// encoded sums approached are those of ReportedBlockBytes(block, ratio), as the simulated
/// driver will see them.
/// Throws std::invalid_argument on inconsistent sizes (G mismatch, totals differ, negatives).
std::vector<std::vector<int64_t>> ReconstructCoalescedBlocks(const std::vector<int64_t>& map_bytes,
                                                             const std::vector<int>& group_starts,
                                                             int num_reducers,
                                                             const std::vector<int64_t>& group_true_bytes,
                                                             const std::vector<int64_t>& group_driver_bytes,
                                                             double reported_size_ratio = 1.0);

/// The MapStatus size ÷ bytes written of the build that recorded the read (the scenario's
/// `reportedSizeRatio`): 1 when the recorded driver sizes are what Spark's MapStatus of the
/// bytes read can give (total within [read, 1.1 × read]: every block decodes to at most 10%
/// above its size, never below). Otherwise the build reported other sizes than it wrote —
/// join_agg_on_yarn's Spark 3.3.0-amzn-0 reported 2.63× the bytes moved, about the
/// uncompressed rows — and the ratio is the largest (to 4 significant digits, rounded down,
/// within [1e-6, 1e6]) for which the MapStatus-encoded sum of the evenly split blocks stays at
/// or below the recorded total, so that ReconstructCoalescedBlocks can approach every group's
/// driver size from below. Same arguments and errors as ReconstructCoalescedBlocks; needs
/// group_driver_bytes.
double EstimateReportedSizeRatio(const std::vector<int64_t>& map_bytes, const std::vector<int>& group_starts,
                                 int num_reducers, const std::vector<int64_t>& group_true_bytes,
                                 const std::vector<int64_t>& group_driver_bytes);

/// Per group, the sum of the MapStatus-decoded sizes of its blocks, each reported as
/// ReportedBlockBytes(block, reported_size_ratio) (what the simulator's driver will see for
/// that spec; CompressedMapStatus).
std::vector<int64_t> EncodedGroupBytes(const std::vector<std::vector<int64_t>>& blocks,
                                       const std::vector<int>& group_starts,
                                       double reported_size_ratio = 1.0);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_COALESCED_READ_SIZES_H_
