#include "tools/validate/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "models/cost/defaults_band.h"
#include "models/engine/query_execution.h"
#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"
#include "models/scenario/scenario_overrides.h"
#include "models/scenario/shown_pointer.h"
#include "tools/eventlog/failed_attempts_import.h"
#include "tools/text/table_text.h"
#include "tools/validate/failure_summary.h"

namespace aqesim::validate {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

bool SelectionRanStages(const eventlog::RecordedApplication& app, const std::vector<int>& job_ids) {
  for (int j : job_ids) {
    auto it = app.jobs.find(j);
    if (it == app.jobs.end()) continue;
    for (int s : it->second.stage_ids) {
      const eventlog::RecordedStage* st = app.stage(s);
      if (st != nullptr && st->submitted && st->successful_tasks > 0) return true;
    }
  }
  return false;
}

std::string Percent(const std::optional<double>& v) {
  if (!v) return "-";
  return (*v >= 0 ? "+" : "") + Fixed(*v * 100, 1) + "%";
}

/// validate's tables: the first three columns (selection, stage or kind, name or id) and the
/// stage table's twelfth (profile from) left-aligned.
std::string Table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows) {
  return TextTable(head, rows, [](size_t i) { return i >= 3 && i != 11; });
}

/// The stage table's "profile from" cell: "stage 4" when the profile is of the stage of the same
/// name in the selection of the same label in the other log (the JSON says "SQL execution 0: e1
/// map (stage 4)"), "SQL execution 1, stage 4" when only the name is the same, the whole text
/// otherwise; "-" when there is none.
std::string ProfileFromCell(const std::string& from, const std::string& selection,
                            const std::string& simulated_name) {
  if (from.empty()) return "-";
  const std::string same = ": " + simulated_name + " (stage ";
  const size_t at = from.find(same);
  if (simulated_name.empty() || at == std::string::npos || from.back() != ')') return from;
  const std::string stage = "stage " + from.substr(at + same.size(), from.size() - 1 - at - same.size());
  return from.compare(0, at, selection) == 0 && at == selection.size() ? stage
                                                                       : from.substr(0, at) + ", " + stage;
}

}  // namespace

std::optional<double> Median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<std::pair<std::string, eventlog::ImportOptions>> SelectReplays(
    const eventlog::RecordedApplication& app) {
  std::vector<std::pair<std::string, eventlog::ImportOptions>> out;
  for (const auto& [id, ex] : app.executions) {
    if (ex.plans.empty() || !SelectionRanStages(app, ex.job_ids)) continue;
    eventlog::ImportOptions o;
    o.execution_id = id;
    out.emplace_back("SQL execution " + std::to_string(id), o);
  }
  if (!out.empty()) return out;
  for (const auto& [id, job] : app.jobs) {
    if (!SelectionRanStages(app, {id})) continue;
    eventlog::ImportOptions o;
    o.job_id = id;
    out.emplace_back("job " + std::to_string(id), o);
  }
  return out;
}

std::optional<RunResult> SimulateDocument(const json& document, const std::string& label,
                                          std::string* error) {
  return SimulateLoaded(LoadScenarioJson(document, label, ConfOverrides{}), label, error);
}

std::optional<RunResult> SimulateLoaded(LoadResult loaded, const std::string& label, std::string* error) {
  if (!loaded.errors.empty() || !loaded.scenario) {
    std::string msg;
    for (const Diagnostic& d : loaded.errors) msg += (msg.empty() ? "" : "; ") + d.ToString();
    *error = msg.empty() ? label + ": scenario did not load" : msg;
    return std::nullopt;
  }
  try {
    return SimulateQuery(*loaded.scenario, loaded.scenario->conf.adaptive_enabled);
  } catch (const PlanError& e) {
    *error = label + ": " + ShownPointer(e.pointer) + ": " + e.message;
    return std::nullopt;
  }
}

