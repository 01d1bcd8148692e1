#include "tools/report/report_input.h"

#include "models/engine/explain_reader.h"
#include "models/engine/run_result_reader.h"
#include "models/scenario/json_reader.h"
#include "tools/text/table_text.h"
#include "tools/tune/tune_reader.h"

namespace aqesim::report {

std::string TrustedSeconds(double seconds, const std::optional<MakespanBand>& band, bool known) {
  const std::string s = Fixed(seconds, 2) + " s";
  if (!known) return s;
  return s + (band ? BandText(band->low_seconds, band->high_seconds) : std::string(" (profiled)"));
}

std::string TrustedSeconds(const SimulatedMakespan& m) {
  return TrustedSeconds(m.seconds.value_or(0), m.band, m.band_known);
}

ReportInput InputFromRuns(const Scenario& scenario, RunResult aqe_off, RunResult aqe_on) {
  ReportInput in;
  in.kind = InputKind::kRun;
  in.source = scenario.path;
  in.scenario_name = scenario.name;
  in.description = scenario.description;
  in.run_off = std::make_shared<const RunResult>(std::move(aqe_off));
  in.run_on = std::make_shared<const RunResult>(std::move(aqe_on));
  in.explain_on = in.run_on;
  in.conf = scenario.raw_conf;
  in.conf_known = true;
  in.cluster = scenario.cluster;
  in.cluster_known = true;
  if (scenario.plan) in.shuffle_partitioning = PartitioningOfShuffles(*scenario.plan);
  return in;
}

bool IsScenarioDocument(const nlohmann::json& doc) { return doc.is_object() && doc.contains("plan"); }

std::optional<ReportInput> InputFromDocument(const nlohmann::json& doc, const std::string& path,
                                             std::vector<std::string>* errors) {
  const size_t before = errors->size();
  ReportInput in;
  in.source = path;
  if (!doc.is_object()) {
    errors->push_back(path +
                      ": expected an object: a scenario, `aqesim run --format json` output, `aqesim sweep`, "
                      "`aqesim tune` or `aqesim scale` JSON output");
    return std::nullopt;
  }
  if (doc.contains("sweep") && doc.contains("rows")) {
    in.kind = InputKind::kSweep;
    std::optional<sweep::SweepDocument> sweep = sweep::SweepFromJson(doc, path, errors);
    if (!sweep) return std::nullopt;
    in.sweep = std::move(*sweep);
    const sweep::SweepInfo& info = in.sweep.info;
    in.scenario_name = info.scenario;
    if (info.scenario_conf) {
      in.conf = *info.scenario_conf;
      in.conf_known = true;
    }
    if (info.cluster) {
      in.cluster.executors = info.cluster->executors;
      in.cluster.executor_cores = info.cluster->executor_cores;
      in.cluster.executor_memory_bytes = info.cluster->executor_memory_bytes;
      in.cluster_known = true;
    }
    return in;
  }
  if (tune::IsTuneDocument(doc)) {
    in.kind = InputKind::kTune;
    std::optional<tune::TuneOutcome> tune = tune::TuneFromJson(doc, path, errors);
    if (!tune) return std::nullopt;
    in.tune = std::move(*tune);
    in.scenario_name = in.tune.scenario_path;
    return in;
  }
  if (scale::IsScaleDocument(doc)) {
    in.kind = InputKind::kScale;
    in.scale = scale::ScaleFromJson(doc, path, errors);
    if (!in.scale) return std::nullopt;
    in.scenario_name = in.scale->subject;
    return in;
  }
  if (!doc.contains("runs") || !doc["runs"].is_array()) {
    errors->push_back(path +
                      ": expected a scenario (\"plan\"), the output of `aqesim run --format json --tasks` "
                      "(\"runs\"), of `aqesim sweep` (\"sweep\", \"rows\"), of `aqesim tune` (\"tune\", "
                      "\"trace\") or of `aqesim scale` (\"rows\", \"baseExecutors\")");
    return std::nullopt;
  }
  in.kind = InputKind::kRun;
  if (doc.contains("scenario")) {
    if (doc["scenario"].is_string())
      in.scenario_name = doc["scenario"].get<std::string>();
    else
      errors->push_back(path + ": /scenario: expected a string, found " + doc["scenario"].dump());
  }
  for (size_t i = 0; i < doc["runs"].size(); ++i) {
    const nlohmann::json& j = doc["runs"][i];
    std::optional<RunResult> run = RunFromJson(j, path, "/runs/" + std::to_string(i), errors);
    if (!run) continue;
    const bool adaptive = run->adaptive;
    // `run --format json` writes the band beside a modelled makespan, none beside a profiled one.
    if (auto band =
            MakespanBandFromJson(j, run->makespan_seconds, path, "/runs/" + std::to_string(i), errors))
      (adaptive ? in.band_on : in.band_off) = MakespanBand{band->first, band->second};
    in.bands_known = true;
    (adaptive ? in.run_on : in.run_off) = std::make_shared<const RunResult>(std::move(*run));
  }
  if (!in.run_on && !in.run_off && errors->size() == before)
    errors->push_back(path + ": /runs: expected at least one run");
  if (doc.contains("explain")) {
    if (std::optional<RunResult> explain = ExplainFromJson(doc["explain"], path, "/explain", errors))
      in.explain_on = std::make_shared<const RunResult>(std::move(*explain));
  }
  if (doc.contains("conf") && doc["conf"].is_object()) {
    for (auto it = doc["conf"].begin(); it != doc["conf"].end(); ++it)
      in.conf[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    in.conf_known = true;
  }
  if (doc.contains("cluster")) {
    // As the scenario reader reads a cluster (a hand-edited "executors": "ten" is an error).
    const nlohmann::json& c = doc["cluster"];
    DiagnosticSink sink(path);
    if (!c.is_object()) {
      sink.Error("/cluster", "expected an object (executors, executorCores, ...), found " + DescribeJson(c));
    } else {
      if (c.contains("executors"))
        if (auto n =
                ReadInteger(c["executors"], "/cluster/executors", 1, 1'000'000, "a positive integer", &sink))
          in.cluster.executors = static_cast<int>(*n);
      if (c.contains("executorCores"))
        if (auto n = ReadInteger(c["executorCores"], "/cluster/executorCores", 1, 100'000,
                                 "a positive integer", &sink))
          in.cluster.executor_cores = static_cast<int>(*n);
      if (c.contains("executorMemory"))
        if (auto b = ReadByteCount(c["executorMemory"], "/cluster/executorMemory",
                                   {.allow_string = true, .positive = true}, &sink))
          in.cluster.executor_memory_bytes = *b;
    }
    std::vector<Diagnostic> problems, warnings;
    sink.Finish(doc, &problems, &warnings);
    for (const Diagnostic& d : problems) errors->push_back(d.ToString());
    in.cluster_known = true;
  }
  if (errors->size() != before) return std::nullopt;
  return in;
}

}  // namespace aqesim::report
