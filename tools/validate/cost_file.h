// Cost files: a JSON object of cost-model parameters by their JSON names
// (models/cost/cost_params.h CostParamRegistry(), e.g. {"taskLaunchSeconds": 0.2}), the
// shape of a scenario's `cost` object. `aqesim calibrate` writes them; `aqesim validate
// --cost` reads them; a scenario names one with a top-level "costFile" (read by the scenario
// loader, models/scenario/scenario.h).
#ifndef AQESIM_TOOLS_VALIDATE_COST_FILE_H_
#define AQESIM_TOOLS_VALIDATE_COST_FILE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aqesim::validate {

/// Reads a cost file (models/scenario/scenario.h ReadCostFileParameters: the scenario
/// loader's checks and messages). A document {"cost": {...}} is accepted too (then only
/// "cost" is used). On any problem returns an empty object and appends "FILE: /pointer:
/// message" lines to `errors`.
nlohmann::json ReadCostFile(const std::string& path, std::vector<std::string>* errors);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_COST_FILE_H_
