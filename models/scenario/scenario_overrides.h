// Load once, evaluate many (part b): the overrides of one evaluation — the command line's
// --properties-file, --conf and --cost (each file read once, by ReadOverrides) and the
// document fields a sweep grid or a calibration probe sets (`cluster.executors`,
// `cost.taskLaunchSeconds`, `simulation.mapStatus`) — applied to a copy of a ScenarioBase
// (scenario_base.h) by BuildScenario, which gives the Scenario to simulate.
//
// BuildScenario(ReadScenarioBase(doc), ReadOverrides(o)) is LoadScenarioJson(doc, o) (that is
// how the loader is implemented): the same scenario, the same problems with the same messages
// and JSON pointers, in the same order. A field override is checked as the document's own
// field would be (its problems at its pointer, e.g. /cluster/executors); problems are ordered
// as in the document with the edited sections swapped in (a field the section lacks goes in key
// order when the section's keys are sorted, else last).
#ifndef AQESIM_MODELS_SCENARIO_SCENARIO_OVERRIDES_H_
#define AQESIM_MODELS_SCENARIO_SCENARIO_OVERRIDES_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/json_reader.h"
#include "models/scenario/properties_file.h"
#include "models/scenario/scenario.h"
#include "models/scenario/scenario_base.h"

namespace aqesim {

/// A document field set for one evaluation: `section` "cluster", "cost" or "simulation",
/// `field` its name there ("executors", "taskLaunchSeconds", "mapStatus"), `value` as the
/// document would hold it (a number, boolean or string: a bad one gets the document's message,
/// which names its JSON type).
struct FieldOverride {
  std::string section;
  std::string field;
  Json value;
};

struct ScenarioOverrides {
  /// --properties-file, as read: its entries in file order, its problems.
  std::string properties_file;
  std::vector<PropertyEntry> properties;
  std::vector<Diagnostic> properties_errors;
  std::vector<Diagnostic> properties_warnings;
  /// --conf KEY=VALUE, in order (later wins), then any added per evaluation.
  std::vector<std::pair<std::string, std::string>> conf;
  /// --cost FILE, as read: its parameters (nullopt when it has problems) and problems.
  std::string cost_file;
  std::optional<Json> cost_file_parameters;
  std::vector<Diagnostic> cost_file_errors;
  /// Document fields, applied in order (a later one for the same field wins).
  std::vector<FieldOverride> fields;
  /// The command's input files (input_file.h): a FAIR allocation file is read through it.
  std::shared_ptr<InputFiles> files;
};

/// Reads the command line's files once (through overrides.files when set). Problems are kept
/// and reported by BuildScenario, as LoadScenarioFile reports them.
ScenarioOverrides ReadOverrides(const ConfOverrides& overrides);

/// The scenario `base` describes with `overrides` applied: configuration precedence
/// (document conf < --properties-file < --conf, then each later `conf` entry), cost
/// (document costFile < document cost with the cost fields < --cost), the cluster from its
/// section and Spark's keys, every check. Never throws on bad input; the base is not changed
/// (safe on several threads at once).
LoadResult BuildScenario(const ScenarioBase& base, const ScenarioOverrides& overrides);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SCENARIO_OVERRIDES_H_
