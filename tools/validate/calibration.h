// Calibration of the cost model (models/cost/cost_model.h) to recorded task times.
//
// Method (step 2 runs first: its values are inputs of step 1):
// 1. Task level, non-negative least squares. A simulated task's duration is linear in the
//    per-task cost parameters θ_k (taskLaunchSeconds, the seconds-per-byte CPU terms, the
//    fetch-request terms):  T = c0 + Σ_k θ_k · f_k, where c0 holds the terms that are not
//    parameters (bytes ÷ the executor's disk or network share, spill) and f_k is the task's
//    work for parameter k (1 per task, scan bytes, shuffle bytes read, sort bytes, ...).
//    f_k is measured on the simulator itself, by finite differences: one replay with every
//    fitted θ at 0 (gives c0), one per parameter with only θ_k at its default value (0.1 s
//    for a parameter off by default). Simulated
//    tasks are matched to recorded ones by stage (replay.h's matching) and task index when
//    both stages ran the same number of tasks; otherwise the stage contributes one row of
//    task-time sums. Target: recorded task wall time (Finish − Launch) − c0. Rows are weighted
//    by 1 / (median recorded task time of the stage × √tasks of the stage), so every stage
//    counts about equally and errors are relative (a log of 15-minute tasks does not drown a
//    log of 50 ms tasks). Solved by Lawson–Hanson NNLS (all parameters are ≥ 0).
//    coldCodeSlowdown and coldCodeWindowSeconds (an executor's first window of work on a
//    stage's code runs slower: cost_model.h) are not linear with the others; for each pair on
//    a grid (slowdown 0, 0.5, 1, 2, 3, 4, 6, 8 × window 0.25, 0.5, 1, 2, 4 s) the features are
//    measured with it in place (the model is then close to linear in the rest), NNLS fits the
//    rest, and the pair whose full replays score best (mean over logs of median |stage error|
//    + |makespan error|) is kept.
// 2. Measured, not fitted (MeasureTimes): the driver-side parameters stageOverheadSeconds and
//    replanSeconds, the per-task taskLaunchSeconds (scheduler delay + result handling + the
//    later tasks' deserialization) and the fresh-JVM term executorStartupSeconds, are read
//    from the recorded gaps, task times and Task Deserialization Times of the logs being
//    fitted (medians, so one outlier does not set them) and held fixed while step 1 fits the
//    rest; so is the first-wave executorStageWarmupSeconds when the logs have both first-wave
//    and later tasks on warm JVMs. The recorded tasks that paid a measured term (by the log's own executors
//    and times) have it taken off their target; the simulated features are measured without it. None of them
//    is searched against the makespan: a search put replanSeconds at 2 s against recorded gaps of 0.02–0.25
//    s, buying one log's makespan with an error every other query pays.
// Fit quality (unweighted, over matched tasks): R² of the replayed (simulated with the
// chosen cost) vs recorded task wall time, median absolute error in seconds and relative.
#ifndef AQESIM_TOOLS_VALIDATE_CALIBRATION_H_
#define AQESIM_TOOLS_VALIDATE_CALIBRATION_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"
#include "tools/validate/replay.h"

