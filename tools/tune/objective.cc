#include "tools/tune/objective.h"

#include <algorithm>
#include <cmath>

#include "models/conf/property_value.h"
#include "models/engine/query_execution.h"
#include "models/engine/run_time_source.h"
#include "models/engine/simulated_band.h"
#include "models/plan/plan_error.h"
#include "models/scenario/shown_pointer.h"
#include "tools/sweep/sweep_runner.h"

namespace aqesim::tune {

std::string ObjectiveSpec::ToString() const {
  switch (kind) {
    case Kind::kMakespan:
      return "makespan";
    case Kind::kCoreHours:
      return "core-hours";
    case Kind::kWeighted: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "weighted:%g", seconds_per_core_hour);
      return buf;
    }
  }
  return "makespan";
}

std::optional<ObjectiveSpec> ParseObjective(const std::string& text, std::string* error) {
  ObjectiveSpec spec;
  if (text == "makespan") return spec;
  if (text == "core-hours") {
    spec.kind = ObjectiveSpec::Kind::kCoreHours;
    return spec;
  }
  if (text.rfind("weighted:", 0) == 0) {
    const std::optional<double> w = ParseDouble(text.substr(9));
    if (w && *w >= 0 && *w <= 1e9) {
      spec.kind = ObjectiveSpec::Kind::kWeighted;
      spec.seconds_per_core_hour = *w;
      return spec;
    }
  }
  *error =
      "--objective " + text +
      ": expected makespan, core-hours or weighted:W (W: seconds of makespan a core-hour is worth, 0 to 1e9)";
  return std::nullopt;
}

std::string ToString(GuardrailJudgement judgement) {
  return judgement == GuardrailJudgement::kWorst ? "worst" : "no-loss";
}

