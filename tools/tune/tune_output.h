// The outputs of `aqesim tune`: the JSON document (-o OUT.json or --format json) and the text a
// person reads (the default on stdout).
//
// JSON: {"tune": {scenario, objective, space, budget, seed, threads-independent settings,
// guardrails, guardrailJudgement ("no-loss", "worst"; null without guardrails), minGain}, "current":
// {makespanSeconds, coreHours, timeSource, band}, "best": {"conf": {KEY: VALUE, ...}, makespanSeconds,
// coreHours, objective, ratios, timeSource, band}, "recommendation": {recommended, reason, conf, gainPercent,
// makespanSeconds, coreHours, timeSource, band, keys: [{key, value, decisionsMade, decisionsLost}],
// confArguments, sparkDefaults}, "evaluations", "requests", "exhausted", "trace": [{evaluation, values,
// objective, makespanSeconds, coreHours, bestObjective, error}]}. Seconds with 6 decimals,
// ratios with 6. Nothing in it depends on the thread count.
#ifndef AQESIM_TOOLS_TUNE_TUNE_OUTPUT_H_
#define AQESIM_TOOLS_TUNE_TUNE_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/tune/objective.h"
#include "tools/tune/recommendation.h"
#include "tools/tune/search.h"
#include "tools/tune/search_space.h"

namespace aqesim::tune {

/// Everything one tune produced.
struct TuneOutcome {
  std::string scenario_path;
  std::vector<SpaceAxis> axes;
  ObjectiveSpec objective;
  std::vector<std::string> guardrails;  // Perturbation labels, the scenario as given first
  GuardrailJudgement judgement = GuardrailJudgement::kNoLoss;  // how their ratios count
  int budget = 0;
  uint64_t seed = 0;
  double min_gain = 0;
  Evaluation current;
  std::optional<TuneObjective::Trust> current_trust;
  SearchResult search;
  std::optional<TuneObjective::Trust> best_trust;  // the best point's, as current_trust
  std::optional<Recommendation> recommendation;    // none when every point failed
  std::optional<TuneObjective::Trust> recommended_trust;
};

nlohmann::ordered_json TuneToJson(const TuneOutcome& outcome);
std::string TuneToText(const TuneOutcome& outcome);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_TUNE_OUTPUT_H_
