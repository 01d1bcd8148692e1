// The report of a tune result (`aqesim report TUNE.json`, the JSON of `aqesim tune -o`): what to
// set and why, the gain with how far its seconds can be trusted, the AQE decisions each key
// changes, the search's convergence (each evaluation's objective and the best so far), every
// evaluated configuration as makespan against core-hours with the Pareto front (no other point
// is both faster and cheaper), and the best configurations as a table.
#ifndef AQESIM_TOOLS_REPORT_TUNE_REPORT_H_
#define AQESIM_TOOLS_REPORT_TUNE_REPORT_H_

#include <string>
#include <vector>

#include "tools/report/html_page.h"
#include "tools/tune/tune_output.h"

namespace aqesim::report {

/// Indexes of the evaluations no other evaluation dominates (at most as slow and as many
/// core-hours, better in one), by makespan ascending; failed evaluations are not on it.
std::vector<size_t> ParetoFront(const std::vector<tune::Evaluation>& evaluations);

/// The HTML body (its charts added to `charts`).
std::string TuneBody(const tune::TuneOutcome& outcome, const std::string& source, Charts* charts);
/// The Markdown report.
std::string TuneMarkdown(const tune::TuneOutcome& outcome, const std::string& source);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_TUNE_REPORT_H_
