// aqesim report INPUT -o REPORT.html|REPORT.md [--format html|md] [--conf KEY=VALUE]... [--cost COST.json]
//                [--properties-file FILE]
// INPUT is a scenario (simulated here, AQE off and on, and at `aqesim scale`'s executor counts:
// the fullest report), the output of `aqesim run --format json --tasks`, or the JSON output of
// `aqesim sweep`, `aqesim tune` or `aqesim scale` (tools/report/report_input.h). HTML is one self-contained
// file that opens offline.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "models/engine/simulated_band.h"
#include "models/engine/static_planner.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/aqesim/simulate.h"
#include "tools/aqesim/variant_comparison.h"
#include "tools/eventlog/byte_source.h"
#include "tools/report/recommend.h"
#include "tools/report/report_input.h"
#include "tools/report/report_render.h"
#include "tools/report/simulation_progress.h"
#include "tools/scale/scale_runner.h"
#include "tools/sweep/sweep_runner.h"
#include "tools/tune/objective.h"

namespace aqesim::cli {

namespace {

// The largest input report reads: a parsed JSON document takes ~8-16× its bytes, so this keeps a
// report within a few GiB (a 532 MB tune result aborted on memory); a `run --tasks` result of 10^6
// tasks is ~150 MB.
constexpr size_t kMaxReportInputBytes = size_t{256} << 20;

// Simulates `base` with `read`'s overrides and the extra settings, AQE as they leave it.
report::MakespanWith MakespanWithOf(std::shared_ptr<const ScenarioBase> base, ScenarioOverrides read,
                                    std::shared_ptr<report::SimulationProgress> progress) {
  return [base, read = std::move(read), progress](const std::vector<report::ConfLine>& extra) {
    ScenarioOverrides ov = read;
    for (const report::ConfLine& l : extra) ov.conf.emplace_back(l.key, l.value);
    LoadResult res = BuildScenario(*base, ov);
    report::SimulatedMakespan out;
    if (!res.errors.empty()) {
      out.error = res.errors.front().ToString();
      return out;
    }
    try {
      RunResult run = SimulateQuery(*res.scenario, res.scenario->conf.adaptive_enabled);
      out.seconds = run.makespan_seconds;
      out.band = SimulateBand(res.scenario.get(), run);  // its seconds' band, as `run` prints it
      out.band_known = true;
      out.decisions = std::move(run.decisions);
    } catch (const PlanError& e) {
      out.error = base->path + ": " + e.what();
    }
    progress->TickIn("runs checking recommended settings");
    return out;
  };
}

// Judges extra settings on `base` as `aqesim tune` (makespan, its guardrails) would: the worst
// ratio over the copies and their mean. The current configuration is simulated on them once, at
// the first call.
report::GuardrailsWith GuardrailsWithOf(std::shared_ptr<const ScenarioBase> base, ScenarioOverrides read,
                                        std::shared_ptr<report::SimulationProgress> progress) {
  auto objective = std::make_shared<tune::TuneObjective>(std::move(base), std::move(read),
                                                         tune::ObjectiveSpec{}, tune::Guardrails());
  auto prepared = std::make_shared<std::optional<std::string>>();  // Prepare()'s error, once
  return [objective, prepared,
          progress](const std::vector<report::ConfLine>& extra) -> std::optional<report::GuardrailWorst> {
    const std::string what = "checks against tune's guardrails (" +
                             std::to_string(objective->Perturbations().size()) + " runs each)";
    if (!*prepared) {
      *prepared = objective->Prepare();
      progress->TickIn(what);
    }
    if (!(*prepared)->empty()) return std::nullopt;
    tune::Settings settings;
    for (const report::ConfLine& l : extra) settings.emplace_back(l.key, l.value);
    const tune::Evaluation e = objective->Evaluate(settings);
    progress->TickIn(what);
    if (!e.error.empty() || e.ratios.size() != objective->Perturbations().size()) return std::nullopt;
    const size_t worst =
        static_cast<size_t>(std::max_element(e.ratios.begin(), e.ratios.end()) - e.ratios.begin());
    return report::GuardrailWorst{e.ratios[worst], objective->Perturbations()[worst].label,
                                  tune::GeometricMean(e.ratios)};
  };
}

// Sweeps the scenario as `aqesim sweep SCENARIO --grid ...` (with the same --conf,
// --properties-file and --cost) would: the same prepared sweep and points, without a journal;
// the points run on the machine's cores, each into its own row (the same rows at any count).
report::SweepWith SweepWithOf(const std::string& path, const ConfOverrides& overrides,
                              std::shared_ptr<report::SimulationProgress> progress) {
  return [path, overrides, progress](const std::vector<sweep::GridAxis>& axes,
                                     std::string* error) -> std::optional<sweep::SweepDocument> {
    sweep::SweepSpec spec;
    spec.scenario_path = path;
    spec.overrides = overrides;
    spec.axes = axes;
    std::vector<std::string> errors;
    const std::optional<sweep::PreparedSweep> prepared = sweep::PrepareSweep(spec, &errors);
    if (!prepared) {
      for (const std::string& e : errors) *error += (error->empty() ? "" : "; ") + e;
      return std::nullopt;
    }
    sweep::SweepDocument doc;
    doc.info = prepared->info;
    doc.rows.resize(prepared->num_points);
    progress->Begin("points of the sweep the recommendation is chosen from (AQE off and on each)",
                    doc.rows.size());
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t threads = std::min<size_t>(cores, doc.rows.size());
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::vector<std::string> warnings;  // the sweep's own: the report shows the scenario's
        for (size_t i = t; i < doc.rows.size(); i += threads) {
          doc.rows[i] = sweep::ComputePoint(spec, *prepared, i, &warnings);
          progress->Tick();
        }
      });
    }
    for (std::thread& t : pool) t.join();
    return doc;
  };
}

