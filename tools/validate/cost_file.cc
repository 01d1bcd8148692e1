#include "tools/validate/cost_file.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "models/cost/cost_params.h"

namespace aqesim::validate {

using nlohmann::json;

void CheckCostObject(const json& cost, const std::string& file, std::vector<std::string>* errors) {
  if (!cost.is_object()) {
    errors->push_back(file + ": expected an object of cost parameters, found " + std::string(cost.type_name()));
    return;
  }
  for (const auto& [key, value] : cost.items()) {
    bool known = false;
    std::string close;
    for (const CostParamInfo& p : CostParamRegistry()) {
      if (p.json_name == key) known = true;
      // "did you mean": same name ignoring case.
      if (close.empty() && p.json_name.size() == key.size()) {
        bool same = true;
        for (size_t i = 0; i < key.size(); ++i) same &= std::tolower(key[i]) == std::tolower(p.json_name[i]);
        if (same) close = std::string(p.json_name);
      }
    }
    if (!known) {
      errors->push_back(file + ": /" + key + ": unknown cost parameter" +
                        (close.empty() ? "" : "; did you mean " + close + "?"));
      continue;
    }
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
      errors->push_back(file + ": /" + key + ": expected a finite number >= 0, found " + value.dump());
    }
  }
}

json ReadCostFile(const std::string& path, std::vector<std::string>* errors) {
  std::ifstream in(path);
  if (!in) {
    errors->push_back(path + ": cannot open the cost file");
    return json::object();
  }
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    errors->push_back(path + ": not valid JSON");
    return json::object();
  }
  if (doc.is_object() && doc.contains("cost")) doc = doc["cost"];
  const size_t before = errors->size();
  CheckCostObject(doc, path, errors);
  return errors->size() == before ? doc : json::object();
}

json InlineCostFile(const json& scenario, const std::string& scenario_path, std::vector<std::string>* errors) {
  if (!scenario.is_object() || !scenario.contains("costFile")) return scenario;
  json out = scenario;
  const json& ref = scenario["costFile"];
  out.erase("costFile");
  if (!ref.is_string()) {
    errors->push_back(scenario_path + ": /costFile: expected a file name, found " + ref.dump());
    return out;
  }
  std::filesystem::path p = ref.get<std::string>();
  if (p.is_relative()) p = std::filesystem::path(scenario_path).parent_path() / p;
  json cost = ReadCostFile(p.string(), errors);
  if (out.contains("cost") && out["cost"].is_object()) {
    for (const auto& [k, v] : out["cost"].items()) cost[k] = v;
  }
  out["cost"] = std::move(cost);
  return out;
}

}  // namespace aqesim::validate
