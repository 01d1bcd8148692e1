// What `aqesim tune` minimises, and its guardrails.
//
// A configuration (the current one with some keys set, like --conf or a sweep's grid values:
// Spark keys, cluster.FIELD, cost.PARAM, simulation.FIELD) is simulated with AQE as its
// configuration says (spark.sql.adaptive.enabled) and scored:
//   makespan     the run's makespan, seconds
//   core-hours   the cores the run held × the time it held them (models/engine/resource_usage.h:
//                available core-hours): what the cluster costs
//   weighted:W   makespan seconds + W × core-hours (W: the seconds of makespan a core-hour is
//                worth to you)
// A run in which Spark would fail (a broadcast above spark.sql.maxBroadcastTableSize or beyond
// its timeout: RunResult::failures) cannot be chosen: it counts as an error.
//
// Guardrails: the configuration is simulated on the scenario as it is and on each perturbed copy
// (Perturbation: another noise seed; the data volume ×0.5 and ×2 through simulation.dataScale; a
// hotter and a flatter skew through simulation.skewExponent × 1.25 and × 0.8 — each multiplying
// the value the configuration already has, the scenario's own or one the space sets),
// and its score on each is divided by the current configuration's score on the same copy. How
// the ratios become the objective (GuardrailJudgement):
//   no-loss  (the default) the geometric mean of the ratios — the gain to expect when each copy
//            is as likely as the job as given — unless some copy loses, its ratio above
//            1 + kLossTolerance: then the largest ratio (at least 1, so never better than the
//            current configuration). A change that wins at ×1 data but loses at ×2 is never the
//            best; one that wins at ×1 and changes nothing at ×0.5 (the join broadcast there
//            already) is.
//   worst    the largest ratio: better than the current configuration only when better on every
//            copy, a change that does nothing on one copy included.
// Without guardrails the objective is the one ratio of the scenario as it is.
#ifndef AQESIM_TOOLS_TUNE_OBJECTIVE_H_
#define AQESIM_TOOLS_TUNE_OBJECTIVE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/cost/defaults_band.h"
#include "models/engine/run_result.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/tune/search.h"
#include "tools/tune/search_space.h"

namespace aqesim::tune {

struct ObjectiveSpec {
  enum class Kind { kMakespan, kCoreHours, kWeighted };
  Kind kind = Kind::kMakespan;
  double seconds_per_core_hour = 0;  // kWeighted's W
  std::string ToString() const;      // "makespan", "core-hours", "weighted:3600"
};

/// "makespan", "core-hours" or "weighted:W" (W a finite number >= 0); nullopt with `*error`.
std::optional<ObjectiveSpec> ParseObjective(const std::string& text, std::string* error);

/// One copy of the scenario a configuration is also judged on.
struct Perturbation {
  std::string label;                    // "as given", "seed+1", "data ×2"
  std::optional<double> data_scale;     // simulation.dataScale
  std::optional<double> skew_exponent;  // simulation.skewExponent
  uint64_t seed_offset = 0;             // added to the scenario's seed (task noise, generated sizes)
};

/// A copy loses when its ratio is above 1 + kLossTolerance (what tune's minimal diff also treats as
/// no change: recommendation.h's kKeepTolerance).
inline constexpr double kLossTolerance = 0.005;

/// How the ratios over the copies become the objective (file comment).
enum class GuardrailJudgement { kNoLoss, kWorst };
/// "no-loss" or "worst".
std::string ToString(GuardrailJudgement judgement);
/// The objective of `ratios` (positive; the scenario as given first) under `judgement`.
double ObjectiveOf(const std::vector<double>& ratios, GuardrailJudgement judgement);
/// The geometric mean of `ratios` (positive, non-empty).
double GeometricMean(const std::vector<double>& ratios);

/// The scenario as given, then the guardrails: seed+1, data ×0.5, data ×2, hotter skew (γ 1.25),
/// flatter skew (γ 0.8).
std::vector<Perturbation> Guardrails();
/// The scenario as given only.
std::vector<Perturbation> NoGuardrails();

/// A configuration: (key, value) settings applied in order on top of the command line's.
using Settings = std::vector<std::pair<std::string, std::string>>;

class TuneObjective {
 public:
  TuneObjective(std::shared_ptr<const ScenarioBase> base, ScenarioOverrides overrides, ObjectiveSpec spec,
                std::vector<Perturbation> perturbations,
                GuardrailJudgement judgement = GuardrailJudgement::kNoLoss);

  /// Simulates the current configuration on every copy (the ratios' denominators); "" or why it
  /// cannot (the current configuration fails to load or run: nothing can be compared with it).
  std::string Prepare();

  /// The score of `settings` (see the file comment); never throws.
  Evaluation Evaluate(const Settings& settings) const;

  /// The run of `settings` on the scenario as given (decisions, makespan), or nullopt with
  /// `*error`.
  std::optional<RunResult> Run(const Settings& settings, std::string* error) const;

  /// How far the seconds of `settings` on the scenario as given can be trusted: "profiled",
  /// "modelled" or "mixed" (the stages' timeSource), and the cost model's band of the makespan
  /// when a stage is modelled (models/engine/simulated_band.h).
  struct Trust {
    std::string time_source;
    std::optional<MakespanBand> band;
  };
  std::optional<Trust> TrustOf(const Settings& settings) const;

  /// The current configuration's score on the scenario as given (makespan, core-hours).
  const Evaluation& Current() const { return current_; }
  const std::vector<Perturbation>& Perturbations() const { return perturbations_; }
  const ObjectiveSpec& Spec() const { return spec_; }
  /// The current configuration runs Spark's dynamic allocation (spark.dynamicAllocation.enabled):
  /// cluster.executors, a fixed count, then stands for turning it off (recommendation.h).
  bool DynamicAllocation() const { return dynamic_allocation_; }
  GuardrailJudgement Judgement() const { return judgement_; }

 private:
  std::optional<RunResult> RunOn(const Settings& settings, const Perturbation& p, std::string* error) const;
  double Score(const RunResult& run) const;

  std::shared_ptr<const ScenarioBase> base_;
  ScenarioOverrides overrides_;
  ObjectiveSpec spec_;
  std::vector<Perturbation> perturbations_;
  GuardrailJudgement judgement_;
  std::vector<double> current_scores_;  // one per perturbation
  bool dynamic_allocation_ = false;
  Evaluation current_;
};

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_OBJECTIVE_H_
