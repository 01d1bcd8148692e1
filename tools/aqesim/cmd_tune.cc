// aqesim tune SCENARIO|LOG [--space KEY=V1,V2,...|KEY=LOW..HIGH[:log]]... [--objective
//            makespan|core-hours|weighted:W] [--budget N] [--seed S] [--threads N]
//            [--guardrails no-loss|worst|none] [--min-gain PERCENT] [--conf KEY=VALUE]...
//            [--properties-file FILE] [--cost FILE] [-o OUT.json] [--format text|json]
// Searches the configuration space with the simulator as the objective (tools/tune/): the
// scenario (or the event log's default SQL execution, imported with its recorded profiles) is
// read once and every configuration is built from it in-process. Prints what to set, the gain
// with how far its seconds can be trusted, which AQE decisions each key changes, and with -o the
// whole search as JSON (the same bytes for a seed at any --threads), journaled to OUT.journal as it
// goes so that a killed tune resumes (tools/tune/tune_journal.h).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/conf/property_value.h"
#include "models/engine/query_execution.h"
#include "models/engine/static_planner.h"
#include "models/plan/plan_error.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "models/scenario/shown_pointer.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/sweep/journal.h"
#include "tools/sweep/sweep_runner.h"
#include "tools/text/terminal_text.h"
#include "tools/tune/default_space.h"
#include "tools/tune/objective.h"
#include "tools/tune/recommendation.h"
#include "tools/tune/search.h"
#include "tools/tune/simulation_memory.h"
#include "tools/tune/tune_journal.h"
#include "tools/tune/tune_output.h"