namespace aqesim::validate {

/// JSON names of the parameters fitted in step 1 (per task, NNLS) and of those measured
/// from the logs (MeasureTimes: stageOverheadSeconds, replanSeconds, executorStartupSeconds;
/// taskLaunchSeconds and executorStageWarmupSeconds are in both: measured when the logs
/// allow, else fitted).
const std::vector<std::string>& TaskLevelParameters();
const std::vector<std::string>& MeasuredParameters();

/// Times read from recorded logs, pooled over the applications given. Seconds.
struct MeasuredTimes {
  /// Median over submitted stages that launched a task of (first task launch − StageSubmitted
  /// Submission Time): DAGScheduler submit → TaskSchedulerImpl's first offer accepted (Spark
  /// UI "scheduler delay" of the first task, plus any wait for a free slot or an executor).
  std::optional<double> stage_overhead_seconds;
  int overhead_samples = 0;
  /// Median over stages of adaptive SQL executions submitted after another stage of the same
  /// execution completed, of (Submission Time − the latest such Completion Time): the AQE
  /// driver's re-plan and stage creation (AdaptiveSparkPlanExec), MapStatus aggregation
  /// included. nullopt when no log has an adaptive execution with such a stage.
  std::optional<double> replan_seconds;
  int replan_samples = 0;
  double replan_min_seconds = 0, replan_max_seconds = 0;
  /// Successful tasks by where they ran (cost_model.h's terms): fresh JVM = launched before
  /// any task finished on its executor; first wave = otherwise, before any task of its stage
  /// finished on its executor (the stage stands in for "the same operators"); later = the rest.
  /// An executor's tasks before the replayed execution count (the importer marks it warm).
  int fresh_tasks = 0, first_wave_tasks = 0, later_tasks = 0;
  /// Median Executor Deserialize Time of each group (0 when empty).
  double fresh_deserialize_median_seconds = 0, first_wave_deserialize_median_seconds = 0,
         later_deserialize_median_seconds = 0;
  /// executorStartupSeconds: fresh − first-wave median (fresh − later when no first-wave task
  /// ran on a warm JVM), ≥ 0; nullopt without fresh tasks or without others.
  std::optional<double> executor_startup_seconds;
  /// executorStageWarmupSeconds: first-wave − later median, ≥ 0; nullopt when either group is
  /// empty (the fit then estimates it with the per-task terms).
  std::optional<double> executor_stage_warmup_seconds;
  /// taskLaunchSeconds: median over successful tasks of what Spark UI calls scheduler delay
  /// plus result serialization and result fetching (Duration − Executor Run Time − Executor
  /// Deserialize Time, ≥ 0: launch RPC, task start, status update, result handling on the
  /// driver), plus the later tasks' deserialization median (the deserialization every task
  /// pays; fresh-JVM and first-wave extras are the two terms above). nullopt without tasks.
  std::optional<double> task_launch_seconds;
  int launch_samples = 0;
  double scheduler_delay_median_seconds = 0;
};

MeasuredTimes MeasureTimes(const std::vector<const eventlog::RecordedApplication*>& apps);

/// The cost parameters `measured` sets, as a cost object: stageOverheadSeconds, replanSeconds,
/// taskLaunchSeconds and executorStageWarmupSeconds when measured, executorStartupSeconds always
/// (0 without fresh-JVM tasks: the term is then not modelled). Calibrate holds them fixed.
nlohmann::json MeasuredCost(const MeasuredTimes& measured);

struct FitQuality {
  int task_rows = 0;   // matched tasks (simulated and recorded stage ran as many tasks)
  int stage_rows = 0;  // matched stages whose task counts differ (not in the statistics)
  double r_squared = 0;
  double median_abs_error_seconds = 0;
  double median_abs_relative_error = 0;
};

struct CalibrationOptions {
  /// Cost the fit starts from (parameters not fitted keep these values).
  nlohmann::json base_cost = nlohmann::json::object();
  /// Set MeasuredParameters() from MeasureTimes (true) or keep base_cost's values / the
  /// defaults for them (false; executorStartupSeconds is then not modelled, 0).
  bool measure_from_logs = true;
};

struct LogResult {
  std::string log;
  std::optional<double> median_abs_stage_error;
  std::optional<double> makespan_relative_error;
  int decisions = 0;
  int decisions_matched = 0;
};

struct CalibrationResult {
  nlohmann::json cost = nlohmann::json::object();  // a scenario `cost` object
  FitQuality quality;
  std::vector<LogResult> before;  // replays with base_cost
  std::vector<LogResult> after;   // replays with `cost`
  MeasuredTimes measured;
  std::vector<std::string> notes;
};

/// Fits the cost model to `apps`. Throws eventlog::EventLogError when no task could be
/// matched (nothing to fit).
CalibrationResult Calibrate(const std::vector<const eventlog::RecordedApplication*>& apps,
                            const CalibrationOptions& options, std::vector<std::string>* warnings);

/// Summary of a validation for LogResult.
LogResult Summarise(const Validation& v);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_CALIBRATION_H_
