#include "models/scenario/scenario.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/conf/did_you_mean.h"
#include "models/scenario/allocation_file_reader.h"
#include "models/scenario/byte_totals.h"
#include "models/scenario/cluster_from_conf.h"
#include "models/scenario/cluster_reader.h"
#include "models/scenario/collect_limit_reader.h"
#include "models/scenario/cost_reader.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/json_text.h"
#include "models/scenario/plan_reader.h"
#include "models/scenario/profile_reader.h"
#include "models/scenario/properties_file.h"

namespace aqesim {

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (!pointer.empty()) out += (out.empty() ? "" : ": ") + pointer;
  out += (out.empty() ? "" : ": ") + message;
  // One line whatever the input: control characters (a key "a\nb" in a pointer) print as \xNN.
  return EscapeBytes(out, /*escape_non_ascii=*/false);
}

namespace {

const std::vector<std::string> kTopLevelFields = {"name", "description", "seed",   "cluster",
                                                  "conf", "costFile",    "cost",   "simulation",
                                                  "plan", "profiles",    "driver", "estimated"};

void ReadSimulation(const Json& v, Scenario* scenario, DiagnosticSink* sink) {
  const std::string p = "/simulation";
  if (!v.is_object()) {
    sink->Error(p, "expected an object (mapStatus), found " + DescribeJson(v));
    return;
  }
  CheckFields(v, p, {"mapStatus"}, "simulation", sink);
  if (v.contains("mapStatus")) {
    if (auto m = ReadEnum<MapStatusMode>(
            v["mapStatus"], PointerAppend(p, "mapStatus"),
            [](const std::string& s) -> std::optional<MapStatusMode> {
              if (s == "spark") return MapStatusMode::kSpark;
              if (s == "exact") return MapStatusMode::kExact;
              return std::nullopt;
            },
            {"spark", "exact"}, "a map status mode", sink))
      scenario->map_status_mode = *m;
  }
}

// A `conf` value as Spark would see it: strings verbatim, numbers and booleans as text.
std::optional<std::string> ConfValueString(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return v.dump();
  return std::nullopt;
}

LoadResult LoadDocument(const Json& doc, const std::string& path, const ConfOverrides& overrides) {
  DiagnosticSink sink(path);
  sink.set_files(overrides.files.get());
  auto scenario = std::make_unique<Scenario>();
  scenario->path = path;
  const std::filesystem::path fs_path(path);
  scenario->name = fs_path.stem().string();
  const std::string dir = fs_path.parent_path().string();

  ConfEntries conf;
  ClusterGiven cluster_given;
  if (!doc.is_object()) {
    sink.Error("", "expected a scenario (a JSON object with \"plan\"), found " + DescribeJson(doc));
  } else {
    CheckFields(doc, "", kTopLevelFields, "a scenario", &sink);
    if (doc.contains("name")) {
      if (auto s = ReadString(doc["name"], "/name", &sink)) scenario->name = *s;
    }
    if (doc.contains("description")) {
      if (auto s = ReadString(doc["description"], "/description", &sink)) scenario->description = *s;
    }
    if (doc.contains("seed")) {
      if (auto s = ReadUnsigned(doc["seed"], "/seed", "a non-negative integer", &sink)) scenario->seed = *s;
    }
    if (doc.contains("cluster")) cluster_given = ReadCluster(doc["cluster"], &scenario->cluster, &sink);
    if (doc.contains("conf")) {
      const Json& c = doc["conf"];
      if (!c.is_object()) {
        sink.Error("/conf", "expected an object of Spark configuration keys, found " + DescribeJson(c));
      } else {
        for (auto it = c.begin(); it != c.end(); ++it) {
          const std::string pointer = PointerAppend("/conf", it.key());
          auto value = ConfValueString(it.value());
          if (!value) {
            sink.Error(pointer, "expected a string, number or boolean, found " + DescribeJson(it.value()));
            continue;
          }
          conf[it.key()] = {*value, ConfOrigin{ProblemOrigin::kDocument, path, pointer, 0}};
        }
      }
    }
    if (doc.contains("costFile")) ReadCostFile(doc["costFile"], dir, &scenario->cost, &sink);
    if (doc.contains("cost")) ReadCost(doc["cost"], &scenario->cost, &sink);
    if (doc.contains("simulation")) ReadSimulation(doc["simulation"], scenario.get(), &sink);
    if (doc.contains("profiles")) ReadProfiles(doc["profiles"], "/profiles", &scenario->profiles, &sink);
    if (doc.contains("driver")) ReadDriverStructure(doc["driver"], "/driver", &scenario->driver, &sink);
    if (doc.contains("estimated")) {
      // JSON pointers of the quantities an importer derived rather than read (informational).
      const Json& e = doc["estimated"];
      if (!e.is_array()) {
        sink.Error("/estimated", "expected an array of JSON pointers, found " + DescribeJson(e));
      } else {
        for (size_t i = 0; i < e.size(); ++i) {
          if (auto s = ReadString(e[i], "/estimated/" + std::to_string(i), &sink))
            scenario->estimated.push_back(*s);
        }
      }
    }
    if (doc.contains("plan")) {
      if (IsCollectLimit(doc["plan"])) {
        scenario->collect_limit.emplace();
        ReadCollectLimit(doc["plan"], "/plan", &*scenario->collect_limit, &sink);
        if (doc["plan"].contains("child"))
          scenario->plan = ReadPlan(doc["plan"]["child"], "/plan/child", dir, &sink);
      } else {
        scenario->plan = ReadPlan(doc["plan"], "/plan", dir, &sink);
      }
      // Sums of user-given sizes must not wrap later (checked once the plan itself is valid).
      if (scenario->plan && sink.error_count() == 0) CheckPlanByteTotals(*scenario->plan, &sink);
      if (scenario->plan)
        CheckProfileStages(scenario->profiles, *scenario->plan, scenario->collect_limit.has_value(), &sink);
    } else {
      sink.Error("", "missing field \"plan\" (the physical plan to simulate)");
    }
  }

  // --- configuration: scenario conf < --properties-file < --conf ---
  if (!overrides.properties_file.empty()) {
    std::vector<Diagnostic> errors, warnings;
    const auto entries =
        ReadPropertiesFile(overrides.properties_file, &errors, &warnings, overrides.files.get());
    auto line_of = [](const Diagnostic& d) -> size_t {
      return d.pointer.rfind("line ", 0) == 0 ? std::stoul(d.pointer.substr(5)) : 0;
    };
    for (const Diagnostic& d : errors)
      sink.Add(true, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const Diagnostic& d : warnings)
      sink.Add(false, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const PropertyEntry& e : entries)
      conf[e.key] = {e.value, ConfOrigin{ProblemOrigin::kPropertiesFile, overrides.properties_file,
                                         "line " + std::to_string(e.line), static_cast<size_t>(e.line)}};
  }
  for (size_t i = 0; i < overrides.conf.size(); ++i) {
    const auto& [key, value] = overrides.conf[i];
    const ConfOrigin origin{ProblemOrigin::kCommandLine, "--conf " + key + "=" + value, "", i};
    if (key.empty()) {
      AddProblem(&sink, true, origin, "expected KEY=VALUE with a configuration key, found an empty key");
      continue;
    }
    conf[key] = {value, origin};
  }
  // --- --cost FILE: a cost file from the command line wins over `costFile` and `cost` ---
  if (!overrides.cost_file.empty()) {
    sink.FileRead(overrides.cost_file);
    std::vector<Diagnostic> errors;
    if (auto params = ReadCostFileParameters(overrides.cost_file, &errors, overrides.files.get())) {
      ReadCost(*params, &scenario->cost, &sink);  // checked by ReadCostFileParameters: nothing to report
    }
    for (const Diagnostic& d : errors)
      sink.Add(true, d.file, d.pointer, "", d.message, ProblemOrigin::kCommandLine);
  }
  for (auto it = conf.begin(); it != conf.end();) {
    const auto& [key, entry] = *it;
    if (key.size() > kMaxConfValueBytes || entry.first.size() > kMaxConfValueBytes) {
      const bool long_key = key.size() > kMaxConfValueBytes;
      AddProblem(&sink, true, entry.second,
                 "expected a configuration " + std::string(long_key ? "key" : "value") + " of at most " +
                     std::to_string(kMaxConfValueBytes) + " bytes, found " +
                     std::to_string(long_key ? key.size() : entry.first.size()) + " bytes" +
                     (long_key ? "" : " (key " + Json(key).dump() + ")"));
      it = conf.erase(it);
      continue;
    }
    scenario->raw_conf[key] = entry.first;
    ++it;
  }
  std::vector<ConfProblem> problems;
  scenario->conf = ResolveSqlConf(scenario->raw_conf, &problems);
  for (const ConfProblem& problem : problems) {
    auto it = conf.find(problem.key);
    const ConfOrigin origin =
        it != conf.end() ? it->second.second : ConfOrigin{ProblemOrigin::kDocument, path, "/conf"};
    AddProblem(&sink, problem.is_error, origin, problem.message);
  }

  // --- FAIR mode: spark.scheduler.allocation.file's pools, under the scenario's driver.pools ---
  if (scenario->conf.fair_scheduler && !scenario->conf.scheduler_allocation_file.empty()) {
    const ConfOrigin& origin = conf.at("spark.scheduler.allocation.file").second;
    const std::string file = AllocationFilePath(scenario->conf.scheduler_allocation_file,
                                                origin.origin == ProblemOrigin::kDocument ? dir : "");
    sink.FileRead(file);
    std::map<std::string, PoolSpec> pools;
    std::vector<Diagnostic> errors, warnings;
    ReadAllocationFile(file, &pools, &errors, &warnings, overrides.files.get());
    for (const Diagnostic& d : errors)
      sink.Add(true, d.file, d.pointer, origin.location, d.message, origin.origin, origin.position);
    for (const Diagnostic& d : warnings)
      sink.Add(false, d.file, d.pointer, origin.location, d.message, origin.origin, origin.position);
    for (auto& [name, pool] : pools) scenario->driver.pools.emplace(name, pool);
  }

  // --- Spark's keys set the cluster; the command line overrides the scenario ---
  ClusterSpec& cluster = scenario->cluster;
  const SqlConf& sc = scenario->conf;
  auto origin_of = [&](const std::string& key) { return conf.at(key).second; };
  ReconcileClusterWithConf(cluster_given, conf, scenario.get(), &sink);
  if (sc.task_cpus > cluster.executor_cores) {
    const std::string message = "expected at least spark.task.cpus = " + std::to_string(sc.task_cpus) +
                                " cores per executor, found " + std::to_string(cluster.executor_cores);
    if (cluster_given.cores || !sc.executor_cores)
      sink.Error("/cluster/executorCores", message);
    else
      AddProblem(&sink, true, origin_of("spark.executor.cores"), message);
  } else if (sc.task_gpu_amount && TaskSlotsPerExecutor(cluster.executor_cores, sc.task_cpus,
                                                        cluster.executor_gpus, sc.task_gpu_amount) < 1) {
    sink.Error("/cluster/executorGpus", "expected GPUs for tasks of spark.task.resource.gpu.amount = " +
                                            Json(*sc.task_gpu_amount).dump() + ", found " +
                                            std::to_string(cluster.executor_gpus));
  }

  // Work bounds (README "Input limits"): the scheduler holds a slot grid of executors x slots.
  if (sink.error_count() == 0) {
    const int64_t slots =
        int64_t{cluster.executors} * (cluster.executor_cores / std::max(1, static_cast<int>(sc.task_cpus)));
    std::string message;
    if (cluster.executors > kMaxExecutors)
      message = "expected at most " + std::to_string(kMaxExecutors) + " executors, found " +
                std::to_string(cluster.executors);
    else if (slots > kMaxTaskSlots)
      message = "expected at most " + std::to_string(kMaxTaskSlots) +
                " task slots (executors x cores / "
                "spark.task.cpus), found " +
                std::to_string(cluster.executors) + " x " +
                std::to_string(slots / std::max(1, cluster.executors));
    if (!message.empty()) {
      if (!cluster_given.executors && sc.executor_instances)
        AddProblem(&sink, true, origin_of("spark.executor.instances"), message);
      else
        sink.Error(cluster_given.executors ? "/cluster/executors" : "/cluster", message);
    }
  }

  LoadResult result;
  std::vector<Diagnostic> warnings;
  sink.Finish(doc, &result.errors, &warnings);
  for (const Diagnostic& w : warnings) result.warnings.push_back(w.ToString());
  if (!result.errors.empty()) return result;
  if (!scenario->plan) {  // defensive: every path that loses the plan reports an error
    result.errors.push_back({path, "/plan", "expected a plan, found none"});
    return result;
  }
  scenario->warnings = result.warnings;
  scenario->input_files.push_back(path);
  if (!overrides.properties_file.empty()) scenario->input_files.push_back(overrides.properties_file);
  for (const std::string& f : sink.files_read()) scenario->input_files.push_back(f);
  result.scenario = std::move(scenario);
  return result;
}

}  // namespace

std::string JoinDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += (out.empty() ? "" : "; ") + d.ToString();
  return out;
}

LoadResult LoadScenarioFile(const std::string& path, const ConfOverrides& overrides) {
  LoadResult result;
  std::string text;
  if (const int err = ReadInputFileOnce(overrides.files.get(), path, &text, kMaxScenarioBytes);
      err != 0) {  // a FIFO nobody writes to reads as empty
    result.errors.push_back({path, "", "cannot read scenario: " + InputFileError(err, kMaxScenarioBytes)});
    return result;
  }
  Json doc;
  if (!ParseJsonText(path, text, &doc, &result.errors)) return result;
  return LoadDocument(doc, path, overrides);
}

LoadResult LoadScenarioJson(const nlohmann::json& doc, const std::string& path,
                            const ConfOverrides& overrides) {
  // nlohmann::json keeps object keys sorted; problems come out in that order.
  return LoadDocument(Json(doc), path, overrides);
}

}  // namespace aqesim
