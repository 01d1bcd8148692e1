#include "models/scenario/profile_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "models/conf/did_you_mean.h"
#include "models/scenario/failed_attempts_reader.h"
#include "models/scenario/scheduling_pools_reader.h"

namespace aqesim {
namespace {

const std::vector<std::string> kProfileFields = {"recordedStage",
                                                 "tasks",
                                                 "inputBytes",
                                                 "rowOps",
                                                 "overheadSeconds",
                                                 "fixedSeconds",
                                                 "secondsPerRowOp",
                                                 "rates",
                                                 "residuals",
                                                 "critical",
                                                 "launchDelaySeconds",
                                                 "tailSeconds",
                                                 "submitGapSeconds",
                                                 "resourceProfile",
                                                 "operators",
                                                 "waitsFor",
                                                 "spill",
                                                 "failedAttempts"};

/// Upper bounds of a profile's values (README "Recorded profiles"): no recorded task or driver
/// gap lasts 10^6 s (11.6 days), no residual is 10^6, no task reads 10^18 rows, no row costs a
/// second. Within them a task's time stays far from where simulated time runs out (2^62 us).
constexpr double kMaxProfileSeconds = 1e6;
constexpr double kMaxResidual = 1e6;
constexpr double kMaxRowOps = 1e18;
constexpr double kMaxSecondsPerRowOp = 1;

bool WithinSeconds(double d) { return d >= 0 && d <= kMaxProfileSeconds; }
bool WithinResidual(double d) { return d >= 0 && d <= kMaxResidual; }
bool WithinRowOps(double d) { return d >= 0 && d <= kMaxRowOps; }
bool WithinSecondsPerRowOp(double d) { return d >= 0 && d <= kMaxSecondsPerRowOp; }
bool WithinRecordBytes(double d) { return d >= 0 && d <= 1e9; }

std::optional<double> Seconds(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  return ReadNumber(v, pointer, WithinSeconds, "a number of seconds from 0 to 1e6", sink);
}

/// A residual table: kResidualQuantiles non-decreasing numbers >= 0.
std::optional<std::vector<double>> ReadTable(const Json& v, const std::string& pointer,
                                             DiagnosticSink* sink) {
  if (!v.is_array() || v.size() != static_cast<size_t>(kResidualQuantiles)) {
    sink->Error(pointer, "expected an array of " + std::to_string(kResidualQuantiles) +
                             " residual quantiles (0, 5, ..., 100%), found " + DescribeJson(v));
    return std::nullopt;
  }
  std::vector<double> out;
  bool ok = true;
  for (size_t i = 0; i < v.size(); ++i) {
    auto q = ReadNumber(v[i], PointerAppend(pointer, i), WithinResidual, "a residual from 0 to 1e6", sink);
    if (!q) return std::nullopt;  // one problem a table, not one a quantile
    if (!out.empty() && *q < out.back()) {
      sink->Error(PointerAppend(pointer, i),
                  "quantiles must not decrease: " + DescribeJson(v[i]) + " after " + DescribeJson(v[i - 1]));
      ok = false;
    }
    out.push_back(*q);
  }
  if (!ok) return std::nullopt;
  return out;
}

void ReadResiduals(const Json& v, const std::string& pointer, StageProfile* p, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer,
                "expected an object {\"firstWave\": [...], \"later\": [...]}, found " + DescribeJson(v));
    return;
  }
  CheckFields(v, pointer, {"firstWave", "later"}, "a profile's residuals", sink);
  const char* waves[2] = {"firstWave", "later"};
  for (int w = 0; w < 2; ++w) {
    if (!v.contains(waves[w])) continue;
    const std::string wp = PointerAppend(pointer, waves[w]);
    const Json& tables = v[waves[w]];
    if (!tables.is_array() || tables.empty() || tables.size() > 3) {
      sink->Error(wp, "expected 1 to 3 residual tables (thirds of the wave), found " + DescribeJson(tables));
      continue;
    }
    for (size_t i = 0; i < tables.size(); ++i) {
      if (auto t = ReadTable(tables[i], PointerAppend(wp, i), sink)) p->residuals[w].push_back(std::move(*t));
    }
  }
}