void MatchStages(const eventlog::RecordedApplication& app, ReplayedSelection* sel) {
  sel->matches.clear();
  std::set<int> claimed;
  std::vector<int> recorded;  // submitted stages of the selection, ascending
  for (int s : sel->imported.stage_ids) {
    const eventlog::RecordedStage* st = app.stage(s);
    if (st != nullptr && st->submitted) recorded.push_back(s);
  }
  const RunResult& run = sel->run;
  std::vector<StageMatch> matches(run.stages.size());
  for (size_t i = 0; i < run.stages.size(); ++i) {
    matches[i].simulated_name = run.stages[i].name;
    matches[i].simulated_index = i;
    matches[i].role = "unmatched";
  }
  // Map stages by exchange.
  for (const auto& ex : sel->imported.exchanges) {
    if (!ex.map_stage_id) continue;
    for (auto& m : matches) {
      if (m.simulated_name != ex.id + " map" || m.recorded_stage_id) continue;
      m.role = "map";
      if (claimed.insert(*ex.map_stage_id).second) m.recorded_stage_id = *ex.map_stage_id;
    }
  }
  std::vector<int> left;
  for (int s : recorded) {
    if (!claimed.count(s)) left.push_back(s);
  }
  // Broadcast stages: the stage that ran the join's build side when the importer could tell
  // (its scan's SQL metrics), then the remaining stages in id order.
  for (const auto& j : sel->imported.joins) {
    if (!j.build_stage_id || claimed.count(*j.build_stage_id) ||
        std::find(recorded.begin(), recorded.end(), *j.build_stage_id) == recorded.end())
      continue;
    for (auto& m : matches) {
      if (m.simulated_name != j.id + " broadcast" || m.recorded_stage_id) continue;
      m.role = "broadcast";
      m.recorded_stage_id = *j.build_stage_id;
      claimed.insert(*j.build_stage_id);
      left.erase(std::remove(left.begin(), left.end(), *j.build_stage_id), left.end());
    }
  }
  // A subquery's final stage ("sqN result"): the stage that ran its plan's top operator.
  for (const auto& q : sel->imported.subqueries) {
    if (!q.result_stage_id || claimed.count(*q.result_stage_id) ||
        std::find(recorded.begin(), recorded.end(), *q.result_stage_id) == recorded.end())
      continue;
    for (auto& m : matches) {
      if (m.simulated_name != q.id + " result" || m.recorded_stage_id) continue;
      m.role = "subquery";
      m.recorded_stage_id = *q.result_stage_id;
      claimed.insert(*q.result_stage_id);
      left.erase(std::remove(left.begin(), left.end(), *q.result_stage_id), left.end());
    }
  }
  // The result stage takes the last stage left; executeTake's jobs under a collectLimit
  // ("result", "result 2", ...) the last ones, in order.
  std::vector<StageMatch*> results;
  const json& profiles =
      sel->imported.scenario.contains("profiles") ? sel->imported.scenario["profiles"] : json();
  for (auto& m : matches) {
    if (m.simulated_name != "result" && m.simulated_name.rfind("result ", 0) != 0) continue;
    // A take job with a profile: the stage it was recorded as.
    if (m.simulated_name != "result" && profiles.is_object() && profiles.contains(m.simulated_name)) {
      const int s = profiles[m.simulated_name].value("recordedStage", -1);
      if (auto at = std::find(left.begin(), left.end(), s); at != left.end()) {
        m.role = "result";
        m.recorded_stage_id = s;
        claimed.insert(s);
        left.erase(at);
        continue;
      }
    }
    if (m.simulated_name.rfind("result ", 0) == 0) {
      m.role = "result";  // a take job the selection has no record of
      continue;
    }
    results.push_back(&m);
  }
  const size_t taken = std::min(results.size(), left.size());
  for (size_t k = 0; k < results.size(); ++k) {
    results[k]->role = "result";
    if (k + taken < results.size()) continue;  // fewer recorded than simulated: the first go unmatched
    const int s = left[left.size() - results.size() + k];
    results[k]->recorded_stage_id = s;
    claimed.insert(s);
  }
  left.resize(left.size() - taken);
  size_t next = 0;
  for (auto& m : matches) {
    const std::string suffix = " broadcast";
    if (m.simulated_name.size() <= suffix.size() ||
        m.simulated_name.compare(m.simulated_name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    m.role = "broadcast";
    if (m.recorded_stage_id) continue;
    if (next < left.size()) {
      m.recorded_stage_id = left[next];
      claimed.insert(left[next]);
      ++next;
    }
  }
  for (int s : recorded) {
    if (claimed.count(s)) continue;
    StageMatch m;
    m.recorded_stage_id = s;
    m.role = "unmatched";
    matches.push_back(m);
  }
  sel->matches = std::move(matches);
}

void Summarize(const eventlog::RecordedApplication& app, Validation* v) {
  v->stages.clear();
  v->decisions.clear();
  v->recorded_makespan_seconds = 0;
  v->simulated_makespan_seconds = 0;
  v->decisions_matched = 0;
  std::vector<double> abs_errors, abs_floor_errors;
  double floor_total = 0;
  bool floor_complete = true;
  int compared_selections = 0;
  for (const ReplayedSelection& sel : v->selections) {
    if (!sel.ok) continue;
    // A selection without a recorded duration (cut mid-stage) is in neither sum.
    if (sel.recorded_seconds) {
      ++compared_selections;
      v->recorded_makespan_seconds += *sel.recorded_seconds;
      v->simulated_makespan_seconds += sel.run.makespan_seconds;
      if (sel.floor) {
        floor_total += sel.floor->floor_seconds;
      } else {
        floor_complete = false;
      }
    }
    for (const StageMatch& m : sel.matches) {
      StageComparison c;
      c.selection = sel.label;
      c.role = m.role;
      c.simulated_name = m.simulated_name;
      if (m.simulated_index) {
        const StageResult& s = sel.run.stages[*m.simulated_index];
        c.simulated_tasks = s.tasks;
        c.simulated_seconds = s.duration_seconds();
        c.time_source = s.time_source;
        c.resized_by = s.resized_by;
        c.simulated_failed_attempts = s.failed_attempts;
        c.simulated_failed = s.failed;
        if (v->profile_from) {
          auto src = sel.graft.stage_sources.find(m.simulated_name);
          c.profile_from = src == sel.graft.stage_sources.end() ? "modelled" : src->second;
        }
      }
      if (m.recorded_stage_id) {
        const eventlog::RecordedStage* st = app.stage(*m.recorded_stage_id);
        c.stage_id = *m.recorded_stage_id;
        if (st != nullptr) {
          c.name = st->name;
          c.recorded_tasks = st->num_tasks;
          if (auto d = st->duration_ms()) c.recorded_seconds = static_cast<double>(*d) / 1000.0;
          for (const auto& a : eventlog::FailedAttemptsJson(app, *st))
            ++c.recorded_failed_attempts[a["reason"]];
          c.recorded_stage_attempts = std::max(1, st->attempts);
          c.recorded_failure = st->failure_reason.value_or("");
        }
      }
      if (c.stage_id && sel.floor) {
        auto f = sel.floor->stage_seconds.find(*c.stage_id);
        if (f != sel.floor->stage_seconds.end()) c.floor_seconds = f->second;
      }
      if (c.recorded_seconds && c.floor_seconds && *c.recorded_seconds > 0)
        c.floor_relative_error = (*c.floor_seconds - *c.recorded_seconds) / *c.recorded_seconds;
      if (c.recorded_seconds && c.simulated_seconds && *c.recorded_seconds > 0) {
        c.relative_error = (*c.simulated_seconds - *c.recorded_seconds) / *c.recorded_seconds;
        abs_errors.push_back(std::abs(*c.relative_error));
        if (c.floor_relative_error) abs_floor_errors.push_back(std::abs(*c.floor_relative_error));
      }
      v->stages.push_back(std::move(c));
    }
    // Decisions: AQE readers (recorded or simulated), join strategies.
    for (const auto& ex : sel.imported.exchanges) {
      DecisionComparison d;
      d.kind = "AQEShuffleRead";
      d.selection = sel.label;
      d.subject = ex.id;
      d.planned_partitions = ex.num_partitions;
      d.description = ex.map_stage_id ? "written by stage " + std::to_string(*ex.map_stage_id) : "";
      d.recorded_kind = ex.recorded_read_kind;
      d.recorded_partitions = ex.recorded_read_partitions;
      for (const ReadExplain& r : sel.run.reads) {
        if (r.exchange == ex.id) {
          d.simulated_partitions = static_cast<int64_t>(r.specs.size());
          break;
        }
      }
      const bool recorded_reader = ex.recorded_read_partitions.has_value();
      const bool simulated_changed = d.simulated_partitions && *d.simulated_partitions != ex.num_partitions;
      if (!recorded_reader && !simulated_changed) continue;
      const int64_t rec = ex.recorded_read_partitions.value_or(ex.num_partitions);
      d.match = d.simulated_partitions && *d.simulated_partitions == rec;
      if (!recorded_reader) d.recorded_partitions = ex.num_partitions;
      v->decisions_matched += d.match ? 1 : 0;
      v->decisions.push_back(std::move(d));
    }
    for (const auto& j : sel.imported.joins) {
      DecisionComparison d;
      d.kind = "JoinStrategy";
      d.selection = sel.label;
      d.subject = j.id;
      d.description = "planned " + j.strategy;
      d.recorded_kind = j.recorded_strategy;
      for (const JoinExplain& je : sel.run.joins) {
        if (je.id == j.id) d.simulated = je.final_strategy;
      }
      d.match = d.simulated == d.recorded_kind;
      v->decisions_matched += d.match ? 1 : 0;
      v->decisions.push_back(std::move(d));
    }
  }
  v->makespan_relative_error.reset();
  v->floor_makespan_seconds.reset();
  v->floor_makespan_relative_error.reset();
  if (compared_selections > 0 && v->recorded_makespan_seconds > 0) {
    v->makespan_relative_error =
        (v->simulated_makespan_seconds - v->recorded_makespan_seconds) / v->recorded_makespan_seconds;
  }
  if (compared_selections > 0 && floor_complete) {
    v->floor_makespan_seconds = floor_total;
    if (v->recorded_makespan_seconds > 0)
      v->floor_makespan_relative_error =
          (floor_total - v->recorded_makespan_seconds) / v->recorded_makespan_seconds;
  }
  v->median_abs_stage_error = Median(abs_errors);
  v->median_abs_floor_stage_error = Median(abs_floor_errors);
}

namespace {

// The imported scenario (sel->imported) with `cost` over its own, simulated and matched:
// sets sel->document, and sel->ok / run / adaptive / matches, or sel->error.
void SimulateSelection(const eventlog::RecordedApplication& app, const json& cost, ReplayedSelection* sel) {
  sel->document = sel->imported.scenario;
  // The loader does not know the importer's "estimated" list (an annotation, not input).
  sel->document.erase("estimated");
  if (!cost.empty()) {
    json merged = sel->document.contains("cost") ? sel->document["cost"] : json::object();
    for (const auto& [k, val] : cost.items()) merged[k] = val;
    sel->document["cost"] = merged;
  }
  const std::string where = app.path + " (" + sel->label + ")";
  if (!sel->base) {
    json doc = sel->imported.scenario;
    doc.erase("estimated");
    sel->base = ReadScenarioBase(std::move(doc), where, nullptr);
  }
  ScenarioOverrides overrides;
  for (const auto& [k, v] : cost.items()) overrides.fields.push_back({"cost", k, Json(v)});
  LoadResult loaded = BuildScenario(*sel->base, overrides);
  // A recorded property the loader refuses is named at its log line, as import-eventlog names it.
  eventlog::PlaceDiagnosticsInLog(app, sel->imported.scenario, &loaded.errors);
  std::optional<RunResult> run = SimulateLoaded(std::move(loaded), where, &sel->error);
  if (!run) return;
  sel->ok = true;
  sel->adaptive = run->adaptive;
  sel->run = std::move(*run);
  MatchStages(app, sel);
}

}  // namespace

std::vector<ProfileSource> ImportProfileSources(const eventlog::RecordedApplication& from,
                                                std::vector<std::string>* warnings) {
  std::vector<ProfileSource> sources;
  const std::string name = std::filesystem::path(from.path).filename().string();
  for (auto [label, import_options] : SelectReplays(from)) {
    import_options.profiles = true;
    std::vector<std::string> ignored;  // A's import warnings are about A, not this replay
    try {
      sources.push_back({label, eventlog::ImportScenario(from, import_options, &ignored).scenario});
    } catch (const eventlog::EventLogError& e) {
      warnings->push_back(name + " " + label + ": not imported: " + e.what());
    }
  }
  return sources;
}

Validation ValidateApplication(const eventlog::RecordedApplication& app, const ReplayOptions& options,
                               std::vector<std::string>* warnings) {
  std::vector<std::string> local;
  if (warnings == nullptr) warnings = &local;
  Validation v;
  v.log = app.path;
  v.spark_version = app.spark_version;
  if (app.start_time_ms && app.end_time_ms) {
    v.application_seconds = static_cast<double>(static_cast<long double>(*app.end_time_ms) -
                                                static_cast<long double>(*app.start_time_ms)) /
                            1000.0;
  }
  const auto replays = SelectReplays(app);
  if (replays.empty()) throw eventlog::EventLogError(app.path + ": no SQL execution or job ran a stage");
  v.basis = replays.front().second.execution_id ? "sqlExecutions" : "jobs";
  std::vector<ProfileSource> sources;
  if (options.profile_from != nullptr) {
    v.profile_from = options.profile_from->path;
    sources = ImportProfileSources(*options.profile_from, warnings);
  }
  int attempted = 0;          // selections tried (not left out by options.only)
  std::string first_failure;  // the first one's reason, when it could not be replayed
  for (auto [label, import_options] : replays) {
    import_options.profiles = options.profiles && options.profile_from == nullptr;
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), label) == options.only.end()) {
      continue;
    }
    ++attempted;
    ReplayedSelection sel;
    sel.label = label;
    std::vector<std::string> import_warnings;
    try {
      sel.imported = eventlog::ImportScenario(app, import_options, &import_warnings);
    } catch (const eventlog::EventLogError& e) {
      warnings->push_back(label + ": not imported: " + e.what());
      if (first_failure.empty()) first_failure = label + ": not imported: " + e.what();
      continue;
    }
    for (const auto& w : import_warnings) warnings->push_back(label + ": " + w);
    if (options.profile_from != nullptr) {
      sel.graft = GraftProfiles(sources, &sel.imported.scenario);
      if (sel.graft.stage_sources.empty())
        warnings->push_back(label + ": no stage of " +
                            std::filesystem::path(options.profile_from->path).filename().string() +
                            " has its plan shape: every stage modelled");
    }
    sel.window = RecordedWindowOf(app, import_options);
    sel.recorded_seconds = sel.window.seconds();
    const char* end_event = import_options.job_id ? "JobEnd" : "SQLExecutionEnd";
    if (sel.window.end_from_tasks) {
      warnings->push_back(label + ": no " + end_event + " in the log: its recorded end is its last task end");
    } else if (sel.window.cut) {
      warnings->push_back(label + ": cut before its end (a stage never completed): left out of the makespan");
    }
    if (sel.window.start_ms && sel.window.end_ms) {
      sel.floor = ReplayRecordedTasks(
          app, FloorSelection{sel.window.stage_ids, *sel.window.start_ms, *sel.window.end_ms, std::nullopt});
    }
    SimulateSelection(app, options.cost, &sel);
    if (!sel.ok) warnings->push_back(label + ": not simulated: " + sel.error);
    if (!sel.ok && first_failure.empty()) first_failure = label + ": not simulated: " + sel.error;
    v.selections.push_back(std::move(sel));
  }
  // Nothing replayed is nothing compared: the log is bad input (import-eventlog refuses it too),
  // not an empty success.
  if (attempted > 0 && std::none_of(v.selections.begin(), v.selections.end(),
                                    [](const ReplayedSelection& s) { return s.ok; })) {
    const char* what = v.basis == "jobs" ? "job" : "SQL execution";
    throw eventlog::EventLogError(app.path + ": nothing to compare: no " + what +
                                  " of the log could be simulated; " + first_failure +
                                  (attempted > 1 ? " (and " + std::to_string(attempted - 1) + " more)" : ""));
  }
  Summarize(app, &v);
  return v;
}

