// Where each configuration value of a scenario came from — the scenario's `conf`, a
// --properties-file line or a --conf argument (the last writer wins) — for messages that name
// the place, and for the rules where the command line overrides the scenario.
#ifndef AQESIM_MODELS_SCENARIO_CONF_ORIGIN_H_
#define AQESIM_MODELS_SCENARIO_CONF_ORIGIN_H_

#include <map>
#include <string>
#include <utility>

#include "models/scenario/json_reader.h"

namespace aqesim {

struct ConfOrigin {
  ProblemOrigin origin = ProblemOrigin::kDocument;
  std::string file;
  std::string location;  // JSON pointer, "line N" or ""
  size_t position = 0;
};

/// key → (value, where it came from).
using ConfEntries = std::map<std::string, std::pair<std::string, ConfOrigin>>;

/// Reports a problem at the place a configuration value came from.
inline void AddProblem(DiagnosticSink* sink, bool is_error, const ConfOrigin& origin, std::string message) {
  sink->Add(is_error, origin.file, origin.location, origin.location, std::move(message), origin.origin,
            origin.position);
}

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_CONF_ORIGIN_H_
