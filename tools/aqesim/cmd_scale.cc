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
#include "models/scenario/scenario.h"
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
// 0.0001 % of the most executors a cluster may have (kMaxExecutors, 10^6) is 1 executor; a row
// under 100 ÷ base % is 1 executor whatever it is, so a smaller percentage adds nothing.
constexpr double kMinPercent = 0.0001;
static_assert(kMaxExecutors == 1'000'000, "the messages below give kMinPercent as 0.0001");

/// --percent's list: decimal percentages from kMinPercent to kMaxPercent, spaces around each
/// allowed ("10, 20"), each once.
std::vector<double> ParsePercents(const std::string& list) {
  const std::string option = "--percent " + (list.empty() ? "\"\"" : list);
  if (list.empty()) throw InputError(option + ": expected at least one percentage, such as 50,100,200");
  std::vector<double> out;
  std::stringstream in(list + ",");  // a trailing empty item is read, and refused, too
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    item = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
    const std::optional<double> p = ParseDecimal(item);
    if (!p || *p < kMinPercent || *p > kMaxPercent)
      throw InputError(option +
                       ": expected decimal percentages from 0.0001 to 100000 (such as 50 or 12.5; 0.0001 % "
                       "of the largest cluster, 1000000 executors, is 1 executor), found \"" +
                       item + "\"");
    if (std::find(out.begin(), out.end(), *p) != out.end())  // two identical rows
      throw InputError(option + ": the percentage " + item + " is given twice (each row once)");
    out.push_back(*p);
  }
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
  cmd->callback([o, cmd] {
    scale::ScaleSpec spec;
    if (cmd->count("--percent") > 0) {
      spec.percents = ParsePercents(o->percents);
      spec.percents_option = "--percent " + o->percents;
    }
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
