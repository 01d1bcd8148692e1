// The report of a tune result (`aqesim report TUNE.json`, the JSON of `aqesim tune -o`): what to
// set and why, the gain with how far its seconds can be trusted, the AQE decisions each key
// changes, the search's convergence (each evaluation's objective and the best so far), every
// evaluated configuration as makespan against core-hours with the Pareto front (no other point
// is both faster and cheaper) and a note on each front point faster and cheaper than the current
// configuration that was not recommended, and the best configurations as a table (a row per
// result: configurations tied at the same makespan, core-hours and objective share one).
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

/// One note per Pareto-front point faster and cheaper than the current configuration (as given)
/// that tune did not recommend, saying why, as tune's guardrails judged it (tune.guardrailJudgement):
/// under no-loss it loses more than 0.5 % on a copy (its objective its worst ratio), or the mean of
/// its ratios is ≥ 1; under worst its worst ratio is ≥ 1; or its gain is under --min-gain; or the
/// search's best point has a lower objective.
std::vector<std::string> ParetoNotes(const tune::TuneOutcome& outcome, const std::vector<size_t>& front);

/// The HTML body (its charts added to `charts`).
std::string TuneBody(const tune::TuneOutcome& outcome, const std::string& source, Charts* charts);
/// The Markdown report.
std::string TuneMarkdown(const tune::TuneOutcome& outcome, const std::string& source);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_TUNE_REPORT_H_
