#include "tools/scale/scale_runner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "models/aqe/decision_outcome.h"
#include "models/engine/query_execution.h"
#include "models/engine/run_time_source.h"
#include "models/engine/simulated_band.h"
#include "models/plan/plan_error.h"
#include "models/scenario/cluster_reader.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "models/scenario/shown_pointer.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::scale {

namespace {

/// Warnings the rows' own executor counts cause: --conf spark.executor.instances replacing a
/// recorded timeline (the output says it once), more warm executors than a small row has.
bool IsRowCountWarning(const std::string& w) {
  return w.find("replaces the recorded executor timeline") != std::string::npos ||
         w.find("/cluster/warmExecutors: ") != std::string::npos ||
         w.find("/cluster/warmCodeExecutors: ") != std::string::npos;
}

/// What one part at one executor count gave.
struct PartRun {
  RunResult run;
  std::optional<MakespanBand> band, critical_band, ideal_band;
  std::vector<std::string> warnings;
};

/// A part's document and command-line files, read once; each row builds on them.
struct PartBase {
  std::shared_ptr<const ScenarioBase> base;
  ScenarioOverrides overrides;
};

/// `part` with `extra` after its own --conf, built and simulated (AQE: `adaptive`, else its
/// conf), with the band when a stage is modelled. nullopt with `*error` when it cannot.
std::optional<PartRun> RunPart(const ScalePart& part, const PartBase& read,
                               const std::vector<std::pair<std::string, std::string>>& extra,
                               std::optional<bool> adaptive, std::string* error,
                               const std::vector<FieldOverride>& fields = {}) {
  ScenarioOverrides ov = read.overrides;
  for (const auto& kv : extra) ov.conf.push_back(kv);
  for (const FieldOverride& f : fields) ov.fields.push_back(f);
  LoadResult loaded = BuildScenario(*read.base, ov);
  if (!loaded.errors.empty() || !loaded.scenario) {
    *error =
        loaded.errors.empty() ? part.label + ": the scenario did not load" : JoinDiagnostics(loaded.errors);
    return std::nullopt;
  }
  Scenario& s = *loaded.scenario;
  PartRun out;
  out.warnings = s.warnings;
  try {
    const bool aqe = adaptive.value_or(s.conf.adaptive_enabled);
    out.run = SimulateQuery(s, aqe);
    for (const std::string& w : out.run.warnings) out.warnings.push_back(s.path + ": " + w);
    ResourceBand resources;
    out.band = SimulateBand(&s, out.run, &resources);
    if (out.band) {
      out.critical_band = resources.critical_path;
      out.ideal_band = resources.ideal;
    }
  } catch (const PlanError& e) {
    *error = s.path + ": " + ShownPointer(e.pointer) + ": " + e.message;
    return std::nullopt;
  }
  return out;
}

/// A term of the model switched off to find why a row with more executors is slower ("rises" in
/// scale_runner.h).
struct RiseProbe {
  const char* cause;
  std::vector<std::pair<std::string, std::string>> conf;
  std::vector<FieldOverride> fields;
};

std::vector<RiseProbe> RiseProbes() {
  const std::vector<FieldOverride> startup = {{"cost", "executorStartupSeconds", Json(0)},
                                              {"cost", "executorStageWarmupSeconds", Json(0)},
                                              {"cost", "coldCodeSlowdown", Json(0)}};
  // Every fetch as fast as a local one can be: no request cost, no bandwidth limit (1 PiB/s).
  const std::vector<FieldOverride> fetch = {{"cost", "remoteFetchRequestSeconds", Json(0)},
                                            {"cost", "localFetchRequestSeconds", Json(0)},
                                            {"cluster", "networkBytesPerSecond", Json("1p")},
                                            {"cluster", "diskBytesPerSecond", Json("1p")}};
  const std::pair<std::string, std::string> no_locality = {"spark.shuffle.reduceLocality.enabled", "false"};
  std::vector<FieldOverride> all = startup;
  all.insert(all.end(), fetch.begin(), fetch.end());
  return {{"executor start-up: the added executors' fresh JVMs, first waves and cold code (without "
           "executorStartupSeconds, executorStageWarmupSeconds and coldCodeSlowdown it does not rise)",
           {},
           startup},
          {"shuffle reads turning remote: the map output, spread over more executors, is fetched over the "
           "network (with fetches free of request costs and of network and disk limits it does not rise)",
           {},
           fetch},
          {"reduce-task locality: tasks waiting for the executors that hold their map output (without "
           "spark.shuffle.reduceLocality.enabled it does not rise)",
           {no_locality},
           {}},
          {"executor start-up, remote shuffle reads and reduce-task locality together (without any one "
           "alone it still rises)",
           {no_locality},
           all}};
}

void AddBand(std::optional<MakespanBand>* sum, const std::optional<MakespanBand>& part, double point) {
  // A part without a band (every stage profiled) adds its own seconds to both ends.
  const MakespanBand b = part.value_or(MakespanBand{point, point});
  if (!*sum) *sum = MakespanBand{0, 0};
  (*sum)->low_seconds += b.low_seconds;
  (*sum)->high_seconds += b.high_seconds;
}

}  // namespace

