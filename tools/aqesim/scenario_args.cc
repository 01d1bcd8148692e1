#include "tools/aqesim/scenario_args.h"

#include <filesystem>
#include <fstream>

#include "tools/aqesim/cli_support.h"
#include "tools/eventlog/byte_source.h"

namespace aqesim::cli {

void AddScenarioOptions(CLI::App* cmd, ScenarioArgs* args) {
  cmd->add_option("SCENARIO", args->path, "Scenario JSON file")->required();
  cmd->add_option("--conf", args->conf, "Spark configuration KEY=VALUE (repeatable; wins over the others)");
  cmd->add_option("--properties-file", args->properties_file,
                  "spark-defaults.conf-style file of Spark properties (wins over the scenario's conf)");
  cmd->add_option(
      "--cost", args->cost_file,
      "cost file (from aqesim calibrate) whose parameters win over the scenario's costFile and cost");
}

namespace {

/// The first 4 KiB of a file ("" when it cannot be read).
std::string FileHead(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

}  // namespace

bool LooksLikeEventLog(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return true;
  const std::string head = FileHead(path);
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;  // the scenario loader names the empty file
  if (head[first] != '{') return true;           // a codec's bytes
  const std::string line = head.substr(first, head.find('\n', first) - first);
  return line.find("\"Event\"") != std::string::npos;
}

bool IsRecognisedEventLog(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
      if (e.path().filename().string().rfind("events_", 0) == 0) return true;
    return false;
  }
  if (!fs::is_regular_file(path, ec)) return false;
  const std::string head = FileHead(path);
  const std::optional<eventlog::Codec> codec = eventlog::SniffCodec(head);
  if (codec && *codec != eventlog::Codec::kPlain) return true;
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || head[first] != '{') return false;
  const std::string line = head.substr(first, head.find('\n', first) - first);
  return line.find("\"Event\"") != std::string::npos && line.find("SparkListener") != std::string::npos;
}

void RefuseEventLog(const std::string& path) {
  if (IsRecognisedEventLog(path))
    throw InputError(path +
                     ": an event log, not a scenario: import it first (aqesim import-eventlog LOG -o "
                     "SCENARIO.json; --list shows its SQL executions); validate, scale and tune read a log "
                     "directly");
}

ConfOverrides OverridesOf(const ScenarioArgs& args) {
  ConfOverrides ov;
  ov.files = std::make_shared<InputFiles>();  // every load of this command reads each file once
  ov.properties_file = args.properties_file;
  ov.cost_file = args.cost_file;
  for (const std::string& kv : args.conf) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError("--conf " + kv + ": expected KEY=VALUE");
    }
    ov.conf.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return ov;
}

std::unique_ptr<Scenario> LoadOrThrow(const ScenarioArgs& args, const std::string& output) {
  return LoadOrThrow(args, output, OverridesOf(args));
}

std::unique_ptr<Scenario> LoadOrThrow(const ScenarioArgs& args, const std::string& output,
                                      const ConfOverrides& overrides) {
  CheckOutputIsNotInput(output,
                        {args.path, args.properties_file, args.cost_file});  // also when the scenario is bad
  LoadResult res = LoadScenarioFile(args.path, overrides);
  if (!res.errors.empty()) RefuseEventLog(args.path);
  if (!res.errors.empty()) {
    for (const std::string& w : res.warnings) Warn(w);  // before the errors, as on success
    std::vector<std::string> lines;
    for (const Diagnostic& d : res.errors) lines.push_back(d.ToString());
    throw InputError(std::move(lines));
  }
  CheckOutputIsNotInput(output, res.scenario->input_files);
  for (const std::string& w : res.scenario->warnings) Warn(w);
  return std::move(res.scenario);
}

}  // namespace aqesim::cli
