// aqesim scale SCENARIO|LOG [--percent P1,P2,...] [--aqe on|off] [--conf KEY=VALUE]...
//                          [--properties-file FILE] [--cost FILE] [--threads N]
//                          [--format table|json] [-o FILE]
// How many executors should this job use? Makespan, core-hours and utilisation at percentages
// of the executors, each simulated with AQE in the loop (tools/scale/scale_runner.h); for an
// event log also Sparklens' estimate from the recorded task times.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/scenario/input_file.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/scale/scale_output.h"
#include "tools/scale/scale_runner.h"
#include "tools/validate/recorded_window.h"
#include "tools/validate/replay.h"

namespace aqesim::cli {

namespace {

constexpr double kMaxPercent = 100000;

std::vector<double> ParsePercents(const std::string& list) {
  std::vector<double> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    double p = 0;
    try {
      p = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || !(p > 0) || p > kMaxPercent)
      throw InputError("--percent " + list + ": expected percentages above 0 and at most 100000, found \"" +
                       item + "\"");
    if (std::find(out.begin(), out.end(), p) != out.end())  // two identical rows
      throw InputError("--percent " + list + ": the percentage " + item + " is given twice (each row once)");
    out.push_back(p);
  }
  if (out.empty()) throw InputError("--percent: expected at least one percentage");
  return out;
}

}  // namespace

void RegisterScale(CLI::App& app) {
  struct Options {
    ScenarioArgs scenario;
    std::string percents;
    std::string aqe;
    std::string format = "table";
    std::string output = "-";
    int threads = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "scale", "How many executors? Makespan, core-hours and utilisation at percentages of the executors");
  AddScenarioOptions(cmd, &o->scenario);
  cmd->get_option("SCENARIO")->description("Scenario JSON file or Spark event log");
  cmd->add_option("--percent", o->percents,
                  "comma-separated percentages of the executors (default 10,20,50,80,100,150,200,300,500)");
  cmd->add_option("--aqe", o->aqe, "on or off in every row (default: as the configuration says)")
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--threads", o->threads,
                  "rows simulated at once (default: the cores); same output at any count")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--format", o->format, "table or json (default table)")
      ->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("-o,--output", o->output, "Write to FILE instead of stdout (atomically)");
  cmd->callback([o] {
    scale::ScaleSpec spec;
    if (!o->percents.empty()) spec.percents = ParsePercents(o->percents);
    if (!o->aqe.empty()) spec.adaptive = o->aqe == "on";
    spec.threads = o->threads;
    const ConfOverrides overrides = OverridesOf(o->scenario);
    const std::string& path = o->scenario.path;
    std::optional<eventlog::RecordedApplication> recorded;
    std::vector<std::string> inputs = {path, o->scenario.properties_file, o->scenario.cost_file};
    const bool log = LooksLikeEventLog(path);
    if (log) {
      CheckOutputIsNotInput(o->output, inputs);
      std::vector<std::string> warnings;
      try {
        recorded = eventlog::ReadEventLog(path, &warnings);
        for (const std::string& w : warnings) Warn(w);  // a damaged log says so, as import-eventlog does
        for (auto [label, options] : validate::SelectReplays(*recorded)) {
          options.profiles = true;
          std::vector<std::string> import_warnings;
          scale::ScalePart part;
          part.label = path + " (" + label + ")";
          part.decision_prefix = label + ": ";
          part.document = eventlog::ImportScenario(*recorded, options, &import_warnings).scenario;
          part.document.erase("estimated");  // an annotation, not input
          part.overrides = overrides;
          const validate::RecordedWindow w = validate::RecordedWindowOf(*recorded, options);
          if (w.start_ms && w.end_ms && !w.cut)
            part.floor = validate::FloorSelection{w.stage_ids, *w.start_ms, *w.end_ms, std::nullopt};
          spec.parts.push_back(std::move(part));
        }
      } catch (const eventlog::EventLogError& e) {
        throw InputError(e.what());
      }
      if (spec.parts.empty()) throw InputError(path + ": no SQL execution or job ran a stage");
      if (spec.parts.size() == 1) spec.parts.front().decision_prefix.clear();
      spec.app = &*recorded;
    } else {
      const std::unique_ptr<Scenario> base =
          LoadOrThrow(o->scenario, o->output, overrides);  // its problems, once
      inputs = base->input_files;
      std::string text;
      ReadInputFileOnce(overrides.files.get(), path, &text, kMaxScenarioBytes);
      scale::ScalePart part;
      part.label = path;
      part.document = nlohmann::json::parse(text);  // the loader parsed it already
      part.overrides = overrides;
      spec.parts.push_back(std::move(part));
    }
    std::vector<std::string> errors;
    const std::optional<scale::ScaleResult> result = scale::RunScale(spec, &errors);
    if (!result) throw InputError(errors);
    for (const std::string& w : result->warnings) Warn(w);
    const std::string text = o->format == "json" ? scale::ScaleToJson(*result, path, log).dump(2) + "\n"
                                                 : scale::ScaleToTable(*result, path, log);
    WriteOutputAtomically(o->output, text, inputs);
  });
}

}  // namespace aqesim::cli