namespace aqesim::cli {

namespace {

struct TuneArgs {
  ScenarioArgs scenario;
  std::vector<std::string> space;
  std::string objective = "makespan";
  int budget = 100;
  uint64_t seed = 0;
  int threads = 0;
  std::string guardrails = "no-loss";
  double min_gain_percent = 100 * tune::kDefaultMinGain;
  std::string output;
  std::string format;
  bool keep_journal = false;
};

// The scenario document: the file, or the log's default SQL execution imported with profiles.
Json ReadDocument(const TuneArgs& args, const ConfOverrides& overrides) {
  const std::string& path = args.scenario.path;
  if (LooksLikeEventLog(path)) {
    std::vector<std::string> warnings;
    try {
      const eventlog::RecordedApplication app = eventlog::ReadEventLog(path, &warnings);
      for (const std::string& w : warnings) Warn(w);  // a damaged log says so, as import-eventlog does
      warnings.clear();
      eventlog::ImportOptions options;  // the execution import-eventlog takes by default
      eventlog::ImportedScenario imported = eventlog::ImportScenario(app, options, &warnings);
      // Which part of the log is tuned: one SQL execution, not the application `scale` replays.
      if (app.executions.size() > 1) {
        char recorded[64] = "";
        if (imported.recorded_duration_ms)
          std::snprintf(recorded, sizeof recorded, ", %.3f s as recorded",
                        static_cast<double>(*imported.recorded_duration_ms) / 1000);
        std::fprintf(
            stderr,
            "aqesim: tune: %s holds %zu SQL executions; this tunes %s (the most shuffle bytes%s). "
            "For another: aqesim import-eventlog LOG --execution ID -o S.json, then aqesim tune S.json\n",
            TerminalText(path).c_str(), app.executions.size(), imported.selection.c_str(), recorded);
      }
      Json doc = std::move(imported.scenario);
      doc.erase("estimated");  // an annotation, not input
      return doc;
    } catch (const eventlog::EventLogError& e) {
      throw InputError(e.what());
    }
  }
  std::vector<Diagnostic> errors;
  std::string text;
  if (ReadInputFileOnce(overrides.files.get(), path, &text, kMaxScenarioBytes) != 0) {
    const LoadResult r = LoadScenarioFile(path, overrides);  // for its message
    std::vector<std::string> lines;
    for (const Diagnostic& d : r.errors) lines.push_back(d.ToString());
    if (lines.empty()) lines.push_back(path + ": cannot be read");
    throw InputError(lines);
  }
  // Too deep to parse safely (a recursive parser's stack): the loader's own message, as run gives.
  Json doc = JsonNestingTooDeep(text) != std::string::npos
                 ? Json(Json::value_t::discarded)
                 : Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    const LoadResult r = LoadScenarioFile(path, overrides);
    std::vector<std::string> lines;
    for (const Diagnostic& d : r.errors) lines.push_back(d.ToString());
    if (lines.empty()) lines.push_back(path + ": not a JSON document");
    throw InputError(lines);
  }
  return doc;
}

// Every problem of the axes: the key, the values (choices, or a range's bounds) as they load.
void CheckAxes(const std::vector<tune::SpaceAxis>& axes, const ScenarioBase& base,
               const ScenarioOverrides& ov, std::vector<std::string>* errors) {
  std::vector<std::string> keys;
  for (const tune::SpaceAxis& a : axes) {
    if (std::find(keys.begin(), keys.end(), a.key) != keys.end()) {
      errors->push_back("--space " + a.key + ": the key is given twice");
      continue;
    }
    keys.push_back(a.key);
    if (const std::string why = sweep::GridKeyProblem(a.key); !why.empty()) {
      errors->push_back("--space " + a.key + ": " + why);
      continue;
    }
    std::vector<std::string> values = a.choices;
    if (a.kind != tune::SpaceAxis::Kind::kChoice) {
      const std::string text = a.ToString();
      const size_t eq = text.find('=');
      const size_t dots = text.find("..");
      const size_t colon = text.find(':', dots);
      values = {text.substr(eq + 1, dots - eq - 1),
                text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2)};
    }
    for (const std::string& v : values) {
      // What the value alone can be wrong about; how it combines with the other keys
      // (maxExecutors >= minExecutors) is each candidate's check.
      const std::vector<std::string> problems = sweep::GridValueProblems(a.key, v, base, ov);
      for (const std::string& why : problems) errors->push_back("--space " + a.key + "=" + v + ": " + why);
      if (!problems.empty() || a.kind == tune::SpaceAxis::Kind::kChoice) continue;
      // A range's bounds also run: a bound the simulator refuses (spark.sql.shuffle.partitions
      // 2147483647 loads but plans more than 10^7 reducers) would fail every point near it.
      ScenarioOverrides with = ov;
      sweep::ApplyGridValue(a.key, v, base, &with);
      const LoadResult r = BuildScenario(base, with);
      if (r.errors.empty()) {
        try {
          SimulateQuery(*r.scenario, r.scenario->conf.adaptive_enabled);
        } catch (const PlanError& e) {
          errors->push_back("--space " + a.key + "=" + v + ": " + r.scenario->path + ": " +
                            ShownPointer(e.pointer) + ": " + e.message);
        }
      }
    }
  }
}

