#include "tools/validate/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "models/cost/cost_params.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/validate/nnls.h"

namespace aqesim::validate {
namespace {

using nlohmann::json;

/// Per stage name: per task index, simulated seconds.
using Durations = std::map<std::string, std::vector<double>>;

Durations TaskDurations(const RunResult& run) {
  Durations out;
  for (const StageResult& s : run.stages) {
    std::vector<double> d(s.task_results.size(), 0.0);
    for (size_t i = 0; i < s.task_results.size(); ++i)
      d[i] = s.task_results[i].end_seconds - s.task_results[i].start_seconds;
    out[s.name] = std::move(d);
  }
  return out;
}

double DefaultOf(const std::string& name) {
  static const CostParams kDefaults;
  for (const CostParamInfo& p : CostParamRegistry()) {
    if (p.json_name == name) return kDefaults.*(p.field);
  }
  return 0;
}

/// The value a parameter is probed at for its finite difference: a magnitude of the order of
/// real hardware's — the hand-set values the defaults had before they were fitted (issue 15),
/// else 0.1 s. Fixed, not the current defaults: a fitted default of 0 would probe a per-byte
/// term at 0.1 s/B, far outside the range where the cold-code window keeps the model near
/// linear, and a refit would then not reproduce the fit it came from.
double ProbeOf(const std::string& name) {
  static const std::map<std::string, double> kProbes = {{"taskLaunchSeconds", 0.01},
                                                        {"remoteFetchRequestSeconds", 0.0005},
                                                        {"localFetchRequestSeconds", 0.0001},
                                                        {"scanSecondsPerByte", 1.0 / 150e6},
                                                        {"shuffleWriteSecondsPerByte", 1.0 / 200e6},
                                                        {"shuffleReadSecondsPerByte", 1.0 / 300e6},
                                                        {"sortSecondsPerByte", 1.0 / 100e6},
                                                        {"hashBuildSecondsPerByte", 1.0 / 150e6},
                                                        {"joinProbeSecondsPerByte", 1.0 / 400e6},
                                                        {"aggregateSecondsPerByte", 1.0 / 200e6},
                                                        {"streamSecondsPerByte", 1.0 / 1e9}};
  auto it = kProbes.find(name);
  return it != kProbes.end() ? it->second : 0.1;
}

/// Each selection's document, read once: a probe or a candidate cost is a set of `cost`
/// field overrides built on it (scenario_overrides.h), not the document edited and reloaded.
class SelectionBases {
 public:
  const ScenarioBase& Of(const ReplayedSelection& sel) {
    std::shared_ptr<const ScenarioBase>& base = bases_[&sel];
    if (!base) base = ReadScenarioBase(Json(sel.document), sel.label, nullptr);
    return *base;
  }

