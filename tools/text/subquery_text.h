// The scenario's subqueries as they ran, for a person: one line each (wrapped within `width`
// columns), as `run` and `explain --format table` print them under "subqueries:".
//   sq1 (bloomFilter, gates scan1): stages 3, 4, 0.000–1.250 s; stage 0 waited for it
//   dpp (dynamicPruning, reuses j2's broadcast, gates scan2): stage 1, done at 0.900 s; stage 2 waited for it
//   dpp2 (dynamicPruning, gates scan3): dropped: j3 is not a broadcast join as planned, so Spark drops the
//     pruning filter (onlyInBroadcast)
#ifndef AQESIM_TOOLS_TEXT_SUBQUERY_TEXT_H_
#define AQESIM_TOOLS_TEXT_SUBQUERY_TEXT_H_

#include <string>
#include <vector>

#include "models/engine/run_result.h"
#include "tools/text/table_text.h"

namespace aqesim {

/// "3, 4" of stage ids.
inline std::string StageIdList(const std::vector<int>& ids) {
  std::string out;
  for (int id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out;
}

/// "" when the run has no subqueries.
inline std::string SubqueriesText(const RunResult& run, size_t width) {
  if (run.subqueries.empty()) return "";
  std::string out = "subqueries:\n";
  for (const SubqueryRun& q : run.subqueries) {
    std::string gates;
    for (const std::string& g : q.gates) gates += (gates.empty() ? "" : ", ") + g;
    std::string line = "  " + q.id + " (" + q.kind;
    if (!q.reuses_broadcast.empty()) line += ", reuses " + q.reuses_broadcast + "'s broadcast";
    line += ", gates " + gates + "): ";
    if (q.dropped) {
      line += "dropped: " + q.reuses_broadcast +
              " is not a broadcast join as planned, so Spark drops the pruning filter (onlyInBroadcast)";
    } else if (q.stages.empty()) {
      line += "never ran";
    } else {
      const bool own_job = q.reuses_broadcast.empty();
      line += std::string(q.stages.size() == 1 ? "stage " : "stages ") + StageIdList(q.stages) + ", " +
              (own_job ? Fixed(q.start_seconds, 3) + "–" + Fixed(q.complete_seconds, 3) + " s"
                       : "done at " + Fixed(q.complete_seconds, 3) + " s");
      if (!q.gated_stages.empty())
        line += std::string("; ") + (q.gated_stages.size() == 1 ? "stage " : "stages ") +
                StageIdList(q.gated_stages) + " waited for it";
    }
    out += WrapText(line, width, 4) + "\n";
  }
  return out;
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_SUBQUERY_TEXT_H_
