#include "models/engine/query_execution.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/aqe/aqe_optimizer.h"
#include "models/cost/cost_model.h"
#include "models/engine/adaptive_planner.h"
#include "models/engine/cluster_scheduler.h"
#include "models/engine/execute_take.h"
#include "models/engine/executor_allocation_manager.h"
#include "models/engine/executor_state.h"
#include "models/engine/map_output.h"
#include "models/engine/preferred_locations.h"
#include "models/engine/recorded_failures.h"
#include "models/engine/run_result_builder.h"
#include "models/engine/shared_limits.h"
#include "models/engine/stage_graph.h"
#include "models/engine/stage_submission.h"
#include "models/engine/static_planner.h"
#include "models/engine/subquery_jobs.h"
#include "models/engine/task_work.h"
#include "models/plan/plan_error.h"
#include "models/plan/query_stage.h"
#include "models/plan/stage_walk.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

namespace {

/// The scheduler pool of the query's task sets (FAIR mode).
constexpr int kQueryPool = 0;

class Engine {
 public:
  Engine(const Scenario& s, bool adaptive)
      : s_(s),
        conf_(WithAdaptive(s.conf, adaptive)),
        slots_per_executor_(
            std::max(1, TaskSlotsPerExecutor(s.cluster.executor_cores, s.conf.task_cpus,
                                             s.cluster.executor_gpus, s.conf.task_gpu_amount))),
        planned_(PlanStatically(s, conf_)),
        scheduler_(MakeClusterScheduler(
            sim_, s,
            DynamicAllocationSimulated(s) ? DynamicAllocationCapacity(s, *planned_.root, slots_per_executor_)
                                          : 0)),
        limits_(s.cluster, &scheduler_),
        cost_(s.cost, s.cluster, slots_per_executor_, s.conf.memory_fraction),
        work_(FetchLimitsOf(conf_), NumExecutors()),
        executors_(s.cluster, NumExecutors(), s.cost.cold_code_window_seconds, s.cost.cold_code_slowdown > 0),
        result_(adaptive),
        planner_(
            sim_, conf_, [this] { return DefaultParallelism(s_, RegisteredCores()); },
            s.driver.replan_seconds.value_or(s.cost.replan_seconds), &graph_, &result_,
            [this](QueryStage* st) { Submit(st); }, &next_stage_id_) {
    if (!s.subqueries.empty()) {
      SubqueryJobs::Engine lent{&sim_,
                                &graph_,
                                &result_,
                                [this](QueryStage* st) { Submit(st); },
                                [this] { return DefaultParallelism(s_, RegisteredCores()); },
                                s.driver.replan_seconds.value_or(s.cost.replan_seconds),
                                &next_stage_id_};
      subqueries_ = std::make_unique<SubqueryJobs>(s, conf_, *planned_.root, std::move(lent));
    }
    if (DynamicAllocationSimulated(s))
      allocation_ = std::make_unique<ExecutorAllocationManager>(
          sim_, scheduler_, DynamicAllocationSettings(s, slots_per_executor_),
          [this](int e) { executors_.Replace(e); });
    if (s.conf.fair_scheduler) {
      // spark.scheduler.mode=FAIR: the query's jobs run in its pool (spark.scheduler.pool), as
      // the scenario's driver.pools (or its allocation file) define it; a pool Spark is not told
      // about is FIFO with weight 1 and minShare 0.
      scheduler_.SetMode(SchedulingMode::kFair);
      PoolSpec pool;
      pool.name = s.conf.scheduler_pool;
      if (auto it = s.driver.pools.find(pool.name); it != s.driver.pools.end()) pool = it->second;
      scheduler_.ConfigurePool(kQueryPool, pool);
    }
  }

