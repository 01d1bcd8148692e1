// The time model: how long one task, one broadcast, one driver step takes.
//
// A task's duration is a sum of independent terms (README.md "Cost model" has the table):
//
//   T = launch                                        taskLaunchSeconds
//     + [first wave of its stage's code on this executor] * executorStageWarmupSeconds
//     + [fresh executor: its JVM has finished no task yet] * executorStartupSeconds
//     + scan_bytes / disk_share + scan_bytes * scanSecondsPerByte
//     + remote_bytes / network_share + remote_rounds * remoteFetchRequestSeconds
//     + local_bytes / disk_share + local_requests * localFetchRequestSeconds
//     + (local_bytes + remote_bytes) * shuffleReadSecondsPerByte
//     + Σ_op op_input_bytes * op_seconds_per_byte       (sort, hash build, probe, aggregate, stream)
//     + rows_read * readSecondsPerRow + join_output_rows * joinSecondsPerOutputRow
//     + rows_written * writeSecondsPerRow
//     + write_bytes * shuffleWriteSecondsPerByte + write_bytes / disk_share
//     + spill: if working_set > execution_memory_per_task:
//              spill_bytes = working_set - execution_memory_per_task (compressed: ÷ compressionRatio)
//              + 2 * spill_bytes / disk_share           (written once, read back once)
//   cold code: an executor runs the first coldCodeWindowSeconds of a stage's code's work (at
//   warm speed, summed over its tasks of that code, in the order they start)
//   (1 + coldCodeSlowdown) times slower, then the code is compiled. With W = every term after
//   the launch and L = what is left of that budget when the task starts
//   (TaskWork::cold_work_limit_seconds), w = min(W, L):
//     + coldCodeSlowdown * w                            (spread over those terms)
//   T *= modelledTimeScale · exp(N(0, taskNoiseSigma)) (seeded per task; 1 when sigma = 0)
//
// remote_rounds: the rounds in which the task's fetch requests go out, remote blocks grouped per
// address and kept in flight up to Spark's limits (models/shuffle/fetch_requests.h); local
// blocks are read one by one (local_requests).
// where disk_share = diskBytesPerSecond / slots_per_executor and network_share =
// networkBytesPerSecond / slots_per_executor: an executor's NIC and disk are shared evenly by
// its concurrent tasks (a static share keeps runs deterministic and fast), and
//   execution_memory_per_task = (executorMemory - 300 MiB) * spark.memory.fraction / slots_per_executor
// (Spark's UnifiedMemoryManager: 300 MiB reserved; execution may use the whole unified region
// when storage is empty; a task gets at most 1/N of it with N active tasks).
#ifndef AQESIM_MODELS_COST_COST_MODEL_H_
#define AQESIM_MODELS_COST_COST_MODEL_H_

#include <cstdint>

#include "models/cluster/cluster.h"
#include "models/cost/cost_params.h"
#include "sim/units.h"