Validation RevalidateWithCost(const eventlog::RecordedApplication& app, const Validation& base,
                              const json& cost) {
  Validation v;
  v.log = base.log;
  v.spark_version = base.spark_version;
  v.application_seconds = base.application_seconds;
  v.basis = base.basis;
  v.profile_from = base.profile_from;
  for (const ReplayedSelection& b : base.selections) {
    ReplayedSelection sel;
    sel.label = b.label;
    sel.imported = b.imported;
    sel.base = b.base;
    sel.window = b.window;
    sel.recorded_seconds = b.recorded_seconds;
    sel.floor = b.floor;
    sel.graft = b.graft;
    SimulateSelection(app, cost, &sel);
    v.selections.push_back(std::move(sel));
  }
  Summarize(app, &v);
  return v;
}

void SetBand(const eventlog::RecordedApplication& app, const json& cost, Validation* v) {
  bool modelled = false;
  for (const StageComparison& s : v->stages) modelled |= s.time_source == "modelled" || s.resized_by;
  if (!modelled) return;  // every stage profiled as recorded: no band
  json scaled = cost.is_object() ? cost : json::object();
  const MakespanBand band = BandOf(scaled.value("modelledTimeScale", 1.0), [&](double scale) {
    scaled["modelledTimeScale"] = scale;
    return RevalidateWithCost(app, *v, scaled).simulated_makespan_seconds;
  });
  v->simulated_low_seconds = band.low_seconds;
  v->simulated_high_seconds = band.high_seconds;
}