void RunTune(const TuneArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  const ConfOverrides conf = OverridesOf(args.scenario);
  std::vector<std::string> errors;
  std::vector<tune::SpaceAxis> axes;
  for (const std::string& s : args.space) {
    std::string why;
    if (auto axis = tune::ParseSpaceArg(s, &why)) {
      // The data and the hardware are what the job is, not what to set: searched, they were
      // "recommended" (simulation.dataScale=0.5 won: half the data is faster).
      for (const char* prefix : {"simulation.", "cost."})
        if (axis->key.rfind(prefix, 0) == 0) {
          why = "--space " + axis->key +
                ": describes the job or the hardware, not a setting to choose (tune " +
                "searches Spark keys and cluster.*); for a what-if over it use `aqesim sweep --grid " +
                axis->key + "=...`; tune's guardrails already judge each configuration at ×0.5 and ×2 data";
          break;
        }
      if (why.empty())
        axes.push_back(*axis);
      else
        errors.push_back(why);
    } else {
      errors.push_back(why);
    }
  }
  std::string why;
  const std::optional<tune::ObjectiveSpec> objective_spec = tune::ParseObjective(args.objective, &why);
  if (!objective_spec) errors.push_back(why);
  if (!(args.min_gain_percent >= 0 && args.min_gain_percent < 100))
    errors.push_back("--min-gain: expected a percentage from 0 to below 100");
  if (!errors.empty()) throw InputError(errors);
  const std::string output = args.output.empty() ? "-" : args.output;
  {  // refused before any simulation: a folder cannot be the output (nor hold its journal)
    std::error_code ec;
    if (output != "-" && (std::filesystem::is_directory(output, ec) || output.back() == '/'))
      throw InputError("-o " + output + ": a folder; give the file to write (e.g. " +
                       (output.back() == '/' ? output : output + "/") + "tune.json)");
  }
  // OUT.journal is written from the first simulation on and removed at the end: it must not be an
  // input either.
  const std::string journal_path = output == "-" ? "" : output + ".journal";
  const std::vector<std::string> named_inputs = {args.scenario.path, args.scenario.properties_file,
                                                 args.scenario.cost_file};
  CheckOutputIsNotInput(output, named_inputs);
  if (!journal_path.empty()) CheckOutputIsNotInput(journal_path, named_inputs);

  const Json doc = ReadDocument(args, conf);
  const std::shared_ptr<const ScenarioBase> base =
      ReadScenarioBase(doc, args.scenario.path, conf.files.get());
  const ScenarioOverrides overrides = ReadOverrides(conf);
  const LoadResult current = BuildScenario(*base, overrides);
  if (!current.errors.empty()) {
    for (const Diagnostic& d : current.errors) errors.push_back(d.ToString());
    throw InputError(errors);
  }
  for (const std::string& w : current.warnings) Warn(w);
  CheckOutputIsNotInput(output, current.scenario->input_files);
  if (!journal_path.empty()) CheckOutputIsNotInput(journal_path, current.scenario->input_files);
  CheckAxes(axes, *base, overrides, &errors);
  if (!errors.empty()) throw InputError(errors);

  tune::TuneObjective objective(
      base, overrides, *objective_spec, args.guardrails == "none" ? tune::NoGuardrails() : tune::Guardrails(),
      args.guardrails == "worst" ? tune::GuardrailJudgement::kWorst : tune::GuardrailJudgement::kNoLoss);
  if (const std::string problem = objective.Prepare(); !problem.empty())
    throw InputError(args.scenario.path + ": " + problem);
  if (axes.empty()) {
    std::string error;
    const std::optional<RunResult> run = objective.Run({}, &error);
    if (run) axes = tune::DefaultSpace(*current.scenario, *run, *objective_spec);
    if (axes.empty())
      throw InputError(
          args.scenario.path +
          ": the plan has no exchange and no join, so no AQE key can change it; give --space KEY=...");
  }

  tune::SearchSpec spec;
  spec.axes = axes;
  spec.budget = args.budget;
  spec.seed = args.seed;
  spec.threads =
      args.threads > 0 ? args.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  {  // a large job's simulations at once within 2 GiB (simulation_memory.h)
    int64_t planned = 0;
    try {
      planned = PlannedRunTasks(*PlanStatically(*current.scenario, current.scenario->conf).root).total;
    } catch (const PlanError&) {  // the simulations say so
    }
    double largest_scale = 1;
    for (const tune::Perturbation& p : objective.Perturbations())
      largest_scale = std::max(largest_scale, p.data_scale.value_or(1.0));
    // A space that raises the shuffles' reducer count plans up to that many times the tasks.
    const int partitions = current.scenario->conf.InitialShufflePartitions();
    for (const tune::SpaceAxis& a : axes) {
      if (a.key != "spark.sql.shuffle.partitions" &&
          a.key != "spark.sql.adaptive.coalescePartitions.initialPartitionNum")
        continue;
      double most = a.high;  // an integer range's; a choice's largest value
      for (const std::string& c : a.choices) most = std::max(most, ParseDouble(c).value_or(0.0));
      if (partitions > 0) largest_scale *= std::max(1.0, most / partitions);
    }
    const int fit = tune::ThreadsWithinMemory(spec.threads, planned, largest_scale);
    if (fit < spec.threads)
      Warn("tune: " + std::to_string(fit) + " simulation(s) at once instead of " +
           std::to_string(spec.threads) + ": each plans " + std::to_string(planned) + " tasks (about " +
           std::to_string(static_cast<int64_t>(static_cast<double>(planned) * largest_scale *
                                               tune::kBytesPerPlannedTask) >>
                          20) +
           " MiB at the largest data scale and reducer count), all at once within 2 GiB");
    spec.threads = fit;
  }
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  if (terminal) {
    spec.progress = [](int done, int budget) {
      std::fprintf(stderr, "\rtune: %d of at most %d configurations simulated", done, budget);
      std::fflush(stderr);
    };
  } else {
    // A batch job's log: a line at most every 30 s while it runs (a large job's tune takes
    // minutes, and said nothing until it ended), none for a short one.
    spec.progress = [start, last = start](int done, int budget) mutable {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::seconds(30)) return;
      last = now;
      std::fprintf(stderr, "aqesim: tune: %d of at most %d configurations simulated in %.0f s\n", done,
                   budget, std::chrono::duration<double>(now - start).count());
      std::fflush(stderr);
    };
  }
  // With -o, every configuration simulated is journaled; a rerun resumes from it (tune_journal.h).
  std::unique_ptr<tune::TuneJournal> journal;
  if (output != "-") {
    std::string fp = "aqesim-tune v1\nscenario:" + doc.dump() + "\nobjective:" + objective_spec->ToString();
    for (const auto& [k, v] : conf.conf) fp += "\nconf:" + k + "=" + v;
    for (const std::string& file : {conf.properties_file, conf.cost_file}) {
      std::string text;
      if (!file.empty()) ReadInputFileOnce(conf.files.get(), file, &text, kMaxScenarioBytes);
      fp += "\nfile:" + text;
    }
    for (const tune::Perturbation& p : objective.Perturbations()) fp += "\nguardrail:" + p.label;
    if (objective.Perturbations().size() > 1) fp += "\njudgement:" + tune::ToString(objective.Judgement());
    for (const tune::SpaceAxis& a : axes) fp += "\nspace:" + a.ToString();
    std::string error;
    journal = tune::TuneJournal::Open(journal_path, sweep::Fingerprint(fp), axes.size(),
                                      objective.Judgement(), &error);
    if (!journal) throw InputError(error);
    if (journal->resumed() > 0)
      Warn("resuming: " + std::to_string(journal->resumed()) + " configurations already simulated, from " +
           journal->path());
  }
  tune::TuneOutcome outcome;
  outcome.search = tune::Search(spec, [&](const std::vector<std::string>& values) {
    if (journal)
      if (std::optional<tune::Evaluation> done = journal->Find(values)) return *done;
    tune::Evaluation e = objective.Evaluate(tune::SettingsOf(axes, values));
    e.values = values;
    if (journal) journal->Record(e);
    return e;
  });
  if (terminal) std::fprintf(stderr, "\n");
  if (journal && !journal->error().empty()) throw InputError(journal->error());
  outcome.scenario_path = args.scenario.path;
  outcome.axes = axes;
  outcome.objective = *objective_spec;
  for (const tune::Perturbation& p : objective.Perturbations()) outcome.guardrails.push_back(p.label);
  outcome.judgement = objective.Judgement();
  outcome.budget = args.budget;
  outcome.seed = args.seed;
  outcome.min_gain = args.min_gain_percent / 100;
  outcome.current = objective.Current();
  outcome.current_trust = objective.TrustOf({});
  if (outcome.search.best < 0)  // nothing ran: no answer to write
    throw InputError("no configuration of the space could be simulated; the first: " +
                     outcome.search.evaluations.front().error);
  {
    const tune::Evaluation& best = outcome.search.evaluations[static_cast<size_t>(outcome.search.best)];
    outcome.best_trust = objective.TrustOf(tune::SettingsOf(axes, best.values));
    outcome.recommendation = tune::Recommend(objective, axes, best, outcome.min_gain);
    outcome.recommended_trust = objective.TrustOf(outcome.recommendation->settings);
  }
  const std::string format = !args.format.empty() ? args.format : output != "-" ? "json" : "text";
  const std::string text =
      format == "json" ? tune::TuneToJson(outcome).dump(2) + "\n" : tune::TuneToText(outcome);
  WriteOutputAtomically(output, text, current.scenario->input_files);
  if (journal && !args.keep_journal) std::remove(journal->path().c_str());  // OUT holds it all now
  if (output != "-" && outcome.recommendation) {
    // The answer, where the text output would have put it: the file holds the rest.
    const tune::Recommendation& r = *outcome.recommendation;
    std::string answer = "aqesim: tune: " + r.reason;
    if (r.recommended) {
      answer += " Set:";
      for (const tune::KeyChange& k : r.keys) {
        const std::optional<std::string> spark = tune::SparkKeyOf(k.key);
        answer +=
            spark ? " --conf " + *spark + "=" + k.value : " " + k.key + "=" + k.value + " (model parameter)";
      }
    }
    std::fprintf(stderr, "%s (aqesim report %s draws the search)\n", answer.c_str(), output.c_str());
  }
  if (!terminal) {  // a batch job's log: one line says what ran
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "aqesim: tune: %zu configuration(s) (%zu from the journal) in %.1f s; wrote %s\n",
                 outcome.search.evaluations.size(), journal ? journal->resumed() : size_t{0}, seconds,
                 output == "-" ? "the result to stdout" : output.c_str());
  }
}

}  // namespace