namespace aqesim {

/// What one task does: the bytes through each term (Bytes: compressed bytes as written to and
/// read from shuffle files, as Spark's metrics count them) and the fetch requests. Filled by the
/// work model (models/engine/task_work.h) from the plan and the specs it reads, and by the
/// executor state (models/engine/executor_state.h) for the warm-up terms.
struct TaskWork {
  Bytes scan_bytes;                   // read from storage
  Bytes local_shuffle_bytes;          // shuffle blocks on this executor
  Bytes remote_shuffle_bytes;         // shuffle blocks fetched over the network
  int64_t local_fetch_requests = 0;   // local block reads (one per non-empty block, or per
                                      // contiguous range of a mapper with fetchShuffleBlocksInBatch)
  int64_t remote_fetch_requests = 0;  // Spark's fetch requests: remote blocks grouped per address
                                      // (models/shuffle/fetch_requests.h); informational
  int64_t remote_fetch_rounds = 0;    // rounds of requests in flight the task waits for
                                      // (fetch_requests.h): what remoteFetchRequestSeconds prices
  Bytes shuffle_write_bytes;          // written to this task's shuffle file
  Bytes sort_bytes;                   // through a sort (sort-merge join sides, sort)
  Bytes hash_build_bytes;             // into a hash-table build (shuffled hash join)
  Bytes probe_bytes;                  // streamed side of a join
  Bytes aggregate_bytes;              // into a hash aggregate
  Bytes stream_bytes;                 // through filters / projections / unions
  /// Rows (records) of the per-row terms: read from storage and from shuffles, written to the
  /// task's shuffle file, output by its joins — from the plan's `rows` in proportion to bytes,
  /// one row per 100 bytes where a node gives none (models/engine/task_work.h).
  double rows_read = 0;
  double rows_written = 0;
  double join_output_rows = 0;
  /// Bytes the task must hold in execution memory at once (compressed bytes; the model
  /// multiplies by compressionRatio to get in-memory bytes).
  Bytes working_set_bytes;
  /// True when the task starts on an executor where no task with its stage's operators has
  /// finished yet (it pays executorStageWarmupSeconds).
  bool first_wave_on_executor = false;
  /// True when the task starts on an executor whose JVM has not finished any task yet (it pays
  /// executorStartupSeconds).
  bool fresh_executor = false;
  /// Most of its work (seconds at warm speed) that may run cold: what is left of its
  /// executor's cold budget for this code; 0 once the code is compiled or on a code-warm
  /// executor (TaskCost::cold_work_seconds: how much did).
  double cold_work_limit_seconds = 0;
};

/// The cost of one task, seconds per term, and the spill it caused.
struct TaskCost {
  double launch_seconds = 0;  // launch + warm-up
  double scan_seconds = 0;
  double fetch_seconds = 0;    // network + local reads + request costs + read CPU
  double compute_seconds = 0;  // operators
  double write_seconds = 0;
  double spill_seconds = 0;
  Bytes spill_bytes;             // spilled to disk (Spark's "Spill (Disk)")
  double cold_work_seconds = 0;  // work (seconds at warm speed) this task ran before its code compiled
  double noise_factor = 1.0;     // modelledTimeScale × the task's noise
  double total_seconds() const {
    return (launch_seconds + scan_seconds + fetch_seconds + compute_seconds + write_seconds + spill_seconds) *
           noise_factor;
  }
};

class CostModel {
 public:
  /// `slots_per_executor` = floor(executorCores / spark.task.cpus), >= 1.
  CostModel(const CostParams& params, const ClusterSpec& cluster, int slots_per_executor,
            double memory_fraction);

  /// Duration terms of one task. `noise_seed` feeds the per-task noise (ignored when sigma = 0).
  TaskCost EstimateTask(const TaskWork& work, uint64_t noise_seed) const;

  /// Execution memory one task may use (see header comment).
  Bytes ExecutionMemoryPerTask() const { return execution_memory_per_task_; }

  /// A broadcast of `data_size` (the uncompressed relation): collect to the driver, ship to
  /// every executor (TorrentBroadcast: each executor downloads it once), build the hash relation
  /// on each executor (in parallel). Seconds after the collecting job ends.
  struct BroadcastCost {
    double collect_seconds = 0;
    double ship_seconds = 0;
    double build_seconds = 0;
    double total_seconds() const { return collect_seconds + ship_seconds + build_seconds; }
  };
  BroadcastCost EstimateBroadcast(Bytes data_size) const;

  const CostParams& params() const { return params_; }

 private:
  CostParams params_;
  ClusterSpec cluster_;
  int slots_per_executor_;
  Bytes execution_memory_per_task_;
};

/// Spark's reserved system memory (UnifiedMemoryManager.RESERVED_SYSTEM_MEMORY_BYTES).
inline constexpr int64_t kReservedSystemMemoryBytes = 300LL * 1024 * 1024;

}  // namespace aqesim

#endif  // AQESIM_MODELS_COST_COST_MODEL_H_
