#include "tools/tune/tune_reader.h"

#include <cmath>
#include <limits>

namespace aqesim::tune {

namespace {

using Json = nlohmann::json;

// Reads members at JSON pointers, collecting one message per problem.
class Reader {
 public:
  Reader(std::string path, std::vector<std::string>* errors) : path_(std::move(path)), errors_(errors) {}

  void Fail(const std::string& pointer, const std::string& message) {
    errors_->push_back(path_ + ": " + pointer + ": " + message);
  }
  const Json* Member(const Json& object, const std::string& pointer, const std::string& name) {
    if (!object.is_object() || !object.contains(name)) {
      Fail(pointer, "expected a member \"" + name + "\"");
      return nullptr;
    }
    return &object[name];
  }
  std::string String(const Json& object, const std::string& pointer, const std::string& name) {
    const Json* v = Member(object, pointer, name);
    if (v && v->is_string()) return v->get<std::string>();
    if (v) Fail(pointer + "/" + name, "expected a string");
    return "";
  }
  // A configuration key or value: a string without control characters (tune writes none; one
  // would break the lines of --conf and spark-defaults.conf it is printed in).
  std::string Setting(const Json& v, const std::string& pointer) {
    if (!v.is_string()) {
      Fail(pointer, "expected a string");
      return "";
    }
    const std::string s = v.get<std::string>();
    for (char c : s) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        Fail(pointer, "expected a value without control characters");
        break;
      }
    }
    return s;
  }
  // A finite number; `nullable`: null reads as NaN.
  double Number(const Json& object, const std::string& pointer, const std::string& name,
                bool nullable = false) {
    const Json* v = Member(object, pointer, name);
    if (!v) return 0;
    if (nullable && v->is_null()) return std::numeric_limits<double>::quiet_NaN();
    // Every number tune writes is a count, seconds, core-hours, a ratio or a percentage: >= 0.
    if (v->is_number() && std::isfinite(v->get<double>()) && v->get<double>() >= 0) return v->get<double>();
    Fail(pointer + "/" + name, nullable ? "expected a number >= 0 or null" : "expected a number >= 0");
    return 0;
  }
  int64_t Count(const Json& object, const std::string& pointer, const std::string& name) {
    const Json* v = Member(object, pointer, name);
    if (v && v->is_number_unsigned())
      return static_cast<int64_t>(std::min<uint64_t>(v->get<uint64_t>(), INT64_MAX));
    if (v) Fail(pointer + "/" + name, "expected a non-negative integer");
    return 0;
  }
  bool Bool(const Json& object, const std::string& pointer, const std::string& name) {
    const Json* v = Member(object, pointer, name);
    if (v && v->is_boolean()) return v->get<bool>();
    if (v) Fail(pointer + "/" + name, "expected true or false");
    return false;
  }
  std::vector<std::string> Strings(const Json& object, const std::string& pointer, const std::string& name) {
    std::vector<std::string> out;
    const Json* v = Member(object, pointer, name);
    if (!v) return out;
    if (!v->is_array()) {
      Fail(pointer + "/" + name, "expected an array of strings");
      return out;
    }
    for (size_t i = 0; i < v->size(); ++i) {
      if ((*v)[i].is_string())
        out.push_back((*v)[i].get<std::string>());
      else
        Fail(pointer + "/" + name + "/" + std::to_string(i), "expected a string");
    }
    return out;
  }
  std::optional<TuneObjective::Trust> Trust(const Json& object, const std::string& pointer) {
    const Json* source = Member(object, pointer, "timeSource");
    const Json* band = Member(object, pointer, "band");
    if (!source || !band || source->is_null()) return std::nullopt;
    TuneObjective::Trust t;
    if (!source->is_string()) {
      Fail(pointer + "/timeSource", "expected a string or null");
      return std::nullopt;
    }
    t.time_source = source->get<std::string>();
    if (!band->is_null()) {
      const double low = Number(*band, pointer + "/band", "lowSeconds");
      const double high = Number(*band, pointer + "/band", "highSeconds");
      t.band = MakespanBand{low, high};
    }
    return t;
  }

 private:
  std::string path_;
  std::vector<std::string>* errors_;
};

}  // namespace

bool IsTuneDocument(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("tune") && doc.contains("trace");
}

