#include "tools/tune/recommendation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace aqesim::tune {

namespace {

std::set<std::string> DecisionLines(const RunResult& run) {
  std::set<std::string> lines;
  for (const Decision& d : run.decisions) lines.insert(d.rule + ": " + d.message);
  return lines;
}

std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * fraction);
  return buf;
}

// W of weighted:W as ObjectiveSpec::ToString writes it (%g).
std::string WeightText(double seconds_per_core_hour) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", seconds_per_core_hour);
  return buf;
}

}  // namespace

std::optional<std::string> SparkKeyOf(const std::string& key) {
  if (key == "cluster.executors") return "spark.executor.instances";
  if (key == "cluster.executorCores") return "spark.executor.cores";
  if (key == "cluster.executorMemory") return "spark.executor.memory";
  for (const char* prefix : {"cluster.", "cost.", "simulation."})
    if (key.rfind(prefix, 0) == 0) return std::nullopt;
  return key;
}

Settings SettingsOf(const std::vector<SpaceAxis>& axes, const std::vector<std::string>& values) {
  Settings settings;
  for (size_t i = 0; i < axes.size(); ++i) settings.emplace_back(axes[i].key, values[i]);
  return settings;
}

Recommendation Recommend(const TuneObjective& objective, const std::vector<SpaceAxis>& axes,
                         const Evaluation& best, double min_gain) {
  Recommendation r;
  r.settings = SettingsOf(axes, best.values);
  r.evaluation = best;
  // Minimal diff: take each key out while that costs at most kKeepTolerance.
  for (size_t i = 0; i < r.settings.size();) {
    Settings without = r.settings;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    const Evaluation e = objective.Evaluate(without);
    ++r.evaluations;
    if (std::isfinite(e.objective) && e.objective <= r.evaluation.objective * (1 + kKeepTolerance)) {
      r.settings = std::move(without);
      r.evaluation = e;
    } else {
      ++i;
    }
  }
  if (r.settings.empty()) r.evaluation = objective.Current();
  r.gain = 1 - r.evaluation.objective;
  const bool guarded = objective.Perturbations().size() > 1;
  const bool no_loss = guarded && objective.Judgement() == GuardrailJudgement::kNoLoss;
  const char* over = !guarded ? "" : no_loss ? " on average over the guardrails" : " in the worst case";
  if (r.settings.empty()) {
    r.reason = "No configuration of the space beats the current one's " + objective.Spec().ToString() +
               (no_loss ? " on average over the guardrails without losing on any of them" : "") +
               " by more than " + Percent(kKeepTolerance) + ": keep the current configuration.";
  } else if (r.gain < min_gain) {
    r.reason = "The best change gains " + Percent(r.gain) + over + ", less than " + Percent(min_gain) +
               " (how far simulated seconds can be trusted): keep the current configuration.";
  } else {
    r.recommended = true;
    // What the gain is of, when it is not the makespan's (a cheaper run may take longer).
    const ObjectiveSpec& spec = objective.Spec();
    const std::string of =
        spec.kind == ObjectiveSpec::Kind::kCoreHours ? " of core-hours"
        : spec.kind == ObjectiveSpec::Kind::kWeighted
            ? " of makespan + " + WeightText(spec.seconds_per_core_hour) + " s × core-hours"
            : "";
    r.reason = "Gains " + Percent(r.gain) + of +
               (no_loss   ? over
                : guarded ? " in the worst case over the guardrails"
                          : "");
    const std::vector<double>& ratios = r.evaluation.ratios;
    if (no_loss && ratios.size() == objective.Perturbations().size()) {
      // The spread behind the mean: the job as given, and the copy that gains least.
      const size_t least =
          static_cast<size_t>(std::max_element(ratios.begin(), ratios.end()) - ratios.begin());
      r.reason += " (" + Percent(1 - ratios.front()) + " " + objective.Perturbations().front().label +
                  (least == 0 ? ", the least of them"
                              : ", least " + Percent(1 - ratios[least]) + " on " +
                                    objective.Perturbations()[least].label) +
                  ") and loses on none";
    }
    if (spec.kind != ObjectiveSpec::Kind::kMakespan) {
      char makespan[96];
      std::snprintf(makespan, sizeof makespan, "; the makespan goes from %.2f s to %.2f s",
                    objective.Current().makespan_seconds, r.evaluation.makespan_seconds);
      r.reason += makespan;
    }
    r.reason += ".";
  }
  // cluster.executors is a fixed executor count: under dynamic allocation, spark.executor.instances
  // alone is only the allocation manager's initial target, so the recommendation turns it off —
  // the configuration simulated (a fixed count replaces the recorded timeline or the policy).
  const auto executors = std::find_if(r.settings.begin(), r.settings.end(),
                                      [](const auto& s) { return s.first == "cluster.executors"; });
  if (objective.DynamicAllocation() && executors != r.settings.end())
    r.settings.insert(executors, {"spark.dynamicAllocation.enabled", "false"});
  // Which decisions each kept key changes.
  std::string error;
  const std::optional<RunResult> with_all = objective.Run(r.settings, &error);
  ++r.evaluations;
  for (size_t i = 0; i < r.settings.size(); ++i) {
    KeyChange change{r.settings[i].first, r.settings[i].second, {}, {}};
    Settings without = r.settings;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    const std::optional<RunResult> run_without = objective.Run(without, &error);
    ++r.evaluations;
    if (with_all && run_without) {
      const std::set<std::string> a = DecisionLines(*with_all);
      const std::set<std::string> b = DecisionLines(*run_without);
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(change.decisions_made));
      std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(change.decisions_lost));
    }
    r.keys.push_back(std::move(change));
  }
  return r;
}

}  // namespace aqesim::tune
