// aqesim explain SCENARIO [--conf ...] [--format json|table]: JSON of every adaptive decision and
// every read's partition specs (docs/user-contract.md §3), or the same summarised for a person
// (tools/explain/explain_table.h).
#include <iostream>

#include "models/engine/run_result.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/aqesim/simulate.h"
#include "tools/explain/explain_table.h"

namespace aqesim::cli {

void RegisterExplain(CLI::App& app) {
  auto args = std::make_shared<ScenarioArgs>();
  auto out = std::make_shared<std::string>("-");
  auto format = std::make_shared<std::string>("json");
  CLI::App* cmd =
      app.add_subcommand("explain", "JSON of every adaptive decision and every read's partition specs");
  AddScenarioOptions(cmd, args.get());
  cmd->add_option("-o,--output", *out, "Write to FILE instead of stdout (atomically)");
  cmd->add_option("--format", *format,
                  "json (default: every decision, spec and size) or table (a summary within 160 columns)")
      ->check(CLI::IsMember({"json", "table"}));
  cmd->callback([args, out, format] {
    auto scenario = LoadOrThrow(*args, *out);
    RunResult run = SimulateOrThrow(*scenario, /*adaptive=*/true);
    WriteOutputAtomically(*out,
                          *format == "table" ? explain::ExplainTable(scenario->name, run)
                                             : ExplainToJson(scenario->name, run).dump(2) + "\n",
                          scenario->input_files);
  });
}

}  // namespace aqesim::cli
