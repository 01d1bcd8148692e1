#include "tools/tune/tune_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tools/text/table_text.h"

namespace aqesim::tune {

namespace {

using Json = nlohmann::ordered_json;

double Round6(double v) { return std::round(v * 1e6) / 1e6; }

Json Number(double v) { return std::isfinite(v) ? Json(Round6(v)) : Json(nullptr); }

Json ValuesJson(const std::vector<SpaceAxis>& axes, const std::vector<std::string>& values) {
  Json j = Json::object();
  for (size_t i = 0; i < axes.size() && i < values.size(); ++i) j[axes[i].key] = values[i];
  return j;
}

Json TrustJson(const std::optional<TuneObjective::Trust>& t) {
  Json j = Json::object();
  j["timeSource"] = t ? Json(t->time_source) : Json(nullptr);
  if (t && t->band)
    j["band"] = {{"lowSeconds", Round6(t->band->low_seconds)},
                 {"highSeconds", Round6(t->band->high_seconds)}};
  else
    j["band"] = nullptr;
  return j;
}

std::string Seconds(double s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, s < 100 ? "%.2f s" : "%.1f s", s);
  return buf;
}

// As `run` prints a makespan: "12.30 s (8.1–55 s)" with the band (its ends rounded outwards to
// two digits), "12.30 s (profiled)" when every stage is timed by the log's recorded profiles.
std::string SecondsWithTrust(double s, const std::optional<TuneObjective::Trust>& t) {
  std::string out = Seconds(s);
  if (!t) return out;
  if (!t->band) return out + " (profiled)";
  return out + BandText(t->band->low_seconds, t->band->high_seconds);
}

std::string Ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", r);
  return buf;
}

}  // namespace

Json TuneToJson(const TuneOutcome& o) {
  Json doc = Json::object();
  Json space = Json::array();
  for (const SpaceAxis& a : o.axes) space.push_back(a.ToString());
  doc["tune"] = {
      {"scenario", o.scenario_path},
      {"objective", o.objective.ToString()},
      {"space", space},
      {"budget", o.budget},
      {"seed", o.seed},
      {"guardrails", o.guardrails},
      {"guardrailJudgement", o.guardrails.size() > 1 ? Json(ToString(o.judgement)) : Json(nullptr)},
      {"minGain", Round6(o.min_gain)}};
  Json current = {{"makespanSeconds", Number(o.current.makespan_seconds)},
                  {"coreHours", Number(o.current.core_hours)}};
  current.update(TrustJson(o.current_trust));
  doc["current"] = current;
  const SearchResult& s = o.search;
  if (s.best >= 0) {
    const Evaluation& b = s.evaluations[static_cast<size_t>(s.best)];
    Json ratios = Json::object();
    for (size_t i = 0; i < b.ratios.size() && i < o.guardrails.size(); ++i)
      ratios[o.guardrails[i]] = Number(b.ratios[i]);
    doc["best"] = {{"conf", ValuesJson(o.axes, b.values)},
                   {"makespanSeconds", Number(b.makespan_seconds)},
                   {"coreHours", Number(b.core_hours)},
                   {"objective", Number(b.objective)},
                   {"ratios", ratios}};
    doc["best"].update(TrustJson(o.best_trust));
  } else {
    doc["best"] = nullptr;
  }
  if (o.recommendation) {
    const Recommendation& r = *o.recommendation;
    Json conf = Json::object();
    Json model = Json::object();
    Json args = Json::array();
    std::string defaults;
    Json keys = Json::array();
    for (const KeyChange& k : r.keys) {
      const std::optional<std::string> spark = SparkKeyOf(k.key);
      if (spark) {
        conf[*spark] = k.value;
        args.push_back("--conf " + *spark + "=" + k.value);
        defaults += *spark + " " + k.value + "\n";
      } else {
        model[k.key] = k.value;
      }
      keys.push_back({{"key", k.key},
                      {"sparkKey", spark ? Json(*spark) : Json(nullptr)},
                      {"value", k.value},
                      {"decisionsMade", k.decisions_made},
                      {"decisionsLost", k.decisions_lost}});
    }
    Json rec = {{"recommended", r.recommended},
                {"reason", r.reason},
                {"conf", conf},
                {"modelParameters", model},
                {"gainPercent", Round6(100 * r.gain)},
                {"makespanSeconds", Number(r.evaluation.makespan_seconds)},
                {"coreHours", Number(r.evaluation.core_hours)}};
    rec.update(TrustJson(o.recommended_trust));
    rec["keys"] = keys;
    rec["confArguments"] = args;
    rec["sparkDefaults"] = defaults;
    rec["evaluations"] = r.evaluations;
    doc["recommendation"] = rec;
  } else {
    doc["recommendation"] = nullptr;
  }
  doc["evaluations"] = s.evaluations.size();
  doc["requests"] = s.requests;
  doc["exhausted"] = s.exhausted;
  Json trace = Json::array();
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < s.evaluations.size(); ++i) {
    const Evaluation& e = s.evaluations[i];
    if (e.objective < best) best = e.objective;
    trace.push_back({{"evaluation", i},
                     {"values", ValuesJson(o.axes, e.values)},
                     {"objective", Number(e.objective)},
                     {"makespanSeconds", e.error.empty() ? Number(e.makespan_seconds) : Json(nullptr)},
                     {"coreHours", e.error.empty() ? Number(e.core_hours) : Json(nullptr)},
                     {"bestObjective", Number(best)},
                     {"error", e.error.empty() ? Json(nullptr) : Json(e.error)}});
  }
  doc["trace"] = trace;
  return doc;
}

