// Calibration of the cost model (models/cost/cost_model.h) to recorded task times.
//
// Method (two steps):
// 1. Task level, non-negative least squares. A simulated task's duration is linear in the
//    per-task cost parameters θ_k (taskLaunchSeconds, the seconds-per-byte CPU terms, the
//    fetch-request terms):  T = c0 + Σ_k θ_k · f_k, where c0 holds the terms that are not
//    parameters (bytes ÷ the executor's disk or network share, spill) and f_k is the task's
//    work for parameter k (1 per task, scan bytes, shuffle bytes read, sort bytes, ...).
//    f_k is measured on the simulator itself, by finite differences: one replay with every
//    fitted θ at 0 (gives c0), one per parameter with only θ_k at its default value. Simulated
//    tasks are matched to recorded ones by stage (replay.h's matching) and task index when
//    both stages ran the same number of tasks; otherwise the stage contributes one row of
//    task-time sums. Target: recorded task wall time (Finish − Launch) − c0. Rows are weighted
//    by 1 / (median recorded task time of the stage × √tasks of the stage), so every stage
//    counts about equally and errors are relative (a log of 15-minute tasks does not drown a
//    log of 50 ms tasks). Solved by Lawson–Hanson NNLS (all parameters are ≥ 0).
//    coldCodeSlowdown multiplies the work terms of first-wave tasks (cost_model.h), so it is
//    not linear with the others; for each value on a grid (0, 0.5, 1, 1.5, 2, 3, 4) the
//    features are measured with it in place (the model is then linear in the rest), NNLS
//    fits the rest, and the value whose full replays score best on step 2's objective is kept;
//    the same choice is made between fits with and without executorStartupSeconds (which
//    simulated task lands on a fresh executor depends on placement, and task-index matching
//    cannot see executors).
// 2. Driver level, coordinate search: stageOverheadSeconds and replanSeconds (per stage and
//    per AQE re-plan, not per task) over a fixed grid, minimising the mean over logs of
//    (median |stage error| + |makespan error|) of full replays.
// Fit quality (unweighted, over task rows): R² of predicted vs recorded task wall time,
// median absolute error in seconds and relative.
#ifndef AQESIM_TOOLS_VALIDATE_CALIBRATION_H_
#define AQESIM_TOOLS_VALIDATE_CALIBRATION_H_

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/eventlog/recorded_application.h"
#include "tools/validate/replay.h"

namespace aqesim::validate {

/// JSON names of the parameters fitted in step 1 (per task) and step 2 (driver).
const std::vector<std::string>& TaskLevelParameters();
const std::vector<std::string>& DriverLevelParameters();

struct FitQuality {
  int task_rows = 0;    // rows from matched tasks
  int stage_rows = 0;   // rows from stages whose task counts differ
  double r_squared = 0;
  double median_abs_error_seconds = 0;
  double median_abs_relative_error = 0;
};

struct CalibrationOptions {
  /// Cost the fit starts from (parameters not fitted keep these values).
  nlohmann::json base_cost = nlohmann::json::object();
  /// Step 2 on/off.
  bool search_driver_parameters = true;
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