// The scenario a sweep ran, with its --conf, --properties-file and --cost, when it still loads
// as it did (its path as the sweep recorded it); empty otherwise — the sweep report then stands on
// its rows alone. Its files join `inputs` (never overwritten by the report).
// Sets `input`'s makespan_with and guardrails_with to the swept scenario's (left empty when it
// can no longer be read).
void SweptScenario(const sweep::SweepInfo& info, std::vector<std::string>* inputs, report::ReportInput* input,
                   const std::shared_ptr<report::SimulationProgress>& progress) {
  ConfOverrides ov;
  ov.files = std::make_shared<InputFiles>();
  ov.properties_file = info.properties_file;
  ov.cost_file = info.cost_file;
  for (const std::string& kv : info.conf) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return;
    ov.conf.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  std::vector<Diagnostic> unread;
  std::shared_ptr<const ScenarioBase> base =
      ReadScenarioBaseFile(info.scenario_file, ov.files.get(), &unread);
  if (!base) return;
  ScenarioOverrides read = ReadOverrides(ov);
  const LoadResult check = BuildScenario(*base, read);
  if (!check.errors.empty()) return;
  inputs->insert(inputs->end(), check.scenario->input_files.begin(), check.scenario->input_files.end());
  input->makespan_with = MakespanWithOf(base, read, progress);
  input->guardrails_with = GuardrailsWithOf(base, std::move(read), progress);
}

}  // namespace