/// `spill`: {"tasks", "memoryBytes", "diskBytes", "gcSeconds", "seconds", "recordBytes"}.
void ReadSpill(const Json& v, const std::string& pointer, StageProfile* p, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer,
                "expected an object {\"tasks\", \"memoryBytes\", \"diskBytes\", \"gcSeconds\", "
                "\"seconds\", \"recordBytes\"}, found " +
                    DescribeJson(v));
    return;
  }
  CheckFields(v, pointer, {"tasks", "memoryBytes", "diskBytes", "gcSeconds", "seconds", "recordBytes"},
              "a profile's spill", sink);
  StageProfile::Spill spill;
  bool ok = true;
  for (const char* field : {"tasks", "memoryBytes", "seconds", "recordBytes"}) {
    if (!v.contains(field)) {
      sink->Error(pointer, std::string("missing field \"") + field + "\"");
      ok = false;
    }
  }
  if (v.contains("tasks")) {
    auto t = ReadInteger(v["tasks"], pointer + "/tasks", 1, std::numeric_limits<int>::max(),
                         "a positive integer", sink);
    ok = ok && t;
    if (t) spill.tasks = static_cast<int>(*t);
  }
  for (auto [field, out] :
       {std::pair{"memoryBytes", &spill.memory_bytes}, {"diskBytes", &spill.disk_bytes}}) {
    if (!v.contains(field)) continue;
    auto b = ReadByteCount(v[field], pointer + "/" + field, ByteCountOptions{false, false}, sink);
    ok = ok && b;
    if (b) *out = *b;
  }
  for (auto [field, out] : {std::pair{"gcSeconds", &spill.gc_seconds}, {"seconds", &spill.seconds}}) {
    if (!v.contains(field)) continue;
    auto d = Seconds(v[field], pointer + "/" + field, sink);
    ok = ok && d;
    if (d) *out = *d;
  }
  if (v.contains("recordBytes")) {
    auto r = ReadNumber(v["recordBytes"], pointer + "/recordBytes", WithinRecordBytes,
                        "a number of bytes per record from 0 to 1e9", sink);
    ok = ok && r;
    if (r) spill.record_bytes = *r;
  }
  if (ok) p->spill = spill;
}

