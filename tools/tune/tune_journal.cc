#include "tools/tune/tune_journal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aqesim::tune {

std::string EvaluationToJsonLine(const Evaluation& e) {
  nlohmann::ordered_json j;
  j["values"] = e.values;
  j["objective"] =
      std::isfinite(e.objective) ? nlohmann::ordered_json(e.objective) : nlohmann::ordered_json(nullptr);
  j["makespanSeconds"] = e.makespan_seconds;
  j["coreHours"] = e.core_hours;
  j["ratios"] = e.ratios;
  j["error"] = e.error;
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::optional<Evaluation> EvaluationFromJson(const nlohmann::json& j, size_t num_axes,
                                             GuardrailJudgement judgement) {
  if (!j.is_object()) return std::nullopt;
  const auto finite = [](const nlohmann::json& v) { return v.is_number() && std::isfinite(v.get<double>()); };
  if (!j.contains("values") || !j["values"].is_array() || j["values"].size() != num_axes) return std::nullopt;
  if (!j.contains("objective") || !(j["objective"].is_null() || finite(j["objective"]))) return std::nullopt;
  if (!j.contains("makespanSeconds") || !finite(j["makespanSeconds"])) return std::nullopt;
  if (!j.contains("coreHours") || !finite(j["coreHours"])) return std::nullopt;
  if (!j.contains("ratios") || !j["ratios"].is_array()) return std::nullopt;
  if (!j.contains("error") || !j["error"].is_string()) return std::nullopt;
  Evaluation e;
  for (const auto& v : j["values"]) {
    if (!v.is_string()) return std::nullopt;
    e.values.push_back(v.get<std::string>());
  }
  for (const auto& r : j["ratios"]) {
    if (!finite(r)) return std::nullopt;
    e.ratios.push_back(r.get<double>());
  }
  e.objective =
      j["objective"].is_null() ? std::numeric_limits<double>::infinity() : j["objective"].get<double>();
  e.makespan_seconds = j["makespanSeconds"].get<double>();
  e.core_hours = j["coreHours"].get<double>();
  e.error = j["error"].get<std::string>();
  if (std::isfinite(e.objective) != e.error.empty())
    return std::nullopt;  // failed exactly when it has an error
  // What Evaluate writes (an edited line is simulated again, not trusted): the objective is what
  // the judgement makes of the positive ratios, seconds and core-hours are non-negative and within
  // a run's reach.
  if (e.makespan_seconds < 0 || e.makespan_seconds > 9.2e12 || e.core_hours < 0) return std::nullopt;
  if (std::isfinite(e.objective)) {
    if (e.ratios.empty()) return std::nullopt;
    for (double r : e.ratios)
      if (!(r > 0)) return std::nullopt;
    if (e.objective != ObjectiveOf(e.ratios, judgement)) return std::nullopt;
  }
  return e;
}

std::unique_ptr<TuneJournal> TuneJournal::Open(const std::string& path, const std::string& fingerprint,
                                               size_t num_axes, GuardrailJudgement judgement,
                                               std::string* error) {
  std::map<std::vector<std::string>, Evaluation> cache;
  sweep::LineJournalStats stats;
  auto lines = sweep::LineJournal::Open(
      path, "tune", fingerprint,
      [&](const nlohmann::json& j) {
        std::optional<Evaluation> e = EvaluationFromJson(j, num_axes, judgement);
        if (!e || cache.count(e->values)) return false;
        cache.emplace(e->values, std::move(*e));
        return true;
      },
      &stats, error);
  if (!lines) return nullptr;
  std::unique_ptr<TuneJournal> journal(new TuneJournal(std::move(lines)));
  journal->resumed_ = cache.size();
  journal->cache_ = std::move(cache);
  journal->dropped_lines_ = stats.dropped_lines;
  return journal;
}

std::optional<Evaluation> TuneJournal::Find(const std::vector<std::string>& values) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(values);
  if (it == cache_.end()) return std::nullopt;
  return it->second;
}

void TuneJournal::Record(const Evaluation& e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!error_.empty()) return;
  if (!lines_->Append(EvaluationToJsonLine(e), &error_)) return;
  cache_.emplace(e.values, e);
}

}  // namespace aqesim::tune
