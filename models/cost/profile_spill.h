// The spill term of a profiled stage (models/cost/stage_profile.h): what a task pays for
// spilling its working set when it does not fit in its execution memory, priced apart from the
// stage's other work so that a what-if re-applies it only where the what-if's tasks spill.
//
// Execution memory per task, as Spark's unified memory manager gives it
// (core/.../memory/UnifiedMemoryManager.scala, ExecutionMemoryPool.scala):
//
//   M = (heap − 300 MiB) × spark.memory.fraction ÷ N
//
// UnifiedMemoryManager reserves 300 MiB of the heap (RESERVED_SYSTEM_MEMORY_BYTES) and gives
// spark.memory.fraction (0.6) of the rest to execution and storage together; execution may
// evict cached blocks down to spark.memory.storageFraction and takes the whole region when
// nothing is cached. ExecutionMemoryPool shares it among the executor's N active tasks: a task
// may hold at most 1/N of the pool (and is guaranteed 1/(2N) before it must spill). N is taken
// as the executor's task slots (every slot busy: the first wave, and any full executor); the
// heap is spark.executor.memory (the driver's heap in local mode). CostModel::
// ExecutionMemoryPerTask computes the same M.
//
// A task of U row-operations holds W = U × recordBytes in memory (recordBytes: in-memory bytes
// per record of the stage's sorts and hashes). When W > M it spills, and pays
//
//   S = W × secondsPerByte                (W ≤ M: S = 0)
//
// — Spark's UnsafeExternalSorter spills its whole in-memory buffer each time it cannot get a
// page, so a task over its memory spills nearly all of its working set (the last buffer, kept
// in memory, is not counted here). recordBytes and secondsPerByte come from the profile's spill
// record when its recorded run spilled (StageProfile::Spill: recordBytes = memory bytes spilled
// per record read by the spilling tasks, so W of a recorded spilling task is what it spilled;
// secondsPerByte = their spill seconds ÷ memory bytes spilled), else from the fallback below.
#ifndef AQESIM_MODELS_COST_PROFILE_SPILL_H_
#define AQESIM_MODELS_COST_PROFILE_SPILL_H_

#include <cstdint>
#include <optional>

namespace aqesim {

struct StageProfile;

/// How a profiled stage's tasks pay for spilling (the header comment's formula).
struct SpillPricing {
  double record_bytes = 0;      // in-memory bytes per row-operation of the working set
  double seconds_per_byte = 0;  // seconds per in-memory byte spilled
  int64_t memory_per_task = 0;  // M, bytes
};

/// Bytes of the row that UnsafeExternalSorter keeps per record besides the row itself: its
/// 4-byte length in the data page and a 16-byte entry (record pointer + sort prefix) in the
/// pointer array (core/.../unsafe/sort/UnsafeExternalSorter.java, UnsafeInMemorySorter.java).
inline constexpr double kSorterBytesPerRecord = 20;

/// The pricing a profile's spill record gives, or nullopt when its recorded run did not spill.
std::optional<SpillPricing> MeasuredSpillPricing(const StageProfile& profile, int64_t memory_per_task);

/// The fallback for a profile whose run did not spill, applied to a stage of another task
/// count (a what-if; a replay at the recorded count keeps the record: no spill): recordBytes =
/// the stage's input rows' UnsafeRow bytes (the exchanges' Spark "data size" ÷ rows) +
/// kSorterBytesPerRecord; secondsPerByte = the cost model's spill I/O, each spilled byte
/// written and read back compressed: 2 ÷ (compressionRatio × disk bytes per second per slot).
SpillPricing FallbackSpillPricing(double unsafe_row_bytes, double compression_ratio,
                                  double disk_bytes_per_second_per_slot, int64_t memory_per_task);

/// S of a task of `row_ops` row-operations: W × secondsPerByte when W > M, else 0.
double SpillSeconds(const SpillPricing& pricing, double row_ops);

}  // namespace aqesim

#endif  // AQESIM_MODELS_COST_PROFILE_SPILL_H_