std::string PercentsText(const ScaleRow& row) {
  std::string out;
  for (const double p : row.percents.empty() ? std::vector<double>{row.percent} : row.percents) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", p);
    out += (out.empty() ? "" : ", ") + std::string(b);
  }
  return out + " %";
}

void MarkAnswers(ScaleResult* result) {
  result->fastest = 0;
  result->critical_path_row = 0;
  const std::vector<ScaleRow>& rows = result->rows;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].makespan_seconds < rows[result->fastest].makespan_seconds) result->fastest = i;
    if (rows[i].critical_path_seconds < rows[result->critical_path_row].critical_path_seconds)
      result->critical_path_row = i;
  }
  auto fewest_within = [&](double factor) {
    if (rows.empty()) return size_t{0};
    const double limit = rows[result->fastest].makespan_seconds * factor;
    size_t best = result->fastest;
    for (size_t i = 0; i < rows.size(); ++i) {
      const ScaleRow& r = rows[i];
      if (r.makespan_seconds <= limit &&
          (r.executors < rows[best].executors ||
           (r.executors == rows[best].executors && r.makespan_seconds < rows[best].makespan_seconds)))
        best = i;
    }
    return best;
  };
  result->within_5_percent = fewest_within(1.05);
  result->within_10_percent = fewest_within(1.10);
  result->faster_and_cheaper.reset();
  result->balanced = 0;
  if (rows.empty()) return;
  auto time_cost = [](const ScaleRow& r) { return r.makespan_seconds * r.available_core_hours; };
  for (size_t i = 0; i < rows.size(); ++i)
    if (time_cost(rows[i]) < time_cost(rows[result->balanced])) result->balanced = i;
  const ScaleRow& base = rows[BaseRow(*result)];
  for (size_t i = 0; i < rows.size(); ++i) {
    const ScaleRow& r = rows[i];
    if (r.makespan_seconds >= base.makespan_seconds || r.available_core_hours >= base.available_core_hours)
      continue;
    const std::optional<size_t>& best = result->faster_and_cheaper;
    if (!best || r.available_core_hours < rows[*best].available_core_hours) result->faster_and_cheaper = i;
  }
}

size_t BaseRow(const ScaleResult& r) {
  size_t best = 0;
  for (size_t i = 0; i < r.rows.size(); ++i)
    if (std::abs(r.rows[i].executors - r.base_executors) <
        std::abs(r.rows[best].executors - r.base_executors))
      best = i;
  return best;
}

namespace {

/// The summed makespan of every part at `executors` with `probe`'s terms off; nullopt when a part
/// does not run.
std::optional<double> ProbedMakespan(const ScaleSpec& spec, const std::vector<PartBase>& read,
                                     std::vector<std::pair<std::string, std::string>> extra, int executors,
                                     const RiseProbe& probe) {
  extra.emplace_back("spark.executor.instances", std::to_string(executors));
  for (const auto& kv : probe.conf) extra.push_back(kv);
  double sum = 0;
  for (size_t p = 0; p < spec.parts.size(); ++p) {
    std::string error;
    const std::optional<PartRun> r =
        RunPart(spec.parts[p], read[p], extra, spec.adaptive, &error, probe.fields);
    if (!r) return std::nullopt;
    sum += r->run.makespan_seconds;
  }
  return sum;
}

/// Sets rise_seconds on each row slower than the row before with more executors, and rise_cause
/// when the decisions are the same.
void ExplainRises(const ScaleSpec& spec, const std::vector<PartBase>& read,
                  const std::vector<std::pair<std::string, std::string>>& static_conf, ScaleResult* result) {
  for (size_t i = 1; i < result->rows.size(); ++i) {
    const ScaleRow& a = result->rows[i - 1];
    ScaleRow& b = result->rows[i];
    if (b.executors <= a.executors || b.makespan_seconds <= a.makespan_seconds) continue;
    b.rise_seconds = b.makespan_seconds - a.makespan_seconds;
    if (b.decisions_changed_count > 0) continue;  // AQE decided differently: the row lists how
    b.rise_cause = "the schedule: which task runs where and when (no term of the model alone explains it)";
    for (const RiseProbe& probe : RiseProbes()) {
      const std::optional<double> before = ProbedMakespan(spec, read, static_conf, a.executors, probe);
      const std::optional<double> after = ProbedMakespan(spec, read, static_conf, b.executors, probe);
      if (before && after && *after <= *before) {
        b.rise_cause = probe.cause;
        break;
      }
    }
  }
}

}  // namespace

