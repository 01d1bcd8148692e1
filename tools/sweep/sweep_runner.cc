#include "tools/sweep/sweep_runner.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "models/conf/did_you_mean.h"
#include "models/conf/property_value.h"
#include "models/conf/spark_conf.h"
#include "models/cost/cost_params.h"
#include "models/engine/query_execution.h"
#include "models/engine/run_time_source.h"
#include "models/engine/static_planner.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/shown_pointer.h"
#include "tools/sweep/journal.h"

namespace aqesim::sweep {

namespace {

constexpr uint64_t kMaxPoints = 10'000'000;
const char* const kDocPrefixes[] = {"cluster.", "cost.", "simulation."};

std::optional<std::string> DocSection(const std::string& key) {
  for (const char* p : kDocPrefixes) {
    const std::string prefix(p);
    if (key.rfind(prefix, 0) == 0) return prefix.substr(0, prefix.size() - 1);
  }
  return std::nullopt;
}

Json TypedValue(const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  int64_t i = 0;
  {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
    if (ec == std::errc() && p == v.data() + v.size()) return i;
  }
  double d = 0;
  {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec == std::errc() && p == v.data() + v.size() && std::isfinite(d))
      return d;  // "nan", "inf": as written
  }
  return v;
}

std::string FormatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The value a key has without the sweep (nullopt = unset, Spark's default applies).
std::optional<std::string> BaselineValue(const std::string& key, const Json& doc, const Scenario& s) {
  const std::optional<std::string> section = DocSection(key);
  if (!section) {
    auto it = s.raw_conf.find(key);
    if (it == s.raw_conf.end()) return std::nullopt;
    return it->second;
  }
  const std::string field = key.substr(section->size() + 1);
  if (*section == "cluster") {
    if (field == "executors") return std::to_string(s.cluster.executors);
    if (field == "executorCores") return std::to_string(s.cluster.executor_cores);
    if (field == "executorMemory") return std::to_string(s.cluster.executor_memory_bytes);
  }
  if (*section == "cost") {
    for (const CostParamInfo& info : CostParamRegistry()) {
      if (info.json_name == field) return FormatDouble(s.cost.*(info.field));
    }
  }
  if (doc.contains(*section) && doc[*section].is_object() && doc[*section].contains(field)) {
    const Json& v = doc[*section][field];
    return v.is_string() ? v.get<std::string>() : v.dump();
  }
  return std::nullopt;
}

// Progress bar on stderr: "[#####.....] 45/120  37.5%  12.3 points/s  ETA 6s", redrawn at
// most ten times a second.
class ProgressBar {
 public:
  ProgressBar(bool enabled, uint64_t total, uint64_t already_done)
      : enabled_(enabled), total_(total), done_(already_done), start_(std::chrono::steady_clock::now()) {
    Draw(true);
  }
  void Tick() {
    ++done_;
    ++done_now_;
    Draw(done_ == total_);
  }
  void Finish() {
    if (enabled_ && drawn_) std::cerr << "\n" << std::flush;
  }

 private:
  void Draw(bool force) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done_now_) / elapsed : 0;
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    char line[256];
    std::string eta = "--";
    if (rate > 0) {
      const double left = static_cast<double>(total_ - done_) / rate;
      char b[32];
      if (left >= 3600)
        std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(left / 3600),
                      static_cast<int>(left / 60) % 60);
      else if (left >= 60)
        std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(left / 60), static_cast<int>(left) % 60);
      else
        std::snprintf(b, sizeof b, "%ds", static_cast<int>(left + 0.5));
      eta = b;
    }
    std::snprintf(line, sizeof line, "\r[%s%s] %llu/%llu %5.1f%%  %.1f points/s  ETA %s   ",
                  std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(),
                  static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_),
                  total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0, rate,
                  eta.c_str());
    std::cerr << line << std::flush;
    drawn_ = true;
  }

  bool enabled_;
  uint64_t total_;
  uint64_t done_;
  uint64_t done_now_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  bool drawn_ = false;
};

}  // namespace