 private:
  std::map<const ReplayedSelection*, std::shared_ptr<const ScenarioBase>> bases_;
};

/// The selection's document with `cost`'s parameters set in its `cost`, simulated.
std::optional<RunResult> RunWithCost(const ReplayedSelection& sel, SelectionBases* bases, const json& cost,
                                     std::string* error) {
  ScenarioOverrides overrides;
  for (const auto& [k, v] : cost.items()) overrides.fields.push_back({"cost", k, Json(v)});
  return SimulateLoaded(BuildScenario(bases->Of(sel), overrides), sel.label, error);
}

/// The recorded wall seconds of each task index of a stage (first successful attempt).
std::vector<std::optional<double>> RecordedTaskSeconds(const eventlog::RecordedStage& st) {
  std::vector<std::optional<double>> out(static_cast<size_t>(std::max(st.num_tasks, 0)));
  for (const auto& t : st.tasks) {
    if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size() || out[t.index]) continue;
    out[t.index] = static_cast<double>(t.wall_ms()) / 1000.0;
  }
  return out;
}

/// Where a recorded task ran, in cost_model.h's terms: on a fresh JVM (launched before any
/// task finished on its executor), in a first wave (before any task of its stage finished on
/// its executor — the recorded stand-in for "the same operators"), or later.
enum class Warmth { kFresh, kFirstWave, kLater };

struct FirstFinishes {
  std::map<std::string, int64_t> executor;                        // earliest Finish Time (ms)
  std::map<std::pair<std::string, int>, int64_t> executor_stage;  // per (executor, stage)
  /// Per SQL execution: the executors that ran the same query before it started (the
  /// importer's `warmCode`: eventlog::ExecutorsThatRanSameQuery).
  std::map<int64_t, std::set<std::string>> warm_code;
  std::map<int, int64_t> stage_execution;  // stage -> its SQL execution
};

FirstFinishes ComputeFirstFinishes(const eventlog::RecordedApplication& app) {
  FirstFinishes ff;
  auto keep_min = [](auto& map, const auto& key, int64_t v) {
    auto [it, inserted] = map.emplace(key, v);
    if (!inserted) it->second = std::min(it->second, v);
  };
  for (const auto& [id, ex] : app.executions) {
    if (ex.start_time_ms) ff.warm_code[id] = eventlog::ExecutorsThatRanSameQuery(app, ex, *ex.start_time_ms);
  }
  for (const auto& [id, st] : app.stages) {
    if (st.execution_id) ff.stage_execution[st.stage_id] = *st.execution_id;
    for (const auto& t : st.tasks) {
      if (t.finish_time_ms <= 0) continue;
      keep_min(ff.executor, t.executor_id, t.finish_time_ms);
      keep_min(ff.executor_stage, std::make_pair(t.executor_id, st.stage_id), t.finish_time_ms);
    }
  }
  return ff;
}

Warmth Classify(const eventlog::RecordedTask& t, int stage_id, const FirstFinishes& ff) {
  auto e = ff.executor.find(t.executor_id);
  if (e != ff.executor.end() && t.launch_time_ms < e->second) return Warmth::kFresh;
  // The executor ran the same query before this execution started (the importer's
  // `warmCode`): its code is compiled, no first wave.
  if (auto x = ff.stage_execution.find(stage_id); x != ff.stage_execution.end()) {
    auto w = ff.warm_code.find(x->second);
    if (w != ff.warm_code.end() && w->second.count(t.executor_id)) return Warmth::kLater;
  }
  auto s = ff.executor_stage.find({t.executor_id, stage_id});
  if (s != ff.executor_stage.end() && t.launch_time_ms < s->second) return Warmth::kFirstWave;
  return Warmth::kLater;
}

/// Per task index of a stage: the warmth of its first successful attempt.
std::vector<Warmth> RecordedWarmth(const eventlog::RecordedStage& st, const FirstFinishes& ff) {
  std::vector<Warmth> out(static_cast<size_t>(std::max(st.num_tasks, 0)), Warmth::kLater);
  std::vector<bool> seen(out.size(), false);
  for (const auto& t : st.tasks) {
    if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size() || seen[t.index]) continue;
    seen[t.index] = true;
    out[t.index] = Classify(t, st.stage_id, ff);
  }
  return out;
}

struct Row {
  std::vector<double> features;
  double c0 = 0;
  double recorded = 0;
  double weight = 1;
};

/// Replays every selection of `apps` with `cost` and summarises.
std::vector<LogResult> Evaluate(const std::vector<const eventlog::RecordedApplication*>& apps,
                                const json& cost, std::vector<Validation>* keep = nullptr) {
  std::vector<LogResult> out;
  for (const auto* app : apps) {
    ReplayOptions o;
    o.cost = cost;
    o.profiles = false;  // the global cost model is what calibration fits
    std::vector<std::string> ignored;
    Validation v = ValidateApplication(*app, o, &ignored);
    out.push_back(Summarise(v));
    if (keep) keep->push_back(std::move(v));
  }
  return out;
}

/// The same replays as Evaluate, from `base` (Evaluate's `keep`: the selections imported
/// once) simulated again with `cost`.
std::vector<LogResult> Reevaluate(const std::vector<const eventlog::RecordedApplication*>& apps,
                                  const std::vector<Validation>& base, const json& cost) {
  std::vector<LogResult> out;
  for (size_t a = 0; a < apps.size() && a < base.size(); ++a)
    out.push_back(Summarise(RevalidateWithCost(*apps[a], base[a], cost)));
  return out;
}

double Objective(const std::vector<LogResult>& results) {
  if (results.empty()) return 1e9;
  double total = 0;
  for (const LogResult& r : results) {
    total += r.median_abs_stage_error.value_or(1.0) + std::abs(r.makespan_relative_error.value_or(1.0));
  }
  return total / static_cast<double>(results.size());
}

}  // namespace

