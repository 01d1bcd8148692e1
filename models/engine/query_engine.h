// QueryEngine: QueryExecution's parts wired on one discrete-event simulator (query_execution.h
// lists them). Internal to models/engine: query_execution.cc builds and runs it and follows a
// stage's completion; stage_task_set.cc hands a stage's tasks to the scheduler and prices them.
#ifndef AQESIM_MODELS_ENGINE_QUERY_ENGINE_H_
#define AQESIM_MODELS_ENGINE_QUERY_ENGINE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/engine/adaptive_planner.h"
#include "models/engine/execute_take.h"
#include "models/engine/executor_allocation_manager.h"
#include "models/engine/executor_state.h"
#include "models/engine/preferred_locations.h"
#include "models/engine/recorded_failures.h"
#include "models/engine/run_result_builder.h"
#include "models/engine/shared_limits.h"
#include "models/engine/stage_graph.h"
#include "models/engine/static_planner.h"
#include "models/engine/subquery_jobs.h"
#include "models/engine/task_work.h"
#include "models/plan/query_stage.h"
#include "models/scenario/scenario.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

/// The scheduler pool of the query's task sets (FAIR mode).
inline constexpr int kQueryPool = 0;

class QueryEngine {
 public:
  QueryEngine(const Scenario& s, bool adaptive);
  RunResult Run();

 private:
  int NumExecutors() const { return scheduler_.slots().executors(); }
  std::optional<int> RegisteredCores() const;
  static SqlConf WithAdaptive(SqlConf c, bool adaptive);

  const StageProfile* ProfileOf(const QueryStage& st) const { return RecordedProfileOf(s_, st); }

  /// A created stage is submitted when stage_submission.h says: no earlier than the driver's
  /// recorded start, its profile's gap after its trigger; held while a stage of its profile's
  /// waitsFor runs; one a subquery gates, until the subquery completed (subquery_jobs.h).
  void Submit(QueryStage* st);
  /// Hands a created stage's tasks to the scheduler.
  void SubmitNow(QueryStage* st);
  /// Task `task` starts on `executor`: its work, its cost, its duration.
  SimTime RunTask(QueryStage* st, StageRun* run, ExecutorState::CodeState* code, int task, int executor);
  /// Every task of `st` finished: a map stage's output is apportioned (and, with AQE, reported
  /// to the driver); a broadcast is collected, shipped and built.
  void OnTasksDone(QueryStage* st, StageRun* run);
  /// A stage stopped (recorded_failures.h): its job fails, no stage is submitted any more.
  void FailJob(QueryStage* st, JobFailure failure);
  void StageDone(QueryStage* st, double driver_seconds);
  /// collectLimit: executeTake's jobs over the final stage `st` (all its partitions planned,
  /// not yet run), from the rows each partition yields (CollectLimit::rows spread in proportion
  /// to the bytes each reads; unset: `limit` rows from a partition that reads anything).
  void PlanTakeJobs(const QueryStage* st);
  /// executeTake's next job after `done` (the previous one) completed: stage "result N", the
  /// same operators over the job's partitions, submitted after it (its submission gap, if
  /// profiled, counts from `done`'s completion).
  void SubmitNextTakeJob(QueryStage* done);

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
  /// Dynamic allocation: its state when the latest stage completed (or the job failed), and when.
  std::optional<std::pair<SimTime, AllocationState>> allocation_at_last_stage_;
  int next_stage_id_ = 0;                     // (AQE) Spark's stage ids, in submission order
  std::unique_ptr<SubqueryJobs> subqueries_;  // the scenario's subqueries, when it has any
  std::vector<QueryStage*> held_;             // created stages held for a stage of their waitsFor
  std::unique_ptr<ExecNode> static_plan_;     // AQE off: the plan, every stage created up front
  bool job_failed_ = false;                   // a stage stopped: the query's job failed
  bool take_planned_ = false;                 // collectLimit: executeTake's jobs computed
  std::vector<TakeJob> take_jobs_;            // collectLimit: executeTake's jobs, in order
  size_t take_next_ = 0;                      // the next job to run
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_QUERY_ENGINE_H_
