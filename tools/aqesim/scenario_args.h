// Options every scenario-consuming subcommand shares: SCENARIO, --conf, --properties-file, --cost;
// and loading with diagnostics turned into exit code 2.
#ifndef AQESIM_TOOLS_AQESIM_SCENARIO_ARGS_H_
#define AQESIM_TOOLS_AQESIM_SCENARIO_ARGS_H_

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace aqesim::cli {

struct ScenarioArgs {
  std::string path;
  std::vector<std::string> conf;  // KEY=VALUE
  std::string properties_file;
  std::string cost_file;
};

void AddScenarioOptions(CLI::App* cmd, ScenarioArgs* args);

/// An event log (a rolling-log folder, a compressed file, or JSON lines of SparkListener
/// events) rather than a scenario (one JSON object with a plan): what `scale` and `tune` take
/// either of.
bool LooksLikeEventLog(const std::string& path);

/// An event log beyond doubt (LooksLikeEventLog only tells a log from a scenario among valid
/// inputs): a rolling log's folder (events_* files), a file with a compression codec's magic
/// number, or a first line that is a SparkListener event. Only regular files and folders are
/// opened (no read of a FIFO).
bool IsRecognisedEventLog(const std::string& path);

/// Throws InputError ("PATH: an event log, not a scenario: import it first ...") when
/// IsRecognisedEventLog(path): what run, explain and sweep say instead of a JSON syntax error.
void RefuseEventLog(const std::string& path);

/// --conf and --properties-file as ConfOverrides; InputError for a --conf without KEY=.
ConfOverrides OverridesOf(const ScenarioArgs& args);

/// Loads the scenario; prints its warnings; throws InputError with every problem, and when
/// `output` ("-" = stdout) is one of the files the scenario was read from (the scenario, its
/// csv matrices, cost file, properties file), before anything is simulated.
std::unique_ptr<Scenario> LoadOrThrow(const ScenarioArgs& args, const std::string& output = "-");
/// Same, with the overrides given (a command that loads the scenario again passes the same
/// ones, so their InputFiles give every load the bytes of the first).
std::unique_ptr<Scenario> LoadOrThrow(const ScenarioArgs& args, const std::string& output,
                                      const ConfOverrides& overrides);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_SCENARIO_ARGS_H_
