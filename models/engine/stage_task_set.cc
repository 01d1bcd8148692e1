// QueryEngine: a created stage's task set — handed to the scheduler, each task's work and
// duration, and what follows when every task finished (query_engine.h).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/cluster_scheduler.h"
#include "models/engine/map_output.h"
#include "models/engine/query_engine.h"
#include "models/plan/stage_walk.h"
#include "sim/rng.h"

namespace aqesim {

void QueryEngine::SubmitNow(QueryStage* st) {
  st->submitted = true;
  st->submit = sim_.Now();
  StageRun* run = &graph_.run(*st);
  if (st->kind == StageKind::kResult && st->subquery < 0 && s_.collect_limit && !take_planned_) {
    PlanTakeJobs(st);
    if (take_jobs_.empty()) {  // limit 0 or no partition: executeTake runs no job
      st->num_tasks = 0;
      StageDone(st, 0);
      return;
    }
    st->num_tasks = take_jobs_.front().num_partitions;
    run->first_partition = take_jobs_.front().first_partition;
  }
  run->tasks.assign(st->num_tasks, TaskResult{});
  const StageProfile* profile = ProfileOf(*st);
  if (profile != nullptr)
    run->profiled.emplace(
        *profile, st->num_tasks, NumExecutors(), slots_per_executor_,
        StageSpillPricing(*profile, *st->subtree, st->num_tasks, cost_, s_.cluster.disk_bytes_per_second,
                          slots_per_executor_),
        LogResizeRates(s_.profiles, s_.cost.executor_startup_seconds + s_.cost.executor_stage_warmup_seconds +
                                        s_.cost.cold_code_slowdown * s_.cost.cold_code_window_seconds));
  // The executors' state for this code, looked up once.
  ExecutorState::CodeState* code = executors_.ForCode(StageCodeKey(*st->subtree));
  if (st->kind == StageKind::kShuffleMap) {
    run->shares.assign(st->num_tasks, {});
    st->output->shuffle->data->map_executor.assign(st->num_tasks, 0);
  }
  TaskSetSpec spec;
  spec.priority = st->id;
  spec.num_tasks = st->num_tasks;
  spec.launch_delay =
      SimTime::Seconds(profile != nullptr ? profile->launch_delay_seconds : s_.cost.stage_overhead_seconds);
  spec.duration = [this, st, run, code](int task, int executor) {
    if (allocation_) allocation_->OnTaskLaunched(executor);
    return RunTask(st, run, code, task, executor);
  };
  spec.on_task_end = [this, st, run, code](const TaskRecord& rec) {
    executors_.TaskEnded(code, rec.executor);
    if (allocation_) allocation_->OnTaskEnd(rec.executor, st->kind == StageKind::kShuffleMap);
    TaskResult& t = run->tasks[rec.task_index];
    t.executor = rec.executor;
    t.slot = rec.slot;
    t.start_seconds = rec.start.seconds();
    t.end_seconds = rec.end.seconds();
  };
  const double tail = profile != nullptr ? profile->tail_seconds : 0;
  spec.on_task_set_complete = [this, st, run, tail](SimTime) {
    if (tail <= 0) {
      OnTasksDone(st, run);
      return;
    }
    sim_.ScheduleIn(SimTime::Seconds(tail), TaskScheduler::kTaskEndTier,
                    [this, st, run] { OnTasksDone(st, run); });
  };
  spec.pool = kQueryPool;
  if (std::optional<std::vector<int>> allowed = SqlStageExecutors(s_.cluster, st->name))
    spec.allowed_executors = std::move(*allowed);
  if (conf_.shuffle_reduce_locality_enabled && StageReadsShuffle(*st->subtree)) {
    spec.preferred_executors = [this, st, run](int task) {
      return locality_.Of(*st->subtree, run->PartitionOf(task));
    };
    spec.locality_wait = SimTime::Seconds(conf_.NodeLocalityWaitSeconds());
  }
  auto on_failed = [this, st](JobFailure f) { FailJob(st, std::move(f)); };
  AttachTaskFailures(profile, st->name, MaxTaskFailures(conf_), run, on_failed, &spec);
  if (allocation_) allocation_->OnStageSubmitted(spec.num_tasks);
  limits_.Submit(std::move(spec), *st, run);  // the scheduler's, through the cluster's shared limits
}

SimTime QueryEngine::RunTask(QueryStage* st, StageRun* run, ExecutorState::CodeState* code, int task,
                             int executor) {
  TaskEval ev = work_.Evaluate(*st->subtree, run->PartitionOf(task), executor);
  if (st->kind == StageKind::kShuffleMap) {
    NormalizeShares(&ev.shares);
    run->shares[task] = std::move(ev.shares);
    st->output->shuffle->data->map_executor[task] = executor;
    // Bytes written are known once the stage's rows are apportioned; estimate now from the
    // planned rows this task covers (exact when no partition is shared between tasks).
    ev.work.shuffle_write_bytes = work_.MapTaskWriteBytes(*st, run->shares[task], task);
    ev.work.rows_written = work_.MapTaskWriteRows(*st, ev.work.shuffle_write_bytes);
  } else if (st->kind == StageKind::kBroadcast) {
    run->broadcast_bytes += ev.output_bytes;
  }
  TaskResult& t = run->tasks[task];
  t.index = task;
  t.input_bytes = ev.input_bytes;
  t.shuffle_read_bytes = ev.shuffle_read_bytes;
  t.shuffle_write_bytes = ev.work.shuffle_write_bytes.count();
  if (run->profiled) {  // the recorded profile, not the cost model (its warm work when resized)
    std::optional<double> modelled;
    if (run->profiled->NeedsModelledWork()) {
      const TaskCost c = cost_.EstimateTask(ev.work, 0);
      modelled = c.scan_seconds + c.fetch_seconds + c.compute_seconds + c.write_seconds;
    }
    executors_.TaskStarted(code, executor, 0);
    const double seconds =
        run->profiled->LaunchTask(task, executor, ev.input_bytes + ev.shuffle_read_bytes, modelled);
    // A stage marked resized is an extrapolation: it scales with the band (stage_profile.h).
    return SimTime::Seconds(run->profiled->resized_by() ? seconds * s_.cost.modelled_time_scale : seconds);
  }
  const uint64_t seed = MixSeed(s_.seed, static_cast<uint64_t>(conf_.adaptive_enabled),
                                static_cast<uint64_t>(st->id), static_cast<uint64_t>(task));
  executors_.PrepareTask(*code, executor, &ev.work);
  TaskCost c = cost_.EstimateTask(ev.work, seed);
  t.startup_seconds = 0;
  if (ev.work.fresh_executor || ev.work.first_wave_on_executor || ev.work.cold_work_limit_seconds > 0) {
    TaskWork warm = ev.work;  // the same task on an executor already warm for this stage's code
    warm.fresh_executor = warm.first_wave_on_executor = false;
    warm.cold_work_limit_seconds = 0;
    t.startup_seconds = std::max(0.0, c.total_seconds() - cost_.EstimateTask(warm, seed).total_seconds());
  }
  limits_.LimitScan(ev.work.scan_bytes, sim_.Now(), &c, run);
  executors_.TaskStarted(code, executor, c.cold_work_seconds);
  t.spill_bytes = c.spill_bytes.count();
  return SimTime::Seconds(c.total_seconds());
}

void QueryEngine::OnTasksDone(QueryStage* st, StageRun* run) {
  if (st->kind == StageKind::kShuffleMap) {
    StageDone(st, FinishMapStage(*st, run->shares, &run->tasks, conf_, s_.map_status_mode,
                                 s_.cost.map_status_aggregate_seconds_per_block));
    return;
  }
  if (st->kind != StageKind::kBroadcast) {
    StageDone(st, 0);
    return;
  }
  const int64_t relation =
      st->subtree->is_exchange()
          ? st->subtree->shuffle->data->data_size_bytes
          : static_cast<int64_t>(static_cast<double>(run->broadcast_bytes) * s_.cost.compression_ratio);
  run->broadcast_bytes = relation;
  // A profiled broadcast's collect, ship and build are in the recorded gaps of the stages
  // that wait for it (their submitGapSeconds start at its collect job's end).
  const CostModel::BroadcastCost bc =
      run->profiled ? CostModel::BroadcastCost{} : cost_.EstimateBroadcast(Bytes(relation));
  run->broadcast_seconds = bc.total_seconds();
  if (relation > conf_.max_broadcast_table_size_bytes) {
    result_.AddFailure(st->name + ": cannot broadcast a table of " + FormatBytes(relation) +
                       ", larger than spark.sql.maxBroadcastTableSize " +
                       FormatBytes(conf_.max_broadcast_table_size_bytes));
  }
  const double since_submit = (sim_.Now() - st->submit).seconds() + bc.total_seconds();
  if (since_submit > conf_.broadcast_timeout_seconds) {
    result_.AddFailure(st->name + ": broadcast took " + std::to_string(since_submit) +
                       " s, more than spark.sql.broadcastTimeout " +
                       std::to_string(conf_.broadcast_timeout_seconds) + " s");
  }
  sim_.ScheduleIn(SimTime::Seconds(bc.total_seconds()), TaskScheduler::kTaskEndTier,
                  [this, st] { StageDone(st, 0); });
}

}  // namespace aqesim