ordered_json ValidationToJson(const Validation& v) {
  auto num = [](const std::optional<double>& d) { return d ? ordered_json(*d) : ordered_json(nullptr); };
  ordered_json out;
  out["log"] = std::filesystem::path(v.log).filename().string();
  out["sparkVersion"] = v.spark_version ? ordered_json(*v.spark_version) : ordered_json(nullptr);
  if (v.profile_from) out["profileFrom"] = std::filesystem::path(*v.profile_from).filename().string();
  out["makespan"] = {{"recordedSeconds", v.recorded_makespan_seconds},
                     {"simulatedSeconds", v.simulated_makespan_seconds},
                     {"relativeError", num(v.makespan_relative_error)},
                     {"floorSeconds", num(v.floor_makespan_seconds)},
                     {"floorRelativeError", num(v.floor_makespan_relative_error)},
                     {"basis", v.basis},
                     {"applicationSeconds", num(v.application_seconds)}};
  if (v.simulated_low_seconds && v.simulated_high_seconds) {
    // After simulatedSeconds.
    ordered_json m;
    for (auto& [key, value] : out["makespan"].items()) {
      m[key] = value;
      if (key == "simulatedSeconds") {
        m["simulatedLowSeconds"] = *v.simulated_low_seconds;
        m["simulatedHighSeconds"] = *v.simulated_high_seconds;
      }
    }
    out["makespan"] = std::move(m);
  }
  ordered_json stages = ordered_json::array();
  for (const StageComparison& c : v.stages) {
    ordered_json s;
    s["stageId"] = c.stage_id ? ordered_json(*c.stage_id) : ordered_json(nullptr);
    s["name"] = c.name;
    s["recordedSeconds"] = num(c.recorded_seconds);
    s["simulatedSeconds"] = num(c.simulated_seconds);
    s["relativeError"] = num(c.relative_error);
    s["floorSeconds"] = num(c.floor_seconds);
    s["floorRelativeError"] = num(c.floor_relative_error);
    s["selection"] = c.selection;
    s["simulatedStage"] = c.simulated_name;
    s["timeSource"] = c.time_source.empty() ? ordered_json(nullptr) : ordered_json(c.time_source);
    if (c.resized_by) s["resizedBy"] = *c.resized_by;
    if (v.profile_from)
      s["profileFrom"] = c.profile_from.empty() ? ordered_json(nullptr) : ordered_json(c.profile_from);
    s["role"] = c.role;
    s["recordedTasks"] = c.recorded_tasks;
    s["simulatedTasks"] = c.simulated_tasks;
    if (c.HadFailures()) {
      int recorded = 0;
      for (const auto& [reason, n] : c.recorded_failed_attempts) recorded += n;
      s["failedAttempts"] = {{"recorded", recorded},
                             {"simulated", c.simulated_failed_attempts},
                             {"recordedByReason", c.recorded_failed_attempts}};
      s["stageAttempts"] = c.recorded_stage_attempts;
      s["failed"] = {
          {"recorded", c.recorded_failure.empty() ? ordered_json(nullptr) : ordered_json(c.recorded_failure)},
          {"simulated",
           c.simulated_failed.empty() ? ordered_json(nullptr) : ordered_json(c.simulated_failed)}};
    }
    stages.push_back(std::move(s));
  }
  out["stages"] = std::move(stages);
  ordered_json decisions = ordered_json::array();
  for (const DecisionComparison& d : v.decisions) {
    ordered_json o;
    o["kind"] = d.kind;
    if (d.kind == "AQEShuffleRead") {
      o["exchange"] = d.subject;
      o["recordedPartitions"] =
          d.recorded_partitions ? ordered_json(*d.recorded_partitions) : ordered_json(nullptr);
      o["simulatedPartitions"] =
          d.simulated_partitions ? ordered_json(*d.simulated_partitions) : ordered_json(nullptr);
      o["match"] = d.match;
      o["plannedPartitions"] = d.planned_partitions;
      o["recordedKind"] = d.recorded_kind;
    } else {
      o["join"] = d.subject;
      o["recorded"] = d.recorded_kind;
      o["simulated"] = d.simulated;
      o["match"] = d.match;
    }
    o["selection"] = d.selection;
    o["description"] = d.description;
    decisions.push_back(std::move(o));
  }
  out["decisions"] = std::move(decisions);
  int compared = 0;
  for (const auto& c : v.stages) compared += c.relative_error ? 1 : 0;
  out["summary"] = {{"medianAbsStageError", num(v.median_abs_stage_error)},
                    {"medianAbsFloorStageError", num(v.median_abs_floor_stage_error)},
                    {"stagesCompared", compared},
                    {"decisions", v.decisions.size()},
                    {"decisionsMatched", v.decisions_matched}};
  return out;
}

