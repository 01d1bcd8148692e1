// SlotPool: the task slots of a cluster, E executors × S slots each.
//
// A slot is one concurrent task (Spark: an executor runs floor(executorCores /
// spark.task.cpus) tasks at once, fewer when a task's GPU amount allows fewer; the caller
// computes S). Executors may have different slot counts (stage-level resource profiles: each
// executor has its profile's cores); S is then the largest, and an executor with S_e < S has
// no slot S_e..S-1. Slots are named by (executor, slot index within the executor).
//
// Choice of a free slot is deterministic and spreads tasks over executors, like the
// round-robin offers of Spark's TaskSchedulerImpl.resourceOffers (Spark also shuffles
// the offers randomly; we do not, so runs reproduce): the next acquired slot is the
// free one with the smallest (slot index, executor). With every slot free, the first
// E acquisitions land on executors 0..E-1 (slot 0), the next E on slot 1, and so on.
//
// Executors may be absent (dynamic allocation: not yet registered, or removed): an absent
// executor's slots are never granted. A slot still running a task when its executor is
// removed keeps its task until Release(), and is then not granted again (the executor is
// draining, as Spark's decommissioning lets running tasks finish). By default every executor
// is present (a static cluster).
//
// Also a slot model in ninja's sense (ninja's Pool); knows nothing of time.
#ifndef AQESIM_SIM_SLOT_POOL_H_
#define AQESIM_SIM_SLOT_POOL_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace aqesim {

/// One task slot: executor id in [0, E), slot index within the executor in [0, S).
struct SlotRef {
  int executor = 0;
  int slot = 0;
  friend bool operator==(const SlotRef&, const SlotRef&) = default;
};

class SlotPool {
 public:
  /// `executors` (E) >= 0 and `slots_per_executor` (S) >= 0; a pool with zero slots
  /// never grants one. Negative counts are a programmer error (std::logic_error) —
  /// user input is validated by the scenario loader before it gets here.
  /// `all_present`: every executor starts present (false: none does; see SetPresent).
  SlotPool(int executors, int slots_per_executor, bool all_present = true);
  /// Executor e has slots_per_executor[e] >= 0 slots (negative: std::logic_error).
  explicit SlotPool(const std::vector<int>& slots_per_executor, bool all_present = true);

  int executors() const { return executors_; }
  /// The largest slot count of an executor (S).
  int slots_per_executor() const { return slots_per_executor_; }
  /// Slots of `executor` (in [0, E)).
  int slots_on(int executor) const { return slots_of_[executor]; }
  /// Capacity: Σ slots of every executor, present or not.
  int total_slots() const { return total_slots_; }
  /// Size of the FlatId range: E × S.
  int flat_slots() const { return executors_ * slots_per_executor_; }
  /// Slots Acquire() may grant: not running a task, on a present executor.
  int free_slots() const { return free_count_; }
  /// Slots running a task (taken by Acquire() and not yet released).
  int busy_slots() const { return busy_count_; }

  /// Registers (true) or removes (false) `executor`, in [0, E) (else std::logic_error).
  /// Idempotent. Removing keeps running tasks; their slots are not granted again.
  void SetPresent(int executor, bool present);
  bool IsPresent(int executor) const { return present_[executor] != 0; }
  int present_executors() const { return present_count_; }

  /// Takes the free slot with the smallest (slot index, executor); nullopt if none.
  std::optional<SlotRef> Acquire();
  /// Takes the free slot of `executor` (in [0, E)) with the smallest slot index; nullopt if
  /// it has none (or is absent). O(S).
  std::optional<SlotRef> AcquireOn(int executor);
  /// True when `executor` (in [0, E)) has a slot Acquire() could grant. O(S).
  bool HasFreeSlotOn(int executor) const;
  /// Returns a slot taken by Acquire() or AcquireOn(). Releasing a slot that is not running a task, or an
  /// out-of-range slot, is a programmer error (std::logic_error).
  void Release(SlotRef slot);
  /// True when Acquire() could grant this slot (idle, executor present).
  bool IsFree(SlotRef slot) const;
  /// True while the slot runs a task.
  bool IsBusy(SlotRef slot) const { return busy_[FlatId(slot)] != 0; }

  /// Dense id of a slot, slot * E + executor, in [0, E × S); ids increase in acquisition
  /// preference order (ids of slots an executor does not have are never granted).
  int FlatId(SlotRef s) const { return s.slot * executors_ + s.executor; }
  SlotRef FromFlatId(int id) const { return SlotRef{id % executors_, id / executors_}; }

  /// Number of Acquire() calls that returned a slot on `executor` (placement record).
  int64_t acquisitions_on(int executor) const { return acquisitions_[executor]; }
  int64_t total_acquisitions() const { return total_acquisitions_; }

 private:
  void Init(bool all_present);

  int executors_;
  int slots_per_executor_;  // the largest
  std::vector<int> slots_of_;
  int total_slots_ = 0;
  int free_count_;
  int busy_count_ = 0;
  int present_count_ = 0;
  std::vector<char> present_;  // per executor
  std::vector<char> busy_;     // per FlatId
  // Bit i of words_ set <=> slot with FlatId i is free (idle, executor present). first_word_ is a lower bound
  // on the index of the first non-zero word.
  std::vector<uint64_t> words_;
  size_t first_word_ = 0;
  std::vector<int64_t> acquisitions_;
  int64_t total_acquisitions_ = 0;
};

}  // namespace aqesim

#endif  // AQESIM_SIM_SLOT_POOL_H_