std::optional<ScaleResult> RunScale(const ScaleSpec& spec, std::vector<std::string>* errors) {
  ScaleResult result;
  // --- the base: each part at its own settings ---
  std::vector<std::pair<std::string, std::string>> static_conf;  // rows' extra --conf besides N
  bool rows_static = false;  // a part enables dynamic allocation: the rows switch it off
  for (const ScalePart& part : spec.parts) {
    LoadResult loaded = LoadScenarioJson(part.document, part.label, part.overrides);
    if (spec.app != nullptr)  // a recorded property the loader refuses: named at its log line
      eventlog::PlaceDiagnosticsInLog(*spec.app, part.document, &loaded.errors);
    if (!loaded.errors.empty() || !loaded.scenario) {
      errors->push_back(loaded.errors.empty() ? part.label + ": the scenario did not load"
                                              : JoinDiagnostics(loaded.errors));
      return std::nullopt;
    }
    const Scenario& s = *loaded.scenario;
    // local[N]: one executor, the driver's JVM, whatever spark.executor.instances says: rows of
    // 2 or 5 executors would be clusters the job never had (an imported local log keeps no
    // spark.master in its scenario: the log says it).
    if (s.conf.master.local || (spec.app != nullptr && spec.app->local_mode)) {
      errors->push_back((spec.app != nullptr ? spec.app->path : s.path) +
                        ": the application runs in local mode (spark.master local[...]): one executor, the "
                        "driver, runs every task, so there is no executor count to scale (Spark ignores "
                        "spark.executor.instances there; aqesim scale answers how many executors a cluster "
                        "needs)");
      return std::nullopt;
    }
    int base = s.cluster.executors;
    if (!s.cluster.executor_timeline.empty()) {
      result.timeline_replaced = true;
      // The rows' executors are of the default resource profile, the one the stages run on:
      // executors started for another profile (stage-level scheduling) never ran them.
      std::vector<ExecutorLifetime> default_profile;
      for (const ExecutorLifetime& e : s.cluster.executor_timeline)
        if (e.resource_profile == 0) default_profile.push_back(e);
      if (!default_profile.empty() && default_profile.size() < s.cluster.executor_timeline.size())
        base = PeakExecutors(default_profile);
    }
    // Dynamic allocation on (Spark ignores it in local mode): the rows switch it off, also on a
    // recorded timeline, where a row's spark.executor.instances would otherwise hand the
    // cluster to the policy (cluster_from_conf.cc) and every row would ramp to the same peak.
    const bool dynamic_conf = s.conf.dynamic_allocation.enabled && !s.conf.master.local;
    rows_static |= dynamic_conf;
    const bool dynamic = dynamic_conf && s.cluster.executor_timeline.empty();
    if (dynamic) {  // 100 %: the peak the policy reached
      result.dynamic_allocation = true;
      try {
        const RunResult r = SimulateQuery(s, spec.adaptive.value_or(s.conf.adaptive_enabled));
        // The policy's own peak, not the cluster's count (with maxExecutors 2 on a log that
        // peaked at 6, 2: cluster.executors keeps the recorded 6).
        if (!r.executors.empty()) base = 0;
        for (const ExecutorCountChange& c : r.executors) base = std::max(base, c.executors);
      } catch (const PlanError& e) {
        errors->push_back(s.path + ": " + ShownPointer(e.pointer) + ": " + e.message);
        return std::nullopt;
      }
    }
    if (&part == &spec.parts.front()) {
      result.adaptive = spec.adaptive.value_or(s.conf.adaptive_enabled);
      result.executor_cores = s.cluster.executor_cores;
    }
    result.base_executors = std::max(result.base_executors, base);
  }
  if (rows_static) static_conf.emplace_back("spark.dynamicAllocation.enabled", "false");
  if (spec.app != nullptr) {  // the recorded selections' wall time, beside the rows
    double recorded = 0;
    bool all = true;
    for (const ScalePart& part : spec.parts) {
      if (part.floor) recorded += static_cast<double>(part.floor->end_ms - part.floor->start_ms) / 1000.0;
      all &= part.floor.has_value();
    }
    if (all) result.recorded_seconds = recorded;
  }

  // Every row's executor count within what a cluster may have, before a row is simulated: a
  // count above it is the percentage's doing, not the scenario's.
  for (const double percent : spec.percents) {
    const double executors = std::max(1.0, std::round(result.base_executors * percent / 100.0));
    if (executors <= kMaxExecutors) continue;
    char given[32], most[32];
    std::snprintf(given, sizeof given, "%g", percent);
    // The largest percentage in range, cut (not rounded) to 3 decimals.
    std::snprintf(most, sizeof most, "%.3f",
                  std::floor(100.0 * kMaxExecutors / result.base_executors * 1000.0) / 1000.0);
    std::string at_most = most;
    at_most.erase(at_most.find_last_not_of('0') + 1);
    if (at_most.back() == '.') at_most.pop_back();
    const std::string base = Counted(result.base_executors, "executor");
    errors->push_back(
        (spec.percents_option.empty() ? std::string("the default percentages") : spec.percents_option) +
        ": " + given + " % of " + base + " is " + std::to_string(static_cast<int64_t>(executors)) +
        " executors, more than a cluster may have (" + std::to_string(kMaxExecutors) +
        "): give percentages up to " + at_most + " % of " + base +
        (spec.percents_option.empty() ? " with --percent" : ""));
    return std::nullopt;
  }

  // --- the rows, each on its own, built on the parts read once ---
  std::vector<PartBase> read;
  for (const ScalePart& part : spec.parts)
    read.push_back({ReadScenarioBase(Json(part.document), part.label, part.overrides.files.get()),
                    ReadOverrides(part.overrides)});
  // One row per executor count (its first percentage names it), sorted below.
  for (const double percent : spec.percents) {
    const int executors = std::max(1, static_cast<int>(std::lround(result.base_executors * percent / 100.0)));
    auto same = std::find_if(result.rows.begin(), result.rows.end(),
                             [executors](const ScaleRow& r) { return r.executors == executors; });
    if (same == result.rows.end()) {
      ScaleRow row;
      row.percent = percent;
      row.executors = executors;
      result.rows.push_back(std::move(row));
      same = result.rows.end() - 1;
    }
    same->percents.push_back(percent);
  }
  // Fewest executors first, whatever the order of --percent: "what changed" compares neighbours.
  std::stable_sort(result.rows.begin(), result.rows.end(),
                   [](const ScaleRow& a, const ScaleRow& b) { return a.executors < b.executors; });
  const size_t n = result.rows.size();
  std::vector<std::string> row_error(n);
  std::vector<std::vector<std::string>> row_warnings(n);
  // Per row, per decision (in row.decisions' order): its subject and outcome (see above).
  std::vector<std::vector<std::pair<std::string, std::string>>> row_outcomes(n);
  auto compute = [&](size_t i) {
    ScaleRow& row = result.rows[i];
    std::vector<std::pair<std::string, std::string>> extra = static_conf;
    extra.emplace_back("spark.executor.instances", std::to_string(row.executors));
    bool banded = false;
    std::vector<PartRun> runs;
    for (size_t p = 0; p < spec.parts.size(); ++p) {
      std::optional<PartRun> r = RunPart(spec.parts[p], read[p], extra, spec.adaptive, &row_error[i]);
      if (!r) {  // the row's count, not the file's, may be what is refused (500 % of 300,000 executors)
        row_error[i] = "the " + PercentsText(row) + " row (" + std::to_string(row.executors) +
                       " executors): " + row_error[i];
        return;
      }
      banded |= r->band.has_value();
      runs.push_back(std::move(*r));
    }
    double sparklens = 0;
    bool have_sparklens = spec.app != nullptr;
    for (size_t p = 0; p < runs.size(); ++p) {
      const RunResult& run = runs[p].run;
      row.makespan_seconds += run.makespan_seconds;
      row.available_core_hours += run.resources.run.available_core_hours;
      row.used_core_hours += run.resources.run.used_core_hours;
      row.critical_path_seconds += run.resources.critical_path_seconds;
      row.ideal_seconds += run.resources.ideal_seconds;
      if (banded) {
        AddBand(&row.band, runs[p].band, run.makespan_seconds);
        AddBand(&row.critical_path_band, runs[p].critical_band, run.resources.critical_path_seconds);
        AddBand(&row.ideal_band, runs[p].ideal_band, run.resources.ideal_seconds);
      }
      for (const Decision& d : run.decisions) {
        const std::string& prefix = spec.parts[p].decision_prefix;
        row.decisions.push_back(prefix + d.rule + ": " + d.message);
        row_outcomes[i].push_back({DecisionSubject(prefix, d), DecisionOutcome(prefix, d)});
      }
      row.stage_times += CountStageTimes(run);
      for (std::string& w : runs[p].warnings)
        if (!IsRowCountWarning(w)) row_warnings[i].push_back(std::move(w));
      if (run.job_failure)  // replayed from the recorded failed attempts: the row times it to its end
        row_warnings[i].push_back(
            (spec.parts[p].decision_prefix.empty() ? "the replayed job failed ("
                                                   : spec.parts[p].decision_prefix + "its job failed (") +
            run.job_failure->reason + " in " + run.job_failure->stage +
            ") as recorded: every row replays it up to the failure, not a completed run");
      if (spec.app != nullptr) {
        if (!spec.parts[p].floor) {
          have_sparklens = false;
          continue;
        }
        validate::FloorSelection sel = *spec.parts[p].floor;
        sel.executors = row.executors;
        sparklens += validate::ReplayRecordedTasks(*spec.app, sel).floor_seconds;
      }
    }
    if (have_sparklens) row.sparklens_seconds = sparklens;
    if (spec.row_done) spec.row_done(n);
  };
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threads =
      std::max(1, std::min({spec.threads > 0 ? spec.threads : cores, cores, static_cast<int>(n)}));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) compute(i);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  std::set<std::string> seen_errors;
  for (const std::string& e : row_error)
    if (!e.empty() && seen_errors.insert(e).second) errors->push_back(e);
  if (!errors->empty()) return std::nullopt;
  std::set<std::string> warnings;
  for (auto& ws : row_warnings) warnings.insert(ws.begin(), ws.end());
  result.warnings.assign(warnings.begin(), warnings.end());
  StageTimeCounts all_rows;
  for (const ScaleRow& row : result.rows) all_rows += row.stage_times;
  result.time_source = TimeSourceLabel(all_rows);

  // --- what changed between rows (a decision whose outcome is in one row only), the answers ---
  for (size_t i = 1; i < n; ++i) {
    ScaleRow& row = result.rows[i];
    const auto& before = row_outcomes[i - 1];
    const auto& now = row_outcomes[i];
    auto has = [](const std::vector<std::pair<std::string, std::string>>& in, const std::string& outcome) {
      return std::any_of(in.begin(), in.end(), [&](const auto& x) { return x.second == outcome; });
    };
    std::set<std::string> subjects;
    for (size_t k = 0; k < now.size(); ++k)
      if (!has(before, now[k].second)) {
        row.decisions_changed.push_back(row.decisions[k]);
        subjects.insert(now[k].first);
      }
    for (size_t k = 0; k < before.size(); ++k)
      if (!has(now, before[k].second)) {
        const bool gone =
            std::none_of(now.begin(), now.end(), [&](const auto& x) { return x.first == before[k].first; });
        // A rule that no longer fires on the subject says so: the row has no line for it.
        row.decisions_replaced.push_back(result.rows[i - 1].decisions[k] +
                                         (gone ? " — not taken at " + std::to_string(row.executors) +
                                                     (row.executors == 1 ? " executor" : " executors")
                                               : ""));
        subjects.insert(before[k].first);
      }
    row.decisions_changed_count = static_cast<int>(subjects.size());
  }
  ExplainRises(spec, read, static_conf, &result);
  MarkAnswers(&result);
  return result;
}

}  // namespace aqesim::scale
