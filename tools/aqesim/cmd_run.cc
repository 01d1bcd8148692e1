// aqesim run SCENARIO [--conf KEY=VALUE]... [--properties-file FILE] [--aqe on|off|both]
//                     [--format table|json] [--tasks] [-o FILE]
// Simulates the scenario; `both` (default) shows AQE off and on side by side.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/engine/cluster_scheduler.h"
#include "models/engine/run_result.h"
#include "models/engine/simulated_band.h"
#include "models/scenario/cluster_reader.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/aqesim/simulate.h"
#include "tools/aqesim/variant_comparison.h"
#include "tools/text/aqe_slowdown_text.h"
#include "tools/text/band_difference.h"
#include "tools/text/shared_limits_text.h"
#include "tools/text/subquery_text.h"
#include "tools/text/table_text.h"
#include "tools/text/time_source_text.h"

namespace aqesim::cli {

namespace {

/// A run's band: its makespan's and its resource view's.
struct RunBand {
  std::optional<MakespanBand> makespan;
  ResourceBand resources;
};

/// RunToJson with the band after makespanSeconds (makespanSecondsLow / makespanSecondsHigh) and
/// in `resources` after criticalPathSeconds and idealSeconds (…Low / …High).
nlohmann::ordered_json RunJson(const RunResult& run, const RunBand& band, bool tasks) {
  nlohmann::ordered_json j = RunToJson(run, tasks);
  if (!band.makespan) return j;
  nlohmann::ordered_json out;
  for (auto& [key, value] : j.items()) {
    out[key] = std::move(value);
    if (key == "makespanSeconds") {
      out["makespanSecondsLow"] = band.makespan->low_seconds;
      out["makespanSecondsHigh"] = band.makespan->high_seconds;
    }
  }
  nlohmann::ordered_json resources;
  for (auto& [key, value] : out["resources"].items()) {
    resources[key] = std::move(value);
    const MakespanBand* b = key == "criticalPathSeconds" ? &band.resources.critical_path
                            : key == "idealSeconds"      ? &band.resources.ideal
                                                         : nullptr;
    if (b != nullptr) {
      resources[key + "Low"] = b->low_seconds;
      resources[key + "High"] = b->high_seconds;
    }
  }
  out["resources"] = std::move(resources);
  return out;
}

/// Widest line of the stage table, code points.
constexpr size_t kTableColumns = 160;

/// "resources: 40 cores; core-hours 0.125 available, 0.081 used (65 %), 0.044 idle; critical
/// path 3.100 s (2.0–14 s), ideal 5.200 s (3.4–23 s)".
std::string ResourceText(const ResourceUsage& u, const RunBand& band) {
  auto hours = [](double core_hours) { return TwoDigits(core_hours); };
  std::string trust = band.makespan ? "" : " (profiled stages: recorded task times)";
  auto secs = [&](double s, const MakespanBand& b) {
    return Fixed(s, 3) + " s" + (band.makespan ? BandText(b.low_seconds, b.high_seconds) : std::string());
  };
  // Within the table's 160 columns (a profiled run's line was 167), continued under "resources: ".
  return WrapText("resources: " + std::to_string(u.peak_cores) + " cores; core-hours " +
                      hours(u.run.available_core_hours) + " available, " + hours(u.run.used_core_hours) +
                      " used (" + Fixed(100 * u.run.utilization(), 1) + " % utilisation), " +
                      hours(u.run.idle_core_hours()) + " idle; critical path " +
                      secs(u.critical_path_seconds, band.resources.critical_path) + ", ideal " +
                      secs(u.ideal_seconds, band.resources.ideal) + trust,
                  kTableColumns, 11) +
         "\n";
}

std::string StageTable(const RunResult& run) {
  const std::vector<std::string> head = {
      "stage", "runs",         "tasks",         "timed", "submit s",           "complete s", "duration s",
      "input", "shuffle read", "shuffle write", "spill", "task min/med/max s", "max÷med"};
  std::vector<std::vector<std::string>> rows;
  for (const StageResult& s : run.stages) {
    const double skew = s.task_median_seconds > 0 ? s.task_max_seconds / s.task_median_seconds : 0;
    rows.push_back(
        {std::to_string(s.id), s.name + ": " + s.operators, std::to_string(s.tasks),
         TimedText(s.time_source, s.resized_by), Fixed(s.submit_seconds), Fixed(s.complete_seconds),
         Fixed(s.duration_seconds()), FormatBytes(s.input_bytes), FormatBytes(s.shuffle_read_bytes),
         FormatBytes(s.shuffle_write_bytes), FormatBytes(s.spill_bytes),
         Fixed(s.task_min_seconds) + " / " + Fixed(s.task_median_seconds) + " / " + Fixed(s.task_max_seconds),
         Fixed(skew)});
  }
  // The operators (a stage of q72 runs nine nested joins: 300 characters) are cut so that a line
  // fits a 160-column terminal; --format json has them whole. The other columns of demo.json and
  // q72 take 137, those of a 100 TB scan 149 (seconds of 7 digits, 819200 tasks; 165 wide with
  // 16 columns kept for the operators): they keep what is left, down to the 4 of "runs".
  return TextTableWithin(kTableColumns, 1, 4, head, std::move(rows), [](size_t i) { return i != 1; });
}

/// Most task records `--tasks` prints, all runs together: the JSON of one task is ~660 bytes
/// and the document is built in memory, so 10^6 tasks are ~0.7 GB of output and ~1.5 GB of
/// memory. README "Input limits".
constexpr int64_t kMaxPrintedTaskRecords = 1'000'000;

void CheckTaskRecordCount(const std::vector<RunResult>& runs) {
  int64_t records = 0;
  for (const RunResult& r : runs)
    for (const StageResult& s : r.stages) records += static_cast<int64_t>(s.task_results.size());
  if (records > kMaxPrintedTaskRecords)
    throw InputError(
        "--tasks: the run" + std::string(runs.size() > 1 ? "s have " : " has ") + std::to_string(records) +
        " tasks; --tasks prints at most " + std::to_string(kMaxPrintedTaskRecords) +
        " task records (leave out --tasks for each stage's summary, or simulate one side with --aqe on|off)");
}

/// The line above a stage table: how its stages were timed (its `timed` column, counted) and how
/// far their seconds can be trusted. A modelled (or resized) stage's seconds move with the band
/// only roughly by its factors: the makespan's band is the run simulated again at them, whose
/// stages can start earlier or later (models/engine/simulated_band.h).
std::string StageSecondsLine(const RunResult& run) {
  const StageTimeCounts c = CountStageTimes(run);
  if (c.profiled == c.stages())
    return "stage seconds: every stage profiled from the log (its recorded task times re-scheduled; no "
           "band)\n";
  const std::string kinds = c.modelled > 0 && c.resized > 0 ? "modelled or resized"
                            : c.modelled > 0                ? "modelled"
                                                            : "resized";
  return WrapText(
             "stage seconds (timed): " + StageTimesText(c) + "; a " + kinds +
                 " stage's seconds carry the cost model's band, roughly × " + TwoDigits(kDefaultsBand.low) +
                 " to × " + TwoDigits(kDefaultsBand.high) +
                 " each (the makespan's band above re-simulates the run at those factors: README \"How far "
                 "to trust the seconds\")",
             kTableColumns, 2) +
         "\n";
}

std::string RunText(const RunResult& run, const RunBand& band) {
  std::ostringstream out;
  out << "AQE " << (run.adaptive ? "on" : "off") << ": makespan " << Fixed(run.makespan_seconds, 3) << " s"
      << (band.makespan ? BandText(band.makespan->low_seconds, band.makespan->high_seconds)
                        : std::string(" (profiled)"))  // every stage timed by a log's recorded profile
      << "\n";
  out << StageSecondsLine(run);
  out << StageTable(run);
  out << ResourceText(run.resources, band);
  out << SubqueriesText(run, kTableColumns);
  if (!run.executors.empty()) {  // dynamic allocation: the executor count as it changed
    int peak = 0;
    for (const ExecutorCountChange& c : run.executors) peak = std::max(peak, c.executors);
    out << "executors (dynamic allocation, peak " << peak << "):";
    const size_t n = run.executors.size(), shown = n <= 12 ? n : 10;  // the rest is in the JSON
    for (size_t i = 0; i < shown; ++i)
      out << " " << run.executors[i].executors << "@" << Fixed(run.executors[i].seconds, 1) << "s";
    if (shown < n) out << " ... (" << n << " changes; --format json lists them)";
    out << "\n";
  }
  if (!run.decisions.empty()) {
    out << "decisions:\n";
    for (const Decision& d : run.decisions)
      out << WrapText("  " + d.rule + " " + d.message, kTableColumns, 4) << "\n";
  }
  if (!run.not_applied.empty()) {  // why each rule left the rest as it was (explain's notApplied)
    out << "not applied:\n";
    for (const NotApplied& n : run.not_applied)
      out << WrapText("  " + n.rule + " " + n.message, kTableColumns, 4) << "\n";
  }
  const std::vector<std::string> limited = SharedLimitsLines(run);
  if (!limited.empty()) out << "shared limits (modelled, from the cluster's limits):\n";
  for (const std::string& l : limited) out << WrapText("  " + l, kTableColumns, 4) << "\n";
  for (const std::string& f : run.failures) out << "FAILURE: " << f << "\n";
  return out.str();
}

/// The executors the runs had: "8 executors × 4 cores"; a recorded timeline's most present at
/// once; dynamic allocation's initial and most executors (the peak is under each run).
std::string ClusterHeading(const Scenario& s) {
  const std::string cores = Counted(s.cluster.executor_cores, "core");
  if (DynamicAllocationSimulated(s)) {
    const DynamicAllocationConf& da = s.conf.dynamic_allocation;
    return "dynamic allocation from " + Counted(da.InitialExecutors(s.conf.executor_instances), "executor") +
           " (max " + (da.max_executors ? std::to_string(*da.max_executors) : std::string("unbounded")) +
           ") × " + cores;
  }
  if (!s.cluster.executor_timeline.empty())
    return "recorded executor timeline, at most " +
           Counted(PeakExecutors(s.cluster.executor_timeline), "executor") + " at once × " + cores;
  return Counted(s.cluster.executors, "executor") + " × " + cores;
}

}  // namespace

void RegisterRun(CLI::App& app) {
  struct Options {
    ScenarioArgs scenario;
    std::string aqe = "both";
    std::string format = "table";
    std::string output = "-";
    bool tasks = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("run", "Simulate a scenario: per-stage times, AQE off and on");
  AddScenarioOptions(cmd, &o->scenario);
  cmd->add_option("--aqe", o->aqe, "on, off or both (default both)")
      ->check(CLI::IsMember({"on", "off", "both"}));
  cmd->add_option("--format", o->format, "table or json (default table)")
      ->check(CLI::IsMember({"table", "json"}));
  cmd->add_flag("--tasks", o->tasks, "JSON: include every task (executor, slot, times, bytes)");
  cmd->add_option("-o,--output", o->output, "Write to FILE instead of stdout (atomically)");
  cmd->callback([o] {
    auto scenario = LoadOrThrow(o->scenario, o->output);
    std::vector<bool> adaptive;
    if (o->aqe != "on") adaptive.push_back(false);
    if (o->aqe != "off") adaptive.push_back(true);
    const std::vector<RunResult> runs =
        SimulateOrThrow(*scenario, adaptive, o->tasks ? TaskRecords::kKeep : TaskRecords::kDrop);
    if (o->tasks) CheckTaskRecordCount(runs);
    // How far the modelled seconds can be trusted (models/engine/simulated_band.h).
    std::vector<RunBand> bands(runs.size());
    for (size_t i = 0; i < runs.size(); ++i)
      bands[i].makespan = SimulateBand(scenario.get(), runs[i], &bands[i].resources);
    // Named variants on: Spark's plan and each variant's beside the scenario's run.
    const std::vector<VariantRun> variant_rows =
        o->aqe != "off" ? SimulateVariantComparison(scenario.get(), runs.back()) : std::vector<VariantRun>{};
    std::string text;
    if (o->format == "json") {
      nlohmann::ordered_json j = {{"scenario", scenario->name}, {"runs", nlohmann::ordered_json::array()}};
      for (size_t i = 0; i < runs.size(); ++i) j["runs"].push_back(RunJson(runs[i], bands[i], o->tasks));
      if (!variant_rows.empty()) j["variantComparison"] = VariantComparisonJson(variant_rows);
      text = j.dump(2) + "\n";
    } else {
      text = "scenario " + scenario->name + " — " + ClusterHeading(*scenario) + "\n";
      for (size_t i = 0; i < runs.size(); ++i) text += "\n" + RunText(runs[i], bands[i]);
      if (runs.size() == 2 && runs[1].makespan_seconds > 0) {
        text += "\nspeed-up with AQE: " + Fixed(runs[0].makespan_seconds / runs[1].makespan_seconds) + "× (" +
                Fixed(runs[0].makespan_seconds, 3) + " s → " + Fixed(runs[1].makespan_seconds, 3) + " s)\n";
        if (const std::optional<DifferenceVerdict> verdict =
                JudgeDifference({"AQE off", runs[0].makespan_seconds, bands[0].makespan},
                                {"AQE on", runs[1].makespan_seconds, bands[1].makespan}))
          text += WrapText(verdict->text, kTableColumns, 2) + "\n";
        if (const std::optional<std::string> why =
                AqeSlowdownText(runs[0], runs[1], runs[1].resources.peak_cores))
          text += WrapText(*why, kTableColumns, 2) + "\n";
      }
      if (!variant_rows.empty()) text += "\n" + VariantComparisonText(variant_rows);
    }
    WriteOutputAtomically(o->output, text, scenario->input_files);
  });
}

}  // namespace aqesim::cli
