#include "tools/validate/cost_file.h"

#include "models/scenario/scenario.h"

namespace aqesim::validate {

using nlohmann::json;

json ReadCostFile(const std::string& path, std::vector<std::string>* errors) {
  std::vector<Diagnostic> problems;
  std::optional<json> params = ReadCostFileParameters(path, &problems);
  for (const Diagnostic& d : problems) errors->push_back(d.ToString());
  return params && params->is_object() ? *params : json::object();
}

}  // namespace aqesim::validate