void ApplyGridValue(const std::string& key, const std::string& value, const ScenarioBase& base,
                    ScenarioOverrides* overrides) {
  const std::optional<std::string> section = DocSection(key);
  if (!section) {
    overrides->conf.emplace_back(key, value);
    return;
  }
  // With a recorded executor timeline (an imported log) the scheduler's executors are the
  // timeline's and `cluster.executors` would only set defaultParallelism: the grid value is the
  // what-if `--conf spark.executor.instances` is, N executors from the start instead of the
  // timeline (the loader warns that it replaced it). A log recorded under dynamic allocation
  // keeps its policy keys in the scenario's conf (tools/eventlog/conf_import.h); the point then
  // turns the policy off, or spark.executor.instances would only be its initial target.
  if (key == "cluster.executors" && base.has_executor_timeline) {
    auto dynamic = base.conf.find("spark.dynamicAllocation.enabled");
    if (dynamic != base.conf.end() && ParseBool(dynamic->second.first).value_or(false))
      overrides->conf.emplace_back("spark.dynamicAllocation.enabled", "false");
    overrides->conf.emplace_back("spark.executor.instances", value);
    return;
  }
  const std::string field = key.substr(section->size() + 1);
  overrides->fields.push_back({*section, field, TypedValue(value)});
}

std::string GridKeyProblem(const std::string& key) {
  if (DocSection(key)) return "";
  const auto& known = KnownConfKeys();
  if (std::find(known.begin(), known.end(), key) != known.end()) return "";
  return "unknown key (expected a Spark configuration key the simulator uses, cluster.FIELD, cost.PARAM or "
         "simulation.FIELD)" +
         DidYouMeanSuffix(key, known);
}

std::vector<std::string> GridValueProblems(const std::string& key, const std::string& value,
                                           const ScenarioBase& base, const ScenarioOverrides& overrides) {
  ScenarioOverrides alone;  // this value and nothing else
  ApplyGridValue(key, value, base, &alone);
  std::vector<std::string> problems;
  // A Spark key (or cluster.executors on a recorded timeline): the keys' parsers, nothing else.
  if (!alone.conf.empty()) {
    RawConf raw(alone.conf.begin(), alone.conf.end());
    std::vector<ConfProblem> conf_problems;
    ResolveSqlConf(raw, &conf_problems);
    for (const ConfProblem& c : conf_problems)
      if (c.is_error) problems.push_back(c.key == key ? c.message : c.key + ": " + c.message);
  }
  if (alone.fields.empty()) return problems;
  // A document field: the scenario with it loads, but only the field's own diagnostics count.
  ScenarioOverrides with = overrides;
  with.fields.insert(with.fields.end(), alone.fields.begin(), alone.fields.end());
  const LoadResult r = BuildScenario(base, with);
  for (const FieldOverride& f : alone.fields) {
    const std::string at = "/" + f.section + "/" + f.field;
    for (const Diagnostic& d : r.errors)
      if (d.pointer == at || d.pointer.rfind(at + "/", 0) == 0) problems.push_back(d.ToString());
  }
  return problems;
}

namespace {

/// How the scenario's stages are timed (SweepInfo::time_source): without recorded profiles every
/// stage is modelled; with some, its AQE-on run as given says which stages they time
/// (models/engine/run_time_source.h: a resized profile is the log's own rates, profiled).
std::string TimeSourceOf(const Scenario& s) {
  if (s.profiles.empty()) return "modelled";
  try {
    return RunTimeSource(SimulateQuery(s, true));
  } catch (const std::exception&) {
    return "";  // the points report the failure
  }
}

}  // namespace

