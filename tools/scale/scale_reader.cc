#include "tools/scale/scale_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace aqesim::scale {

namespace {

using Json = nlohmann::json;

// The largest seconds or core-hours a result may hold (about 292,000 years: what compare accepts).
constexpr double kMaxValue = 9.2e12;
constexpr double kMaxPercent = 100000;  // scale's --percent limit

// Reads members at JSON pointers, collecting one message per problem.
class Reader {
 public:
  Reader(std::string path, std::vector<std::string>* errors) : path_(std::move(path)), errors_(errors) {}

  void Fail(const std::string& pointer, const std::string& message) {
    errors_->push_back(path_ + ": " + pointer + ": " + message);
  }
  const Json* Member(const Json& object, const std::string& pointer, const std::string& name) {
    if (!object.contains(name)) {
      Fail(pointer, "expected a member \"" + name + "\"");
      return nullptr;
    }
    return &object[name];
  }
  // A finite number in [0, kMaxValue].
  double Number(const Json& object, const std::string& pointer, const std::string& name) {
    const Json* v = Member(object, pointer, name);
    if (!v) return 0;
    if (v->is_number() && std::isfinite(v->get<double>()) && v->get<double>() >= 0 &&
        v->get<double>() <= kMaxValue)
      return v->get<double>();
    Fail(pointer + "/" + name, "expected a number from 0 to 9.2e12");
    return 0;
  }
  // `name` and, when present, `nameLow` / `nameHigh` (both or neither, holding the value).
  double Banded(const Json& object, const std::string& pointer, const std::string& name,
                std::optional<MakespanBand>* band) {
    const size_t before = errors_->size();
    const double value = Number(object, pointer, name);
    const bool low = object.contains(name + "Low"), high = object.contains(name + "High");
    if (!low && !high) return value;
    if (low != high) {
      Fail(pointer, "expected both " + name + "Low and " + name + "High, or neither");
      return value;
    }
    const double lo = Number(object, pointer, name + "Low");
    const double hi = Number(object, pointer, name + "High");
    if (errors_->size() == before && !(lo <= value && value <= hi))
      Fail(pointer + "/" + name, "expected " + name + "Low <= " + name + " <= " + name + "High");
    *band = MakespanBand{lo, hi};
    return value;
  }
  int64_t Count(const Json& object, const std::string& pointer, const std::string& name, int64_t least) {
    const Json* v = Member(object, pointer, name);
    if (v && v->is_number_integer() && v->get<int64_t>() >= least && v->get<int64_t>() <= INT32_MAX)
      return v->get<int64_t>();
    if (v) Fail(pointer + "/" + name, "expected an integer from " + std::to_string(least) + " to 2147483647");
    return least;
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

 private:
  std::string path_;
  std::vector<std::string>* errors_;
};

ScaleRow ReadRow(Reader* r, const Json& j, const std::string& p, bool log) {
  ScaleRow row;
  if (!j.is_object()) {
    r->Fail(p, "expected an object");
    return row;
  }
  row.percent = r->Number(j, p, "percent");
  if (j.contains("percent") && !(row.percent > 0 && row.percent <= kMaxPercent))
    r->Fail(p + "/percent", "expected a percentage above 0 and at most 100000");
  // Every percentage the row stands for (scale writes them since rows were merged by executor
  // count); a file without them has one each.
  row.percents = {row.percent};
  if (j.contains("percents")) {
    const Json& list = j["percents"];
    const bool valid =
        list.is_array() && !list.empty() && std::all_of(list.begin(), list.end(), [](const Json& v) {
          return v.is_number() && v.get<double>() > 0 && v.get<double>() <= kMaxPercent;
        });
    if (!valid || list.front().get<double>() != row.percent)
      r->Fail(p + "/percents",
              "expected the row's percentages (numbers above 0 and at most 100000), the first its percent");
    else
      row.percents = list.get<std::vector<double>>();
  }
  row.executors = static_cast<int>(r->Count(j, p, "executors", 1));
  row.makespan_seconds = r->Banded(j, p, "makespanSeconds", &row.band);
  row.available_core_hours = r->Number(j, p, "coreHours");
  row.used_core_hours = r->Number(j, p, "coreHoursUsed");
  if (row.used_core_hours > row.available_core_hours * (1 + 1e-9))
    r->Fail(p + "/coreHoursUsed", "expected at most the row's coreHours");
  r->Number(j, p, "utilization");  // derived: used ÷ available
  row.critical_path_seconds = r->Banded(j, p, "criticalPathSeconds", &row.critical_path_band);
  row.ideal_seconds = r->Banded(j, p, "idealSeconds", &row.ideal_band);
  if (log) {
    if (const Json* s = r->Member(j, p, "sparklensSeconds"); s && !s->is_null())
      row.sparklens_seconds = r->Number(j, p, "sparklensSeconds");
  }
  row.decisions_changed = r->Strings(j, p, "decisionsChanged");
  row.decisions_replaced = r->Strings(j, p, "decisionsReplaced");
  return row;
}

// The file's answer `name` ({"percent", "executors", "makespanSeconds"}) must be row `expected`.
void CheckAnswer(Reader* r, const Json& doc, const std::string& name, const std::vector<ScaleRow>& rows,
                 size_t expected) {
  const Json* ref = r->Member(doc, "", name);
  if (!ref) return;
  const std::string p = "/" + name;
  if (!ref->is_object()) {
    r->Fail(p, "expected an object");
    return;
  }
  const double percent = r->Number(*ref, p, "percent");
  const int64_t executors = r->Count(*ref, p, "executors", 1);
  const double makespan = r->Number(*ref, p, "makespanSeconds");
  const ScaleRow& row = rows[expected];
  if (percent != row.percent || executors != row.executors || makespan != row.makespan_seconds)
    r->Fail(p, "expected the row the rows give (" + std::to_string(row.executors) + " executors, row " +
                   std::to_string(expected) + ")");
}

}  // namespace

bool IsScaleDocument(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("rows") && doc.contains("baseExecutors") &&
         (doc.contains("scenario") || doc.contains("log"));
}

std::optional<ScaleDocument> ScaleFromJson(const nlohmann::json& doc, const std::string& path,
                                           std::vector<std::string>* errors) {
  const size_t before = errors->size();
  Reader r(path, errors);
  if (!doc.is_object()) {
    r.Fail("", "expected an object");
    return std::nullopt;
  }
  ScaleDocument out;
  out.log = doc.contains("log");
  if (doc.contains("log") && doc.contains("scenario"))
    r.Fail("", "expected \"log\" or \"scenario\", not both");
  const std::string subject_key = out.log ? "log" : "scenario";
  if (const Json* s = r.Member(doc, "", subject_key); s && s->is_string())
    out.subject = s->get<std::string>();
  else if (s)
    r.Fail("/" + subject_key, "expected a string");
  ScaleResult& res = out.result;
  res.adaptive = r.Bool(doc, "", "adaptive");
  res.base_executors = static_cast<int>(r.Count(doc, "", "baseExecutors", 1));
  res.executor_cores = static_cast<int>(r.Count(doc, "", "executorCores", 1));
  if (const Json* t = r.Member(doc, "", "timeSource")) {
    if (t->is_string() && (*t == "profiled" || *t == "modelled" || *t == "mixed"))
      res.time_source = t->get<std::string>();
    else
      r.Fail("/timeSource", "expected \"profiled\", \"modelled\" or \"mixed\"");
  }
  res.dynamic_allocation = r.Bool(doc, "", "dynamicAllocationReplaced");
  res.timeline_replaced = r.Bool(doc, "", "executorTimelineReplaced");
  if (out.log && doc.contains("recordedSeconds")) res.recorded_seconds = r.Number(doc, "", "recordedSeconds");
  const Json& rows = doc["rows"];
  if (!rows.is_array() || rows.empty() || rows.size() > kMaxScaleRows) {
    r.Fail("/rows", "expected an array of 1 to " + std::to_string(kMaxScaleRows) + " rows");
    return std::nullopt;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const size_t row_before = errors->size();
    const std::string p = "/rows/" + std::to_string(i);
    res.rows.push_back(ReadRow(&r, rows[i], p, out.log));
    if (errors->size() != row_before || errors->size() != before) continue;
    // scale writes one row per executor count, fewest first, each its percentages of the base.
    const ScaleRow& row = res.rows.back();
    if (i > 0 && row.executors <= res.rows[i - 1].executors) {
      r.Fail(p + "/executors", "expected more executors than row " + std::to_string(i - 1) + "'s " +
                                   std::to_string(res.rows[i - 1].executors) +
                                   " (rows in increasing executor order), found " +
                                   std::to_string(row.executors));
      continue;
    }
    for (const double percent : row.percents) {
      const int64_t executors =
          std::max<int64_t>(1, std::llround(static_cast<double>(res.base_executors) * percent / 100.0));
      if (executors != row.executors) {
        char text[32];
        std::snprintf(text, sizeof(text), "%g", percent);
        r.Fail(p + "/executors", "expected " + std::to_string(executors) + " (" + text +
                                     " % of baseExecutors " + std::to_string(res.base_executors) +
                                     "), found " + std::to_string(row.executors));
        break;
      }
    }
  }
  if (errors->size() != before) return std::nullopt;
  MarkAnswers(&res);
  CheckAnswer(&r, doc, "fastest", res.rows, res.fastest);
  CheckAnswer(&r, doc, "fewestExecutorsWithin5Percent", res.rows, res.within_5_percent);
  CheckAnswer(&r, doc, "fewestExecutorsWithin10Percent", res.rows, res.within_10_percent);
  if (res.faster_and_cheaper) CheckAnswer(&r, doc, "fasterAndCheaper", res.rows, *res.faster_and_cheaper);
  if (doc.contains("balanced"))
    CheckAnswer(&r, doc, "balanced", res.rows, res.balanced);  // older results lack it
  std::optional<MakespanBand> band;
  const double critical = r.Banded(doc, "", "criticalPathSeconds", &band);
  if (critical != res.rows[res.critical_path_row].critical_path_seconds)
    r.Fail("/criticalPathSeconds", "expected the least of the rows' criticalPathSeconds");
  r.Banded(doc, "", "idealSeconds", &band);
  if (errors->size() != before) return std::nullopt;
  return out;
}

}  // namespace aqesim::scale
