// RunResultBuilder: assembles one run's RunResult (run_result.h) — decisions, warnings and
// failures as they happen, each read's partition specs when its stage is created (explain's
// `reads`), and at the end the per-stage summaries and task records, the true bytes every
// recorded read fetched, and the exchanges and joins as the final plan has them.
#ifndef AQESIM_MODELS_ENGINE_RUN_RESULT_BUILDER_H_
#define AQESIM_MODELS_ENGINE_RUN_RESULT_BUILDER_H_

#include <string>
#include <utility>
#include <vector>

#include "models/aqe/decision.h"
#include "models/conf/spark_conf.h"
#include "models/engine/run_result.h"
#include "models/engine/stage_graph.h"
#include "models/engine/task_work.h"
#include "models/plan/exec_node.h"
#include "models/plan/query_stage.h"

namespace aqesim {

class RunResultBuilder {
 public:
  explicit RunResultBuilder(bool adaptive) { result_.adaptive = adaptive; }

  /// Decisions in order; an earlier "not applied" entry of the same rule and target goes.
  void AddDecisions(std::vector<Decision> decisions);
  /// One entry per (rule, target): a later evaluation replaces an earlier one.
  void AddNotApplied(std::vector<NotApplied> entries) {
    MergeNotApplied(std::move(entries), &result_.not_applied);
  }
  void AddWarning(std::string warning) { result_.warnings.push_back(std::move(warning)); }
  void SetExecutorCounts(std::vector<ExecutorCountChange> counts) { result_.executors = std::move(counts); }
  void AddFailure(std::string failure) { result_.failures.push_back(std::move(failure)); }
  /// The job failed (`message` goes to failures); Finish ends the makespan at its time.
  void FailJob(JobFailure failure, std::string message) {
    result_.job_failure = std::move(failure);
    AddFailure(std::move(message));
  }

  /// explain's `reads`: the specs of every exchange `stage` reads, as they are when it is
  /// created (broadcast build sides are not listed).
  void RecordReads(const QueryStage& stage);

  /// The result, after the simulation ended. `map_status_aggregate_seconds_per_block`: the
  /// cost parameter (the driver's MapOutputStatistics time per block); `end_seconds`: the
  /// driver's time after the last stage (the scenario's recorded driver endSeconds, else 0).
  /// The stages' task records move out of `graph` into the result.
  RunResult Finish(StageGraph* graph, const ExecNode& final_plan, TaskWorkModel* work, const SqlConf& conf,
                   double map_status_aggregate_seconds_per_block, double end_seconds);

 private:
  StageResult SummarizeStage(const QueryStage& stage, const StageRun& run) const;

  RunResult result_;
  /// The stage and exchange node of every recorded read, in result_.reads order.
  std::vector<std::pair<const QueryStage*, const ExecNode*>> recorded_reads_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RUN_RESULT_BUILDER_H_