  RunResult Run() {
    StaticPlan& sp = planned_;
    if (allocation_) allocation_->Start();
    result_.AddDecisions(std::move(sp.decisions));
    for (std::string& w : sp.warnings) result_.AddWarning(std::move(w));
    if (conf_.adaptive_enabled) {
      for (std::string& w : CheckExcludedRules(conf_)) result_.AddWarning(std::move(w));
      planner_.Start(std::move(sp.root));
    } else {
      static_plan_ = std::move(sp.root);
      graph_.CreateStaticStages(static_plan_.get());
      for (size_t i = 0, n = graph_.stages().size(); i < n; ++i)  // (a gated stage starts its gates)
        if (graph_.stages()[i].parents_pending == 0) Submit(&graph_.stages()[i]);
      if (subqueries_) subqueries_->StartAll();  // prepare() starts every subquery with the query
    }
    sim_.Run();
    if (allocation_) result_.SetExecutorCounts(allocation_->history());
    const ExecNode& final_plan = conf_.adaptive_enabled ? planner_.plan() : *static_plan_;
    RunResult out =
        result_.Finish(&graph_, final_plan, &work_, conf_, s_.cost.map_status_aggregate_seconds_per_block,
                       s_.driver.end_seconds.value_or(0));
    if (subqueries_) subqueries_->Summarize(graph_, &out);
    return out;
  }

 private:
  int NumExecutors() const { return scheduler_.slots().executors(); }
  std::optional<int> RegisteredCores() const {
    if (!allocation_) return std::nullopt;
    return scheduler_.slots().present_executors() * s_.cluster.executor_cores;
  }
  static SqlConf WithAdaptive(SqlConf c, bool adaptive) {
    c.adaptive_enabled = adaptive;
    return c;
  }

  const StageProfile* ProfileOf(const QueryStage& st) const { return RecordedProfileOf(s_, st); }

  /// A created stage is submitted when stage_submission.h says: no earlier than the driver's
  /// recorded start, its profile's gap after its trigger; held while a stage of its profile's
  /// waitsFor runs; one a subquery gates, until the subquery completed (subquery_jobs.h).
  void Submit(QueryStage* st) {
    if (st->parents_pending > 0 || job_failed_) return;  // (AQE) waiting for its sampling jobs; or no job
    SimTime start = SimTime::Seconds(s_.driver.start_seconds.value_or(0));
    if (subqueries_ && !subqueries_->Admit(st, &start)) return;
    const std::optional<SimTime> at = SubmissionTime(*st, ProfileOf(*st), graph_, start);
    if (!at) {
      held_.push_back(st);
    } else if (*at > sim_.Now()) {
      sim_.ScheduleAt(*at, TaskScheduler::kTaskEndTier, [this, st] { SubmitNow(st); });
    } else {
      SubmitNow(st);
    }
  }

