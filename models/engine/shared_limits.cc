#include "models/engine/shared_limits.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "models/plan/stage_walk.h"

namespace aqesim {

namespace {

bool StageScans(const ExecNode& root) {
  bool scans = false;
  VisitStageOperators(&root, [&](const ExecNode* n) { scans |= n->op == PlanOp::kScan; });
  return scans;
}

}  // namespace

SharedLimits::SharedLimits(const ClusterSpec& cluster, TaskScheduler* scheduler)
    : storage_bytes_per_second_(cluster.storage_bytes_per_second), scheduler_(scheduler) {
  driver_limited_ = cluster.driver_seconds_per_task > 0 || cluster.driver_seconds_per_stage > 0;
  if (driver_limited_)
    scheduler_->SetDriverCost(SimTime::Seconds(cluster.driver_seconds_per_task),
                              SimTime::Seconds(cluster.driver_seconds_per_stage));
}

void SharedLimits::Submit(TaskSetSpec spec, const QueryStage& st, StageRun* run) {
  if (storage_bytes_per_second_ && StageScans(*st.subtree)) {
    spec.on_launch = [this](int, int) { ++readers_; };
    spec.on_task_end = [this, end = std::move(spec.on_task_end)](const TaskRecord& rec) {
      --readers_;
      if (end) end(rec);
    };
  }
  if (driver_limited_) {
    // The task set's id, known once submitted; its wait is read when its last task ends.
    auto id = std::make_shared<TaskSetId>(-1);
    spec.on_task_set_complete = [this, id, run, done = std::move(spec.on_task_set_complete)](SimTime at) {
      run->limits.driver_wait_seconds = scheduler_->driver_wait(*id).seconds();
      if (done) done(at);
    };
    *id = scheduler_->Submit(std::move(spec));
    return;
  }
  scheduler_->Submit(std::move(spec));
}

void SharedLimits::LimitScan(Bytes scan, SimTime now, TaskCost* c, StageRun* run) const {
  if (!storage_bytes_per_second_ || scan.count() <= 0 || readers_ <= 0) return;
  // The read at the readers' even share, a floor the band's scale does not lower.
  const double shared_seconds =
      static_cast<double>(scan.count()) * readers_ / static_cast<double>(*storage_bytes_per_second_);
  const double modelled_seconds = c->scan_seconds * c->noise_factor;
  if (shared_seconds <= modelled_seconds || c->noise_factor <= 0) return;
  c->scan_seconds = shared_seconds / c->noise_factor;
  SharedLimitUse& use = run->limits;
  const double start = now.seconds();
  if (use.storage_bound_tasks == 0 || start < use.storage_bound_from_seconds)
    use.storage_bound_from_seconds = start;
  use.storage_bound_to_seconds = std::max(use.storage_bound_to_seconds, start + c->total_seconds());
  ++use.storage_bound_tasks;
  use.storage_seconds_added += shared_seconds - modelled_seconds;
}

}  // namespace aqesim
