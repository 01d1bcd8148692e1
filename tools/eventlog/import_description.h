// The imported scenario's `description`: where it comes from (log, application, Spark version,
// selection), the cluster, what its exchanges' sizes rest on (observed, reconstructed or
// estimated), and what Spark's AQE did in the recorded run.
#ifndef AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_
#define AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_

#include <cstddef>
#include <string>

#include "tools/eventlog/cluster_import.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {

/// The most bytes of a text from the log copied into the scenario's description: a SQL
/// execution's description is its query text when submitted through the SQL CLI or the Thrift
/// server (megabytes for generated queries), a job's last stage name is a call site.
inline constexpr size_t kMaxCopiedTextBytes = 4096;

/// `text` whole when it is at most kMaxCopiedTextBytes; otherwise its first kMaxCopiedTextBytes
/// bytes, cut back to a UTF-8 character boundary, then "… [N more bytes not copied]" (N: the
/// bytes dropped).
std::string CappedLogText(const std::string& text);

/// `what` names the selection ("SQL execution 3 (\"q72\")").
std::string DescribeImport(const RecordedApplication& app, const ImportedScenario& out,
                           const std::string& what, const ImportedCluster& cluster);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_IMPORT_DESCRIPTION_H_
