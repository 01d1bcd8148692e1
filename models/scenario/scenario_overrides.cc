#include "models/scenario/scenario_overrides.h"

#include <algorithm>
#include <map>
#include <utility>

#include "models/scenario/allocation_file_reader.h"
#include "models/scenario/cluster_from_conf.h"
#include "models/scenario/cluster_reader.h"
#include "models/scenario/cost_reader.h"
#include "models/scenario/data_scale.h"
#include "models/scenario/skew_reshape.h"

namespace aqesim {

namespace {

// The `simulation` section; its dataScale goes to `*data_scale` (applied once the section is read).
void ReadSimulation(const Json& v, Scenario* scenario, double* data_scale, double* skew_exponent,
                    DiagnosticSink* sink) {
  const std::string p = "/simulation";
  if (!v.is_object()) {
    sink->Error(p, "expected an object (mapStatus, dataScale, skewExponent), found " + DescribeJson(v));
    return;
  }
  CheckFields(v, p, {"mapStatus", "dataScale", "skewExponent"}, "simulation", sink);
  if (v.contains("skewExponent")) {
    if (auto g = ReadNumber(
            v["skewExponent"], PointerAppend(p, "skewExponent"),
            [](double x) { return x >= kMinSkewExponent && x <= kMaxSkewExponent; },
            "a skew exponent from 0.1 to 10", sink))
      *skew_exponent = *g;
  }
  if (v.contains("dataScale")) {
    if (auto f = ReadNumber(
            v["dataScale"], PointerAppend(p, "dataScale"),
            [](double x) { return x >= kMinDataScale && x <= kMaxDataScale; },
            "a data volume factor from 0.001 to 1000", sink))
      *data_scale = *f;
  }
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

// Sets `key` of `object` as editing the document would: in place when present, else in key
// order when the object's keys are sorted (a document parsed into a key-sorted object), else last.
void SetMember(Json* object, const std::string& key, const Json& value) {
  if (!object->is_object()) *object = Json::object();
  if (auto it = object->find(key); it != object->end()) {
    *it = value;
    return;
  }
  std::vector<std::string> keys;
  for (auto it = object->begin(); it != object->end(); ++it) keys.push_back(it.key());
  if (!std::is_sorted(keys.begin(), keys.end()) || keys.empty() || keys.back() < key) {
    (*object)[key] = value;
    return;
  }
  Json sorted = Json::object();
  bool placed = false;
  for (auto it = object->begin(); it != object->end(); ++it) {
    if (!placed && key < it.key()) {
      sorted[key] = value;
      placed = true;
    }
    sorted[it.key()] = std::move(it.value());
  }
  *object = std::move(sorted);
}

// Reads the sections a field override may edit, each from the document or its edited copy.
struct Sections {
  std::map<std::string, Json> edited;  // section -> the document's with the fields set
  ReplacedMembers replaced;            // for ordering the problems
  const Json* Get(const ScenarioBase& base, const std::string& section) const {
    if (auto it = edited.find(section); it != edited.end()) return &it->second;
    if (base.doc.is_object() && base.doc.contains(section)) return &base.doc[section];
    return nullptr;
  }
};

Sections EditSections(const ScenarioBase& base, const std::vector<FieldOverride>& fields) {
  Sections s;
  for (const FieldOverride& f : fields) {
    auto [it, fresh] = s.edited.try_emplace(f.section);
    if (fresh && base.doc.is_object() && base.doc.contains(f.section)) it->second = base.doc[f.section];
    SetMember(&it->second, f.field, f.value);
  }
  for (const auto& [section, json] : s.edited) s.replaced.emplace_back(section, &json);
  return s;
}

}  // namespace

ScenarioOverrides ReadOverrides(const ConfOverrides& o) {
  ScenarioOverrides out;
  out.files = o.files;
  out.properties_file = o.properties_file;
  if (!o.properties_file.empty())
    out.properties = ReadPropertiesFile(o.properties_file, &out.properties_errors, &out.properties_warnings,
                                        o.files.get());
  out.conf = o.conf;
  out.cost_file = o.cost_file;
  if (!o.cost_file.empty()) {
    if (auto params = ReadCostFileParameters(o.cost_file, &out.cost_file_errors, o.files.get()))
      out.cost_file_parameters = Json(*params);
  }
  return out;
}

LoadResult BuildScenario(const ScenarioBase& base, const ScenarioOverrides& overrides) {
  const std::string& path = base.path;
  DiagnosticSink sink(path);
  sink.set_files(overrides.files.get());
  sink.Append(base.problems);
  auto scenario = std::make_unique<Scenario>(CopyScenario(base.scenario));

  // --- the sections an evaluation may edit, in document order of their reading ---
  const Sections sections = EditSections(base, overrides.fields);
  ClusterGiven cluster_given;
  if (const Json* v = sections.Get(base, "cluster"))
    cluster_given = ReadCluster(*v, &scenario->cluster, &sink);
  if (const Json* v = sections.Get(base, "cost")) ReadCost(*v, &scenario->cost, &sink);
  double data_scale = 1, skew_exponent = 1;
  if (const Json* v = sections.Get(base, "simulation"))
    ReadSimulation(*v, scenario.get(), &data_scale, &skew_exponent, &sink);
  if (!ScaleData(data_scale, scenario.get()))
    sink.Error("/simulation/dataScale", "scales the data past 2^62 bytes or rows in one count, found " +
                                            DescribeJson(Json(data_scale)) + " (use a smaller factor)");
  ReshapeSkew(skew_exponent, scenario.get());
  if (base.byte_totals_checked && sink.error_count() == 0) sink.Append(base.byte_totals);

  // --- configuration: scenario conf < --properties-file < --conf ---
  ConfEntries conf = base.conf;
  if (!overrides.properties_file.empty()) {
    auto line_of = [](const Diagnostic& d) -> size_t {
      return d.pointer.rfind("line ", 0) == 0 ? std::stoul(d.pointer.substr(5)) : 0;
    };
    for (const Diagnostic& d : overrides.properties_errors)
      sink.Add(true, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const Diagnostic& d : overrides.properties_warnings)
      sink.Add(false, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const PropertyEntry& e : overrides.properties)
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
    if (overrides.cost_file_parameters)  // checked by ReadCostFileParameters: nothing to report
      ReadCost(*overrides.cost_file_parameters, &scenario->cost, &sink);
    for (const Diagnostic& d : overrides.cost_file_errors)
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
                                                origin.origin == ProblemOrigin::kDocument ? base.dir : "");
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
  sink.Finish(base.doc, sections.replaced, &result.errors, &warnings);
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

}  // namespace aqesim
