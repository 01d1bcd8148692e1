// `aqesim validate LOG [--format table|json] [--cost COST.json] [--profile-from A] [-o FILE]`:
// replays a recorded Spark application (tools/validate/replay.h) with its own configuration and
// cluster and prints recorded vs simulated per stage, the makespan error and Spark's decisions
// vs the simulator's. --profile-from times LOG's stages with the recorded profiles of another
// run A (tools/validate/profile_graft.h): the what-if test.
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/validate/cost_file.h"
#include "tools/validate/replay.h"

namespace aqesim::cli {
namespace {

struct ValidateArgs {
  std::string log;
  std::string format = "table";
  std::string cost;
  std::string profile_from;
  std::string output = "-";
  bool quiet = false;
  bool no_profile = false;
};

void RunValidate(const ValidateArgs& args) {
  CheckOutputIsNotInput(args.output, {args.log, args.cost, args.profile_from});  // before the logs are read
  validate::ReplayOptions options;
  options.profiles = !args.no_profile;
  if (!args.cost.empty()) {
    std::vector<std::string> errors;
    options.cost = validate::ReadCostFile(args.cost, &errors);
    if (!errors.empty()) throw InputError(errors);
  }
  std::vector<std::string> warnings;
  validate::Validation v;
  try {
    const eventlog::RecordedApplication app = eventlog::ReadEventLog(args.log, &warnings);
    std::optional<eventlog::RecordedApplication> from;
    if (!args.profile_from.empty()) {
      std::vector<std::string> ignored;  // A's read warnings are about A
      from = eventlog::ReadEventLog(args.profile_from, &ignored);
      options.profile_from = &*from;
    }
    v = validate::ValidateApplication(app, options, &warnings);
    validate::SetBand(app, options.cost, &v);  // how far the modelled seconds can be trusted
  } catch (const eventlog::EventLogError& e) {
    throw InputError(e.what());
  }
  if (!args.quiet) {
    for (const auto& w : warnings) Warn(w);
  }
  if (!args.cost.empty()) {
    // A cost file times only the stages without a recorded profile: say so when it times few.
    size_t profiled = 0;
    for (const auto& st : v.stages) profiled += st.time_source == "profiled";
    if (profiled > 0)
      Warn("--cost times only the stages without a recorded profile: " + std::to_string(profiled) + " of " +
           std::to_string(v.stages.size()) +
           " stages here are timed by their profiles and ignore it (add --no-profile to replay with the "
           "cost file alone)");
  }
  const std::string text =
      args.format == "json" ? validate::ValidationToJson(v).dump(2) + "\n" : validate::ValidationToTable(v);
  WriteOutputAtomically(args.output, text, {args.log, args.cost, args.profile_from});
}

}  // namespace

void RegisterValidate(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "replay a recorded run with its own configuration; recorded vs simulated, per stage");
  cmd->add_option("LOG", args->log, "event log file or rolling event-log directory")->required();
  cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("--cost", args->cost, "cost file (from aqesim calibrate) merged over the imported cost");
  cmd->add_option("-o,--output", args->output, "write here instead of stdout");
  CLI::Option* no_profile =
      cmd->add_flag("--no-profile", args->no_profile,
                    "time every stage by the cost model (ignore the log's recorded stage profiles)");
  cmd->add_option("--profile-from", args->profile_from,
                  "time LOG's stages with the recorded profiles of this other event log (stages matched by "
                  "plan shape): would that run have predicted this one?")
      ->excludes(no_profile);
  cmd->add_flag("-q,--quiet", args->quiet, "do not print import warnings");
  cmd->callback([args]() { RunValidate(*args); });
}

}  // namespace aqesim::cli
