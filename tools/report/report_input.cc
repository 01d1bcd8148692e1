#include "tools/report/report_input.h"

#include <cmath>

#include "models/plan/planned_properties.h"

namespace aqesim::report {
namespace {

/// Seconds beyond which no run of the simulator can end: SimTime's range (int64 microseconds).
constexpr double kMaxRunSeconds = 9.2e12;

/// Every number of a run's stages is a count, a size or a time: finite, at least 0; times at most
/// kMaxRunSeconds, task counts at most kMaxPlannedTasks. Appends "PATH: /pointer: ..." for the
/// first few that are not (a hand-edited or damaged result must not reach the charts).
void CheckRunNumbers(const nlohmann::json& v, const std::string& where, const std::string& key,
                     std::vector<std::string>* errors, int* budget) {
  if (*budget <= 0) return;
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      CheckRunNumbers(it.value(), where + "/" + it.key(), it.key(), errors, budget);
    return;
  }
  if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i)
      CheckRunNumbers(v[i], where + "/" + std::to_string(i), key, errors, budget);
    return;
  }
  if (!v.is_number()) return;
  const double x = v.get<double>();
  const bool seconds = key.size() >= 7 && key.compare(key.size() - 7, 7, "Seconds") == 0;
  std::string why;
  if (!std::isfinite(x) || x < 0) {
    why = "expected a number >= 0";
  } else if (seconds && x > kMaxRunSeconds) {
    why = "expected at most 9.2e12 seconds (what a simulated run can last)";
  } else if (key == "tasks" && x > static_cast<double>(kMaxPlannedTasks)) {
    why = "expected at most " + std::to_string(kMaxPlannedTasks) + " tasks";
  }
  if (why.empty()) return;
  errors->push_back(where + ": " + why + ", found " + v.dump());
  --*budget;
}

}  // namespace

ReportInput InputFromRuns(const Scenario& scenario, const RunResult& aqe_off, const RunResult& aqe_on) {
  ReportInput in;
  in.kind = InputKind::kRun;
  in.source = scenario.path;
  in.scenario_name = scenario.name;
  in.description = scenario.description;
  in.run_off = nlohmann::json(RunToJson(aqe_off, /*with_tasks=*/true));
  in.run_on = nlohmann::json(RunToJson(aqe_on, /*with_tasks=*/true));
  in.explain_on = nlohmann::json(ExplainToJson(scenario.name, aqe_on));
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
    errors->push_back(
        path +
        ": expected an object: a scenario, `aqesim run --format json` output or `aqesim sweep` JSON output");
    return std::nullopt;
  }
  if (doc.contains("sweep") && doc.contains("rows")) {
    in.kind = InputKind::kSweep;
    if (!doc["sweep"].is_object()) errors->push_back(path + ": /sweep: expected an object");
    if (!doc["rows"].is_array()) errors->push_back(path + ": /rows: expected an array");
    if (errors->size() != before) return std::nullopt;
    in.sweep = doc;
    in.scenario_name = doc["sweep"].value("scenario", "");
    const nlohmann::json& info = doc["sweep"];
    if (info.contains("scenarioConf") && info["scenarioConf"].is_object()) {
      for (auto it = info["scenarioConf"].begin(); it != info["scenarioConf"].end(); ++it)
        if (it.value().is_string()) in.conf[it.key()] = it.value().get<std::string>();
      in.conf_known = true;
    }
    if (info.contains("cluster") && info["cluster"].is_object()) {
      const nlohmann::json& c = info["cluster"];
      in.cluster.executors = c.value("executors", in.cluster.executors);
      in.cluster.executor_cores = c.value("executorCores", in.cluster.executor_cores);
      in.cluster.executor_memory_bytes = c.value("executorMemoryBytes", in.cluster.executor_memory_bytes);
      in.cluster_known = true;
    }
    return in;
  }
  if (!doc.contains("runs") || !doc["runs"].is_array()) {
    errors->push_back(path +
                      ": expected a scenario (\"plan\"), the output of `aqesim run --format json --tasks` "
                      "(\"runs\") or of `aqesim sweep` (\"sweep\", \"rows\")");
    return std::nullopt;
  }
  in.kind = InputKind::kRun;
  in.scenario_name = doc.value("scenario", "");
  for (size_t i = 0; i < doc["runs"].size(); ++i) {
    const nlohmann::json& r = doc["runs"][i];
    const std::string p = path + ": /runs/" + std::to_string(i);
    if (!r.is_object() || !r.contains("adaptive") || !r["adaptive"].is_boolean() || !r.contains("stages") ||
        !r["stages"].is_array() || !r.contains("makespanSeconds") || !r["makespanSeconds"].is_number()) {
      errors->push_back(p + ": expected a run (adaptive, makespanSeconds, stages)");
      continue;
    }
    int budget = 20;
    CheckRunNumbers(r["makespanSeconds"], p + "/makespanSeconds", "makespanSeconds", errors, &budget);
    CheckRunNumbers(r["stages"], p + "/stages", "stages", errors, &budget);
    (r["adaptive"].get<bool>() ? in.run_on : in.run_off) = r;
  }
  if (in.run_on.is_null() && in.run_off.is_null() && errors->size() == before)
    errors->push_back(path + ": /runs: expected at least one run");
  if (doc.contains("explain") && doc["explain"].is_object()) in.explain_on = doc["explain"];
  if (doc.contains("conf") && doc["conf"].is_object()) {
    for (auto it = doc["conf"].begin(); it != doc["conf"].end(); ++it)
      in.conf[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    in.conf_known = true;
  }
  if (doc.contains("cluster") && doc["cluster"].is_object()) {
    const nlohmann::json& c = doc["cluster"];
    in.cluster.executors = c.value("executors", in.cluster.executors);
    in.cluster.executor_cores = c.value("executorCores", in.cluster.executor_cores);
    if (c.contains("executorMemory")) {
      const nlohmann::json& m = c["executorMemory"];
      if (m.is_number_integer())
        in.cluster.executor_memory_bytes = m.get<int64_t>();
      else if (m.is_string())
        if (auto b = ParseByteString(m.get<std::string>())) in.cluster.executor_memory_bytes = *b;
    }
    in.cluster_known = true;
  }
  if (errors->size() != before) return std::nullopt;
  return in;
}

}  // namespace aqesim::report
