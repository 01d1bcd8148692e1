#include "tools/eventlog/failed_attempts_import.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace aqesim::eventlog {

nlohmann::json FailedAttemptsJson(const RecordedApplication& app, const RecordedStage& st) {
  nlohmann::json out = nlohmann::json::array();
  int last_attempt = 0;  // the stage's last attempt (Stage Attempt ID)
  for (const RecordedTask& t : st.tasks) last_attempt = std::max(last_attempt, t.stage_attempt);
  // Per partition, every attempt in (launch, attempt) order; what did not leave its output.
  std::map<int, std::vector<const RecordedTask*>> by_index;
  for (const RecordedTask& t : st.tasks) by_index[t.index].push_back(&t);
  std::map<std::string, int64_t> removed_ms;
  for (const RecordedExecutor& e : app.executors)
    if (e.removed_time_ms) removed_ms[e.executor_id] = *e.removed_time_ms;
  for (auto& [index, attempts] : by_index) {
    std::stable_sort(attempts.begin(), attempts.end(), [](const RecordedTask* a, const RecordedTask* b) {
      return std::tie(a->launch_time_ms, a->attempt) < std::tie(b->launch_time_ms, b->attempt);
    });
    for (size_t i = 0; i < attempts.size(); ++i) {
      const RecordedTask& t = *attempts[i];
      if (t.successful || (t.speculative && t.end_reason == "TaskKilled")) continue;
      nlohmann::json a = {{"task", index},
                          {"seconds", static_cast<double>(std::max<int64_t>(t.wall_ms(), 0)) / 1000.0},
                          {"reason", t.end_reason}};
      int64_t retry_ms = 0;
      if (t.end_reason == "ExecutorLostFailure") a["causedByApp"] = t.exit_caused_by_app;
      if (t.end_reason == "Resubmitted") {
        const auto r = removed_ms.find(t.executor_id);
        if (r != removed_ms.end()) retry_ms = r->second - t.finish_time_ms;
      } else if (t.end_reason == "FetchFailed") {
        const bool resubmitted = t.stage_attempt < last_attempt;
        a["stageResubmitted"] = resubmitted;
        if (resubmitted && i + 1 < attempts.size())
          retry_ms = attempts[i + 1]->launch_time_ms - t.finish_time_ms;
      } else if (t.end_reason != "ExceptionFailure" && t.end_reason != "ExecutorLostFailure" &&
                 t.end_reason != "TaskKilled" && t.end_reason != "TaskResultLost" &&
                 t.end_reason != "TaskCommitDenied") {
        a["reason"] = "UnknownReason";  // UnknownReason, or a reason this importer does not know
      }
      if (retry_ms > 0) a["retryAfterSeconds"] = static_cast<double>(retry_ms) / 1000.0;
      a["executor"] = t.executor_id;
      out.push_back(std::move(a));
    }
  }
  return out;
}

}  // namespace aqesim::eventlog
