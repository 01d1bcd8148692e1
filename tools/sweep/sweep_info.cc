#include "tools/sweep/sweep_info.h"

#include <cstdio>
#include <limits>

namespace aqesim::sweep {

namespace {

using Json = nlohmann::json;

std::string Found(const Json& v) {
  std::string text = v.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

}  // namespace

nlohmann::ordered_json SweepInfoToJson(const SweepInfo& info) {
  using ojson = nlohmann::ordered_json;
  ojson grid = ojson::array();
  ojson baseline = ojson::object();
  for (const GridAxis& a : info.grid) {
    grid.push_back({{"key", a.key}, {"values", a.values}});
    auto it = info.baseline.find(a.key);
    baseline[a.key] = it == info.baseline.end() ? ojson() : ojson(it->second);
  }
  ojson j = {{"scenario", info.scenario}, {"scenarioFile", info.scenario_file}};
  if (!info.properties_file.empty()) j["propertiesFile"] = info.properties_file;
  if (!info.cost_file.empty()) j["costFile"] = info.cost_file;
  j["conf"] = info.conf;
  j["grid"] = grid;
  j["points"] = info.points;
  if (!info.shard.empty()) j["shard"] = info.shard;
  j["baseline"] = baseline;
  ojson conf = ojson::object();
  for (const auto& [k, v] : info.scenario_conf.value_or(RawConf{})) conf[k] = v;
  j["scenarioConf"] = conf;
  const SweepCluster cluster = info.cluster.value_or(SweepCluster{});
  j["cluster"] = {{"executors", cluster.executors},
                  {"executorCores", cluster.executor_cores},
                  {"executorMemoryBytes", cluster.executor_memory_bytes}};
  if (!info.time_source.empty()) {
    ojson band = nullptr;
    if (info.time_source != "profiled")
      band = {{"lowFactor", kDefaultsBand.low}, {"highFactor", kDefaultsBand.high}};
    j["seconds"] = {{"timeSource", info.time_source}, {"band", band}};
  }
  return j;
}

std::string SecondsTrustText(const std::string& time_source) {
  char factors[96];
  std::snprintf(factors, sizeof factors, "every modelled task × %.2f and × %.2g", kDefaultsBand.low,
                kDefaultsBand.high);
  const std::string band =
      std::string("its band is ") + factors + " (README \"How far to trust the seconds\")";
  if (time_source == "profiled")
    return "seconds profiled from the log: every stage is timed by its recorded task times (resized where a "
           "point changes a stage's tasks; a stage resized 2× or more carries the cost model's band, " +
           std::string(factors) + ", which the sweep does not simulate)";
  if (time_source == "mixed")
    return "seconds partly profiled from the log, partly modelled: " + band +
           "; the points share the model, so its error moves them together";
  if (time_source == "modelled")
    return "seconds modelled: " + band + "; the points share the model, so its error moves them together";
  return "seconds: how they were timed is unknown (README \"How far to trust the seconds\")";
}

std::optional<SweepInfo> SweepInfoFromJson(const Json& j, const std::string& path,
                                           std::vector<std::string>* errors) {
  const size_t before = errors->size();
  auto expected = [&](const std::string& pointer, const std::string& what, const Json& found) {
    errors->push_back(path + ": /sweep" + pointer + ": expected " + what + ", found " + Found(found));
  };
  auto string_member = [&](const char* key, std::string* out) {
    if (!j.contains(key)) return;
    if (j[key].is_string())
      *out = j[key].get<std::string>();
    else
      expected(std::string("/") + key, "a string", j[key]);
  };
  auto strings = [&](const Json& a, const std::string& pointer, std::vector<std::string>* out) {
    if (!a.is_array()) return expected(pointer, "an array of strings", a);
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].is_string())
        out->push_back(a[i].get<std::string>());
      else
        expected(pointer + "/" + std::to_string(i), "a string", a[i]);
    }
  };
  if (!j.is_object()) {
    errors->push_back(path + ": /sweep: expected an object");
    return std::nullopt;
  }
  SweepInfo info;
  string_member("scenario", &info.scenario);
  string_member("scenarioFile", &info.scenario_file);
  string_member("propertiesFile", &info.properties_file);
  string_member("costFile", &info.cost_file);
  string_member("shard", &info.shard);
  if (j.contains("conf")) strings(j["conf"], "/conf", &info.conf);
  if (j.contains("grid")) {
    const Json& grid = j["grid"];
    if (!grid.is_array()) expected("/grid", "an array of {\"key\", \"values\"}", grid);
    for (size_t i = 0; grid.is_array() && i < grid.size(); ++i) {
      const Json& a = grid[i];
      const std::string at = "/grid/" + std::to_string(i);
      if (!a.is_object() || !a.contains("key") || !a["key"].is_string() || !a.contains("values")) {
        expected(at, "{\"key\": KEY, \"values\": [V1, ...]}", a);
        continue;
      }
      GridAxis axis;
      axis.key = a["key"].get<std::string>();
      strings(a["values"], at + "/values", &axis.values);
      // As a grid is checked (a forged value's ESC reached the terminal in compare's errors).
      if (const std::string problem = GridAxisProblem(axis); !problem.empty())
        errors->push_back(path + ": /sweep" + at + ": " + problem);
      info.grid.push_back(std::move(axis));
    }
  }
  if (j.contains("points")) {
    if (j["points"].is_number_unsigned())
      info.points = j["points"].get<uint64_t>();
    else
      expected("/points", "the number of points", j["points"]);
  }
  if (j.contains("baseline")) {
    const Json& b = j["baseline"];
    if (!b.is_object()) expected("/baseline", "an object", b);
    for (auto it = b.begin(); b.is_object() && it != b.end(); ++it) {
      if (it.value().is_string())
        info.baseline[it.key()] = it.value().get<std::string>();
      else if (!it.value().is_null())
        expected("/baseline/" + it.key(), "a string or null", it.value());
    }
  }
  if (j.contains("scenarioConf")) {
    const Json& c = j["scenarioConf"];
    if (!c.is_object()) expected("/scenarioConf", "an object", c);
    RawConf conf;
    for (auto it = c.begin(); c.is_object() && it != c.end(); ++it) {
      if (it.value().is_string())
        conf[it.key()] = it.value().get<std::string>();
      else
        expected("/scenarioConf/" + it.key(), "a string", it.value());
    }
    if (c.is_object()) info.scenario_conf = std::move(conf);
  }
  if (j.contains("cluster")) {
    const Json& c = j["cluster"];
    SweepCluster cluster;
    auto integer = [&](const char* key, int64_t max, int64_t* out) {
      if (c.contains(key) && c[key].is_number_unsigned() &&
          c[key].get<uint64_t>() <= static_cast<uint64_t>(max))
        *out = c[key].get<int64_t>();
      else
        expected(std::string("/cluster/") + key, "a count", c.contains(key) ? c[key] : Json());
    };
    if (!c.is_object()) {
      expected("/cluster", "an object", c);
    } else {
      int64_t executors = 0, cores = 0;
      integer("executors", std::numeric_limits<int>::max(), &executors);
      integer("executorCores", std::numeric_limits<int>::max(), &cores);
      integer("executorMemoryBytes", std::numeric_limits<int64_t>::max(), &cluster.executor_memory_bytes);
      cluster.executors = static_cast<int>(executors);
      cluster.executor_cores = static_cast<int>(cores);
      info.cluster = cluster;
    }
  }
  if (j.contains("seconds")) {  // written since sweeps say how far their seconds can be trusted
    const Json& s = j["seconds"];
    const Json source = s.is_object() && s.contains("timeSource") ? s["timeSource"] : Json();
    if (!s.is_object())
      expected("/seconds", "an object", s);
    else if (!source.is_string() || (source != "modelled" && source != "profiled" && source != "mixed"))
      expected("/seconds/timeSource", "\"modelled\", \"profiled\" or \"mixed\"", source);
    else
      info.time_source = source.get<std::string>();
  }
  if (errors->size() != before) return std::nullopt;
  return info;
}

}  // namespace aqesim::sweep
