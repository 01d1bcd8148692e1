// Cost parameters in scenarios and cost files: a scenario's `cost` and `costFile`, and the
// cost file itself (`aqesim calibrate -o`), read with the scenario loader's checks and words.
// ReadCostFileParameters (scenario.h), the cost-file reader of validate and calibrate, is
// defined in cost_reader.cc.
#ifndef AQESIM_MODELS_SCENARIO_COST_READER_H_
#define AQESIM_MODELS_SCENARIO_COST_READER_H_

#include <string>

#include "models/cost/cost_params.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Reads an object of cost parameters at `pointer` into `cost` (each a number >= 0).
void ReadCost(const Json& v, CostParams* cost, DiagnosticSink* sink, const std::string& pointer = "/cost");

/// `costFile`: a cost file (`aqesim calibrate -o`: an object of cost parameters, or
/// {"cost": {...}}), relative to the scenario's folder `dir`. Its parameters are applied
/// before the scenario's own `cost`, which therefore wins. Problems inside the file are
/// reported as "COSTFILE: /parameter: message", ordered at /costFile.
void ReadCostFile(const Json& v, const std::string& dir, CostParams* cost, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_COST_READER_H_
