#include "models/scenario/scenario_base.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "models/scenario/byte_totals.h"
#include "models/scenario/collect_limit_reader.h"
#include "models/scenario/cost_reader.h"
#include "models/scenario/json_text.h"
#include "models/scenario/plan_reader.h"
#include "models/scenario/profile_reader.h"
#include "models/scenario/subquery_reader.h"

namespace aqesim {

namespace {

const std::vector<std::string> kTopLevelFields = {
    "name",       "description", "seed",       "cluster",  "conf",   "costFile", "cost",
    "simulation", "plan",        "subqueries", "profiles", "driver", "estimated"};

// A `conf` value as Spark would see it: strings verbatim, numbers and booleans as text.
std::optional<std::string> ConfValueString(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return v.dump();
  return std::nullopt;
}

void ReadConf(const Json& c, const std::string& path, ConfEntries* conf, DiagnosticSink* sink) {
  if (!c.is_object()) {
    sink->Error("/conf", "expected an object of Spark configuration keys, found " + DescribeJson(c));
    return;
  }
  for (auto it = c.begin(); it != c.end(); ++it) {
    const std::string pointer = PointerAppend("/conf", it.key());
    auto value = ConfValueString(it.value());
    if (!value) {
      sink->Error(pointer, "expected a string, number or boolean, found " + DescribeJson(it.value()));
      continue;
    }
    (*conf)[it.key()] = {*value, ConfOrigin{ProblemOrigin::kDocument, path, pointer, 0}};
  }
}

void ReadEstimated(const Json& e, std::vector<std::string>* out, DiagnosticSink* sink) {
  // JSON pointers of the quantities an importer derived rather than read (informational).
  if (!e.is_array()) {
    sink->Error("/estimated", "expected an array of JSON pointers, found " + DescribeJson(e));
    return;
  }
  for (size_t i = 0; i < e.size(); ++i) {
    if (auto s = ReadString(e[i], "/estimated/" + std::to_string(i), sink)) out->push_back(*s);
  }
}

// Reads base->doc into the rest of `base` (the files the document names through `sink`).
void ReadDocument(ScenarioBase* base, DiagnosticSink* problems) {
  DiagnosticSink& sink = *problems;
  Scenario& scenario = base->scenario;
  const Json& d = base->doc;
  const std::string& path = base->path;
  if (!d.is_object()) {
    sink.Error("", "expected a scenario (a JSON object with \"plan\"), found " + DescribeJson(d));
    return;
  }
  CheckFields(d, "", kTopLevelFields, "a scenario", &sink);
  if (d.contains("name")) {
    if (auto s = ReadString(d["name"], "/name", &sink)) {
      // The name titles the text tables: a line break or ESC would break or colour the terminal.
      if (std::any_of(s->begin(), s->end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        sink.Error("/name", "expected a name without control characters, found " + DescribeJson(d["name"]));
      else
        scenario.name = *s;
    }
  }
  if (d.contains("description")) {
    if (auto s = ReadString(d["description"], "/description", &sink)) scenario.description = *s;
  }
  if (d.contains("seed")) {
    if (auto s = ReadUnsigned(d["seed"], "/seed", "a non-negative integer", &sink)) scenario.seed = *s;
  }
  base->has_executor_timeline =
      d.contains("cluster") && d["cluster"].is_object() && d["cluster"].contains("executorTimeline");
  if (d.contains("conf")) ReadConf(d["conf"], path, &base->conf, &sink);
  if (d.contains("costFile")) ReadCostFile(d["costFile"], base->dir, &scenario.cost, &sink);
  if (d.contains("profiles")) ReadProfiles(d["profiles"], "/profiles", &scenario.profiles, &sink);
  if (d.contains("driver")) ReadDriverStructure(d["driver"], "/driver", &scenario.driver, &sink);
  if (d.contains("estimated")) ReadEstimated(d["estimated"], &scenario.estimated, &sink);
  if (!d.contains("plan")) {
    sink.Error("", "missing field \"plan\" (the physical plan to simulate)");
    return;
  }
  const Json& plan = d["plan"];
  if (IsCollectLimit(plan)) {
    scenario.collect_limit.emplace();
    ReadCollectLimit(plan, "/plan", &*scenario.collect_limit, &sink);
    if (plan.contains("child")) scenario.plan = ReadPlan(plan["child"], "/plan/child", base->dir, &sink);
  } else {
    scenario.plan = ReadPlan(plan, "/plan", base->dir, &sink);
  }
  if (d.contains("subqueries"))
    ReadSubqueries(d["subqueries"], "/subqueries", base->dir, scenario.plan.get(), &scenario.subqueries,
                   &sink);
  // Sums of user-given sizes must not wrap later (checked once the plan itself is valid;
  // BuildScenario reports them only when the evaluated sections are valid too).
  if (scenario.plan && sink.error_count() == 0) {
    CheckPlanByteTotals(*scenario.plan, &base->byte_totals);
    for (const Subquery& q : scenario.subqueries)
      if (q.plan) CheckPlanByteTotals(*q.plan, &base->byte_totals);
    base->byte_totals_checked = true;
  }
  if (scenario.plan)
    CheckProfileStages(scenario.profiles, *scenario.plan, scenario.collect_limit.has_value(), &sink,
                       &scenario.subqueries);
}

}  // namespace

std::shared_ptr<const ScenarioBase> ReadScenarioBase(Json doc, const std::string& path, InputFiles* files) {
  auto base = std::make_shared<ScenarioBase>();
  base->doc = std::move(doc);
  base->path = path;
  const std::filesystem::path fs_path(path);
  base->dir = fs_path.parent_path().string();
  base->problems = DiagnosticSink(path);
  base->byte_totals = DiagnosticSink(path);
  base->scenario.path = path;
  base->scenario.name = fs_path.stem().string();
  base->problems.set_files(files);
  ReadDocument(base.get(), &base->problems);
  base->problems.set_files(nullptr);  // the base outlives the command's files
  return base;
}

std::shared_ptr<const ScenarioBase> ReadScenarioBaseFile(const std::string& path, InputFiles* files,
                                                         std::vector<Diagnostic>* errors) {
  std::string text;
  if (const int err = ReadInputFileOnce(files, path, &text, kMaxScenarioBytes);
      err != 0) {  // a FIFO nobody writes to reads as empty
    errors->push_back({path, "", "cannot read scenario: " + InputFileError(err, kMaxScenarioBytes)});
    return nullptr;
  }
  Json doc;
  if (!ParseJsonText(path, text, &doc, errors)) return nullptr;
  return ReadScenarioBase(std::move(doc), path, files);
}

Scenario CopyScenario(const Scenario& s) {
  Scenario out;
  out.name = s.name;
  out.description = s.description;
  out.path = s.path;
  out.seed = s.seed;
  out.cluster = s.cluster;
  out.raw_conf = s.raw_conf;
  out.conf = s.conf;
  out.cost = s.cost;
  out.map_status_mode = s.map_status_mode;
  if (s.plan) out.plan = ClonePlan(*s.plan);
  out.collect_limit = s.collect_limit;
  out.subqueries = CloneSubqueries(s.subqueries);
  out.profiles = s.profiles;
  out.driver = s.driver;
  out.estimated = s.estimated;
  out.input_files = s.input_files;
  out.warnings = s.warnings;
  return out;
}

}  // namespace aqesim
