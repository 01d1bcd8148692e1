#include "tools/eventlog/scenario_import.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "models/engine/static_planner.h"
#include "tools/eventlog/cluster_import.h"
#include "tools/eventlog/conf_import.h"
#include "tools/eventlog/execution_listing.h"
#include "tools/eventlog/import_context.h"
#include "tools/eventlog/import_description.h"
#include "tools/eventlog/pool_import.h"
#include "tools/eventlog/rdd_job_import.h"
#include "tools/eventlog/resource_import.h"
#include "tools/eventlog/sql_plan_import.h"
#include "tools/eventlog/stage_profile_import.h"

namespace aqesim::eventlog {

using nlohmann::json;

std::string JsonPointerToken(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string LogPlaceOf(const RecordedApplication& app, const json& scenario, const std::string& pointer) {
  constexpr std::string_view kConf = "/conf/";
  if (pointer.compare(0, kConf.size(), kConf) != 0) return "";
  std::string key;  // the reference token, unescaped
  for (size_t i = kConf.size(); i < pointer.size(); ++i) {
    if (pointer[i] == '/') return "";
    if (pointer[i] == '~' && i + 1 < pointer.size()) {
      key += pointer[++i] == '1' ? '/' : '~';
    } else {
      key += pointer[i];
    }
  }
  const auto where = app.property_where.find(key);
  const auto value = app.spark_properties.find(key);
  if (where == app.property_where.end() || value == app.spark_properties.end() || !scenario.contains("conf"))
    return "";
  const json& conf = scenario["conf"];
  if (!conf.is_object() || !conf.contains(key) || conf[key] != value->second) return "";
  return where->second + ": Spark Properties: " + key;
}

void PlaceDiagnosticsInLog(const RecordedApplication& app, const json& scenario,
                           std::vector<Diagnostic>* diagnostics) {
  for (Diagnostic& d : *diagnostics)
    if (std::string place = LogPlaceOf(app, scenario, d.pointer); !place.empty()) {
      d.file = std::move(place);
      d.pointer.clear();
    }
}

std::string DefaultScenarioName(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.empty()) name = std::filesystem::path(path).parent_path().filename().string();
  for (const char* ext : {".inprogress", ".zstd", ".zst", ".gz", ".lz4", ".snappy", ".lzf", ".json"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      name.resize(name.size() - e.size());
  }
  return name;
}

namespace {

/// Refuses (EventLogError at the Stage Info line of the stage that passes it) a selection whose
/// executed stages plan more than kMaxRunTasks tasks together, the most one run holds, before
/// anything is sized by them (10 stages of 10^7 tasks aborted the importer, out of memory).
void CheckPlannedTasks(const RecordedApplication& app, const std::vector<int>& job_ids,
                       const std::string& what) {
  std::set<int> seen;
  int64_t total = 0;
  for (int j : job_ids) {
    const auto job = app.jobs.find(j);
    if (job == app.jobs.end()) continue;
    for (int s : job->second.stage_ids) {
      const RecordedStage* st = app.stage(s);
      if (st == nullptr || !st->submitted || !seen.insert(s).second) continue;
      total += st->num_tasks;
      if (total > kMaxRunTasks)
        throw EventLogError((st->declared_at.empty() ? app.path : st->declared_at) + ": stage " +
                            std::to_string(s) + ": its " + std::to_string(st->num_tasks) +
                            " tasks bring those of " + what + "'s stages past " +
                            std::to_string(kMaxRunTasks) +
                            ", the most one run holds (README \"Input limits\"): it cannot be imported");
    }
  }
}

}  // namespace

ImportedScenario ImportScenario(const RecordedApplication& app, const ImportOptions& options,
                                std::vector<std::string>* warnings) {
  std::vector<std::string> local_warnings;
  if (warnings == nullptr) warnings = &local_warnings;
  ImportedScenario out;
  ImportContext ctx{app, warnings, &out, {}};
  json plan;
  json subqueries = json::array();
  std::string what;

  // --- selection ---
  const RecordedSqlExecution* execution = nullptr;
  const RecordedJob* job = nullptr;
  if (options.job_id) {
    auto it = app.jobs.find(*options.job_id);
    if (it == app.jobs.end())
      throw EventLogError(app.path + ": no job " + std::to_string(*options.job_id) + " in the log");
    job = &it->second;
  } else if (options.execution_id) {
    auto it = app.executions.find(*options.execution_id);
    if (it == app.executions.end() || it->second.plans.empty()) {
      throw EventLogError(app.path + ": no SQL execution " + std::to_string(*options.execution_id) +
                          " with a plan in the log");
    }
    execution = &it->second;
  } else {
    const ImportSelection selection = DefaultImportSelection(app);
    execution = selection.execution;
    job = selection.job;
    if (execution == nullptr && job == nullptr)
      throw EventLogError(app.path + ": no SQL execution and no job to import");
  }

  if (execution != nullptr) {
    out.execution_id = execution->execution_id;
    out.selection = "SQL execution " + std::to_string(execution->execution_id);
    CheckPlannedTasks(app, execution->job_ids, out.selection);
    SqlPlanImporter importer(ctx, *execution);
    plan = importer.Build();
    subqueries = importer.BuildSubqueries();
    if (execution->start_time_ms && execution->end_time_ms) {
      out.recorded_duration_ms = *execution->end_time_ms - *execution->start_time_ms;
    }
    what = out.selection +
           (execution->description.empty() ? "" : " (\"" + CappedLogText(execution->description) + "\")");
  } else {
    out.job_id = job->job_id;
    out.selection = "job " + std::to_string(job->job_id);
    CheckPlannedTasks(app, {job->job_id}, out.selection);
    plan = RddJobImporter(ctx).Build(*job);
    if (job->submission_time_ms && job->completion_time_ms) {
      out.recorded_duration_ms = *job->completion_time_ms - *job->submission_time_ms;
    }
    const RecordedStage* last = out.stage_ids.empty() ? nullptr : app.stage(out.stage_ids.back());
    what = out.selection +
           (last != nullptr && !last->name.empty() ? " (\"" + CappedLogText(last->name) + "\")" : "");
  }

  ImportedCluster cluster = ImportCluster(ctx, execution, job);
  json conf = ImportConf(ctx, execution, cluster.cluster.contains("executorTimeline"));
  ImportResources(app, &cluster.cluster, &conf);
  if (out.session_partitions)
    conf[out.session_partitions->first] = std::to_string(out.session_partitions->second);
  const std::string description = DescribeImport(app, out, what, cluster);

  std::sort(out.estimated.begin(), out.estimated.end());
  out.estimated.erase(std::unique(out.estimated.begin(), out.estimated.end()), out.estimated.end());
  std::sort(out.stage_ids.begin(), out.stage_ids.end());

  json doc = json::object();
  doc["name"] = options.name.empty() ? DefaultScenarioName(app.path) : options.name;
  doc["description"] = description;
  doc["cluster"] = std::move(cluster.cluster);
  doc["conf"] = std::move(conf);
  doc["plan"] = std::move(plan);
  if (!subqueries.empty()) doc["subqueries"] = std::move(subqueries);
  doc["estimated"] = out.estimated;
  out.scenario = std::move(doc);
  if (options.profiles) AddStageProfiles(app, &out, warnings);
  // After the profiles (they write `driver`): the selection's FAIR pool as observed.
  ImportPools(app, out.stage_ids, &out.scenario);
  return out;
}

}  // namespace aqesim::eventlog