void RegisterReport(CLI::App& app) {
  struct Options {
    ScenarioArgs scenario;  // path = INPUT; --conf/--properties-file/--cost apply to a scenario input
    std::string output = "-";
    std::string format;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Tuning report (HTML or Markdown) from a scenario, `run --format json --tasks` output, a sweep, a tune "
      "or a scale result");
  cmd->add_option("INPUT", o->scenario.path, "Scenario, RESULT.json, SWEEP.json, TUNE.json or SCALE.json")
      ->required();
  cmd->add_option("--conf", o->scenario.conf,
                  "Spark configuration KEY=VALUE for a scenario input (repeatable)");
  cmd->add_option("--properties-file", o->scenario.properties_file,
                  "spark-defaults.conf-style file, scenario input");
  cmd->add_option("--cost", o->scenario.cost_file,
                  "cost file (from aqesim calibrate) for a scenario input; wins over its costFile and cost");
  cmd->add_option("-o,--output", o->output, "REPORT.html or REPORT.md (default stdout)");
  cmd->add_option("--format", o->format, "html or md (default: from the output's extension, else html)")
      ->check(CLI::IsMember({"html", "md"}));
  cmd->callback([o] {
    std::string format = o->format;
    if (format.empty()) {
      const std::string& out = o->output;
      format = out.size() > 3 && (out.substr(out.size() - 3) == ".md") ? "md" : "html";
    }
    std::string text;
    // Every file is read once: the what-if loads below get the same bytes (a FIFO or `<(...)`
    // has none left for a second read).
    const ConfOverrides overrides = OverridesOf(o->scenario);
    const std::string import_first =
        o->scenario.path +
        ": an event log, which report does not read: import it first "
        "(aqesim import-eventlog LOG -o SCENARIO.json) and report on the scenario";
    std::error_code ec;
    if (std::filesystem::is_directory(o->scenario.path, ec)) throw InputError(import_first);  // eventlog_v2_*
    if (const int err = overrides.files->Read(o->scenario.path, &text, kMaxReportInputBytes);
        err != 0)  // no hang on a FIFO
      throw InputError(o->scenario.path +
                       ": cannot read the file: " + InputFileError(err, kMaxReportInputBytes));
    {
      // An event log: a codec's bytes, or JSON lines of SparkListener events.
      const std::optional<eventlog::Codec> codec = eventlog::SniffCodec(text);
      const size_t first = text.find_first_not_of(" \t\r\n");
      const bool events =
          first != std::string::npos && text[first] == '{' &&
          text.substr(first, text.find('\n', first) - first).find("\"Event\"") != std::string::npos;
      const bool compressed = codec && *codec != eventlog::Codec::kPlain;
      if (compressed || events) throw InputError(import_first);
    }
    // Too deep to copy safely: the scenario loader reports it.
    const nlohmann::json doc = JsonNestingTooDeep(text) != std::string::npos
                                   ? nlohmann::json(nlohmann::json::value_t::discarded)
                                   : nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() && text.rfind("point,", 0) == 0)  // a sweep's CSV table (sweep_output.h)
      throw InputError(o->scenario.path +
                       ": this is a sweep's CSV table, which report does not read: write the sweep as JSON "
                       "(aqesim sweep ... -o SWEEP.json) and report on that");
    // Lines on stderr when the report runs long (its simulations), never into the report.
    auto progress = std::make_shared<report::SimulationProgress>(&std::cerr);
    report::ReportInput input;
    std::vector<std::string> inputs = {o->scenario.path, o->scenario.properties_file, o->scenario.cost_file};
    if (doc.is_discarded() || report::IsScenarioDocument(doc)) {
      auto scenario = LoadOrThrow(o->scenario, o->output, overrides);  // also reports JSON syntax errors
      inputs = scenario->input_files;
      std::vector<RunResult> runs = SimulateOrThrow(*scenario, {false, true});
      // Named variants on: Spark's plan and each variant's, side by side (as `run` prints them).
      std::vector<VariantRun> compared = SimulateVariantComparison(scenario.get(), runs[1]);
      // How far the seconds can be trusted, as `run` prints them (models/engine/simulated_band.h).
      const std::optional<MakespanBand> band_off = SimulateBand(scenario.get(), runs[0]);
      const std::optional<MakespanBand> band_on = SimulateBand(scenario.get(), runs[1]);
      input = report::InputFromRuns(*scenario, std::move(runs[0]), std::move(runs[1]));
      input.band_off = band_off;
      input.band_on = band_on;
      input.bands_known = true;
      for (size_t i = 0; i < compared.size(); ++i)
        input.variant_rows.push_back({compared[i].variants,
                                      i + 1 == compared.size()
                                          ? input.run_on
                                          : std::make_shared<const RunResult>(std::move(compared[i].run)),
                                      compared[i].band});
      // The what-ifs build on the scenario read once (the files read by the first load).
      std::vector<Diagnostic> unread;
      std::shared_ptr<const ScenarioBase> base =
          ReadScenarioBaseFile(o->scenario.path, overrides.files.get(), &unread);
      if (!base) throw InputError(JoinDiagnostics(unread));  // the first load read it: not expected
      ScenarioOverrides read = ReadOverrides(overrides);
      input.makespan_with = MakespanWithOf(base, read, progress);
      input.guardrails_with = GuardrailsWithOf(base, std::move(read), progress);
      input.sweep_with = SweepWithOf(o->scenario.path, overrides, progress);
      // How many executors: `aqesim scale`'s rows on the same scenario and settings.
      scale::ScaleSpec spec;
      scale::ScalePart part;
      part.label = o->scenario.path;
      part.document = doc;  // the bytes the load above read
      part.overrides = overrides;
      spec.parts.push_back(std::move(part));
      spec.row_done = [progress](size_t rows) { progress->TickIn("executor counts (aqesim scale)", rows); };
      std::vector<std::string> scale_errors;  // its warnings are the load's, printed once already
      if (std::optional<scale::ScaleResult> rows = scale::RunScale(spec, &scale_errors))
        input.scale = scale::ScaleDocument{std::move(*rows), o->scenario.path, false};
      else if (!scale_errors.empty())
        input.scale_error = scale_errors.front();
    } else {
      if (!o->scenario.conf.empty() || !o->scenario.properties_file.empty() || !o->scenario.cost_file.empty())
        throw InputError("--conf, --properties-file and --cost apply to a scenario input, not to " +
                         o->scenario.path);
      std::vector<std::string> errors;
      std::optional<report::ReportInput> parsed = report::InputFromDocument(doc, o->scenario.path, &errors);
      if (!parsed || !errors.empty()) throw InputError(errors);
      input = std::move(*parsed);
      if (input.kind == report::InputKind::kSweep) SweptScenario(input.sweep.info, &inputs, &input, progress);
    }
    WriteOutputAtomically(
        o->output, format == "md" ? report::RenderMarkdownReport(input) : report::RenderHtmlReport(input),
        inputs);
  });
}

}  // namespace aqesim::cli
