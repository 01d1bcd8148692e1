// `aqesim import-eventlog LOG -o SCENARIO.json [--execution ID | --job ID] [--name NAME] [--cost COST.json]`:
// reads a Spark event log (tools/eventlog) and writes a scenario reconstructed from it; --cost
// writes a cost file's parameters into the scenario's `cost` (over what the import measured).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/validate/cost_file.h"

namespace aqesim::cli {
namespace {

struct ImportEventlogArgs {
  std::string log;
  std::string output;
  int64_t execution_id = -1;
  int job_id = -1;
  std::string name;
  std::string cost;
  bool quiet = false;
};

void RunImportEventlog(const ImportEventlogArgs& args) {
  CheckOutputIsNotInput(args.output, {args.log, args.cost});  // before the log is read
  nlohmann::json cost;                                        // read first: a bad cost file costs no import
  if (!args.cost.empty()) {
    std::vector<std::string> errors;
    cost = validate::ReadCostFile(args.cost, &errors);
    if (!errors.empty()) throw InputError(errors);
  }
  std::vector<std::string> warnings;
  eventlog::ImportedScenario imported;
  try {
    const eventlog::RecordedApplication app = eventlog::ReadEventLog(args.log, &warnings);
    eventlog::ImportOptions options;
    if (args.execution_id >= 0) options.execution_id = args.execution_id;
    if (args.job_id >= 0) options.job_id = args.job_id;
    options.name = args.name;
    imported = eventlog::ImportScenario(app, options, &warnings);
  } catch (const eventlog::EventLogError& e) {
    throw InputError(e.what());
  }
  if (!args.quiet) {
    for (const auto& w : warnings) Warn(w);
  }
  for (const auto& [name, value] : cost.items()) imported.scenario["cost"][name] = value;
  // Never write what `run` would refuse: the scenario passes the loader's own checks first (a
  // damaged log's values, e.g. spark.task.cpus 0 or a stage of 0 tasks, would otherwise surface
  // only when the written scenario is run).
  const LoadResult check = LoadScenarioJson(imported.scenario, args.output, ConfOverrides{});
  if (!check.errors.empty()) {
    const Diagnostic& d = check.errors.front();
    throw InputError(
        args.log + ": the scenario imported from this log would not load, so none is written: " +
        (d.pointer.empty() ? "" : d.pointer + ": ") + d.message +
        (check.errors.size() > 1 ? " (and " + std::to_string(check.errors.size() - 1) + " more)" : ""));
  }
  WriteOutputAtomically(args.output, imported.scenario.dump(2) + "\n", {args.log, args.cost});
}

}  // namespace

void RegisterImportEventlog(CLI::App& app) {
  auto args = std::make_shared<ImportEventlogArgs>();
  CLI::App* cmd = app.add_subcommand("import-eventlog",
                                     "Spark event log (plain, .gz, .zstd, .lz4, .snappy, .lzf; rolling "
                                     "eventlog_v2_* dirs) -> scenario JSON");
  cmd->add_option("LOG", args->log, "event log file or rolling event-log directory")->required();
  cmd->add_option("-o,--output", args->output, "scenario file to write ('-' = stdout)")->required();
  auto* exec = cmd->add_option("--execution", args->execution_id,
                               "SQL execution id to import (default: the one with most shuffle bytes)");
  cmd->add_option("--job", args->job_id, "job id to import as an RDD job")->excludes(exec);
  cmd->add_option("--name", args->name, "scenario name (default: the log's file name)");
  cmd->add_option(
      "--cost", args->cost,
      "cost file (from aqesim calibrate) written into the scenario's cost, over the imported values");
  cmd->add_flag("-q,--quiet", args->quiet, "do not print warnings");
  cmd->callback([args]() { RunImportEventlog(*args); });
}

}  // namespace aqesim::cli
