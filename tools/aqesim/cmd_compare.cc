// aqesim compare A.json B.json [--format table|json] [-o FILE]
// Two `aqesim run --format json` results side by side (tools/compare/run_comparison.h): for each
// AQE mode both hold, the makespans with their bands, every stage's time and task count, and the
// decisions only one of them took. Two `aqesim sweep` JSON outputs: their points matched by the
// swept values (tools/compare/sweep_comparison.h).
#include <cerrno>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/engine/run_result_reader.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/json_text.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"
#include "tools/compare/run_comparison.h"
#include "tools/compare/sweep_comparison.h"
#include "tools/sweep/sweep_output.h"

namespace aqesim::cli {
namespace {

/// One run of a result file with its band (`makespanSecondsLow/High`, absent when every stage
/// is profiled).
struct BandedRun {
  RunResult run;
  std::optional<compare::Band> band;
};

/// The largest result file compare reads: a parsed JSON document takes ~16× its bytes, so two of
/// these stay under 2 GiB; `run --format json` without --tasks writes ~120 bytes a stage (10^5
/// stages: 12 MiB). Task records are not compared: a bigger file is refused, not read.
constexpr size_t kMaxRunResultBytes = size_t{32} << 20;

/// A result file parsed (discarded when it is no JSON); a sweep's CSV table is refused here.
nlohmann::json ReadDocument(const std::string& path) {
  std::string text;
  if (const int err = ReadInputFile(path, &text, kMaxRunResultBytes); err != 0)
    throw InputError(path + ": cannot read the file: " + InputFileError(err, kMaxRunResultBytes) +
                     (err == EFBIG ? " (compare reads `run --format json` without --tasks)" : ""));
  if (text.rfind("point,", 0) == 0)  // a sweep's CSV table (sweep_output.h)
    throw InputError(path +
                     ": this is a sweep's CSV table, which compare does not read: write the sweep as JSON "
                     "(aqesim sweep ... -o SWEEP.json) and compare that");
  nlohmann::json doc = JsonNestingTooDeep(text) != std::string::npos
                           ? nlohmann::json(nlohmann::json::value_t::discarded)
                           : nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {  // no JSON text: where it stops being one, as the scenario loader says it
    std::vector<Diagnostic> errors;
    Json unused;
    if (!ParseJsonText(path, text, &unused, &errors) && !errors.empty())
      throw InputError(errors.front().ToString());
  }
  return doc;
}

bool IsSweepDocument(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("sweep") && doc.contains("rows");
}

sweep::SweepDocument ReadSweep(const nlohmann::json& doc, const std::string& path) {
  std::vector<std::string> errors;
  std::optional<sweep::SweepDocument> sweep = sweep::SweepFromJson(doc, path, &errors);
  if (!sweep || !errors.empty()) throw InputError(errors);
  if (!sweep->info.shard.empty())
    throw InputError(path + ": /sweep/shard: shard " + sweep->info.shard +
                     " of a sweep (compare reads whole sweeps: join the shards with aqesim merge first)");
  return std::move(*sweep);
}

std::string Quoted(const nlohmann::json& name) {
  return name.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<BandedRun> ReadRunResults(const std::string& path, const nlohmann::json& doc) {
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("runs") || !doc["runs"].is_array() ||
      doc["runs"].empty())
    throw InputError(path +
                     ": expected the JSON of `aqesim run --format json` (an object with a non-empty "
                     "\"runs\" array)");
  std::vector<std::string> errors;
  std::vector<BandedRun> out;
  for (size_t i = 0; i < doc["runs"].size(); ++i) {
    const std::string pointer = "/runs/" + std::to_string(i);
    const nlohmann::json& j = doc["runs"][i];
    std::optional<RunResult> run = RunFromJson(j, path, pointer, &errors);
    if (!run) continue;
    // compare matches runs by AQE mode and stages by name: a repeat would pair the wrong ones.
    for (const BandedRun& earlier : out)
      if (earlier.run.adaptive == run->adaptive)
        errors.push_back(path + ": " + pointer + "/adaptive: a second run with AQE " +
                         (run->adaptive ? "on" : "off") + " (compare pairs the runs by AQE mode)");
    std::set<std::string> names;
    for (size_t s = 0; s < run->stages.size(); ++s) {
      const std::string& name = run->stages[s].name;
      if (name.empty())
        errors.push_back(path + ": " + pointer + "/stages/" + std::to_string(s) +
                         "/name: expected a stage name (compare matches stages by name)");
      else if (!names.insert(name).second)
        errors.push_back(path + ": " + pointer + "/stages/" + std::to_string(s) + "/name: stage name " +
                         nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                         " repeats (compare matches stages by name)");
    }
    const double makespan = run->makespan_seconds;
    BandedRun r{std::move(*run), MakespanBandFromJson(j, makespan, path, pointer, &errors)};
    out.push_back(std::move(r));
  }
  if (!errors.empty()) throw InputError(errors);
  return out;
}

}  // namespace

void RegisterCompare(CLI::App& app) {
  struct Options {
    std::string a, b;
    std::string format = "table";
    std::string output = "-";
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("compare",
                                     "two `run --format json` results side by side: makespans, stages, "
                                     "decisions that differ; or two `sweep` "
                                     "JSON outputs point by point");
  cmd->add_option("A", o->a,
                  "the first run result (aqesim run ... --format json -o A.json) or sweep (aqesim sweep ... "
                  "-o A.json)")
      ->required();
  cmd->add_option("B", o->b, "the second run result or sweep")->required();
  cmd->add_option("--format", o->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  cmd->add_option("-o,--output", o->output, "output file (default stdout)");
  cmd->callback([o] {
    CheckOutputIsNotInput(o->output, {o->a, o->b});
    const nlohmann::json doc_a = ReadDocument(o->a), doc_b = ReadDocument(o->b);
    if (IsSweepDocument(doc_a) || IsSweepDocument(doc_b)) {  // two sweeps' points
      if (!IsSweepDocument(doc_a) || !IsSweepDocument(doc_b))
        throw InputError(
            (IsSweepDocument(doc_a) ? o->a : o->b) + " is a sweep's output and " +
            (IsSweepDocument(doc_a) ? o->b : o->a) +
            " is not: compare two `aqesim sweep` JSON outputs, or two `aqesim run --format json` "
            "results");
      const sweep::SweepDocument sa = ReadSweep(doc_a, o->a), sb = ReadSweep(doc_b, o->b);
      std::vector<std::string> errors;
      const std::optional<compare::SweepComparison> c = compare::CompareSweeps(sa, o->a, sb, o->b, &errors);
      if (!c) throw InputError(errors);
      WriteOutputAtomically(o->output,
                            o->format == "json" ? compare::SweepComparisonJson(o->a, o->b, *c).dump(2) + "\n"
                                                : compare::SweepComparisonTable(o->a, o->b, *c),
                            {o->a, o->b});
      return;
    }
    const std::vector<BandedRun> a = ReadRunResults(o->a, doc_a), b = ReadRunResults(o->b, doc_b);
    // Two settings of one job compare; two jobs' runs pair stages that merely share a name.
    if (doc_a.contains("scenario") && doc_a["scenario"].is_string() && doc_b.contains("scenario") &&
        doc_b["scenario"].is_string() && doc_a["scenario"] != doc_b["scenario"])
      Warn(o->a + " is a run of scenario " + Quoted(doc_a["scenario"]) + ", " + o->b + " of scenario " +
           Quoted(doc_b["scenario"]) + ": the comparison pairs stages of two different jobs by name");
    std::vector<compare::RunComparison> runs;
    for (const BandedRun& x : a) {
      for (const BandedRun& y : b) {
        if (x.run.adaptive == y.run.adaptive)
          runs.push_back(compare::CompareRuns(x.run, y.run, x.band, y.band));
      }
    }
    if (runs.empty())
      throw InputError(
          o->a + ", " + o->b +
          ": no AQE mode in common (one holds only AQE on, the other only AQE off): run both with "
          "--aqe both, or with the same --aqe");
    const std::string text = o->format == "json" ? compare::ComparisonJson(o->a, o->b, runs).dump(2) + "\n"
                                                 : compare::ComparisonTable(o->a, o->b, runs);
    WriteOutputAtomically(o->output, text, {o->a, o->b});
  });
}

}  // namespace aqesim::cli