const std::vector<std::string>& TaskLevelParameters() {
  static const std::vector<std::string> kParams = {
      "taskLaunchSeconds",         "scanSecondsPerByte",       "shuffleWriteSecondsPerByte",
      "shuffleReadSecondsPerByte", "sortSecondsPerByte",       "hashBuildSecondsPerByte",
      "joinProbeSecondsPerByte",   "aggregateSecondsPerByte",  "streamSecondsPerByte",
      "remoteFetchRequestSeconds", "localFetchRequestSeconds", "executorStageWarmupSeconds"};
  // Not fitted: the per-row terms (readSecondsPerRow, writeSecondsPerRow,
  // joinSecondsPerOutputRow). Fitted with these (probed at 1 µs) they made the leave-one-out
  // makespans worse on 10 of the 14 logs measured (results/defaults.md, "Per-row terms: a trial").
  return kParams;
}

const std::vector<std::string>& MeasuredParameters() {
  static const std::vector<std::string> kParams = {"stageOverheadSeconds", "replanSeconds",
                                                   "executorStartupSeconds"};
  return kParams;
}

MeasuredTimes MeasureTimes(const std::vector<const eventlog::RecordedApplication*>& apps) {
  MeasuredTimes m;
  std::vector<double> overheads, gaps, fresh, first_wave, later, delays;
  for (const auto* app : apps) {
    // Stage overhead: submission -> first launch.
    for (const auto& [id, st] : app->stages) {
      if (!st.submitted || !st.submission_time_ms) continue;
      std::optional<int64_t> first;
      for (const auto& t : st.tasks) {
        if (!first || t.launch_time_ms < *first) first = t.launch_time_ms;
      }
      if (!first) continue;
      overheads.push_back(static_cast<double>(std::max<int64_t>(*first - *st.submission_time_ms, 0)) /
                          1000.0);
    }
    // Re-plan: within an adaptive execution, submission - the latest completion before it.
    for (const auto& [id, st] : app->stages) {
      if (!st.submitted || !st.submission_time_ms || !st.execution_id) continue;
      auto ex = app->executions.find(*st.execution_id);
      if (ex == app->executions.end() || !ex->second.adaptive()) continue;
      std::optional<int64_t> latest;
      for (const auto& [id2, other] : app->stages) {
        if (id2 == id || !other.submitted || other.execution_id != st.execution_id ||
            !other.completion_time_ms)
          continue;
        if (*other.completion_time_ms > *st.submission_time_ms) continue;
        if (!latest || *other.completion_time_ms > *latest) latest = other.completion_time_ms;
      }
      if (latest) gaps.push_back(static_cast<double>(*st.submission_time_ms - *latest) / 1000.0);
    }
    // Deserialization on fresh JVMs, in first waves, later.
    const FirstFinishes ff = ComputeFirstFinishes(*app);
    for (const auto& [id, st] : app->stages) {
      for (const auto& t : st.tasks) {
        if (!t.successful) continue;
        const double d = static_cast<double>(t.executor_deserialize_time_ms) / 1000.0;
        // In long double: a corrupt log's extreme values must not wrap.
        const long double delay_ms = static_cast<long double>(t.wall_ms()) - t.executor_run_time_ms -
                                     static_cast<long double>(t.executor_deserialize_time_ms);
        delays.push_back(static_cast<double>(std::max(delay_ms, 0.0L)) / 1000.0);
        switch (Classify(t, st.stage_id, ff)) {
          case Warmth::kFresh:
            fresh.push_back(d);
            break;
          case Warmth::kFirstWave:
            first_wave.push_back(d);
            break;
          case Warmth::kLater:
            later.push_back(d);
            break;
        }
      }
    }
  }
  m.overhead_samples = static_cast<int>(overheads.size());
  m.stage_overhead_seconds = Median(overheads);
  m.replan_samples = static_cast<int>(gaps.size());
  m.replan_seconds = Median(gaps);
  if (!gaps.empty()) {
    m.replan_min_seconds = *std::min_element(gaps.begin(), gaps.end());
    m.replan_max_seconds = *std::max_element(gaps.begin(), gaps.end());
  }
  m.fresh_tasks = static_cast<int>(fresh.size());
  m.first_wave_tasks = static_cast<int>(first_wave.size());
  m.later_tasks = static_cast<int>(later.size());
  m.fresh_deserialize_median_seconds = Median(fresh).value_or(0);
  m.first_wave_deserialize_median_seconds = Median(first_wave).value_or(0);
  m.later_deserialize_median_seconds = Median(later).value_or(0);
  if (!fresh.empty() && !(first_wave.empty() && later.empty())) {
    const double base =
        first_wave.empty() ? m.later_deserialize_median_seconds : m.first_wave_deserialize_median_seconds;
    m.executor_startup_seconds = std::max(0.0, m.fresh_deserialize_median_seconds - base);
  }
  if (!first_wave.empty() && !later.empty()) {
    m.executor_stage_warmup_seconds =
        std::max(0.0, m.first_wave_deserialize_median_seconds - m.later_deserialize_median_seconds);
  }
  m.launch_samples = static_cast<int>(delays.size());
  if (!delays.empty()) {
    m.scheduler_delay_median_seconds = *Median(delays);
    m.task_launch_seconds = m.scheduler_delay_median_seconds + m.later_deserialize_median_seconds;
  }
  return m;
}

