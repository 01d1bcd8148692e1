#include "tools/eventlog/stage_profile_import.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <tuple>

#include "models/cluster/cluster.h"
#include "tools/eventlog/executor_launch.h"
#include "tools/eventlog/failed_attempts_import.h"
#include "tools/eventlog/spill_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

constexpr int kQuantiles = 21;   // 0, 5, ..., 100%
constexpr int kThirds = 3;       // launch-order thirds of a wave
constexpr int kMinPerThird = 5;  // fewer tasks per third: one table
constexpr double kMinCv = 0.1;   // U must vary this much for a stage's own fit
constexpr double kMinR2 = 0.3;   // and the fit explain this much

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// kQuantiles quantiles of `v` (linear interpolation between order statistics).
std::vector<double> Quantiles(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::vector<double> out;
  for (int j = 0; j < kQuantiles; ++j) {
    const double pos = static_cast<double>(j) / (kQuantiles - 1) * static_cast<double>(v.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    out.push_back(v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo)));
  }
  return out;
}

double Round(double x, double unit) { return std::round(x / unit) * unit; }

/// One successful task of a profiled stage.
struct Task {
  const RecordedTask* t = nullptr;
  bool first_wave = false;
  double u = 0;      // records read
  double bytes = 0;  // input + shuffle bytes read
  double run = 0;    // Executor Run Time, s
  double wall = 0;   // Finish − Launch, s
};

struct Rates {
  double a = 0, b = 0;
  std::string how;
};

/// The tasks a stage's own fit uses — its later waves', or all when fewer than 3 — and the
/// least-squares sums of run time on U over them.
struct RowFit {
  std::vector<const Task*> use;
  double n = 0, mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
};

RowFit SumsOverFitTasks(const std::vector<Task>& tasks) {
  RowFit f;
  for (const Task& t : tasks)
    if (!t.first_wave) f.use.push_back(&t);
  if (f.use.size() < 3) {
    f.use.clear();
    for (const Task& t : tasks) f.use.push_back(&t);
  }
  f.n = static_cast<double>(f.use.size());
  for (const Task* t : f.use) f.mx += t->u / f.n, f.my += t->run / f.n;
  for (const Task* t : f.use) {
    f.sxx += (t->u - f.mx) * (t->u - f.mx);
    f.sxy += (t->u - f.mx) * (t->run - f.my);
    f.syy += (t->run - f.my) * (t->run - f.my);
  }
  return f;
}

/// Least squares of run on U (the header comment's "stage" rates), or nullopt.
std::optional<Rates> FitStage(const std::vector<Task>& tasks) {
  const RowFit f = SumsOverFitTasks(tasks);
  if (f.use.size() < 3) return std::nullopt;
  if (f.sxx <= 0 || f.mx <= 0 || std::sqrt(f.sxx / f.n) < kMinCv * f.mx || f.syy <= 0) return std::nullopt;
  Rates r{f.my - f.sxy / f.sxx * f.mx, f.sxy / f.sxx, "stage"};
  if (r.a < 0) {
    double xx = 0, xy = 0;
    for (const Task* t : f.use) xx += t->u * t->u, xy += t->u * t->run;
    r = Rates{0, xy / xx, "stage"};
  }
  double ss = 0;
  for (const Task* t : f.use) ss += (t->run - r.a - r.b * t->u) * (t->run - r.a - r.b * t->u);
  if (r.b <= 0 || 1 - ss / f.syy < kMinR2) return std::nullopt;
  return r;
}

/// False when the stage's own tasks (those FitStage uses) take no longer the more rows they
/// read: a least-squares slope of run time on U <= 0 (or U not varying). Another stage's rate
/// would then tie their residuals to their size — the bigger tasks drawing the residuals of
/// the smaller, slower ones.
bool RunGrowsWithRows(const std::vector<Task>& tasks) {
  const RowFit f = SumsOverFitTasks(tasks);
  return f.sxx <= 0 || f.sxy > 0;
}