std::optional<PreparedSweep> PrepareSweep(const SweepSpec& spec, std::vector<std::string>* errors) {
  PreparedSweep p;
  std::string text;
  if (const int err =
          ReadInputFileOnce(spec.overrides.files.get(), spec.scenario_path, &text, kMaxScenarioBytes);
      err != 0) {
    errors->push_back(spec.scenario_path +
                      ": cannot read scenario: " + InputFileError(err, kMaxScenarioBytes));
    return std::nullopt;
  }
  // What only the file loader reports (too deep: converting the document would recurse per level).
  const bool strict = JsonNestingTooDeep(text) != std::string::npos || text.find('\0') != std::string::npos ||
                      !FindDuplicateKeys(text).empty();
  nlohmann::json doc;  // key-sorted, as the sweep has always read it (problems in key order)
  if (!strict) doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  LoadResult base;
  if (strict || doc.is_discarded()) {
    base = LoadScenarioFile(spec.scenario_path, spec.overrides);  // for its message
    if (base.errors.empty()) base.errors.push_back({spec.scenario_path, "", "cannot be read as a scenario"});
  } else {
    p.base = ReadScenarioBase(Json(doc), spec.scenario_path, spec.overrides.files.get());
    p.overrides = ReadOverrides(spec.overrides);
    base = BuildScenario(*p.base, p.overrides);
  }
  if (!base.errors.empty()) {
    for (const Diagnostic& d : base.errors) errors->push_back(d.ToString());
    return std::nullopt;
  }
  p.scenario_name = base.scenario->name;
  p.base_warnings = base.scenario->warnings;
  p.input_files = base.scenario->input_files;

  if (spec.axes.empty()) errors->push_back("expected at least one --grid KEY=V1,V2,...");
  std::set<std::string> seen;
  for (const GridAxis& axis : spec.axes) {
    if (const std::string why = GridAxisProblem(axis); !why.empty()) {
      errors->push_back("--grid " + axis.key + ": " + why);
      continue;
    }
    if (!seen.insert(axis.key).second) {
      errors->push_back("--grid " + axis.key + ": the key is swept twice; give all its values in one --grid");
      continue;
    }
    if (axis.key == "spark.sql.adaptive.enabled") {
      errors->push_back(
          "--grid spark.sql.adaptive.enabled: every point is simulated with AQE off and on "
          "(makespanSecondsAqeOff / makespanSecondsAqeOn); sweep the other keys");
      continue;
    }
    if (const std::string why = GridKeyProblem(axis.key); !why.empty()) {
      errors->push_back("--grid " + axis.key + ": " + why);
      continue;
    }
    for (const std::string& value : axis.values)
      for (const std::string& why : GridValueProblems(axis.key, value, *p.base, p.overrides))
        errors->push_back("--grid " + axis.key + "=" + value + ": " + why);
  }
  p.num_points = GridPointCount(spec.axes);
  if (p.num_points > kMaxPoints) {
    errors->push_back("the grid has more than " + std::to_string(kMaxPoints) +
                      " points; split it into several sweeps");
  }
  if (!errors->empty()) return std::nullopt;

  std::string fp = "aqesim-sweep v1\nscenario:" + text + "\nproperties:";
  if (!spec.overrides.properties_file.empty()) {
    std::string props;
    ReadInputFileOnce(spec.overrides.files.get(), spec.overrides.properties_file, &props,
                      kMaxPropertiesFileBytes);
    fp += props;
  }
  for (const auto& [k, v] : spec.overrides.conf) fp += "\nconf:" + k + "=" + v;
  if (!spec.overrides.cost_file.empty()) {  // a journal made with other cost parameters is not resumed
    std::string cost;
    ReadInputFileOnce(spec.overrides.files.get(), spec.overrides.cost_file, &cost, kMaxCostFileBytes);
    fp += "\ncost:" + cost;
  }
  for (const GridAxis& a : spec.axes) {
    fp += "\ngrid:" + a.key;
    for (const std::string& v : a.values) fp += "\x1f" + v;
  }
  fp += "\nshard:" + spec.shard.ToString();
  p.fingerprint = Fingerprint(fp);

  const Scenario& s = *base.scenario;
  SweepInfo& info = p.info;
  info.scenario = s.name;
  info.scenario_file = spec.scenario_path;
  info.properties_file = spec.overrides.properties_file;
  info.cost_file = spec.overrides.cost_file;
  for (const auto& [k, v] : spec.overrides.conf) info.conf.push_back(k + "=" + v);
  info.grid = spec.axes;
  info.points = p.num_points;
  if (!spec.shard.IsWhole()) info.shard = spec.shard.ToString();
  for (const GridAxis& a : spec.axes)
    if (std::optional<std::string> v = BaselineValue(a.key, p.base->doc, s)) info.baseline[a.key] = *v;
  info.scenario_conf = s.raw_conf;
  info.cluster = SweepCluster{s.cluster.executors, s.cluster.executor_cores, s.cluster.executor_memory_bytes};
  info.time_source = TimeSourceOf(s);
  return p;
}

