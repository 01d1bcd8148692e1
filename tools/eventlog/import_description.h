// The imported scenario's `description`: where it comes from (log, application, Spark version,
// selection), the cluster, what its exchanges' sizes rest on (observed, reconstructed or
// estimated), and what Spark's AQE did in the recorded run.
#ifndef AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_
#define AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_

#include <string>

#include "tools/eventlog/cluster_import.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {

/// `what` names the selection ("SQL execution 3 (\"q72\")").
std::string DescribeImport(const RecordedApplication& app, const ImportedScenario& out,
                           const std::string& what, const ImportedCluster& cluster);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_