/// The last successful attempt per partition, in (launch, index) order, with first waves.
std::vector<Task> SuccessfulTasks(const RecordedApplication& app, const RecordedStage& st) {
  std::map<int, const RecordedTask*> by_index;
  for (const RecordedTask& t : st.tasks)
    if (t.successful) by_index[t.index] = &t;
  std::vector<Task> out;
  for (const auto& [index, t] : by_index) {
    Task k;
    k.t = t;
    k.u = static_cast<double>(SaturatingAdd(t->input_records, t->shuffle_records_read));
    k.bytes = static_cast<double>(SaturatingAdd(t->input_bytes, t->shuffle_bytes_read()));
    k.run = static_cast<double>(std::max<int64_t>(t->executor_run_time_ms, 0)) / 1000.0;
    k.wall = static_cast<double>(std::max<int64_t>(t->wall_ms(), 0)) / 1000.0;
    out.push_back(k);
  }
  std::stable_sort(out.begin(), out.end(), [](const Task& a, const Task& b) {
    return std::tie(a.t->launch_time_ms, a.t->index) < std::tie(b.t->launch_time_ms, b.t->index);
  });
  std::map<std::string, int> slots, launched;
  for (const RecordedExecutor& ex : app.executors) slots[ex.executor_id] = app.SlotsOf(ex);
  for (Task& k : out) {
    auto s = slots.find(k.t->executor_id);
    k.first_wave = launched[k.t->executor_id]++ < (s == slots.end() ? 1 : s->second);
  }
  return out;
}

/// Submission → first launch, less the wait for a slot or an executor (the header comment).
/// An executor takes tasks `launch_ms` after it registers (executor_launch.h).
double LaunchDelaySeconds(const RecordedApplication& app, const RecordedStage& st, int64_t submit_ms,
                          int64_t first_launch_ms, int64_t launch_ms) {
  std::set<std::string> ids;
  int capacity = 0;
  // The last slot freed or executor launched between submission and the first launch: what a
  // stage waiting for a slot launched on.
  std::optional<int64_t> last_free;
  auto latest = [&](int64_t t) {
    if (t >= submit_ms && t <= first_launch_ms && (!last_free || t > *last_free)) last_free = t;
  };
  for (const RecordedExecutor& ex : app.executors) {
    if ((ex.executor_id == "driver") != app.local_mode || ex.resource_profile_id != st.resource_profile_id)
      continue;
    const std::optional<int64_t> until = app.OffersTasksUntilMs(ex);
    // launch_ms is the log's median: an executor that registered before the first launch but
    // whose median launch ends after it was ready by then (the first launch may be its own).
    int64_t ready = ex.executor_id == "driver" ? ex.added_time_ms : ex.added_time_ms + launch_ms;
    if (ex.added_time_ms <= first_launch_ms) ready = std::min(ready, first_launch_ms);
    if (until && *until <= submit_ms) continue;
    if (ready > submit_ms) {
      latest(ready);
      continue;
    }
    ids.insert(ex.executor_id);
    capacity += app.SlotsOf(ex);
  }
  int running = 0;
  for (const auto& [id, other] : app.stages) {
    for (const RecordedTask& t : other.tasks) {
      if (!ids.count(t.executor_id)) continue;
      if (t.launch_time_ms <= submit_ms && t.finish_time_ms > submit_ms) ++running;
      latest(t.finish_time_ms);
    }
  }
  const int64_t delay =
      (running < capacity || !last_free) ? first_launch_ms - submit_ms : first_launch_ms - *last_free;
  return static_cast<double>(std::max<int64_t>(delay, 0)) / 1000.0;
}

void CollectParents(const json& node, std::vector<std::string>* parents);

/// The stages a node's part of a stage waits for: exchanges end it, a broadcast join's build
/// side is a stage of its own.
void CollectParents(const json& node, std::vector<std::string>* parents) {
  if (!node.is_object()) return;
  const std::string op = node.value("op", "");
  const std::string id = node.value("id", "");
  if (op == "exchange") {
    parents->push_back(id + " map");
    return;
  }
  if (op == "join" && node.value("strategy", "").rfind("Broadcast", 0) == 0) {
    const bool left_builds = node.value("buildSide", "BuildRight") == "BuildLeft";
    parents->push_back(id + " broadcast");
    if (node.contains(left_builds ? "right" : "left"))
      CollectParents(node[left_builds ? "right" : "left"], parents);
    return;
  }
  for (const char* key : {"child", "left", "right"})
    if (node.contains(key)) CollectParents(node[key], parents);
  if (node.contains("children") && node["children"].is_array())
    for (const json& c : node["children"]) CollectParents(c, parents);
}