void ReadProfile(const Json& v, const std::string& pointer, StageProfile* p, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer, "expected a stage profile (an object), found " + DescribeJson(v));
    return;
  }
  CheckFields(v, pointer, kProfileFields, "a stage profile", sink);
  constexpr int64_t kMaxInt = std::numeric_limits<int>::max();
  if (v.contains("recordedStage")) {
    if (auto s =
            ReadInteger(v["recordedStage"], pointer + "/recordedStage", 0, kMaxInt, "a stage id >= 0", sink))
      p->recorded_stage = static_cast<int>(*s);
  }
  if (!v.contains("tasks")) {
    sink->Error(pointer, "missing field \"tasks\" (the recorded stage's task count)");
  } else if (auto t = ReadInteger(v["tasks"], pointer + "/tasks", 1, kMaxInt, "a positive integer", sink)) {
    p->tasks = static_cast<int>(*t);
  }
  if (v.contains("inputBytes")) {
    if (auto b =
            ReadByteCount(v["inputBytes"], pointer + "/inputBytes", ByteCountOptions{false, false}, sink))
      p->input_bytes = *b;
  }
  if (v.contains("rowOps")) {
    if (auto r = ReadNumber(v["rowOps"], pointer + "/rowOps", WithinRowOps, "a number from 0 to 1e18", sink))
      p->row_ops = *r;
  }
  if (v.contains("overheadSeconds")) {
    const Json& o = v["overheadSeconds"];
    const std::string op = pointer + "/overheadSeconds";
    if (!o.is_object()) {
      sink->Error(op, "expected an object {\"firstWave\": s, \"later\": s}, found " + DescribeJson(o));
    } else {
      CheckFields(o, op, {"firstWave", "later"}, "a profile's overheads", sink);
      if (o.contains("firstWave")) {
        if (auto s = Seconds(o["firstWave"], op + "/firstWave", sink)) p->overhead_first_wave_seconds = *s;
      }
      if (o.contains("later")) {
        if (auto s = Seconds(o["later"], op + "/later", sink)) p->overhead_later_seconds = *s;
      }
    }
  }
  if (v.contains("fixedSeconds")) {
    if (auto s = Seconds(v["fixedSeconds"], pointer + "/fixedSeconds", sink)) p->fixed_seconds = *s;
  }
  if (v.contains("secondsPerRowOp")) {
    if (auto s = ReadNumber(v["secondsPerRowOp"], pointer + "/secondsPerRowOp", WithinSecondsPerRowOp,
                            "a number of seconds from 0 to 1", sink))
      p->seconds_per_row_op = *s;
  }
  if (v.contains("rates")) {
    auto parse = [](const std::string& s) -> std::optional<std::string> {
      if (s == "stage" || s == "log" || s == "fixed") return s;
      return std::nullopt;
    };
    if (auto r = ReadEnum<std::string>(v["rates"], pointer + "/rates", parse, {"stage", "log", "fixed"},
                                       "a rate source", sink))
      p->rates = *r;
  }
  if (v.contains("residuals")) ReadResiduals(v["residuals"], pointer + "/residuals", p, sink);
  if (v.contains("critical")) {
    const Json& c = v["critical"];
    const std::string cp = pointer + "/critical";
    if (!c.is_object()) {
      sink->Error(cp, "expected an object {\"task\": index, \"residual\": r}, found " + DescribeJson(c));
    } else {
      CheckFields(c, cp, {"task", "residual", "spillSeconds"}, "a profile's critical task", sink);
      StageProfile::Critical crit;
      bool ok = c.contains("task") && c.contains("residual");
      if (!ok) sink->Error(cp, "expected both \"task\" and \"residual\"");
      if (c.contains("task")) {
        if (auto t = ReadInteger(c["task"], cp + "/task", 0, kMaxInt, "a task index >= 0", sink)) {
          crit.task = static_cast<int>(*t);
        } else {
          ok = false;
        }
      }
      if (c.contains("residual")) {
        if (auto r = ReadNumber(c["residual"], cp + "/residual", WithinResidual, "a residual from 0 to 1e6",
                                sink)) {
          crit.residual = *r;
        } else {
          ok = false;
        }
      }
      if (c.contains("spillSeconds")) {
        if (auto d = Seconds(c["spillSeconds"], cp + "/spillSeconds", sink))
          crit.spill_seconds = *d;
        else
          ok = false;
      }
      if (ok) p->critical = crit;
    }
  }
  if (v.contains("launchDelaySeconds")) {
    if (auto s = Seconds(v["launchDelaySeconds"], pointer + "/launchDelaySeconds", sink))
      p->launch_delay_seconds = *s;
  }
  if (v.contains("tailSeconds")) {
    if (auto s = Seconds(v["tailSeconds"], pointer + "/tailSeconds", sink)) p->tail_seconds = *s;
  }
  if (v.contains("submitGapSeconds")) {
    if (auto s = Seconds(v["submitGapSeconds"], pointer + "/submitGapSeconds", sink))
      p->submit_gap_seconds = *s;
  }
  if (v.contains("waitsFor")) {
    const Json& w = v["waitsFor"];
    const std::string wp = pointer + "/waitsFor";
    if (!w.is_array() || w.size() > 10'000) {
      sink->Error(wp, "expected an array (at most 10000) of stage names (\"j1 broadcast\"), found " +
                          DescribeJson(w));
    } else {
      for (size_t i = 0; i < w.size(); ++i) {
        const std::string ip = PointerAppend(wp, i);
        if (auto s = ReadString(w[i], ip, sink)) {
          if (s->empty())
            sink->Error(ip, "expected a stage name (\"j1 broadcast\"), found \"\"");
          else
            p->waits_for.push_back(*s);
        }
      }
    }
  }
  if (v.contains("resourceProfile")) {
    if (auto r = ReadInteger(v["resourceProfile"], pointer + "/resourceProfile", 0, kMaxInt,
                             "a resource profile id >= 0", sink))
      p->resource_profile = static_cast<int>(*r);
  }
  if (v.contains("spill")) ReadSpill(v["spill"], pointer + "/spill", p, sink);
  if (v.contains("failedAttempts"))
    ReadFailedAttempts(v["failedAttempts"], pointer + "/failedAttempts", p->tasks, &p->failed_attempts, sink);
  if (v.contains("operators")) {
    if (auto s = ReadString(v["operators"], pointer + "/operators", sink)) p->operators = *s;
  }
  // Each value within its range, a task at the recorded size within kMaxProfileSeconds too.
  double residual = p->critical ? p->critical->residual : 1.0;
  for (const auto& tables : p->residuals)
    for (const auto& t : tables)
      if (!t.empty()) residual = std::max(residual, t.back());
  const double task_seconds =
      std::max(p->overhead_first_wave_seconds, p->overhead_later_seconds) +
      (p->fixed_seconds + p->seconds_per_row_op * p->row_ops / std::max(1, p->tasks)) * residual;
  if (task_seconds > kMaxProfileSeconds)
    sink->Error(pointer, "expected a profile whose tasks take at most 1e6 s at the recorded size, found " +
                             Json(task_seconds).dump() +
                             " s (overheadSeconds + (fixedSeconds + secondsPerRowOp x rowOps / tasks) x the "
                             "largest residual)");
}

}  // namespace

