// aqesim merge SHARD... -o OUT
// aqesim merge FOLDER [--wait SECONDS] -o OUT
// Joins the outputs of `aqesim sweep --shard K/N` runs (all CSV or all JSON, as OUT's
// extension says) into exactly the bytes the unsharded sweep writes. Given a folder (the
// `-o FOLDER/` of sharded sweeps), it takes the folder's shard-K-of-N files of OUT's format
// and reports, by index, shards missing or there twice (tools/sweep/shard_folder.h); with
// --wait it polls the folder for missing shards for up to SECONDS (for schedulers, such as a
// Kubernetes Job, that cannot make the merge wait for the array).
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "models/scenario/input_file.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/sweep/shard_folder.h"
#include "tools/sweep/shard_merge.h"
#include "tools/sweep/sweep_output.h"

namespace aqesim::cli {

namespace {

constexpr int64_t kMaxWaitSeconds = 100'000'000;  // over three years: any scheduler's array is done

// The folder's shard files, once every shard 1..N is there (polling up to `wait_seconds`).
std::vector<sweep::FolderShard> WaitForShards(const std::string& folder, sweep::OutputFormat format,
                                              int wait_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(wait_seconds);
  while (true) {
    // The array may not have created the folder yet.
    while (!std::filesystem::exists(folder) && Clock::now() < deadline)
      std::this_thread::sleep_for(
          std::min<Clock::duration>(std::chrono::seconds(2), deadline - Clock::now()));
    sweep::ShardFolderScan scan = sweep::ScanShardFolder(folder, format);
    if (!scan.errors.empty()) throw InputError(scan.errors);
    const std::string missing = sweep::DescribeMissingShards(scan, folder, format);
    if (missing.empty()) return std::move(scan.shards);
    const Clock::time_point now = Clock::now();
    if (now >= deadline) {
      throw InputError(wait_seconds > 0 ? missing + "; waited " + std::to_string(wait_seconds) + " s"
                                        : missing);
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::seconds(2), deadline - now));
  }
}

}  // namespace

void RegisterMerge(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string output;
    std::string wait;  // --wait SECONDS as given (empty: not given)
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("merge", "Join the outputs of sweep --shard K/N runs");
  cmd->add_option("SHARD", o->inputs, "Shard outputs (.csv or .json), or the folder they share")->required();
  cmd->add_option("-o,--output", o->output, "OUT.csv or OUT.json")->required();
  cmd->add_option("--wait", o->wait,
                  "With a FOLDER: wait up to SECONDS for missing shards to appear (default: none)")
      ->type_name("SECONDS");
  cmd->callback([o, cmd] {
    std::vector<std::string> errors;
    // Whole seconds as a decimal integer: "0x10", "1e3" or "1.5" would be read as another number.
    int wait_seconds = -1;
    if (cmd->count("--wait") > 0) {
      const std::optional<int64_t> w = ParseDecimalInteger(o->wait, kMaxWaitSeconds);
      if (!w)
        throw InputError("--wait " + (o->wait.empty() ? std::string("\"\"") : o->wait) +
                         ": expected whole seconds from 0 to " + std::to_string(kMaxWaitSeconds) +
                         ", as a decimal integer such as 60");
      wait_seconds = static_cast<int>(*w);
    }
    const std::optional<sweep::OutputFormat> format = sweep::FormatForPath(o->output);
    if (!format) throw InputError("-o " + o->output + ": expected a file name ending in .csv or .json");
    // One folder: an existing one, a name ending in '/', or any name with --wait (the array
    // creates the folder).
    const bool folder =
        o->inputs.size() == 1 && !o->inputs[0].empty() &&
        (std::filesystem::is_directory(o->inputs[0]) || o->inputs[0].back() == '/' || wait_seconds >= 0);
    if (!folder) {
      for (const std::string& path : o->inputs) {
        if (std::filesystem::is_directory(path))
          errors.push_back(path + ": a folder: give one folder, or shard files");
      }
      if (wait_seconds >= 0) errors.push_back("--wait: only with a FOLDER of shards");
      if (!errors.empty()) throw InputError(errors);
    }
    std::vector<sweep::ShardFile> shards;
    if (folder) {
      // The merged output named as a shard of the folder would be taken for one by the next merge.
      const std::filesystem::path out(o->output);
      std::error_code ec;
      if (sweep::ParseShardFileName(out.filename().string()) &&
          std::filesystem::equivalent(out.has_parent_path() ? out.parent_path() : ".", o->inputs[0], ec))
        throw InputError(o->output + ": cannot write output: a shard's name in the shards' folder " +
                         o->inputs[0] + " (choose another output file)");
      for (const sweep::FolderShard& s : WaitForShards(o->inputs[0], *format, std::max(wait_seconds, 0)))
        shards.push_back({s.path, "", s.shard});
    } else {
      for (const std::string& path : o->inputs) {
        if (sweep::FormatForPath(path) != format) {
          errors.push_back(path + ": expected a " +
                           std::string(*format == sweep::OutputFormat::kCsv ? ".csv" : ".json") +
                           " shard, like the output");
          continue;
        }
        shards.push_back({path, "", std::nullopt});
      }
    }
    std::vector<std::string> inputs;
    for (sweep::ShardFile& shard : shards) {
      inputs.push_back(shard.path);
      if (const int err = ReadInputFile(shard.path, &shard.text); err != 0)  // no hang on a FIFO
        errors.push_back(shard.path + ": cannot read the file: " + std::strerror(err));
    }
    if (!errors.empty()) throw InputError(errors);
    std::optional<std::string> merged = sweep::MergeShards(*format, shards, &errors);
    if (!merged) throw InputError(errors);
    WriteOutputAtomically(o->output, *merged, inputs);
  });
}

}  // namespace aqesim::cli