void WalkStages(const json& node, std::map<std::string, std::vector<std::string>>* out) {
  if (!node.is_object()) return;
  const std::string op = node.value("op", "");
  const std::string id = node.value("id", "");
  if (op == "exchange" && node.contains("child")) {
    CollectParents(node["child"], &(*out)[id + " map"]);
  } else if (op == "join" && node.value("strategy", "").rfind("Broadcast", 0) == 0) {
    const bool left_builds = node.value("buildSide", "BuildRight") == "BuildLeft";
    if (node.contains(left_builds ? "left" : "right"))
      CollectParents(node[left_builds ? "left" : "right"], &(*out)[id + " broadcast"]);
  }
  for (const char* key : {"child", "left", "right"})
    if (node.contains(key)) WalkStages(node[key], out);
  if (node.contains("children") && node["children"].is_array())
    for (const json& c : node["children"]) WalkStages(c, out);
}

/// Window of the selection: start and (when logged) end, ms.
std::pair<std::optional<int64_t>, std::optional<int64_t>> SelectionWindow(const RecordedApplication& app,
                                                                          const ImportedScenario& imported) {
  if (imported.execution_id) {
    auto it = app.executions.find(*imported.execution_id);
    if (it != app.executions.end()) return {it->second.start_time_ms, it->second.end_time_ms};
  } else if (imported.job_id) {
    auto it = app.jobs.find(*imported.job_id);
    if (it != app.jobs.end()) return {it->second.submission_time_ms, it->second.completion_time_ms};
  }
  return {std::nullopt, std::nullopt};
}

}  // namespace

std::map<std::string, std::vector<std::string>> PlanStageParents(const json& plan) {
  std::map<std::string, std::vector<std::string>> out;
  CollectParents(plan, &out["result"]);
  WalkStages(plan, &out);
  return out;
}

namespace {

/// Scan id → the stage whose operators include it (`stage`: the one `node` is part of).
void ScanStages(const json& node, const std::string& stage, std::map<std::string, std::string>* out) {
  if (!node.is_object()) return;
  const std::string op = node.value("op", "");
  const std::string id = node.value("id", "");
  if (op == "scan") (*out)[id] = stage;
  if (op == "exchange") {
    if (node.contains("child")) ScanStages(node["child"], id + " map", out);
    return;
  }
  const bool broadcast = op == "join" && node.value("strategy", "").rfind("Broadcast", 0) == 0;
  const std::string build = node.value("buildSide", "BuildRight") == "BuildLeft" ? "left" : "right";
  for (const char* key : {"child", "left", "right"})
    if (node.contains(key)) ScanStages(node[key], broadcast && key == build ? id + " broadcast" : stage, out);
  if (node.contains("children") && node["children"].is_array())
    for (const json& c : node["children"]) ScanStages(c, stage, out);
}

}  // namespace

std::map<std::string, std::vector<std::string>> ScenarioStageParents(const json& scenario) {
  std::map<std::string, std::vector<std::string>> out =
      PlanStageParents(scenario.contains("plan") ? scenario["plan"] : json());
  if (!scenario.contains("subqueries") || !scenario["subqueries"].is_array()) return out;
  std::map<std::string, std::string> scan_stage;
  if (scenario.contains("plan")) ScanStages(scenario["plan"], "result", &scan_stage);
  for (const json& q : scenario["subqueries"]) {
    const std::string id = q.value("id", "");
    std::string gate = id + " result";
    if (q.contains("plan")) {
      CollectParents(q["plan"], &out[gate]);
      WalkStages(q["plan"], &out);
    } else {
      gate = q.value("reusesBroadcast", "") + " broadcast";
    }
    if (!q.contains("gates") || !q["gates"].is_array()) continue;
    for (const json& g : q["gates"]) {
      auto it = g.is_string() ? scan_stage.find(g.get<std::string>()) : scan_stage.end();
      if (it == scan_stage.end()) continue;
      std::vector<std::string>& ps = out[it->second];
      if (std::find(ps.begin(), ps.end(), gate) == ps.end()) ps.push_back(gate);
    }
  }
  return out;
}

