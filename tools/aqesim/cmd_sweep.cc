// aqesim sweep SCENARIO|SWEEP_DEF --grid KEY=V1,V2,... [--grid ...] [--threads N]
//              [--shard K/N|auto|auto/N] [--conf KEY=VALUE]... [--properties-file FILE] [--cost FILE]
//              [--keep-journal] -o OUT.csv|OUT.json|FOLDER/ [--format csv|json]
// Simulates every point of the grids' cartesian product (AQE off and on) on N threads; rows
// come out in grid order whatever N is. Finished points are journaled to OUT.journal as they
// complete, and re-running the same command resumes from it; the journal is removed once
// OUT is written (kept with --keep-journal). See tools/sweep/.
//
// `--shard auto` takes K and N from a Slurm, Kubernetes Indexed Job or AWS Batch array job's
// environment (tools/sweep/shard_env.h). `-o FOLDER/` (a trailing slash, or an existing
// folder) writes FOLDER/shard-K-of-N.csv|json, the format from --format (default csv), so the
// elements of an array job share one folder that `aqesim merge FOLDER` joins
// (tools/sweep/shard_folder.h).
//
// A sweep definition (scenarios/sweeps/*.json) names the scenario and the grids:
//   {"name", "description", "scenario": "PATH relative to the definition", "grid": [{"key", "values"}]}
// --grid options add axes after the definition's.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/sweep/shard_env.h"
#include "tools/sweep/shard_folder.h"
#include "tools/sweep/sweep_output.h"
#include "tools/sweep/sweep_runner.h"

namespace aqesim::cli {

namespace {

// A sweep definition file: its scenario (relative to the file) and grids go into `spec`.
// Not a definition (e.g. a scenario): nothing happens.
void ReadSweepDefinition(const std::string& path, InputFiles* files, sweep::SweepSpec* spec,
                         std::vector<std::string>* errors) {
  std::string text;
  if (files->Read(path, &text, kMaxScenarioBytes) != 0) return;  // PrepareSweep reports it
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.contains("plan") || !doc.contains("scenario") || !doc.contains("grid")) return;
  for (const DuplicateKey& d : FindDuplicateKeys(text))
    errors->push_back(path + ": " + d.pointer + ": duplicate key " + DescribeJson(Json(d.key)) +
                      " in an object (which value is meant?)");
  if (!errors->empty()) return;
  if (!doc["scenario"].is_string()) {
    errors->push_back(path + ": /scenario: expected the path of a scenario file");
    return;
  }
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  spec->scenario_path = (base / doc["scenario"].get<std::string>()).lexically_normal().string();
  if (!doc["grid"].is_array()) {
    errors->push_back(path + ": /grid: expected an array of {\"key\", \"values\"}");
    return;
  }
  for (size_t i = 0; i < doc["grid"].size(); ++i) {
    const nlohmann::json& a = doc["grid"][i];
    const std::string p = path + ": /grid/" + std::to_string(i);
    if (!a.is_object() || !a.contains("key") || !a["key"].is_string() || !a.contains("values") ||
        !a["values"].is_array() || a["values"].empty()) {
      errors->push_back(p + ": expected {\"key\": KEY, \"values\": [V1, ...]}");
      continue;
    }
    sweep::GridAxis axis;
    axis.key = a["key"].get<std::string>();
    for (const auto& v : a["values"]) axis.values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
    spec->axes.push_back(std::move(axis));
  }
}

}  // namespace