std::optional<TuneOutcome> TuneFromJson(const nlohmann::json& doc, const std::string& path,
                                        std::vector<std::string>* errors) {
  const size_t before = errors->size();
  Reader r(path, errors);
  TuneOutcome o;
  const Json* tune = r.Member(doc, "", "tune");
  if (!tune || !tune->is_object()) {
    if (tune) r.Fail("/tune", "expected an object");
    return std::nullopt;
  }
  o.scenario_path = r.String(*tune, "/tune", "scenario");
  std::string why;
  if (auto objective = ParseObjective(r.String(*tune, "/tune", "objective"), &why))
    o.objective = *objective;
  else
    r.Fail("/tune/objective", "expected makespan, core-hours or weighted:W");
  const std::vector<std::string> space = r.Strings(*tune, "/tune", "space");
  for (size_t i = 0; i < space.size(); ++i) {
    if (auto axis = ParseSpaceArg(space[i], &why))
      o.axes.push_back(*axis);
    else
      r.Fail("/tune/space/" + std::to_string(i), why);
  }
  o.budget = static_cast<int>(std::min<int64_t>(r.Count(*tune, "/tune", "budget"), INT32_MAX));
  o.seed = static_cast<uint64_t>(r.Count(*tune, "/tune", "seed"));
  o.guardrails = r.Strings(*tune, "/tune", "guardrails");
  // How the guardrails' ratios counted (written since no-loss became the default; a file without
  // it was judged on the worst ratio).
  o.judgement = GuardrailJudgement::kWorst;
  if (const auto j = tune->find("guardrailJudgement"); j != tune->end() && !j->is_null()) {
    if (j->is_string() && j->get<std::string>() == "no-loss")
      o.judgement = GuardrailJudgement::kNoLoss;
    else if (!j->is_string() || j->get<std::string>() != "worst")
      r.Fail("/tune/guardrailJudgement", "expected \"no-loss\", \"worst\" or null");
  }
  o.min_gain = r.Number(*tune, "/tune", "minGain");

  if (const Json* current = r.Member(doc, "", "current")) {
    o.current.makespan_seconds = r.Number(*current, "/current", "makespanSeconds");
    o.current.core_hours = r.Number(*current, "/current", "coreHours");
    o.current.objective = 1;
    o.current_trust = r.Trust(*current, "/current");
  }
  // The best point's trust (written since tune printed the best point's band; absent before).
  if (const auto best = doc.find("best");
      best != doc.end() && best->is_object() && best->contains("timeSource"))
    o.best_trust = r.Trust(*best, "/best");
  o.search.requests = r.Count(doc, "", "requests");
  o.search.exhausted = r.Bool(doc, "", "exhausted");
  const Json* trace = r.Member(doc, "", "trace");
  if (trace && !trace->is_array()) r.Fail("/trace", "expected an array");
  if (trace && trace->is_array() && trace->size() > static_cast<size_t>(kMaxBudget))
    r.Fail("/trace", "expected at most " + std::to_string(kMaxBudget) +
                         " evaluations (tune's --budget limit), found " + std::to_string(trace->size()));
  else if (trace && trace->is_array()) {
    for (size_t i = 0; i < trace->size(); ++i) {
      const std::string p = "/trace/" + std::to_string(i);
      const Json& t = (*trace)[i];
      Evaluation e;
      const Json* values = r.Member(t, p, "values");
      if (values && values->is_object()) {
        for (const SpaceAxis& a : o.axes) {
          if (values->contains(a.key) && (*values)[a.key].is_string())
            e.values.push_back(r.Setting((*values)[a.key], p + "/values/" + a.key));
          else
            r.Fail(p + "/values", "expected the value of " + a.key + " as a string");
        }
      } else if (values) {
        r.Fail(p + "/values", "expected an object");
      }
      const Json* error = r.Member(t, p, "error");
      if (error && error->is_string()) e.error = error->get<std::string>();
      const double objective = r.Number(t, p, "objective", true);
      e.objective = std::isnan(objective) ? std::numeric_limits<double>::infinity() : objective;
      const double makespan = r.Number(t, p, "makespanSeconds", true);
      const double core_hours = r.Number(t, p, "coreHours", true);
      e.makespan_seconds = std::isnan(makespan) ? 0 : makespan;
      e.core_hours = std::isnan(core_hours) ? 0 : core_hours;
      o.search.evaluations.push_back(std::move(e));
    }
  }
  const int64_t count = r.Count(doc, "", "evaluations");
  if (trace && trace->is_array() && count != static_cast<int64_t>(trace->size()))
    r.Fail("/evaluations", "expected the trace's length, " + std::to_string(trace->size()));
  for (size_t i = 0; i < o.search.evaluations.size(); ++i) {
    const double y = o.search.evaluations[i].objective;
    if (std::isfinite(y) &&
        (o.search.best < 0 || y < o.search.evaluations[static_cast<size_t>(o.search.best)].objective))
      o.search.best = static_cast<int>(i);
  }
  const Json* rec = r.Member(doc, "", "recommendation");
  if (rec && rec->is_object()) {
    Recommendation m;
    m.recommended = r.Bool(*rec, "/recommendation", "recommended");
    m.reason = r.String(*rec, "/recommendation", "reason");
    m.gain = r.Number(*rec, "/recommendation", "gainPercent") / 100;
    m.evaluation.makespan_seconds = r.Number(*rec, "/recommendation", "makespanSeconds", true);
    m.evaluation.core_hours = r.Number(*rec, "/recommendation", "coreHours", true);
    m.evaluation.objective = 1 - m.gain;
    m.evaluations =
        static_cast<int>(std::min<int64_t>(r.Count(*rec, "/recommendation", "evaluations"), INT32_MAX));
    o.recommended_trust = r.Trust(*rec, "/recommendation");
    const Json* keys = r.Member(*rec, "/recommendation", "keys");
    if (keys && keys->is_array()) {
      for (size_t i = 0; i < keys->size(); ++i) {
        const std::string p = "/recommendation/keys/" + std::to_string(i);
        KeyChange k;
        const Json* key = r.Member((*keys)[i], p, "key");
        const Json* value = r.Member((*keys)[i], p, "value");
        if (key) k.key = r.Setting(*key, p + "/key");
        if (value) k.value = r.Setting(*value, p + "/value");
        k.decisions_made = r.Strings((*keys)[i], p, "decisionsMade");
        k.decisions_lost = r.Strings((*keys)[i], p, "decisionsLost");
        m.settings.emplace_back(k.key, k.value);
        m.keys.push_back(std::move(k));
      }
    } else if (keys) {
      r.Fail("/recommendation/keys", "expected an array");
    }
    o.recommendation = std::move(m);
  } else if (rec && !rec->is_null()) {
    r.Fail("/recommendation", "expected an object or null");
  }
  if (errors->size() != before) return std::nullopt;
  return o;
}

}  // namespace aqesim::tune
