// `aqesim import-eventlog LOG -o SCENARIO.json [--execution ID | --job ID] [--name NAME] [--cost COST.json]`:
// reads a Spark event log (tools/eventlog) and writes a scenario reconstructed from it; --cost
// writes a cost file's parameters into the scenario's `cost` (over what the import measured).
// `aqesim import-eventlog LOG --list [--format table|json] [-o FILE]` lists what could be imported
// (tools/eventlog/execution_listing.h) and imports nothing.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/eventlog/execution_listing.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/text/table_text.h"
#include "tools/text/terminal_text.h"
#include "tools/validate/cost_file.h"

namespace aqesim::cli {
namespace {

struct ImportEventlogArgs {
  std::string log;
  std::string output;
  std::string execution_id;  // as given (checked by ParseId: CLI11 took -1 as "none" and clamped
  std::string job_id;        // 10^20 to INT64_MAX)
  std::string name;
  std::string cost;
  bool quiet = false;
  bool list = false;
  std::string format = "table";
};

/// `--execution` / `--job` VALUE: a decimal id from 0 to `max`, else a usage error naming it.
std::optional<int64_t> ParseId(const char* option, const std::string& value, int64_t max) {
  if (value.empty()) return std::nullopt;
  int64_t id = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
  if (ec != std::errc() || end != value.data() + value.size() || id < 0 || id > max)
    throw InputError(std::string(option) + " " + TerminalText(value) + ": expected an id from 0 to " +
                     std::to_string(max));
  return id;
}

/// The listing within kTextColumns: the first line wrapped, the description column cut to fit.
std::string ListingTable(const std::string& log, const std::vector<eventlog::ListedExecution>& listed) {
  int sql = 0;
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : listed) {
    const bool is_sql = e.kind == eventlog::ListedExecution::Kind::kSqlExecution;
    sql += is_sql ? 1 : 0;
    rows.push_back(
        {e.default_selection ? "*" : "",
         e.importable ? (is_sql ? "--execution " : "--job ") + std::to_string(e.id) : "",
         is_sql ? (e.adaptive ? "on" : "off") : "", e.duration_ms ? Fixed(*e.duration_ms / 1000.0, 3) : "?",
         std::to_string(e.jobs), std::to_string(e.stages), std::to_string(e.tasks),
         FormatBytes(e.shuffle_write_bytes),
         (e.importable ? ""
                       : "(SQL execution " + std::to_string(e.id) + ": no plan logged; import its jobs) ") +
             TerminalText(e.description)});
  }
  const size_t jobs = listed.size() - static_cast<size_t>(sql);
  std::string out = TerminalText(log) + ": " + std::to_string(sql) + " SQL execution" +
                    (sql == 1 ? "" : "s") + ", " + std::to_string(jobs) + " job" + (jobs == 1 ? "" : "s") +
                    " importable only with --job";
  if (listed.empty()) return WrapText(out + "; nothing to import", kTextColumns, 2) + "\n";
  out = WrapText(out + "; * = imported when neither --execution nor --job is given", kTextColumns, 2) + "\n";
  return out + TextTableWithin(kTextColumns, 8, 20,
                               {"", "import with", "AQE", "recorded s", "jobs", "stages", "tasks",
                                "shuffle write", "description"},
                               std::move(rows), [](size_t i) { return i >= 3 && i <= 7; });
}

nlohmann::json ListingJson(const std::string& log, const std::vector<eventlog::ListedExecution>& listed) {
  nlohmann::json executions = nlohmann::json::array();
  for (const auto& e : listed) {
    const bool is_sql = e.kind == eventlog::ListedExecution::Kind::kSqlExecution;
    nlohmann::json row = {{"kind", is_sql ? "sqlExecution" : "job"},
                          {"id", e.id},
                          {"description", e.description},
                          {"recordedSeconds", nullptr},
                          {"jobs", e.jobs},
                          {"stages", e.stages},
                          {"tasks", e.tasks},
                          {"shuffleWriteBytes", e.shuffle_write_bytes},
                          {"importable", e.importable},
                          {"default", e.default_selection}};
    if (e.duration_ms) row["recordedSeconds"] = *e.duration_ms / 1000.0;
    if (is_sql) row["adaptive"] = e.adaptive;
    executions.push_back(std::move(row));
  }
  return {{"log", log}, {"executions", std::move(executions)}};
}

void RunListing(const ImportEventlogArgs& args) {
  if (!args.output.empty()) CheckOutputIsNotInput(args.output, {args.log});
  std::vector<std::string> warnings;
  std::vector<eventlog::ListedExecution> listed;
  try {
    listed = eventlog::ListExecutions(eventlog::ReadEventLog(args.log, &warnings));
  } catch (const eventlog::EventLogError& e) {
    throw InputError(e.what());
  }
  if (!args.quiet) {
    for (const auto& w : warnings) Warn(w);
  }
  const std::string text =
      args.format == "json" ? ListingJson(args.log, listed).dump(2) + "\n" : ListingTable(args.log, listed);
  if (args.output.empty() || args.output == "-") {
    std::cout << text;
  } else {
    WriteOutputAtomically(args.output, text, {args.log});
  }
}

void RunImportEventlog(const ImportEventlogArgs& args) {
  const std::optional<int64_t> execution_id =
      ParseId("--execution", args.execution_id, std::numeric_limits<int64_t>::max());
  const std::optional<int64_t> job_id = ParseId("--job", args.job_id, std::numeric_limits<int>::max());
  if (std::any_of(args.name.begin(), args.name.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    throw InputError("--name " + DescribeJson(Json(args.name)) +
                     ": expected a name without control characters");
  if (args.list) return RunListing(args);
  if (args.output.empty())
    throw InputError("import-eventlog: -o,--output is required (or --list to see what the log holds)");
  CheckOutputIsNotInput(args.output, {args.log, args.cost});  // before the log is read
  nlohmann::json cost;                                        // read first: a bad cost file costs no import
  if (!args.cost.empty()) {
    std::vector<std::string> errors;
    cost = validate::ReadCostFile(args.cost, &errors);
    if (!errors.empty()) throw InputError(errors);
  }
  std::vector<std::string> warnings;
  eventlog::ImportedScenario imported;
  eventlog::RecordedApplication app;
  try {
    app = eventlog::ReadEventLog(args.log, &warnings);
    eventlog::ImportOptions options;
    options.execution_id = execution_id;
    if (job_id) options.job_id = static_cast<int>(*job_id);
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
    const std::string more =
        check.errors.size() > 1 ? " (and " + std::to_string(check.errors.size() - 1) + " more)" : "";
    // A recorded property the loader refuses is named at its log line, not as /conf/KEY.
    if (const std::string place = eventlog::LogPlaceOf(app, imported.scenario, d.pointer); !place.empty())
      throw InputError(place + ": " + d.message + more +
                       "; the scenario imported from this log would not load, so none is written");
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
  cmd->add_option(
      "-o,--output", args->output,
      "scenario file to write ('-' = stdout); required unless --list (then: where the listing goes)");
  auto* exec = cmd->add_option("--execution", args->execution_id,
                               "SQL execution id to import (default: the one with most shuffle bytes)")
                   ->type_name("ID");
  auto* job = cmd->add_option("--job", args->job_id, "job id to import as an RDD job")
                  ->type_name("ID")
                  ->excludes(exec);
  cmd->add_option("--name", args->name, "scenario name (default: the log's file name)");
  cmd->add_option(
      "--cost", args->cost,
      "cost file (from aqesim calibrate) written into the scenario's cost, over the imported values");
  cmd->add_flag("-q,--quiet", args->quiet, "do not print warnings");
  auto* list =
      cmd->add_flag("--list", args->list,
                    "list the log's SQL executions and jobs outside SQL (id, AQE, recorded duration, "
                    "jobs, stages, tasks, shuffle bytes, description) and import nothing");
  list->excludes(exec)->excludes(job);
  cmd->add_option("--format", args->format, "with --list: table (default) or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->needs(list);
  cmd->callback([args]() { RunImportEventlog(*args); });
}

}  // namespace aqesim::cli