void RegisterSweep(CLI::App& app) {
  struct Options {
    ScenarioArgs scenario;
    std::vector<std::string> grids;
    int threads = 0;
    std::string shard = "1/1";
    std::string output;
    std::string format;
    bool keep_journal = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      app.add_subcommand("sweep", "Simulate the cartesian product of configuration grids, in parallel");
  AddScenarioOptions(cmd, &o->scenario);
  cmd->add_option(
      "--grid", o->grids,
      "KEY=V1,V2,... (repeatable; KEY is a Spark key, cluster.FIELD, cost.PARAM or simulation.FIELD)");
  cmd->add_option("--threads", o->threads, "Worker threads (default and at most: the machine's cores)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--shard", o->shard,
                  "Run slice K of N (points i with i % N == K-1), or auto / auto/N: K and N from a Slurm "
                  "array job, a Kubernetes Indexed Job or an AWS Batch array job; join with aqesim merge");
  cmd->add_flag("--keep-journal", o->keep_journal, "Keep OUT.journal after OUT is written");
  cmd->add_option("-o,--output", o->output,
                  "OUT.csv, OUT.json, or FOLDER/ (a shared folder: writes FOLDER/shard-K-of-N.csv|json)")
      ->required();
  cmd->add_option("--format", o->format, "csv or json: the shard files' format with -o FOLDER/ (default csv)")
      ->type_name("csv|json")
      ->check(CLI::IsMember({"csv", "json"}));
  cmd->callback([o] {
    std::vector<std::string> errors;
    sweep::SweepSpec spec;
    spec.scenario_path = o->scenario.path;
    RefuseEventLog(o->scenario.path);
    // Every input file is read once, up front: the points get its bytes (a FIFO or `<(...)`
    // has none left for a second read; a file edited during the sweep changes no point).
    spec.overrides.files = std::make_shared<InputFiles>();
    ReadSweepDefinition(o->scenario.path, spec.overrides.files.get(), &spec, &errors);
    spec.overrides.properties_file = o->scenario.properties_file;
    spec.overrides.cost_file = o->scenario.cost_file;
    for (const std::string& kv : o->scenario.conf) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        errors.push_back("--conf " + kv + ": expected KEY=VALUE");
        continue;
      }
      spec.overrides.conf.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    for (const std::string& g : o->grids) {
      std::string why;
      if (auto axis = sweep::ParseGridArg(g, &why))
        spec.axes.push_back(std::move(*axis));
      else
        errors.push_back(why);
    }
    std::string why;
    const auto env = [](const char* name) -> const char* { return std::getenv(name); };
    const std::optional<sweep::ResolvedShard> shard = sweep::ParseShardOption(o->shard, env, &why);
    if (shard)
      spec.shard = shard->shard;
    else
      errors.push_back(why);
    // -o FOLDER/: this shard's file in the shared folder.
    const bool to_folder =
        !o->output.empty() && (o->output.back() == '/' || std::filesystem::is_directory(o->output));
    std::string output = o->output;
    std::optional<sweep::OutputFormat> format;
    if (to_folder) {
      format = o->format == "json" ? sweep::OutputFormat::kJson : sweep::OutputFormat::kCsv;
      if (shard)
        output = (std::filesystem::path(o->output) / sweep::ShardFileName(spec.shard, *format)).string();
    } else {
      format = sweep::FormatForPath(o->output);
      if (!format)
        errors.push_back("-o " + o->output +
                         ": expected a file name ending in .csv or .json, or a folder (ending in /) for the "
                         "shards' files");
      else if (!o->format.empty() && (*format == sweep::OutputFormat::kJson) != (o->format == "json"))
        errors.push_back("--format " + o->format + ": -o " + o->output + " names a file of the other format");
    }
    if (!errors.empty()) throw InputError(errors);
    spec.threads = o->threads;
    spec.journal_path = output + ".journal";
    spec.progress = ::isatty(STDERR_FILENO) != 0;
    const auto start = std::chrono::steady_clock::now();

    // Refused before hours of simulation, not after; the journal is written as soon as the
    // first point is done, so it must not be an input either.
    std::vector<std::string> inputs = {o->scenario.path, spec.scenario_path, o->scenario.properties_file,
                                       o->scenario.cost_file};
    CheckOutputIsNotInput(output, inputs);
    CheckOutputIsNotInput(spec.journal_path, inputs);
    std::optional<sweep::PreparedSweep> prepared = sweep::PrepareSweep(spec, &errors);
    if (!prepared) throw InputError(errors);
    inputs.insert(inputs.end(), prepared->input_files.begin(), prepared->input_files.end());
    CheckOutputIsNotInput(output, inputs);
    CheckOutputIsNotInput(spec.journal_path, inputs);
    for (const std::string& w : prepared->base_warnings) Warn(w);
    if (to_folder) {
      std::error_code ec;
      std::filesystem::create_directories(o->output, ec);  // shared: another element may create it too
      if (ec && !std::filesystem::is_directory(o->output))
        throw InputError("-o " + o->output + ": cannot create the folder: " + ec.message());
    }
    if (!shard->source.empty())
      std::fprintf(stderr, "aqesim: sweep: shard %s from %s; writing %s\n", spec.shard.ToString().c_str(),
                   shard->source.c_str(), output.c_str());
    std::optional<sweep::SweepOutcome> outcome = sweep::RunSweep(spec, *prepared, &why);
    if (!outcome) throw InputError(why);
    if (outcome->journal_started_over) Warn(spec.journal_path + ": written by another sweep; started over");
    if (outcome->dropped_journal_lines > 0)
      Warn(spec.journal_path + ": dropped " + std::to_string(outcome->dropped_journal_lines) +
           " torn or invalid line(s); those points were simulated again");
    if (outcome->resumed > 0)
      std::fprintf(stderr, "aqesim: sweep: resumed %llu finished point(s) from %s, simulated %llu\n",
                   static_cast<unsigned long long>(outcome->resumed), spec.journal_path.c_str(),
                   static_cast<unsigned long long>(outcome->computed));
    for (const std::string& w : outcome->warnings) Warn(w);
    std::vector<std::string> keys;
    for (const sweep::GridAxis& a : spec.axes) keys.push_back(a.key);
    // Every point failed: the input is bad, not the sweep's result (a script would take the file
    // of error rows for one). Some failed: their rows say why and the sweep succeeds. A shard
    // writes its rows whatever they are: merge joins it with the others.
    if (spec.shard.IsWhole() && !outcome->rows.empty() &&
        std::none_of(outcome->rows.begin(), outcome->rows.end(),
                     [](const sweep::SweepRow& row) { return row.metrics.has_value(); })) {
      if (!o->keep_journal) std::remove(spec.journal_path.c_str());
      const sweep::SweepRow& first = outcome->rows.front();
      std::string point;
      for (size_t i = 0; i < keys.size() && i < first.values.size(); ++i)
        point += (i > 0 ? " " : "") + keys[i] + "=" + first.values[i];
      throw InputError(spec.scenario_path + ": every point of the sweep failed (" +
                       std::to_string(outcome->rows.size()) + " of " + std::to_string(outcome->rows.size()) +
                       "), so " + output + " is not written; the first, " + point + ": " + first.error);
    }
    WriteOutputAtomically(
        output, sweep::RenderSweep(*format, sweep::SweepInfoToJson(prepared->info), keys, outcome->rows),
        inputs);
    if (!o->keep_journal) std::remove(spec.journal_path.c_str());
    // Without a terminal (a batch job's log) no progress bar was drawn: one line says what ran.
    if (!spec.progress) {
      size_t failed = 0;
      for (const sweep::SweepRow& row : outcome->rows) failed += !row.metrics;
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(
          stderr,
          "aqesim: sweep: %zu point(s) (%llu simulated, %llu resumed, %zu failed) in %.1f s; wrote %s\n",
          outcome->rows.size(), static_cast<unsigned long long>(outcome->computed),
          static_cast<unsigned long long>(outcome->resumed), failed, seconds, output.c_str());
    }
    // The rows' seconds carry no band of their own (a band costs two more simulations a point):
    // one line says how far they can be trusted; the JSON output has it as `sweep.seconds`.
    std::fprintf(stderr, "aqesim: sweep: %s\n", sweep::SecondsTrustText(prepared->info.time_source).c_str());
  });
}

}  // namespace aqesim::cli
