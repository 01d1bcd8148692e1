// `aqesim calibrate LOG... -o COST.json [--cost BASE.json] [--no-measured-times] [--measure-only]`: fits
// the cost model's parameters to recorded task times (method: tools/validate/calibration.h) and
// writes them as a cost file (a scenario's `cost` object). Prints the fit quality and, per log, the
// replay errors before and after. --measure-only writes only the terms read from the logs' recorded
// gaps and deserialization times (MeasureTimes), no replay.
//
// nds_q72_dataproc_2_2 is the held-out log (no global fit may see it; README, calibrate): calibrating on it
// is refused unless --allow-held-out is given.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/cost/cost_params.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/validate/calibration.h"
#include "tools/validate/cost_file.h"

namespace aqesim::cli {
namespace {

constexpr const char* kHeldOutLog = "nds_q72_dataproc_2_2";

struct CalibrateArgs {
  std::vector<std::string> logs;
  std::string output;
  std::string base_cost;
  bool no_measured_times = false;
  bool allow_held_out = false;
  bool measure_only = false;
  bool quiet = false;
};

/// A signed percentage ("+4.1%"), or unsigned for a magnitude such as a median |error|.
std::string Pct(const std::optional<double>& v, bool sign = true) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", *v * 100);
  return buf;
}

/// |x| of an optional error; nullopt stays nullopt.
std::optional<double> Magnitude(const std::optional<double>& v) {
  if (!v) return std::nullopt;
  return v < 0 ? -*v : *v;
}

/// The ways the fitted cost is worse than the cost it started from (the defaults, or --cost):
/// a fit that explains the task times worse than their mean (R² < 0), and each log whose replay
/// error (median |stage error| or |makespan error|) grows. The file is still written — the
/// caller asked for it — but never silently.
std::vector<std::string> WorseThanBefore(const validate::CalibrationResult& result) {
  std::vector<std::string> out;
  char buf[512];
  if (result.quality.task_rows + result.quality.stage_rows > 0 && result.quality.r_squared < 0) {
    std::snprintf(
        buf, sizeof buf,
        "calibrate: the fit's R² is %.3f: the fitted parameters predict the recorded task times worse "
        "than their mean (the logs cannot separate the model's terms); check the replay errors below",
        result.quality.r_squared);
    out.emplace_back(buf);
  }
  for (size_t i = 0; i < result.after.size() && i < result.before.size(); ++i) {
    const auto& b = result.before[i];
    const auto& a = result.after[i];
    const auto bs = Magnitude(b.median_abs_stage_error), as = Magnitude(a.median_abs_stage_error);
    const auto bm = Magnitude(b.makespan_relative_error), am = Magnitude(a.makespan_relative_error);
    const bool stage_worse = bs && as && *as > *bs;
    const bool makespan_worse = bm && am && *am > *bm;
    if (!stage_worse && !makespan_worse) continue;
    out.push_back(
        "calibrate: " + std::filesystem::path(a.log).filename().string() +
        " replays worse with the fitted cost than with the cost it started from (median |stage error| " +
        Pct(b.median_abs_stage_error, false) + " → " + Pct(a.median_abs_stage_error, false) + ", makespan " +
        Pct(b.makespan_relative_error) + " → " + Pct(a.makespan_relative_error) +
        "); the file is written, but do not use it for this job without reading its values");
  }
  return out;
}

void RunCalibrate(const CalibrateArgs& args) {
  {
    std::vector<std::string> inputs = args.logs;  // refused before the logs are read and fitted
    inputs.push_back(args.base_cost);
    CheckOutputIsNotInput(args.output, inputs);
  }
  validate::CalibrationOptions options;
  if (!args.base_cost.empty()) {
    std::vector<std::string> errors;
    options.base_cost = validate::ReadCostFile(args.base_cost, &errors);
    if (!errors.empty()) throw InputError(errors);
  }
  options.measure_from_logs = !args.no_measured_times;
  std::vector<std::string> warnings;
  std::vector<eventlog::RecordedApplication> apps;
  for (const std::string& log : args.logs) {
    const std::string name = std::filesystem::path(log).filename().string();
    if (!args.allow_held_out && name.rfind(kHeldOutLog, 0) == 0) {
      throw InputError(log + ": held out for validation (never fitted); use --allow-held-out to override");
    }
  }
  validate::CalibrationResult result;
  try {
    apps.reserve(args.logs.size());
    for (const std::string& log : args.logs) apps.push_back(eventlog::ReadEventLog(log, &warnings));
    std::vector<const eventlog::RecordedApplication*> ptrs;
    for (const auto& a : apps) ptrs.push_back(&a);
    if (args.measure_only) {
      result.measured = validate::MeasureTimes(ptrs);
      result.cost = validate::MeasuredCost(result.measured);
    } else {
      result = validate::Calibrate(ptrs, options, &warnings);
    }
  } catch (const eventlog::EventLogError& e) {
    throw InputError(e.what());
  }
  if (!args.quiet) {
    for (const auto& w : warnings) Warn(w);
  }
  // What the fit gives must be a machine a scenario could describe (the ranges a cost file
  // is read with): a log with impossible times must not produce a file that every later run
  // would refuse, or worse, saturate.
  std::vector<std::string> out_of_range;
  for (const CostParamInfo& info : CostParamRegistry()) {
    const std::string name(info.json_name);
    if (!result.cost.contains(name) || !result.cost[name].is_number()) continue;
    const double v = result.cost[name].get<double>();
    if (CostParamInRange(info, v)) continue;
    char value[64];
    std::snprintf(value, sizeof value, "%g", v);
    out_of_range.push_back("calibrate: the fit gives " + name + " = " + value + " " + std::string(info.unit) +
                           ", outside its range " + CostParamRange(info) +
                           ": the logs' task times cannot be replayed (see the warnings); nothing written");
  }
  if (!out_of_range.empty()) throw InputError(out_of_range);
  for (const std::string& w : WorseThanBefore(result))
    Warn(w);  // not muted by --quiet: it is about the output
  std::vector<std::string> inputs = args.logs;
  inputs.push_back(args.base_cost);
  WriteOutputAtomically(args.output, result.cost.dump(2) + "\n", inputs);
  std::ostream& out = args.output == "-" ? std::cerr : std::cout;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "fit: %d tasks replayed (+ %d stages of other task counts); R² %.3f; median |error| %.3f s "
                "(%.1f%% of the task time)\n",
                result.quality.task_rows, result.quality.stage_rows, result.quality.r_squared,
                result.quality.median_abs_error_seconds, result.quality.median_abs_relative_error * 100);
  if (!args.measure_only) out << buf;
  const validate::MeasuredTimes& m = result.measured;
  auto secs = [](const std::optional<double>& v) { return v ? std::to_string(*v) + " s" : std::string("-"); };
  out << "measured: stageOverheadSeconds " << secs(m.stage_overhead_seconds) << " (median of "
      << m.overhead_samples << " stages); replanSeconds " << secs(m.replan_seconds) << " (median of "
      << m.replan_samples << " gaps, " << m.replan_min_seconds << "–" << m.replan_max_seconds
      << " s); executorStartupSeconds " << secs(m.executor_startup_seconds) << ", executorStageWarmupSeconds "
      << secs(m.executor_stage_warmup_seconds)
      << " (Executor Deserialize Time medians: " << m.fresh_deserialize_median_seconds << " s on "
      << m.fresh_tasks << " fresh-JVM tasks, " << m.first_wave_deserialize_median_seconds << " s on "
      << m.first_wave_tasks << " first-wave tasks, " << m.later_deserialize_median_seconds << " s on "
      << m.later_tasks << " later); taskLaunchSeconds " << secs(m.task_launch_seconds)
      << " (scheduler delay + result handling median " << m.scheduler_delay_median_seconds << " s over "
      << m.launch_samples << " tasks, + the later tasks' deserialization)\n";
  if (args.measure_only) return;
  out << "replay errors (median |stage error|, makespan error, decisions matched): before → after\n";
  for (size_t i = 0; i < result.after.size(); ++i) {
    const auto& b = result.before[i];
    const auto& a = result.after[i];
    out << "  " << std::filesystem::path(a.log).filename().string() << ": "
        << Pct(b.median_abs_stage_error, false) << ", " << Pct(b.makespan_relative_error) << " → "
        << Pct(a.median_abs_stage_error, false) << ", " << Pct(a.makespan_relative_error) << ", "
        << a.decisions_matched << "/" << a.decisions << "\n";
  }
}

}  // namespace

void RegisterCalibrate(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand("calibrate", "fit the cost model's parameters to recorded task times");
  cmd->add_option("LOG", args->logs, "event logs to fit to")->required();
  cmd->add_option("-o,--output", args->output, "cost file to write ('-' = stdout)")->required();
  cmd->add_option("--cost", args->base_cost,
                  "cost file to start from (parameters not fitted keep its values)");
  cmd->add_flag(
      "--no-measured-times", args->no_measured_times,
      "keep stageOverheadSeconds / replanSeconds / executorStartupSeconds / taskLaunchSeconds from --cost "
      "or the defaults instead of reading them from the logs' recorded gaps, scheduler delays and "
      "deserialization times");
  cmd->add_flag(
      "--measure-only", args->measure_only,
      "write only the terms read from the logs (stageOverheadSeconds, replanSeconds, taskLaunchSeconds, "
      "executorStartupSeconds, executorStageWarmupSeconds), without fitting the rates");
  cmd->add_flag("--allow-held-out", args->allow_held_out, "allow fitting to the held-out validation log");
  cmd->add_flag("-q,--quiet", args->quiet, "do not print import warnings");
  cmd->callback([args]() { RunCalibrate(*args); });
}

}  // namespace aqesim::cli
