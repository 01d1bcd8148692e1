#include "models/engine/query_execution.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/aqe/aqe_optimizer.h"
#include "models/engine/allocation_carry_over.h"
#include "models/engine/cluster_scheduler.h"
#include "models/engine/query_engine.h"
#include "models/engine/resource_usage.h"
#include "models/engine/stage_submission.h"
#include "models/plan/plan_error.h"

namespace aqesim {

QueryEngine::QueryEngine(const Scenario& s, bool adaptive)
    : s_(s),
      conf_(WithAdaptive(s.conf, adaptive)),
      slots_per_executor_(std::max(1, TaskSlotsPerExecutor(s.cluster.executor_cores, s.conf.task_cpus,
                                                           s.cluster.executor_gpus, s.conf.task_gpu_amount))),
      planned_(PlanStatically(s, conf_)),
      scheduler_(MakeClusterScheduler(sim_, s,
                                      DynamicAllocationSimulated(s)
                                          ? DynamicAllocationCapacity(s, *planned_.root, slots_per_executor_)
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

RunResult QueryEngine::Run() {
  StaticPlan& sp = planned_;
  if (allocation_) {
    allocation_->Start();
    if (s_.cluster.allocation_at_start) {  // the executors carried from earlier queries keep their warm JVMs
      const ExecutorAllocationManager::Settings settings = DynamicAllocationSettings(s_, slots_per_executor_);
      for (size_t e = 0; e < settings.at_start->executors.size(); ++e)
        if (settings.at_start->executors[e].warm) executors_.MarkJvmWarm(static_cast<int>(e));
    }
  }
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
  if (allocation_at_last_stage_) {
    // Where the application's allocation manager stands at the makespan: its state when the last
    // stage completed, carried over the driver's time after it (the simulation may run on past
    // the makespan, until an executor requested during the query registers).
    auto& [at, end] = *allocation_at_last_stage_;
    end.gap_seconds = std::max(0.0, out.makespan_seconds - at.seconds());
    out.allocation_at_end = CarryAcrossGap(end, DynamicAllocationSettings(s_, slots_per_executor_));
  }
  return out;
}

std::optional<int> QueryEngine::RegisteredCores() const {
  if (!allocation_) return std::nullopt;
  return allocation_->RegisteredForDriver() * s_.cluster.executor_cores;
}

SqlConf QueryEngine::WithAdaptive(SqlConf c, bool adaptive) {
  c.adaptive_enabled = adaptive;
  return c;
}

void QueryEngine::Submit(QueryStage* st) {
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

void QueryEngine::FailJob(QueryStage* st, JobFailure failure) {
  st->complete = sim_.Now();
  if (allocation_ && !job_failed_) allocation_at_last_stage_.emplace(sim_.Now(), allocation_->StateNow());
  if (job_failed_) return;
  job_failed_ = true;
  result_.FailJob(failure, JobFailureMessage(failure, MaxTaskFailures(conf_)));
}

void QueryEngine::StageDone(QueryStage* st, double driver_seconds) {
  st->done = true;
  st->complete = sim_.Now();
  if (allocation_ && !job_failed_) allocation_at_last_stage_.emplace(sim_.Now(), allocation_->StateNow());
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

void QueryEngine::PlanTakeJobs(const QueryStage* st) {
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

void QueryEngine::SubmitNextTakeJob(QueryStage* done) {
  const TakeJob job = take_jobs_[take_next_++];
  QueryStage* next =
      graph_.Add(StageKind::kResult, nullptr, done->subtree, "result " + std::to_string(take_next_));
  next->id = done->id + 1;
  next->num_tasks = job.num_partitions;
  next->parents = {done};
  graph_.run(*next).first_partition = job.first_partition;
  Submit(next);
}

RunResult SimulateQuery(const Scenario& scenario, bool adaptive) {
  QueryEngine engine(scenario, adaptive);
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
