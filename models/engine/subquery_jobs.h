// SubqueryJobs: the scenario's subqueries (models/plan/subquery.h) as jobs of their own on the
// same slots, and the gates they put on the stages that scan what they filter
// (docs/aqe-behaviour.md §17).
//
// When a subquery's job starts — Spark starts it in SparkPlan.prepare() of the operator that
// holds the subquery expression (SubqueryExec.doPrepare: relationFuture on the subquery thread
// pool, sql/core/.../execution/basicPhysicalOperators.scala):
//   AQE on   when the first stage it gates is created: the stage's preparation
//            (ShuffleExchangeLike.triggerFuture, ShuffleExchangeExec.scala) prepares the stage's
//            operators, starting their subqueries, and waits for them off the adaptive loop's
//            thread; the job is an adaptive plan of its own (PlanAdaptiveSubqueries).
//   AQE off  when the query starts: prepare() runs over the whole plan before the main job's
//            RDDs are built.
// Which stages wait (a gated stage is not submitted before its gates completed):
//   AQE on, or a stage of a broadcast's job: the subqueries gating a scan among its operators
//            (waitForSubqueries while the stage's RDD is built);
//   AQE off, a stage of the main job: every subquery gating a scan of the main job (its RDDs,
//            all of them, are built before DAGScheduler gets the job).
// A dynamicPruning subquery that reuses a join's broadcast (SubqueryBroadcastExec over the
// ReusedExchange, PlanAdaptiveDynamicPruningFilters.scala) runs no job: its gate opens when that
// join's broadcast stage completes. When the join is not a broadcast join as planned, Spark drops
// the pruning filter (onlyInBroadcast): no gate.
#ifndef AQESIM_MODELS_ENGINE_SUBQUERY_JOBS_H_
#define AQESIM_MODELS_ENGINE_SUBQUERY_JOBS_H_

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/engine/adaptive_planner.h"
#include "models/engine/run_result_builder.h"
#include "models/engine/stage_graph.h"
#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"
#include "sim/simulator.h"

namespace aqesim {

class SubqueryJobs {
 public:
  /// What the engine lends the subqueries' jobs: its clock, stage graph and results, how it
  /// submits a stage, and Spark's stage-id counter (shared with the query's adaptive planner).
  struct Engine {
    Simulator* sim = nullptr;
    StageGraph* graph = nullptr;
    RunResultBuilder* result = nullptr;
    std::function<void(QueryStage*)> submit;
    std::function<int()> default_parallelism;
    double replan_seconds = 0;
    int* next_stage_id = nullptr;
  };

  /// Plans every subquery's plan statically (static_planner.h) with `conf`; `query_plan`: the
  /// query's plan as planned (which joins broadcast). Throws PlanError as PlanStatically does.
  SubqueryJobs(const Scenario& s, const SqlConf& conf, const ExecNode& query_plan, Engine engine);

  /// AQE off: starts every subquery's job (before the query's main job).
  void StartAll();
  /// Whether `st` (created, its parents done) may be submitted now: every subquery that gates
  /// it completed; `*not_before` is then raised to the latest of their completions (and, for a
  /// stage of a subquery's job, to that job's start). Otherwise starts the jobs of its gates not yet
  /// running and holds the stage: OnStageDone hands it back once they completed.
  bool Admit(QueryStage* st, SimTime* not_before);
  /// `st` completed: a subquery's final stage completes its job (a broadcast stage may open a
  /// reused-broadcast gate). Returns the held stages whose gates are all open now.
  std::vector<QueryStage*> OnStageDone(const QueryStage& st);
  /// The adaptive planner of the subquery whose job runs `st`; `query`'s for the query's stages.
  AdaptivePlanner* PlannerOf(const QueryStage& st, AdaptivePlanner* query);
  /// Each subquery as it ran; sets every stage's `subquery` and `gated_by` in `run`.
  void Summarize(const StageGraph& graph, RunResult* run) const;

 private:
  struct Job {
    const Subquery* spec = nullptr;
    StaticPlan planned;                        // its own plan (none when it reuses a broadcast)
    std::unique_ptr<ExecNode> static_root;     // AQE off: the plan its stages point into
    std::unique_ptr<AdaptivePlanner> planner;  // AQE on
    bool dropped = false;                      // a pruning filter Spark drops
    bool started = false;
    bool done = false;
    SimTime start;
    SimTime complete;
    std::vector<int> gated_stages;
  };

  /// The subqueries `st` waits for (indices into jobs_).
  std::vector<size_t> GatesOf(const QueryStage& st) const;
  /// Whether job `j`'s gate is open.
  bool Open(const Job& j) const;
  void Start(size_t j);

  const Scenario& s_;
  const SqlConf& conf_;
  Engine engine_;
  std::vector<Job> jobs_;
  std::set<std::string> main_job_scans_;  // AQE off: the scans of the main job's stages
  std::vector<QueryStage*> held_;         // stages waiting for their gates
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SUBQUERY_JOBS_H_