  /// Hands a created stage's tasks to the scheduler.
  void SubmitNow(QueryStage* st) {
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
      run->profiled.emplace(*profile, st->num_tasks, NumExecutors(), slots_per_executor_,
                            StageSpillPricing(*profile, *st->subtree, st->num_tasks, cost_,
                                              s_.cluster.disk_bytes_per_second, slots_per_executor_),
                            LogResizeRates(s_.profiles));
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

  /// Task `task` starts on `executor`: its work, its cost, its duration.
  SimTime RunTask(QueryStage* st, StageRun* run, ExecutorState::CodeState* code, int task, int executor) {
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
    limits_.LimitScan(ev.work.scan_bytes, sim_.Now(), &c, run);
    executors_.TaskStarted(code, executor, c.cold_work_seconds);
    t.spill_bytes = c.spill_bytes.count();
    return SimTime::Seconds(c.total_seconds());
  }

  /// Every task of `st` finished: a map stage's output is apportioned (and, with AQE, reported
  /// to the driver); a broadcast is collected, shipped and built.
  void OnTasksDone(QueryStage* st, StageRun* run) {
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

  /// A stage stopped (recorded_failures.h): its job fails, no stage is submitted any more.
  void FailJob(QueryStage* st, JobFailure failure) {
    st->complete = sim_.Now();
    if (job_failed_) return;
    job_failed_ = true;
    result_.FailJob(failure, JobFailureMessage(failure, MaxTaskFailures(conf_)));
  }

  void StageDone(QueryStage* st, double driver_seconds) {
    st->done = true;
    st->complete = sim_.Now();
    if (job_failed_) return;
    // Stages held for a stage of their waitsFor: submitted now, or held for the next one.
    std::vector<QueryStage*> held;
    held.swap(held_);
    for (QueryStage* h : held) Submit(h);
    if (subqueries_)
      for (QueryStage* released : subqueries_->OnStageDone(*st)) Submit(released);
    if (st->kind == StageKind::kResult && st->subquery < 0 && take_next_ < take_jobs_.size()) {
      SubmitNextTakeJob(st);
      return;
    }
    // AQE submits the stages it creates, but those that wait for a sampling job.
    const bool submit_children = !conf_.adaptive_enabled || st->kind == StageKind::kSample;
    for (QueryStage* c : st->children) {
      if (--c->parents_pending == 0 && !c->submitted && submit_children) Submit(c);
    }
    if (conf_.adaptive_enabled && st->kind != StageKind::kResult && st->kind != StageKind::kSample)
      (subqueries_ ? subqueries_->PlannerOf(*st, &planner_) : &planner_)->OnStageMaterialized(driver_seconds);
  }

  /// collectLimit: executeTake's jobs over the final stage `st` (all its partitions planned,
  /// not yet run), from the rows each partition yields (CollectLimit::rows spread in proportion
  /// to the bytes each reads; unset: `limit` rows from a partition that reads anything).
  void PlanTakeJobs(const QueryStage* st) {
    take_planned_ = true;
    const CollectLimit& cl = *s_.collect_limit;
    std::vector<int64_t> bytes(static_cast<size_t>(st->num_tasks));
    for (int p = 0; p < st->num_tasks; ++p) {
      const TaskEval ev = work_.Evaluate(*st->subtree, p, -1);
      bytes[static_cast<size_t>(p)] = ev.input_bytes + ev.shuffle_read_bytes;
    }
    std::vector<int64_t> rows = bytes;
    if (cl.rows) {
      rows = RowsInProportion(*cl.rows, bytes);
    } else {
      for (int64_t& r : rows) r = r > 0 ? cl.limit : 0;
    }
    take_jobs_ = ExecuteTakeJobs(
        TakeSettings{cl.limit, conf_.limit_initial_num_partitions, conf_.limit_scale_up_factor}, rows);
    take_next_ = 1;
  }

  /// executeTake's next job after `done` (the previous one) completed: stage "result N", the
  /// same operators over the job's partitions, submitted after it (its submission gap, if
  /// profiled, counts from `done`'s completion).
  void SubmitNextTakeJob(QueryStage* done) {
    const TakeJob job = take_jobs_[take_next_++];
    QueryStage* next =
        graph_.Add(StageKind::kResult, nullptr, done->subtree, "result " + std::to_string(take_next_));
    next->id = done->id + 1;
    next->num_tasks = job.num_partitions;
    next->parents = {done};
    graph_.run(*next).first_partition = job.first_partition;
    Submit(next);
  }

  const Scenario& s_;
  SqlConf conf_;
  int slots_per_executor_;
  Simulator sim_;
  StaticPlan planned_;  // the plan before anything runs (handed to the planner by Run)
  TaskScheduler scheduler_;
  SharedLimits limits_;  // storage throughput and the driver's loop (off unless the cluster sets them)
  CostModel cost_;
  TaskWorkModel work_;
  PreferredLocations locality_;
  ExecutorState executors_;
  StageGraph graph_;
  RunResultBuilder result_;
  AdaptivePlanner planner_;  // AQE on: creates the stages as their inputs materialize
  std::unique_ptr<ExecutorAllocationManager> allocation_;  // dynamic allocation, when simulated
  int next_stage_id_ = 0;                                  // (AQE) Spark's stage ids, in submission order
  std::unique_ptr<SubqueryJobs> subqueries_;               // the scenario's subqueries, when it has any
  std::vector<QueryStage*> held_;          // created stages held for a stage of their waitsFor
  std::unique_ptr<ExecNode> static_plan_;  // AQE off: the plan, every stage created up front
  bool job_failed_ = false;                // a stage stopped: the query's job failed
  bool take_planned_ = false;              // collectLimit: executeTake's jobs computed
  std::vector<TakeJob> take_jobs_;         // collectLimit: executeTake's jobs, in order
  size_t take_next_ = 0;                   // the next job to run
};

}  // namespace

RunResult SimulateQuery(const Scenario& scenario, bool adaptive) {
  Engine engine(scenario, adaptive);
  RunResult result = engine.Run();
  // Simulated time saturates at 2^63 µs instead of wrapping: a run that gets near it has no
  // meaningful times left to print.
  if (result.makespan_seconds >= kMaxSimulatedSeconds)
    throw PlanError(
        "/plan",
        "the simulated run lasts more than 2^62 microseconds (146,000 years), where simulated "
        "time runs out: the sizes times the cost model's seconds per byte are too large to simulate");
  ComputeResourceUsage(scenario.cluster, scenario.conf.task_cpus, &result);
  return result;
}

}  // namespace aqesim