double GeometricMean(const std::vector<double>& ratios) {
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

double ObjectiveOf(const std::vector<double>& ratios, GuardrailJudgement judgement) {
  const double worst = *std::max_element(ratios.begin(), ratios.end());
  if (ratios.size() == 1) return worst;  // no guardrails: the one ratio, under either judgement
  if (judgement == GuardrailJudgement::kWorst || worst > 1 + kLossTolerance) return worst;
  return GeometricMean(ratios);
}

std::vector<Perturbation> NoGuardrails() { return {Perturbation{"as given", std::nullopt, std::nullopt, 0}}; }

std::vector<Perturbation> Guardrails() {
  std::vector<Perturbation> p = NoGuardrails();
  p.push_back({"seed+1", std::nullopt, std::nullopt, 1});
  p.push_back({"data ×0.5", 0.5, std::nullopt, 0});
  p.push_back({"data ×2", 2.0, std::nullopt, 0});
  p.push_back({"hotter skew", std::nullopt, 1.25, 0});
  p.push_back({"flatter skew", std::nullopt, 0.8, 0});
  return p;
}

TuneObjective::TuneObjective(std::shared_ptr<const ScenarioBase> base, ScenarioOverrides overrides,
                             ObjectiveSpec spec, std::vector<Perturbation> perturbations,
                             GuardrailJudgement judgement)
    : base_(std::move(base)),
      overrides_(std::move(overrides)),
      spec_(spec),
      perturbations_(std::move(perturbations)),
      judgement_(judgement) {}

double TuneObjective::Score(const RunResult& run) const {
  const double core_hours = run.resources.run.available_core_hours;
  switch (spec_.kind) {
    case ObjectiveSpec::Kind::kMakespan:
      return run.makespan_seconds;
    case ObjectiveSpec::Kind::kCoreHours:
      return core_hours;
    case ObjectiveSpec::Kind::kWeighted:
      return run.makespan_seconds + spec_.seconds_per_core_hour * core_hours;
  }
  return run.makespan_seconds;
}

std::optional<RunResult> TuneObjective::RunOn(const Settings& settings, const Perturbation& p,
                                              std::string* error) const {
  ScenarioOverrides ov = overrides_;
  for (const auto& [key, value] : settings) sweep::ApplyGridValue(key, value, *base_, &ov);
  // A guardrail scales what the configuration already has (the scenario's own dataScale, or a
  // value the space sets), it does not replace it.
  const auto current = [&](const char* field) {
    double v = 1;
    const Json& doc = base_->doc;
    if (doc.contains("simulation") && doc["simulation"].is_object() && doc["simulation"].contains(field) &&
        doc["simulation"][field].is_number())
      v = doc["simulation"][field].get<double>();
    for (const FieldOverride& f : ov.fields)
      if (f.section == "simulation" && f.field == field && f.value.is_number()) v = f.value.get<double>();
    return v;
  };
  if (p.data_scale) ov.fields.push_back({"simulation", "dataScale", current("dataScale") * *p.data_scale});
  if (p.skew_exponent)
    ov.fields.push_back({"simulation", "skewExponent", current("skewExponent") * *p.skew_exponent});
  LoadResult loaded = BuildScenario(*base_, ov);
  if (!loaded.errors.empty()) {
    *error = JoinDiagnostics(loaded.errors);
    return std::nullopt;
  }
  Scenario& s = *loaded.scenario;
  s.seed += p.seed_offset;
  try {
    RunResult run = SimulateQuery(s, s.conf.adaptive_enabled);
    DropTaskRecords(&run);
    if (!run.failures.empty()) {
      *error = "Spark would fail: " + run.failures.front();
      return std::nullopt;
    }
    return run;
  } catch (const PlanError& e) {
    *error = s.path + ": " + ShownPointer(e.pointer) + ": " + e.message;
  } catch (const std::exception& e) {
    *error = std::string("internal error: ") + e.what();
  }
  return std::nullopt;
}

std::optional<RunResult> TuneObjective::Run(const Settings& settings, std::string* error) const {
  return RunOn(settings, perturbations_.front(), error);
}

std::optional<TuneObjective::Trust> TuneObjective::TrustOf(const Settings& settings) const {
  ScenarioOverrides ov = overrides_;
  for (const auto& [key, value] : settings) sweep::ApplyGridValue(key, value, *base_, &ov);
  LoadResult loaded = BuildScenario(*base_, ov);
  if (!loaded.errors.empty()) return std::nullopt;
  Scenario& s = *loaded.scenario;
  try {
    const RunResult run = SimulateQuery(s, s.conf.adaptive_enabled);
    Trust t;
    t.time_source = RunTimeSource(run);
    t.band = SimulateBand(&s, run);
    return t;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string TuneObjective::Prepare() {
  current_scores_.clear();
  if (const LoadResult loaded = BuildScenario(*base_, overrides_); loaded.errors.empty())
    dynamic_allocation_ = loaded.scenario->conf.dynamic_allocation.enabled;
  for (const Perturbation& p : perturbations_) {
    std::string error;
    const std::optional<RunResult> run = RunOn({}, p, &error);
    if (!run) return "the current configuration (" + p.label + "): " + error;
    const double score = Score(*run);
    if (!(score > 0)) return "the current configuration (" + p.label + ") scores 0: nothing to improve";
    current_scores_.push_back(score);
    if (&p == &perturbations_.front()) {
      current_.makespan_seconds = run->makespan_seconds;
      current_.core_hours = run->resources.run.available_core_hours;
    }
  }
  current_.ratios.assign(perturbations_.size(), 1.0);
  current_.objective = 1.0;
  return "";
}

Evaluation TuneObjective::Evaluate(const Settings& settings) const {
  Evaluation e;
  for (const auto& setting : settings) e.values.push_back(setting.second);
  for (size_t i = 0; i < perturbations_.size(); ++i) {
    std::string error;
    const std::optional<RunResult> run = RunOn(settings, perturbations_[i], &error);
    if (!run) {
      e.error = (i == 0 ? "" : perturbations_[i].label + ": ") + error;
      e.objective = std::numeric_limits<double>::infinity();
      return e;
    }
    if (i == 0) {
      e.makespan_seconds = run->makespan_seconds;
      e.core_hours = run->resources.run.available_core_hours;
    }
    const double ratio = Score(*run) / current_scores_[i];
    e.ratios.push_back(ratio);
  }
  e.objective = ObjectiveOf(e.ratios, judgement_);
  return e;
}

}  // namespace aqesim::tune
