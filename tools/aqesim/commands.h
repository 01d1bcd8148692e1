// The aqesim subcommands: one file per subcommand (cmd_<name>.cc), registered from the
// table in main.cc. Each Register function adds its CLI11 subcommand and sets the callback
// that runs it; the callback throws UsageError / InputError for exit code 2.
#ifndef AQESIM_TOOLS_AQESIM_COMMANDS_H_
#define AQESIM_TOOLS_AQESIM_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace aqesim::cli {

void RegisterRun(CLI::App& app);
void RegisterExplain(CLI::App& app);
void RegisterValidate(CLI::App& app);
void RegisterCalibrate(CLI::App& app);
void RegisterImportEventlog(CLI::App& app);
void RegisterSweep(CLI::App& app);
void RegisterMerge(CLI::App& app);
void RegisterReport(CLI::App& app);
void RegisterScale(CLI::App& app);
void RegisterCompare(CLI::App& app);
void RegisterTune(CLI::App& app);
void RegisterConfKeys(CLI::App& app);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_COMMANDS_H_
