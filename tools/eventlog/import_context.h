// What the parts of an import share: the log, where warnings go, the scenario being built
// (its exchanges, joins and `estimated` pointers) and the counters of generated ids.
#ifndef AQESIM_TOOLS_EVENTLOG_IMPORT_CONTEXT_H_
#define AQESIM_TOOLS_EVENTLOG_IMPORT_CONTEXT_H_

#include <map>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {

struct ImportContext {
  const RecordedApplication& app;
  std::vector<std::string>* warnings;
  ImportedScenario* out;
  std::map<std::string, int> id_counters;

  /// Lists a JSON pointer of the scenario as derived rather than read.
  void Estimated(const std::string& pointer) { out->estimated.push_back(pointer); }
  /// "e1", "e2", ... per prefix, in the order asked (pre-order of the plan).
  std::string NextId(const char* prefix) { return prefix + std::to_string(++id_counters[prefix]); }
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_IMPORT_CONTEXT_H_