void ReadProfiles(const Json& v, const std::string& pointer, std::map<std::string, StageProfile>* out,
                  DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer, "expected an object of stage name -> profile, found " + DescribeJson(v));
    return;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string p = PointerAppend(pointer, it.key());
    if (it.key().empty()) {
      sink->Error(p, "a profile needs a stage name (\"e1 map\", \"j1 broadcast\", \"result\")");
      continue;
    }
    StageProfile profile;
    ReadProfile(it.value(), p, &profile, sink);
    (*out)[it.key()] = std::move(profile);
  }
}

void CheckProfileStages(const std::map<std::string, StageProfile>& profiles, const PlanNode& plan,
                        bool collect_limit, DiagnosticSink* sink, const std::vector<Subquery>* subqueries) {
  if (profiles.empty()) return;
  std::set<std::string> ids;
  std::vector<std::string> stages;  // the plan's own stages, in pre-order, then "result"
  std::vector<const PlanNode*> todo = {&plan};
  std::set<std::string> subquery_results;
  if (subqueries != nullptr) {
    for (auto it = subqueries->rbegin(); it != subqueries->rend(); ++it) {
      if (!it->plan) continue;
      todo.push_back(it->plan.get());
      subquery_results.insert(it->id + " result");
    }
  }
  while (!todo.empty()) {
    const PlanNode* n = todo.back();
    todo.pop_back();
    ids.insert(n->id);
    if (n->is_exchange()) stages.push_back(n->id + " map");
    if (n->is_join() &&
        (n->strategy == JoinStrategy::kBroadcastHash || n->strategy == JoinStrategy::kBroadcastNestedLoop))
      stages.push_back(n->id + " broadcast");
    for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) todo.push_back(it->get());
  }
  stages.push_back("result");
  stages.insert(stages.end(), subquery_results.begin(), subquery_results.end());
  auto known = [&](const std::string& name) {
    if (name == "result" || subquery_results.count(name)) return true;
    if (name.rfind("result ", 0) == 0)
      return collect_limit && name.size() > 7 && name.find_first_not_of("0123456789", 7) == std::string::npos;
    for (const char* suffix : {" map", " broadcast", " sample", " sample 2"}) {
      const size_t n = std::strlen(suffix);
      if (name.size() <= n || name.compare(name.size() - n, n, suffix) != 0) continue;
      std::string id = name.substr(0, name.size() - n);
      if (ids.count(id)) return true;  // any join may become a broadcast at run time
      // An exchange the planner inserts: "<child>-exchange", "-2", "-3", ... when taken.
      if (const size_t dash = id.find_last_not_of("0123456789");
          dash != std::string::npos && dash + 1 < id.size() && id[dash] == '-')
        id.erase(dash);
      if (id.size() > 9 && id.compare(id.size() - 9, 9, "-exchange") == 0 &&
          ids.count(id.substr(0, id.size() - 9)))
        return true;
    }
    return false;
  };
  for (const auto& [name, profile] : profiles) {
    if (name.empty() || known(name)) continue;
    std::string list;
    for (size_t i = 0; i < stages.size() && i < 20; ++i) list += (i ? ", " : "") + Json(stages[i]).dump();
    if (stages.size() > 20) list += ", ... (" + std::to_string(stages.size()) + " in all)";
    sink->Warning(PointerAppend("/profiles", name),
                  "no stage of the plan is named " + Json(name).dump() + " (its stages: " + list +
                      "), so this profile is never used" + DidYouMeanSuffix(name, stages));
  }
}

void ReadDriverStructure(const Json& v, const std::string& pointer, DriverStructure* out,
                         DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(
        pointer,
        "expected an object {\"startSeconds\", \"endSeconds\", \"replanSeconds\", \"pools\"}, found " +
            DescribeJson(v));
    return;
  }
  CheckFields(v, pointer, {"startSeconds", "endSeconds", "replanSeconds", "pools"}, "the driver structure",
              sink);
  if (v.contains("startSeconds"))
    out->start_seconds = Seconds(v["startSeconds"], pointer + "/startSeconds", sink);
  if (v.contains("endSeconds")) out->end_seconds = Seconds(v["endSeconds"], pointer + "/endSeconds", sink);
  if (v.contains("replanSeconds"))
    out->replan_seconds = Seconds(v["replanSeconds"], pointer + "/replanSeconds", sink);
  if (v.contains("pools")) ReadSchedulingPools(v["pools"], pointer + "/pools", &out->pools, sink);
}

}  // namespace aqesim
