// ExplainTable: `aqesim explain --format table`, what `aqesim explain` says in JSON, summarised
// for a person and kept within 160 columns: per exchange what the driver saw (MapStatus sizes)
// beside the true sizes, per read what its specs became (coalesced ranges, skew splits, local
// reads) and the true bytes its tasks read, each join's strategy as planned and as run, every
// AQE decision and every rule that did not act with its reason (models/aqe/not_applied.h).
// Sizes are summarised as min / median / max over all partitions, empty ones included (the upper
// median of an even count). The JSON keeps every spec; this view keeps counts.
#ifndef AQESIM_TOOLS_EXPLAIN_EXPLAIN_TABLE_H_
#define AQESIM_TOOLS_EXPLAIN_EXPLAIN_TABLE_H_

#include <string>

#include "models/engine/run_result.h"

namespace aqesim::explain {

/// The summary of `run` (a simulation of `scenario_name`), lines of at most 160 code points
/// (longer free text is wrapped, table cells of names ellipsized).
std::string ExplainTable(const std::string& scenario_name, const RunResult& run);

}  // namespace aqesim::explain

#endif  // AQESIM_TOOLS_EXPLAIN_EXPLAIN_TABLE_H_