std::string TuneToText(const TuneOutcome& o) {
  // Every line within kTextColumns: the long ones (the space, the guardrails, a decision) wrapped
  // at spaces, their continuation lines indented; the JSON output holds the same text unwrapped.
  std::ostringstream out;
  const auto wrapped = [&](const std::string& text, size_t indent) {
    out << WrapText(text, kTextColumns, indent) << "\n";
  };
  const SearchResult& s = o.search;
  wrapped("tune " + TerminalText(o.scenario_path) + ": objective " + o.objective.ToString() + ", " +
              std::to_string(s.evaluations.size()) + " configurations simulated (budget " +
              std::to_string(o.budget) + (s.exhausted ? ", the whole space" : "") + "), seed " +
              std::to_string(o.seed),
          2);
  out << "space:\n";
  for (const SpaceAxis& a : o.axes) wrapped("  " + a.ToString(), 4);
  if (o.guardrails.size() > 1) {
    std::string g = "guardrails: each configuration against the current one on";
    for (const std::string& name : o.guardrails) g += (name == o.guardrails.front() ? " " : ", ") + name;
    wrapped(g + (o.judgement == GuardrailJudgement::kWorst
                     ? "; the worst ratio counts"
                     : "; the mean ratio counts, and a loss of more than 0.5 % on any of them vetoes"),
            2);
  }
  out << "current: " << SecondsWithTrust(o.current.makespan_seconds, o.current_trust) << ", "
      << Ratio(o.current.core_hours) << " core-hours\n";
  if (s.best < 0) {
    wrapped("no configuration of the space could be simulated; the first error: " +
                (s.evaluations.empty() ? std::string("none") : s.evaluations.front().error),
            2);
    return out.str();
  }
  const Evaluation& b = s.evaluations[static_cast<size_t>(s.best)];
  out << "best point: " << SecondsWithTrust(b.makespan_seconds, o.best_trust) << ", " << Ratio(b.core_hours)
      << " core-hours, objective " << Ratio(b.objective) << " of the current\n";
  if (!o.recommendation) return out.str();
  const Recommendation& r = *o.recommendation;
  out << "\n";
  wrapped(r.reason, 0);
  const bool sized = std::any_of(o.axes.begin(), o.axes.end(), [](const SpaceAxis& a) {
    return a.key == "spark.executor.instances" || a.key == "cluster.executors" ||
           a.key == "spark.dynamicAllocation.maxExecutors";
  });
  if (!sized)
    wrapped(
        "The number of executors was not searched (not in the space): aqesim scale answers how many "
        "executors.",
        0);
  if (!r.recommended) return out.str();
  out << "with it: " << SecondsWithTrust(r.evaluation.makespan_seconds, o.recommended_trust) << ", "
      << Ratio(r.evaluation.core_hours) << " core-hours\n\n";
  for (const KeyChange& k : r.keys) {
    if (const std::optional<std::string> spark = SparkKeyOf(k.key))
      wrapped("  --conf " + *spark + "=" + k.value, 6);
    else
      wrapped("  " + k.key + "=" + k.value + " (a model parameter, not a Spark setting)", 6);
    for (const std::string& d : k.decisions_made) wrapped("      AQE now: " + d, 10);
    for (const std::string& d : k.decisions_lost) wrapped("      AQE no longer: " + d, 10);
  }
  out << "\nspark-defaults.conf:\n";
  for (const KeyChange& k : r.keys)
    if (const std::optional<std::string> spark = SparkKeyOf(k.key)) out << *spark << " " << k.value << "\n";
  return out.str();
}

}  // namespace aqesim::tune