std::string ValidationToTable(const Validation& v) {
  std::ostringstream out;
  out << WrapText(std::filesystem::path(v.log).filename().string() + " (Spark " +
                      v.spark_version.value_or("unknown") + "), replayed " +
                      std::to_string(v.selections.size()) +
                      (v.basis == "jobs" ? " job(s)" : " SQL execution(s)"),
                  kTextColumns, 2)
      << "\n";
  if (v.profile_from)
    out << WrapText("stages timed with the profiles of " +
                        std::filesystem::path(*v.profile_from).filename().string() +
                        " (stages matched by plan shape; profile from: the stage recorded there)",
                    kTextColumns, 2)
        << "\n";
  out << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const StageComparison& c : v.stages) {
    std::string name = c.name.size() > 32 ? c.name.substr(0, 31) + "…" : c.name;
    rows.push_back({c.selection, c.stage_id ? std::to_string(*c.stage_id) : "-", name,
                    c.simulated_name.empty() ? "-" : c.simulated_name,
                    c.time_source.empty() ? "-" : TimedText(c.time_source, c.resized_by),
                    std::to_string(c.recorded_tasks) + " / " + std::to_string(c.simulated_tasks),
                    c.recorded_seconds ? Fixed(*c.recorded_seconds, 3) : "-",
                    c.simulated_seconds ? Fixed(*c.simulated_seconds, 3) : "-", Percent(c.relative_error),
                    c.floor_seconds ? Fixed(*c.floor_seconds, 3) : "-", Percent(c.floor_relative_error)});
    if (v.profile_from) rows.back().push_back(ProfileFromCell(c.profile_from, c.selection, c.simulated_name));
  }
  std::vector<std::string> head = {"selection", "stage",         "name",       "simulated",
                                   "timed",     "tasks rec/sim", "recorded s", "simulated s",
                                   "error",     "floor s",       "floor error"};
  if (v.profile_from) head.push_back("profile from");
  // Within kTextColumns: the recorded stage's name is cut to what the other columns leave; when
  // the profile sources are still too long (another log's selections), they follow the table.
  const auto right = [](size_t i) { return i >= 3 && i != 11; };
  std::string table = TextTableWithin(kTextColumns, 2, 12, head, rows, right);
  if (v.profile_from && WidestLine(table) > kTextColumns) {
    std::string sources = "profile from:\n";
    for (auto& r : rows) {
      sources += WrapText("  " + r[0] + ", stage " + r[1] + ": " + r.back(), kTextColumns, 4) + "\n";
      r.pop_back();
    }
    head.pop_back();
    table = TextTableWithin(kTextColumns, 2, 12, head, std::move(rows), right) + sources;
  }
  out << table;
  out << FailuresText(v);
  out << "\nmakespan (" << (v.basis == "jobs" ? "sum of job wall times" : "sum of SQL execution wall times")
      << "): recorded " << Fixed(v.recorded_makespan_seconds, 3) << " s, simulated "
      << Fixed(v.simulated_makespan_seconds, 3) << " s";
  if (v.simulated_low_seconds && v.simulated_high_seconds)
    out << BandText(*v.simulated_low_seconds, *v.simulated_high_seconds);
  else
    out << " (profiled)";  // every stage timed by its recorded profile: no band
  out << ", error " << Percent(v.makespan_relative_error);
  if (v.application_seconds) out << " (application " << Fixed(*v.application_seconds, 3) << " s)";
  out << "\nscheduling floor (recorded task times re-scheduled on the recorded executors): "
      << (v.floor_makespan_seconds ? Fixed(*v.floor_makespan_seconds, 3) + " s" : "-") << ", error "
      << Percent(v.floor_makespan_relative_error);
  out << "\nmedian |stage error|: "
      << (v.median_abs_stage_error ? Fixed(*v.median_abs_stage_error * 100, 1) + "%" : "-") << " (floor "
      << (v.median_abs_floor_stage_error ? Fixed(*v.median_abs_floor_stage_error * 100, 1) + "%" : "-")
      << ")\n";
  if (!v.decisions.empty()) {
    std::vector<std::vector<std::string>> drows;
    for (const DecisionComparison& d : v.decisions) {
      if (d.kind == "AQEShuffleRead") {
        drows.push_back({d.selection, d.kind, d.subject,
                         std::to_string(d.planned_partitions) + " → " +
                             (d.recorded_partitions ? std::to_string(*d.recorded_partitions) : "-"),
                         std::to_string(d.planned_partitions) + " → " +
                             (d.simulated_partitions ? std::to_string(*d.simulated_partitions) : "-"),
                         d.match ? "yes" : "NO"});
      } else {
        drows.push_back({d.selection, d.kind, d.subject, d.recorded_kind,
                         d.simulated.empty() ? "-" : d.simulated, d.match ? "yes" : "NO"});
      }
    }
    out << "\ndecisions (" << v.decisions_matched << " of " << v.decisions.size() << " match)\n";
    out << Table({"selection", "kind", "id", "recorded", "simulated", "match"}, drows);
  }
  return out.str();
}

}  // namespace aqesim::validate