std::string TakeJobName(int k) { return k <= 1 ? "result" : "result " + std::to_string(k); }

std::map<int, std::string> ProfiledStageNames(const RecordedApplication& app,
                                              const ImportedScenario& imported) {
  std::map<int, std::string> names;
  std::vector<int> submitted;
  for (int s : imported.stage_ids) {
    const RecordedStage* st = app.stage(s);
    if (st != nullptr && st->submitted) submitted.push_back(s);
  }
  auto in_selection = [&](int s) {
    return std::find(submitted.begin(), submitted.end(), s) != submitted.end();
  };
  for (const ImportedExchange& ex : imported.exchanges)
    if (ex.map_stage_id && in_selection(*ex.map_stage_id)) names.emplace(*ex.map_stage_id, ex.id + " map");
  for (const ImportedJoin& j : imported.joins)
    if (j.build_stage_id && in_selection(*j.build_stage_id))
      names.emplace(*j.build_stage_id, j.id + " broadcast");
  for (const ImportedSubquery& q : imported.subqueries)
    if (q.result_stage_id && in_selection(*q.result_stage_id))
      names.emplace(*q.result_stage_id, q.id + " result");
  // The result stage: the last one left; under a collectLimit every one left is a job of
  // executeTake, "result", "result 2", ... in order.
  const json& plan = imported.scenario.contains("plan") ? imported.scenario["plan"] : json();
  if (plan.is_object() && plan.value("op", "") == "collectLimit") {
    // Job k of executeTake is its first job's id + k - 1 (the loop runs them one by one; a job
    // whose start event lacks the execution id is not in the selection, and its number is skipped).
    std::optional<int> first_job;
    for (int s : submitted) {
      if (names.count(s)) continue;
      const RecordedStage& st = *app.stage(s);
      const int k = first_job && st.job_id ? *st.job_id - *first_job + 1 : 1;
      if (!first_job && st.job_id) first_job = st.job_id;
      names.emplace(s, TakeJobName(std::max(k, 1)));
    }
    return names;
  }
  for (auto it = submitted.rbegin(); it != submitted.rend(); ++it) {
    if (names.count(*it)) continue;
    names.emplace(*it, "result");
    break;
  }
  return names;
}

