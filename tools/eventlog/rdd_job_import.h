// An RDD job (no SQL plan, e.g. Spark 1.6) as a scenario plan, from the job's last stage down
// its parents: a stage without parents is a scan; a stage reading one shuffle is
// aggregate(exchange(parent)); two shuffles a SortMergeJoin of the two exchanges (the strategy
// and join type are estimated); more, a union. A skipped stage stands for the stage that ran
// its RDDs.
#ifndef AQESIM_TOOLS_EVENTLOG_RDD_JOB_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_RDD_JOB_IMPORT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tools/eventlog/import_context.h"

namespace aqesim::eventlog {

class RddJobImporter {
 public:
  explicit RddJobImporter(ImportContext& ctx) : ctx_(ctx) {}

  /// The scenario's `plan`; adds the exchanges and joins, and the job's submitted stages, to
  /// ctx.out. Throws EventLogError when the job has no result stage or a stage never ran.
  nlohmann::json Build(const RecordedJob& job);

 private:
  nlohmann::json BuildStage(int stage_id, const std::string& ptr);

  ImportContext& ctx_;
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_RDD_JOB_IMPORT_H_