json MeasuredCost(const MeasuredTimes& mt) {
  json c = json::object();
  if (mt.stage_overhead_seconds) c["stageOverheadSeconds"] = *mt.stage_overhead_seconds;
  if (mt.replan_seconds) c["replanSeconds"] = *mt.replan_seconds;
  c["executorStartupSeconds"] = mt.executor_startup_seconds.value_or(0.0);
  if (mt.executor_stage_warmup_seconds) c["executorStageWarmupSeconds"] = *mt.executor_stage_warmup_seconds;
  if (mt.task_launch_seconds) c["taskLaunchSeconds"] = *mt.task_launch_seconds;
  return c;
}

LogResult Summarise(const Validation& v) {
  LogResult r;
  r.log = v.log;
  r.median_abs_stage_error = v.median_abs_stage_error;
  r.makespan_relative_error = v.makespan_relative_error;
  r.decisions = static_cast<int>(v.decisions.size());
  r.decisions_matched = v.decisions_matched;
  return r;
}

CalibrationResult Calibrate(const std::vector<const eventlog::RecordedApplication*>& apps,
                            const CalibrationOptions& options, std::vector<std::string>* warnings) {
  std::vector<std::string> local;
  if (warnings == nullptr) warnings = &local;
  CalibrationResult result;
  const auto& params = TaskLevelParameters();
  const size_t k = params.size();

  std::vector<Validation> base;
  result.before = Evaluate(apps, options.base_cost, &base);
  SelectionBases bases;  // the selections of `base`, each read once

  // ---- measured parameters (fixed during the fit) ----
  json fixed = options.base_cost.is_object() ? options.base_cost : json::object();
  if (options.measure_from_logs) {
    result.measured = MeasureTimes(apps);
    const json measured = MeasuredCost(result.measured);
    for (auto it = measured.begin(); it != measured.end(); ++it) fixed[it.key()] = it.value();
  } else if (!fixed.contains("executorStartupSeconds")) {
    fixed["executorStartupSeconds"] = 0.0;
  }
  // Per-task parameters measured rather than fitted: their NNLS columns are left out.
  const bool warmup_measured =
      options.measure_from_logs && result.measured.executor_stage_warmup_seconds.has_value();
  const bool launch_measured = options.measure_from_logs && result.measured.task_launch_seconds.has_value();

  // ---- step 1: features by finite differences, rows, NNLS ----
  // The fresh-JVM term is taken off the recorded side, on the tasks the log shows on a fresh
  // JVM; the simulated features are measured without it (which simulated task lands on a
  // fresh executor is a matter of placement, and a flip divided by a 0.1 s probe would
  // swamp the finite differences).
  // The first-wave warm-up likewise when it is measured.
  const double startup = fixed["executorStartupSeconds"].get<double>();
  const double warmup = warmup_measured ? fixed["executorStageWarmupSeconds"].get<double>() : 0.0;
  json zero = fixed;
  zero["executorStartupSeconds"] = 0.0;
  for (const auto& p : params) zero[p] = 0.0;
  zero["taskNoiseSigma"] = 0.0;
  // A measured launch is part of every simulated task's base time (c0), not a column.
  if (launch_measured) zero["taskLaunchSeconds"] = fixed["taskLaunchSeconds"];
  // Step 1 for one (coldCodeSlowdown, coldCodeWindowSeconds) (fixed in `zero`): rows, NNLS.
  struct FitOut {
    std::vector<Row> rows;
    std::vector<double> theta;
  };
  std::vector<std::string> repeated;  // the same warnings again for every grid value
  std::vector<std::string>* fit_warnings = warnings;
  auto fit = [&](const json& zero_cost) {
    FitOut out;
    std::vector<Row>& rows = out.rows;
    for (size_t a = 0; a < apps.size(); ++a) {
      const eventlog::RecordedApplication& app = *apps[a];
      const FirstFinishes first_finishes = ComputeFirstFinishes(app);
      for (const ReplayedSelection& sel : base[a].selections) {
        if (!sel.ok) continue;
        std::string error;
        std::optional<RunResult> r0 = RunWithCost(sel, &bases, zero_cost, &error);
        if (!r0) {
          fit_warnings->push_back(sel.label + ": " + error);
          continue;
        }
        const Durations c0 = TaskDurations(*r0);
        std::vector<Durations> unit(k);
        bool ok = true;
        for (size_t j = 0; j < k && ok; ++j) {
          json c = zero_cost;
          c[params[j]] = ProbeOf(params[j]);
          std::optional<RunResult> rj = RunWithCost(sel, &bases, c, &error);
          if (!rj) {
            ok = false;
            break;
          }
          unit[j] = TaskDurations(*rj);
        }
        if (!ok) continue;
        for (const StageMatch& m : sel.matches) {
          if (!m.recorded_stage_id || m.simulated_name.empty()) continue;
          const eventlog::RecordedStage* st = app.stage(*m.recorded_stage_id);
          auto it0 = c0.find(m.simulated_name);
          if (st == nullptr || it0 == c0.end()) continue;
          const std::vector<double>& base_d = it0->second;
          const size_t n = base_d.size();
          bool consistent = true;
          for (size_t j = 0; j < k; ++j) {
            auto it = unit[j].find(m.simulated_name);
            consistent &= it != unit[j].end() && it->second.size() == n;
          }
          if (!consistent) {
            fit_warnings->push_back(app.path + " " + sel.label + ": stage " + m.simulated_name +
                                    " ran a different number of tasks when the costs changed; not fitted");
            continue;
          }
          const auto recorded = RecordedTaskSeconds(*st);
          const std::vector<Warmth> warmth = RecordedWarmth(*st, first_finishes);
          // The measured terms the recorded task paid (a fresh JVM's first task is also a
          // first wave).
          auto paid = [&](size_t t) {
            return (warmth[t] == Warmth::kFresh ? startup + warmup : 0.0) +
                   (warmth[t] == Warmth::kFirstWave ? warmup : 0.0);
          };
          std::vector<double> rec_values;
          for (const auto& r : recorded) {
            if (r) rec_values.push_back(*r);
          }
          if (rec_values.empty()) continue;
          const double med = std::max(Median(rec_values).value_or(1.0), 0.05);
          auto feature = [&](size_t j, size_t t) {
            return (unit[j].at(m.simulated_name)[t] - base_d[t]) / ProbeOf(params[j]);
          };
          if (recorded.size() == n) {
            const double w = 1.0 / (med * std::sqrt(static_cast<double>(rec_values.size())));
            for (size_t t = 0; t < n; ++t) {
              if (!recorded[t]) continue;
              Row row;
              row.features.resize(k);
              for (size_t j = 0; j < k; ++j) row.features[j] = feature(j, t);
              row.c0 = base_d[t] + paid(t);
              row.recorded = *recorded[t];
              row.weight = w;
              rows.push_back(std::move(row));
            }
          } else {
            Row row;  // one row for the stage: sums over its tasks
            row.features.assign(k, 0.0);
            for (size_t t = 0; t < n; ++t) {
              for (size_t j = 0; j < k; ++j) row.features[j] += feature(j, t);
              row.c0 += base_d[t];
            }
            for (double r : rec_values) row.recorded += r;
            for (size_t t = 0; t < warmth.size(); ++t) {
              if (recorded[t]) row.c0 += paid(t);
            }
            // The sum of n tasks: scale to a per-task magnitude.
            row.weight = 1.0 / (med * static_cast<double>(std::max<size_t>(rec_values.size(), 1)));
            rows.push_back(std::move(row));
          }
        }
      }
    }
    if (rows.empty()) return out;

    std::vector<std::vector<double>> A;
    std::vector<double> b;
    for (const Row& r : rows) {
      std::vector<double> f = r.features;
      for (double& x : f) x *= r.weight;
      for (size_t j = 0; j < k; ++j) {
        if (warmup_measured && params[j] == "executorStageWarmupSeconds") f[j] = 0;
        if (launch_measured && params[j] == "taskLaunchSeconds") f[j] = 0;
      }
      A.push_back(std::move(f));
      b.push_back((r.recorded - r.c0) * r.weight);
    }
    out.theta = NonNegativeLeastSquares(A, b);
    return out;
  };
  // coldCodeSlowdown / coldCodeWindowSeconds slow the work of tasks on cold code: given their
  // values the model is close to linear in the other parameters, so they are chosen on a grid,
  // each pair with its own NNLS fit, by the objective of full replays.
  static const std::vector<double> kSlowdownGrid = {0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0};
  static const std::vector<double> kWindowGrid = {0.25, 0.5, 1.0, 2.0, 4.0};
  std::vector<std::pair<double, double>> grid = {{0.0, 1.0}};  // no slowdown: the window is moot
  for (double x : kSlowdownGrid) {
    for (double w : kWindowGrid) {
      if (x > 0) grid.emplace_back(x, w);
    }
  }
  double best_score = 0;
  json best_cost;
  bool have_fit = false;
  for (const auto& [x, window] : grid) {
    json z = zero;
    z["coldCodeSlowdown"] = x;
    z["coldCodeWindowSeconds"] = window;
    FitOut f = fit(z);
    fit_warnings = &repeated;
    if (f.rows.empty()) continue;
    // Scored on full replays: mean of (median |stage error| + |makespan error|).
    json c = fixed;
    for (size_t j = 0; j < k; ++j) c[params[j]] = f.theta.size() == k ? f.theta[j] : DefaultOf(params[j]);
    if (warmup_measured) c["executorStageWarmupSeconds"] = warmup;
    if (launch_measured) c["taskLaunchSeconds"] = fixed["taskLaunchSeconds"];
    c["coldCodeSlowdown"] = x;
    c["coldCodeWindowSeconds"] = window;
    const double score = Objective(Reevaluate(apps, base, c));
    if (!have_fit || score < best_score - 1e-12) {
      best_score = score;
      best_cost = c;
      have_fit = true;
    }
  }
  if (!have_fit)
    throw eventlog::EventLogError("no recorded task could be matched to a simulated one; nothing to fit");
  const json cost = best_cost;

  // Fit quality: every matched task's duration replayed with the chosen cost against its
  // recorded wall time (not the linearised rows: the cold-code window makes a task's time
  // depend on what ran before it on its executor).
  {
    std::vector<double> simulated, recorded_seconds;
    for (size_t a = 0; a < apps.size(); ++a) {
      for (const ReplayedSelection& sel : base[a].selections) {
        if (!sel.ok) continue;
        std::string error;
        const std::optional<RunResult> run = RunWithCost(sel, &bases, cost, &error);
        if (!run) continue;
        const Durations d = TaskDurations(*run);
        for (const StageMatch& m : sel.matches) {
          if (!m.recorded_stage_id || m.simulated_name.empty()) continue;
          const eventlog::RecordedStage* st = apps[a]->stage(*m.recorded_stage_id);
          auto it = d.find(m.simulated_name);
          if (st == nullptr || it == d.end()) continue;
          const auto rec = RecordedTaskSeconds(*st);
          if (rec.size() != it->second.size()) {
            ++result.quality.stage_rows;
            continue;
          }
          for (size_t t = 0; t < rec.size(); ++t) {
            if (!rec[t]) continue;
            simulated.push_back(it->second[t]);
            recorded_seconds.push_back(*rec[t]);
          }
        }
      }
    }
    const size_t n = simulated.size();
    double mean = 0;
    for (double r : recorded_seconds) mean += r;
    mean = n ? mean / static_cast<double>(n) : 0;
    double ss_res = 0, ss_tot = 0;
    std::vector<double> abs_err, rel_err;
    for (size_t i = 0; i < n; ++i) {
      const double e = simulated[i] - recorded_seconds[i];
      ss_res += e * e;
      ss_tot += (recorded_seconds[i] - mean) * (recorded_seconds[i] - mean);
      abs_err.push_back(std::abs(e));
      if (recorded_seconds[i] > 0) rel_err.push_back(std::abs(e) / recorded_seconds[i]);
    }
    result.quality.task_rows = static_cast<int>(n);
    result.quality.r_squared = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 0.0;
    result.quality.median_abs_error_seconds = Median(abs_err).value_or(0);
    result.quality.median_abs_relative_error = Median(rel_err).value_or(0);
  }

  result.cost = cost;
  result.after = Reevaluate(apps, base, cost);
  return result;
}

}  // namespace aqesim::validate
