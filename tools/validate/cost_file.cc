#include "tools/validate/cost_file.h"

#include <cctype>
#include <cmath>

#include "models/cost/cost_params.h"
#include "models/scenario/input_file.h"

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
  std::string text;
  if (ReadInputFile(path, &text) != 0) {  // never blocks on a FIFO
    errors->push_back(path + ": cannot open the cost file");
    return json::object();
  }
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    errors->push_back(path + ": not valid JSON");
    return json::object();
  }
  if (doc.is_object() && doc.contains("cost")) doc = doc["cost"];
  const size_t before = errors->size();
  CheckCostObject(doc, path, errors);
  return errors->size() == before ? doc : json::object();
}

}  // namespace aqesim::validate