void RegisterTune(CLI::App& app) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tune", "Search Spark's configuration for the least makespan (or core-hours) with guardrails");
  AddScenarioOptions(cmd, &args->scenario);
  cmd->get_option("SCENARIO")->description("Scenario JSON file or Spark event log");
  cmd->add_option("--space", args->space,
                  "KEY=V1,V2,... or KEY=LOW..HIGH[:log] (repeatable; default: the AQE keys that can matter "
                  "for this job)");
  cmd->add_option("--objective", args->objective, "makespan (default), core-hours or weighted:W");
  cmd->add_option(
         "--budget", args->budget,
         "configurations to simulate, at most (default 100, at most 2000: the optimiser's model grows "
         "with every point, 2000 take about a minute)")
      ->check(CLI::Range(1, tune::kMaxBudget));
  cmd->add_option("--seed", args->seed, "the optimiser's seed, an integer >= 0 (default 0)")
      ->check(CLI::Validator(
          [](std::string& v) {
            errno = 0;
            const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
            if (digits) std::strtoull(v.c_str(), nullptr, 10);
            return digits && errno == 0 ? std::string()
                                        : "expected an integer from 0 to 18446744073709551615, found " + v;
          },
          "UINT"));
  cmd->add_option("--threads", args->threads,
                  "configurations simulated at once (default: the cores); same output at any count")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--guardrails", args->guardrails,
                  "no-loss (default: also judge each configuration on seed+1, data ×0.5 and ×2, a hotter and "
                  "a flatter skew; the mean gain over them counts, a loss on any vetoes), worst (the worst "
                  "ratio counts) or none")
      ->check(CLI::IsMember({"no-loss", "worst", "none"}));
  cmd->add_option("--min-gain", args->min_gain_percent,
                  "least gain worth recommending, percent (default 3: how far replays can be trusted)");
  cmd->add_option("-o,--output", args->output, "write to FILE (atomically; JSON unless --format text)");
  cmd->add_flag("--keep-journal", args->keep_journal,
                "keep OUT.journal (every configuration simulated) after OUT is written");
  cmd->add_option("--format", args->format, "text (default on stdout) or json")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([args] { RunTune(*args); });
}

}  // namespace aqesim::cli
