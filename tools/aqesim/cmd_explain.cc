// aqesim explain SCENARIO [--conf ...]: JSON of every adaptive decision and every read's
// partition specs (docs/user-contract.md §3).
#include <iostream>

#include "models/engine/run_result.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/aqesim/scenario_args.h"
#include "tools/aqesim/simulate.h"

namespace aqesim::cli {

void RegisterExplain(CLI::App& app) {
  auto args = std::make_shared<ScenarioArgs>();
  auto out = std::make_shared<std::string>("-");
  CLI::App* cmd =
      app.add_subcommand("explain", "JSON of every adaptive decision and every read's partition specs");
  AddScenarioOptions(cmd, args.get());
  cmd->add_option("-o,--output", *out, "Write to FILE instead of stdout (atomically)");
  cmd->callback([args, out] {
    auto scenario = LoadOrThrow(*args, *out);
    RunResult run = SimulateOrThrow(*scenario, /*adaptive=*/true);
    WriteOutputAtomically(*out, ExplainToJson(scenario->name, run).dump(2) + "\n", scenario->input_files);
  });
}

}  // namespace aqesim::cli
