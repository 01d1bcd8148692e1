// The one recommender of both reports: what a sweep's points say (RecommendFromSweep: the
// region within 2 % of the fastest, the scenario's own values preferred, then Spark's defaults,
// then the smallest change; keys that do not matter never recommended), checked by simulating
// the scenario (CheckBySimulation). The sweep report applies it to the sweep it is given; the
// scenario report applies it to the sweep of its probe grid (probe_grid.h), so on the same grid
// the two recommend the same change, or both nothing.
#ifndef AQESIM_TOOLS_REPORT_RECOMMENDER_H_
#define AQESIM_TOOLS_REPORT_RECOMMENDER_H_

#include "tools/report/analysis.h"
#include "tools/report/recommend.h"
#include "tools/report/report_input.h"

namespace aqesim::report {

/// A sweep's recommendation: its pick, each line kept only when, applied to the scenario as the
/// sweep ran it (`makespan_with`, when the scenario can still be read), it gains kMinGain, also
/// on average over tune's guardrails without a loss on any (`guardrails_with`, when given:
/// CheckBySimulation).
Recommendation RecommendFromPoints(const sweep::SweepDocument& sweep, const MakespanWith& makespan_with,
                                   SweepBest* best, const GuardrailsWith& guardrails_with = {});

/// The sweep report's recommendation (InputKind::kSweep).
Recommendation RecommendForSweep(const ReportInput& in, SweepBest* best);

/// The report's recommendation for one configuration (InputKind::kRun). The rules (Recommend)
/// say what limits the run, warn and give the "why not" advice; for a scenario
/// (ReportInput::sweep_with) the keys to set come from RecommendFromPoints on the probe grid —
/// the rules' proposed values are among its points — and a note gives the sweep command that
/// reproduces it. Without a scenario (RESULT.json) the rules' lines are checked by simulation
/// when possible, as before.
Recommendation RecommendForRun(const ReportInput& in, const TuningFacts& facts);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_RECOMMENDER_H_
