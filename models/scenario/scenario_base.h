// Load once, evaluate many (part a): a scenario document read and validated once into C++
// structs — plan with its sizes, profiles, driver, the document's `conf` with the place of each
// key, its cost file — everything a configuration cannot change. The parts a configuration or
// a sweep point can change (the `cluster`, `cost` and `simulation` sections, the conf's
// precedence, resolution and checks) are applied per evaluation by BuildScenario
// (scenario_overrides.h), on a copy, without serialising or re-parsing the document.
#ifndef AQESIM_MODELS_SCENARIO_SCENARIO_BASE_H_
#define AQESIM_MODELS_SCENARIO_SCENARIO_BASE_H_

#include <memory>
#include <string>
#include <vector>

#include "models/scenario/conf_origin.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario.h"

namespace aqesim {

struct ScenarioBase {
  /// The document as read (owned): problems are ordered by their place in it, and the small
  /// `cluster` / `cost` / `simulation` sections are read from it per evaluation.
  Json doc;
  std::string path;  // as given (messages, relative csv and cost file paths)
  std::string dir;   // path's folder
  /// Everything but cluster, conf, raw_conf, cluster-dependent pools and map_status_mode:
  /// name, description, seed, plan, collect_limit, profiles, driver, estimated; `cost` holds
  /// the defaults overridden by the document's `costFile` (its `cost` section is per evaluation).
  Scenario scenario;
  /// The document's `conf`, each value as Spark reads it, at its /conf/KEY pointer.
  ConfEntries conf;
  /// The document's problems (every section but cluster, cost and simulation) and the files it
  /// named (cost file, csv matrices), in document-reading order.
  DiagnosticSink problems{""};
  /// Problems of the plan's byte totals, reported only when nothing else is wrong (the sums
  /// are checked once the plan itself is valid); `byte_totals_checked` when they were computed.
  DiagnosticSink byte_totals{""};
  bool byte_totals_checked = false;
  /// The document's `cluster` records an executor timeline (an imported log).
  bool has_executor_timeline = false;
};

/// Reads `doc` (a scenario document; `path` for messages and relative paths) once. Never
/// throws on bad input: problems are kept in `problems` and reported by BuildScenario, with
/// the configuration's, in document order. csv matrices and the cost file are read through
/// `files` when it is not null (input_file.h).
std::shared_ptr<const ScenarioBase> ReadScenarioBase(Json doc, const std::string& path, InputFiles* files);

/// The file `path` read (through `files` when not null) and parsed, then ReadScenarioBase;
/// null with `errors` (the loader's "cannot read scenario" and JSON syntax messages) when it
/// cannot be read or is not JSON.
std::shared_ptr<const ScenarioBase> ReadScenarioBaseFile(const std::string& path, InputFiles* files,
                                                         std::vector<Diagnostic>* errors);

/// A copy of `s` with its own plan (PlanNode trees are not shared between scenarios).
Scenario CopyScenario(const Scenario& s);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SCENARIO_BASE_H_
