// aqesim merge SHARD... -o OUT
// Joins the outputs of `aqesim sweep --shard K/N` runs (all CSV or all JSON, as OUT's
// extension says) into exactly the bytes the unsharded sweep writes.
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/scenario/input_file.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/sweep/sweep_output.h"

namespace aqesim::cli {

void RegisterMerge(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("merge", "Join the outputs of sweep --shard K/N runs");
  cmd->add_option("SHARD", o->inputs, "Shard outputs (.csv or .json)")->required();
  cmd->add_option("-o,--output", o->output, "OUT.csv or OUT.json")->required();
  cmd->callback([o] {
    std::vector<std::string> errors;
    const std::optional<sweep::OutputFormat> format = sweep::FormatForPath(o->output);
    if (!format) throw InputError("-o " + o->output + ": expected a file name ending in .csv or .json");
    std::vector<sweep::ShardFile> shards;
    for (const std::string& path : o->inputs) {
      if (sweep::FormatForPath(path) != format) {
        errors.push_back(path + ": expected a " +
                         std::string(*format == sweep::OutputFormat::kCsv ? ".csv" : ".json") +
                         " shard, like the output");
        continue;
      }
      std::string text;
      if (const int err = ReadInputFile(path, &text); err != 0) {  // no hang on a FIFO
        errors.push_back(path + ": cannot read the file: " + std::strerror(err));
        continue;
      }
      shards.push_back({path, std::move(text)});
    }
    if (!errors.empty()) throw InputError(errors);
    std::optional<std::string> merged = sweep::MergeShards(*format, shards, &errors);
    if (!merged) throw InputError(errors);
    WriteOutputAtomically(o->output, *merged, o->inputs);
  });
}

}  // namespace aqesim::cli
