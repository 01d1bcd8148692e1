// DriverLoop: the driver's scheduling event loop as one server. Spark's DAGScheduler and
// TaskSchedulerImpl handle events on one thread each and CoarseGrainedSchedulerBackend's
// DriverEndpoint serialises resource offers and status updates, so launching (and completing)
// tasks costs driver time one task after another: with `per_task` seconds of driver time per
// task, tasks launch no faster than 1 ÷ per_task per second, however many slots are free.
//
// Model (deterministic, exact in a DES): the server is busy until free_at(). A launch at `now`
// starts when the server is free and occupies it for per_task (its launch and its later
// completion handling, charged at launch); a task set becoming runnable occupies it for
// per_task_set (the stage's submission: task binary, task creation). A slot freed while the
// server is busy waits for it. Zero costs (the default) leave the scheduler as it was.
//
// Waits: the wall time during which a slot was free and a task set had tasks to launch, but the
// server was busy, is counted once (never twice for overlapping waits) on the task set first in
// line. Time unit: SimTime (integer microseconds).
#ifndef AQESIM_SIM_DRIVER_LOOP_H_
#define AQESIM_SIM_DRIVER_LOOP_H_

#include <algorithm>
#include <map>

#include "sim/units.h"

namespace aqesim {

class DriverLoop {
 public:
  DriverLoop() = default;
  /// Both >= 0 (the caller checks).
  DriverLoop(SimTime per_task, SimTime per_task_set) : per_task_(per_task), per_task_set_(per_task_set) {}

  /// True when either cost is positive.
  bool enabled() const { return per_task_ > SimTime::Zero() || per_task_set_ > SimTime::Zero(); }
  /// True when launches are one per per_task (a pass launches at most one task).
  bool serial_launches() const { return per_task_ > SimTime::Zero(); }
  bool Busy(SimTime now) const { return free_at_ > now; }
  SimTime free_at() const { return free_at_; }

  void ChargeTask(SimTime now) { free_at_ = std::max(free_at_, now) + per_task_; }
  void ChargeTaskSet(SimTime now) { free_at_ = std::max(free_at_, now) + per_task_set_; }

  /// Counts [max(now, what was counted), free_at()) as waited by task set `id`.
  void CountWait(SimTime now, int id) {
    const SimTime from = std::max(now, counted_until_);
    if (free_at_ <= from) return;
    waits_[id] += free_at_ - from;
    counted_until_ = free_at_;
  }
  /// Wall time task set `id` waited for the driver with a slot free (zero if it never did).
  SimTime wait(int id) const {
    const auto it = waits_.find(id);
    return it == waits_.end() ? SimTime::Zero() : it->second;
  }

 private:
  SimTime per_task_ = SimTime::Zero();
  SimTime per_task_set_ = SimTime::Zero();
  SimTime free_at_ = SimTime::Zero();
  SimTime counted_until_ = SimTime::Zero();
  std::map<int, SimTime> waits_;
};

}  // namespace aqesim

#endif  // AQESIM_SIM_DRIVER_LOOP_H_