SweepRow ComputePoint(const SweepSpec& spec, const PreparedSweep& prepared, uint64_t index,
                      std::vector<std::string>* warnings) {
  SweepRow row;
  row.point = index;
  row.values = GridPointValues(spec.axes, index);
  ScenarioOverrides ov = prepared.overrides;
  for (size_t i = 0; i < spec.axes.size(); ++i)
    ApplyGridValue(spec.axes[i].key, row.values[i], *prepared.base, &ov);
  LoadResult loaded = BuildScenario(*prepared.base, ov);
  if (!loaded.errors.empty()) {
    row.error = JoinDiagnostics(loaded.errors);
    return row;
  }
  const Scenario& s = *loaded.scenario;
  for (const std::string& w : s.warnings) {
    if (std::find(prepared.base_warnings.begin(), prepared.base_warnings.end(), w) ==
        prepared.base_warnings.end())
      warnings->push_back(w);
  }
  try {
    RunResult off = SimulateQuery(s, false);
    DropTaskRecords(&off);  // its summaries are all the row needs
    RunResult on = SimulateQuery(s, true);
    for (const std::string& w : on.warnings) warnings->push_back(s.path + ": " + w);
    row.metrics = MetricsFromRuns(off, on);
  } catch (const PlanError& e) {
    row.error = s.path + ": " + ShownPointer(e.pointer) + ": " + e.message;
  } catch (const std::exception& e) {
    row.error = std::string("internal error: ") + e.what();
  }
  return row;
}

std::optional<SweepOutcome> RunSweep(const SweepSpec& spec, const PreparedSweep& prepared,
                                     std::string* error) {
  JournalContents contents;
  std::unique_ptr<Journal> journal =
      Journal::Open(spec.journal_path, prepared.fingerprint, spec.axes, &contents, error);
  if (!journal) return std::nullopt;

  SweepOutcome out;
  out.dropped_journal_lines = contents.dropped_lines;
  out.journal_started_over = contents.started_over;
  std::vector<uint64_t> todo;
  uint64_t in_shard = 0;
  for (uint64_t i = 0; i < prepared.num_points; ++i) {
    if (!spec.shard.Contains(i)) continue;
    ++in_shard;
    if (contents.rows.count(i))
      ++out.resumed;
    else
      todo.push_back(i);
  }
  std::map<uint64_t, SweepRow> rows;
  for (auto& [i, r] : contents.rows) {
    if (spec.shard.Contains(i)) rows.emplace(i, std::move(r));
  }

  int threads = spec.threads > 0 ? spec.threads : static_cast<int>(std::thread::hardware_concurrency());
  // Simulations are CPU-bound and each holds a copy of the scenario: more threads than cores
  // only multiply the memory (--threads 65536 held 1024 scenarios at once).
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  threads =
      std::max(1, std::min<int>({threads, cores, static_cast<int>(std::min<uint64_t>(todo.size(), 1024))}));
  std::mutex mu;
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::set<std::string> warnings;
  ProgressBar bar(spec.progress, in_shard, out.resumed);
  auto worker = [&] {
    std::vector<std::string> local_warnings;
    while (!failed.load()) {
      const size_t k = next.fetch_add(1);
      if (k >= todo.size()) break;
      SweepRow row = ComputePoint(spec, prepared, todo[k], &local_warnings);
      std::lock_guard<std::mutex> lock(mu);
      std::string why;
      if (!journal->Append(row, &why)) {
        if (!failed.exchange(true)) *error = why;
        break;
      }
      ++out.computed;
      rows.emplace(row.point, std::move(row));
      for (std::string& w : local_warnings) warnings.insert(std::move(w));
      local_warnings.clear();
      bar.Tick();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  bar.Finish();
  if (failed) return std::nullopt;
  for (auto& [i, r] : rows) out.rows.push_back(std::move(r));
  out.warnings.assign(warnings.begin(), warnings.end());
  return out;
}

}  // namespace aqesim::sweep
