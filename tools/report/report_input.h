// What `aqesim report` reads, normalized: a single configuration's runs (AQE off and on,
// with tasks, and the AQE-on run's explain document) or a sweep's output.
//
// Inputs accepted (detected by content):
//  - a scenario file (has "plan"): the report simulates it, AQE off and on — the richest
//    report (partition-size charts and recommendations use the explain data and the conf);
//  - RESULT.json, the output of `aqesim run --format json --tasks`: {"scenario", "runs"};
//    optional members "explain" (an `aqesim explain` document), "conf" (Spark key → value)
//    and "cluster" (the scenario's cluster object) enable the parts that need them;
//  - SWEEP.json, the JSON output of `aqesim sweep` ({"sweep", "rows"});
//  - TUNE.json, the JSON output of `aqesim tune` ({"tune", "trace"}; tools/tune/tune_reader.h);
//  - SCALE.json, the JSON output of `aqesim scale` ({"rows", "baseExecutors", "scenario"|"log"};
//    tools/scale/scale_reader.h).
#ifndef AQESIM_TOOLS_REPORT_REPORT_INPUT_H_
#define AQESIM_TOOLS_REPORT_REPORT_INPUT_H_

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/cluster/cluster.h"
#include "models/conf/spark_conf.h"
#include "models/cost/defaults_band.h"
#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"
#include "tools/report/plan_partitioning.h"
#include "tools/scale/scale_reader.h"
#include "tools/sweep/sweep_output.h"
#include "tools/tune/tune_output.h"

namespace aqesim::report {

enum class InputKind { kRun, kSweep, kTune, kScale };

struct ConfLine;  // recommend.h
/// What simulating the report's scenario with extra settings gave: its makespan in seconds,
/// or (nullopt) why it does not run with them ("FILE: /plan: join sides have ...").
struct SimulatedMakespan {
  std::optional<double> seconds;
  std::string error;
  /// The run's adaptive decisions (rule, message), so a recommendation can name what it changes.
  std::vector<Decision> decisions;
  /// How far `seconds` can be trusted (models/engine/simulated_band.h): the band of a modelled
  /// run, nullopt when every stage is profiled from a log; meaningful only when `band_known`.
  std::optional<MakespanBand> band;
  bool band_known = false;
};
/// A makespan as `run` prints it, to two decimals: "43.04 s (34–330 s)" with the band of a
/// modelled run, "43.04 s (profiled)" when every stage is timed by a log's recorded profile, bare
/// when the input says neither.
std::string TrustedSeconds(double seconds, const std::optional<MakespanBand>& band, bool known);
/// The same of a simulated makespan that has seconds.
std::string TrustedSeconds(const SimulatedMakespan& m);

/// Simulates the report's scenario with `extra` Spark settings added (winning over its own),
/// with AQE on or off as the settings leave spark.sql.adaptive.enabled.
using MakespanWith = std::function<SimulatedMakespan(const std::vector<ConfLine>& extra)>;
/// Extra settings over aqesim tune's guardrails (tools/tune/objective.h: the scenario as given,
/// seed+1, data ×0.5 and ×2, a hotter and a flatter skew), each copy's makespan with them divided
/// by the current configuration's on the same copy: the largest ratio and its copy, and the
/// geometric mean of all of them (what tune's default no-loss judgement counts).
struct GuardrailWorst {
  double ratio = 1;
  std::string label;  // "data ×2"
  double mean_ratio = 1;
};
/// nullopt when the settings cannot be judged so (a copy does not run).
using GuardrailsWith = std::function<std::optional<GuardrailWorst>(const std::vector<ConfLine>& extra)>;
/// Sweeps the report's scenario over `axes` exactly as `aqesim sweep` does (same points, same
/// rows, same `sweep` object); nullopt with `*error` when the sweep cannot be prepared.
using SweepWith = std::function<std::optional<sweep::SweepDocument>(const std::vector<sweep::GridAxis>& axes,
                                                                    std::string* error)>;

/// One row of the named variants' comparison (models/conf/variants.h, tools/aqesim/variant_comparison.h):
/// the AQE-on run with `variants` on; empty `variants` = Apache Spark.
struct VariantRow {
  std::vector<std::string> variants;
  std::shared_ptr<const RunResult> run;
  /// The makespan's band (models/engine/simulated_band.h); nullopt: every stage profiled.
  std::optional<MakespanBand> band;
};

struct ReportInput {
  InputKind kind = InputKind::kRun;
  std::string source;  // the input file as given
  std::string scenario_name;
  std::string description;
  /// The runs, AQE off and on, with their tasks; null when the input has none. Shared and
  /// immutable: a scenario's AQE-on run is also its explain_on.
  std::shared_ptr<const RunResult> run_off;
  std::shared_ptr<const RunResult> run_on;
  /// How far run_off's and run_on's seconds can be trusted: each makespan's band
  /// (models/engine/simulated_band.h; from RESULT.json, the run's makespanSecondsLow / High);
  /// nullopt: every stage profiled from a log. Meaningful only when `bands_known`.
  std::optional<MakespanBand> band_off;
  std::optional<MakespanBand> band_on;
  bool bands_known = false;
  /// What `aqesim explain` says of the AQE-on run (its exchanges and reads); null when absent.
  std::shared_ptr<const RunResult> explain_on;
  /// Spark configuration as the scenario has it (after --conf); known = it was given.
  RawConf conf;
  bool conf_known = false;
  ClusterSpec cluster;
  bool cluster_known = false;
  /// For a scenario input: how each exchange gets its partition count (by exchange id);
  /// empty when the input carries no plan.
  std::map<std::string, ShufflePartitioning> shuffle_partitioning;
  /// The sweep output for InputKind::kSweep.
  sweep::SweepDocument sweep;
  /// The tune output for InputKind::kTune.
  tune::TuneOutcome tune;
  /// The executor counts: the scale output for InputKind::kScale; for a scenario input, `aqesim
  /// scale`'s rows on it (the report's "How many executors?" section), or nullopt with
  /// `scale_error` saying why they could not be simulated.
  std::optional<scale::ScaleDocument> scale;
  std::string scale_error;
  /// For a scenario input with a named variant on: Spark's AQE-on run, each enabled variant's
  /// alone (when several are on) and all of them (run_on); empty otherwise.
  std::vector<VariantRow> variant_rows;
  /// For a scenario input: re-simulates it with extra settings, so that a recommendation is
  /// checked before it is made (CheckBySimulation). Empty for RESULT.json and sweeps.
  MakespanWith makespan_with;
  /// Beside makespan_with: the recommendation judged on tune's guardrails too, so that the report
  /// and `aqesim tune` agree on what is worth a change. Empty for RESULT.json.
  GuardrailsWith guardrails_with;
  /// For a scenario input: sweeps it, so that the report recommends what a sweep of the keys
  /// that matter would (recommender.h). Empty for RESULT.json and sweeps.
  SweepWith sweep_with;
};

/// From a loaded scenario and its two runs (the report's own simulation).
ReportInput InputFromRuns(const Scenario& scenario, RunResult aqe_off, RunResult aqe_on);

/// Whether a parsed document is a scenario (to be simulated by the caller).
bool IsScenarioDocument(const nlohmann::json& doc);

/// From a RESULT.json or SWEEP.json document, read into the structs the simulator and the sweep
/// produce (models/engine/run_result_reader.h, tools/sweep/sweep_output.h); nullopt with every
/// problem in `*errors` ("PATH: /pointer: message").
std::optional<ReportInput> InputFromDocument(const nlohmann::json& doc, const std::string& path,
                                             std::vector<std::string>* errors);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_REPORT_INPUT_H_