void AddStageProfiles(const RecordedApplication& app, ImportedScenario* imported, std::vector<std::string>*) {
  const auto [start, end] = SelectionWindow(app, *imported);
  const std::map<int, std::string> names = ProfiledStageNames(app, *imported);
  // Recorded submission and completion per simulated name.
  std::map<std::string, int64_t> complete_ms;
  std::optional<int64_t> first_submit, last_complete;
  for (const auto& [id, name] : names) {
    const RecordedStage& st = *app.stage(id);
    if (st.tasks.empty()) continue;
    int64_t last_finish = 0;
    for (const RecordedTask& t : st.tasks) last_finish = std::max(last_finish, t.finish_time_ms);
    complete_ms[name] = std::max(st.completion_time_ms.value_or(last_finish), last_finish);
  }
  for (int s : imported->stage_ids) {
    const RecordedStage* st = app.stage(s);
    if (st == nullptr || !st->submitted || st->tasks.empty()) continue;
    if (st->submission_time_ms && (!first_submit || *st->submission_time_ms < *first_submit))
      first_submit = st->submission_time_ms;
    for (const RecordedTask& t : st->tasks)
      last_complete = std::max(last_complete.value_or(t.finish_time_ms), t.finish_time_ms);
    if (st->completion_time_ms) last_complete = std::max(*last_complete, *st->completion_time_ms);
  }
  if (!start || !first_submit || complete_ms.empty()) return;
  const double start_seconds = static_cast<double>(std::max<int64_t>(*first_submit - *start, 0)) / 1000.0;
  const int64_t origin_ms = *start + std::max<int64_t>(*first_submit - *start, 0);
  const std::map<std::string, std::vector<std::string>> parents = ScenarioStageParents(imported->scenario);

  // Rates of the log's stages that identify their own ("stage"): their median B.
  std::vector<double> stage_bs;
  for (const auto& [id, st] : app.stages) {
    if (st.tasks.empty()) continue;
    if (auto r = FitStage(SuccessfulTasks(app, st))) stage_bs.push_back(r->b);
  }
  // (A plain double and a flag: GCC 12 warns maybe-uninitialized on an optional built in a ?:.)
  const bool have_log_b = !stage_bs.empty();
  const double log_b = have_log_b ? Median(stage_bs) : 0.0;
  const int64_t launch_ms = ExecutorLaunchMs(app).value_or(0);

  json profiles = json::object();
  std::optional<double> min_gap;
  for (const auto& [id, name] : names) {
    const RecordedStage& st = *app.stage(id);
    std::vector<Task> tasks = SuccessfulTasks(app, st);
    if (tasks.empty()) continue;
    // Spill is priced apart (spill_import.h): the rates and residuals describe the tasks without it.
    std::vector<SpillTaskInput> spill_in;
    for (const Task& k : tasks) {
      int slots = 1;
      for (const RecordedExecutor& ex : app.executors)
        if (ex.executor_id == k.t->executor_id) slots = app.SlotsOf(ex);
      spill_in.push_back({k.t, k.u, slots});
    }
    const SpillMeasurement spill = MeasureSpill(spill_in, ClusterSpec{}.disk_bytes_per_second);
    for (size_t i = 0; i < tasks.size(); ++i) {
      tasks[i].run = std::max(0.0, tasks[i].run - spill.task_seconds[i]);
      tasks[i].wall = std::max(0.0, tasks[i].wall - spill.task_seconds[i]);
    }
    double row_ops = 0, input_bytes = 0;
    std::vector<double> o_first, o_later, runs, us;
    for (const Task& k : tasks) {
      row_ops += k.u;
      input_bytes += k.bytes;
      (k.first_wave ? o_first : o_later).push_back(std::max(0.0, k.wall - k.run));
      runs.push_back(k.run);
      us.push_back(k.u);
    }
    const double of = o_first.empty() ? Median(o_later) : Median(o_first);
    const double ol = o_later.empty() ? of : Median(o_later);
    Rates rates;
    if (row_ops <= 0) {
      rates = Rates{Median(runs), 0, "fixed"};
    } else if (auto r = FitStage(tasks)) {
      rates = *r;
    } else if (have_log_b && RunGrowsWithRows(tasks)) {
      rates = Rates{std::max(0.0, Median(runs) - log_b * Median(us)), log_b, "log"};
    } else {
      rates = Rates{Median(runs), 0, "fixed"};
    }
    // Residuals against what the engine computes for each task (U ∝ bytes).
    auto u_engine = [&](const Task& k) {
      return input_bytes > 0 ? row_ops * k.bytes / input_bytes : row_ops / static_cast<double>(tasks.size());
    };
    std::vector<double> res(tasks.size());
    size_t critical = 0;
    for (size_t i = 0; i < tasks.size(); ++i) {
      const Task& k = tasks[i];
      const double modelled = (k.first_wave ? of : ol) + rates.a + rates.b * u_engine(k);
      res[i] = modelled > 0 ? k.wall / modelled : 1.0;
      if (std::tie(k.t->finish_time_ms, k.t->index) >
          std::tie(tasks[critical].t->finish_time_ms, tasks[critical].t->index))
        critical = i;
    }
    json residuals = json::object();
    for (int w = 0; w < 2; ++w) {
      const bool first = w == 0;
      std::vector<size_t> group;
      for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].first_wave == first) group.push_back(i);
      if (group.empty()) continue;
      const bool keep_critical = tasks[critical].first_wave == first && group.size() == 1;
      std::vector<double> all;
      for (size_t i : group)
        if (i != critical || keep_critical) all.push_back(res[i]);
      if (all.empty()) continue;
      const size_t n = group.size();
      const size_t k = n >= static_cast<size_t>(kThirds * kMinPerThird) ? kThirds : 1;
      json tables = json::array();
      for (size_t part = 0; part < k; ++part) {
        std::vector<double> v;
        for (size_t g = part * n / k; g < (part + 1) * n / k; ++g)
          if (group[g] != critical || keep_critical) v.push_back(res[group[g]]);
        json table = json::array();
        for (double q : Quantiles(v.empty() ? all : v)) table.push_back(Round(q, 1e-4));
        tables.push_back(std::move(table));
      }
      residuals[first ? "firstWave" : "later"] = std::move(tables);
    }
    int64_t first_launch = tasks.front().t->launch_time_ms, last_finish = 0;
    for (const Task& k : tasks) last_finish = std::max(last_finish, k.t->finish_time_ms);
    for (const RecordedTask& t : st.tasks) first_launch = std::min(first_launch, t.launch_time_ms);
    const int64_t submit = std::min(st.submission_time_ms.value_or(first_launch), first_launch);

    json p = json::object();
    p["recordedStage"] = id;
    p["tasks"] = static_cast<int>(tasks.size());
    p["inputBytes"] = static_cast<int64_t>(input_bytes);
    p["rowOps"] = row_ops;
    p["overheadSeconds"] = {{"firstWave", Round(of, 1e-4)}, {"later", Round(ol, 1e-4)}};
    p["fixedSeconds"] = Round(rates.a, 1e-6);
    p["secondsPerRowOp"] = rates.b;
    p["rates"] = rates.how;
    p["residuals"] = std::move(residuals);
    p["critical"] = {{"task", tasks[critical].t->index}, {"residual", Round(res[critical], 1e-4)}};
    if (spill.record) {
      p["spill"] = *spill.record;
      p["critical"]["spillSeconds"] = Round(spill.task_seconds[critical], 1e-4);
    }
    p["launchDelaySeconds"] = LaunchDelaySeconds(app, st, submit, first_launch, launch_ms);
    p["tailSeconds"] = static_cast<double>(std::max<int64_t>(complete_ms[name] - last_finish, 0)) / 1000.0;
    // The trigger: the latest recorded completion of the stages it waits for, else the origin.
    int64_t trigger = origin_ms;
    bool known = true, has_parents = false;
    // executeTake's job k waits for job k - 1.
    std::vector<std::string> take_parent;
    const std::vector<std::string>* ps = nullptr;
    if (name.rfind("result ", 0) == 0) {
      take_parent = {TakeJobName(std::atoi(name.c_str() + 7) - 1)};
      ps = &take_parent;
    } else if (auto it = parents.find(name); it != parents.end()) {
      ps = &it->second;
    }
    if (ps != nullptr) {
      for (const std::string& parent : *ps) {
        auto c = complete_ms.find(parent);
        if (c == complete_ms.end()) {
          known = false;
          continue;
        }
        has_parents = true;
        trigger = std::max(trigger, c->second);
      }
    } else {
      known = false;
    }
    // The last profiled stage to complete before the submission, when later than the plan's
    // trigger and not one of the plan's parents: the driver evidently waited for it too (the EMR
    // join_agg runs submit e1 map only after both broadcast builds, one outside its plan).
    if (known) {
      std::optional<std::pair<int64_t, std::string>> last;
      for (const auto& [other, c] : complete_ms)
        if (other != name && c <= submit && (!last || c > last->first)) last = {c, other};
      const bool plan_parent =
          last && ps != nullptr && std::find(ps->begin(), ps->end(), last->second) != ps->end();
      if (last && last->first > trigger && !plan_parent) {
        p["waitsFor"] = json::array({last->second});
        trigger = last->first;
        has_parents = true;
      }
    }
    if (known && submit >= trigger) {
      const double gap = static_cast<double>(submit - trigger) / 1000.0;
      p["submitGapSeconds"] = gap;
      if (has_parents) min_gap = std::min(min_gap.value_or(gap), gap);
    }
    if (st.resource_profile_id != 0) p["resourceProfile"] = st.resource_profile_id;
    if (json failed = FailedAttemptsJson(app, st); !failed.empty()) {
      // A partition whose attempts all failed (the job aborted) is still one of the stage's tasks.
      p["tasks"] = std::max(static_cast<int>(tasks.size()), st.num_tasks);
      p["failedAttempts"] = std::move(failed);
    }
    profiles[name] = std::move(p);
  }
  json driver = json::object();
  driver["startSeconds"] = start_seconds;
  driver["endSeconds"] = end && last_complete && *end > *last_complete
                             ? static_cast<double>(*end - *last_complete) / 1000.0
                             : 0.0;
  if (min_gap) driver["replanSeconds"] = *min_gap;
  imported->scenario["profiles"] = std::move(profiles);
  imported->scenario["driver"] = std::move(driver);
}

}  // namespace aqesim::eventlog
