#include "tools/report/report_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "models/aqe/decision.h"
#include "tools/report/analysis.h"
#include "tools/report/html_page.h"
#include "tools/report/recommend.h"
#include "tools/report/recommender.h"
#include "tools/report/report_assets.h"
#include "tools/report/scale_report.h"
#include "tools/report/tune_report.h"
#include "tools/report/variant_section.h"
#include "tools/text/table_text.h"
#include "tools/text/time_source_text.h"

namespace aqesim::report {

namespace {

using ojson = nlohmann::ordered_json;

/// The recommendation's last note: how far its seconds can be trusted (the project's rule: every
/// second printed says so). A run's: the AQE-on makespan with its band; a sweep's rows carry no
/// band.
std::string SecondsNote(const ReportInput& in) {
  const std::string how_far = "README \"How far to trust the seconds\"";
  if (in.kind == InputKind::kSweep && in.sweep.info.time_source == "profiled")
    return "Seconds: profiled from the log (every stage timed by its recorded task times, resized where a "
           "point changes a stage's tasks; no band, but a stage resized 2× or more carries the cost model's: "
           "every modelled task × " +
           TwoDigits(kDefaultsBand.low) + " and × " + TwoDigits(kDefaultsBand.high) + ", " + how_far + ").";
  if (in.kind == InputKind::kSweep)
    return std::string(in.sweep.info.time_source == "mixed"
                           ? "Seconds: partly profiled from the log, partly the cost model's."
                           : "Seconds: the cost model's.") +
           " A swept point's makespan is printed without its band (a sweep does "
           "not simulate it; aqesim run on the point prints it: every modelled task × " +
           TwoDigits(kDefaultsBand.low) + " and × " + TwoDigits(kDefaultsBand.high) + ", " + how_far +
           "); the points share one model, so its error moves them together.";
  if (!in.bands_known || !in.run_on) return "";
  if (!in.band_on)
    return "Seconds: the AQE-on run's makespan, " + Fixed(in.run_on->makespan_seconds, 2) +
           " s, is profiled from the log (every stage timed by its recorded task times: no band); a makespan "
           "printed with a band is the cost model's (every modelled task × " +
           TwoDigits(kDefaultsBand.low) + " and × " + TwoDigits(kDefaultsBand.high) + ", " + how_far + ").";
  return "Seconds: the cost model's; the AQE-on run's makespan is " +
         TrustedSeconds(in.run_on->makespan_seconds, in.band_on, true) + ": every modelled task × " +
         TwoDigits(kDefaultsBand.low) + " and × " + TwoDigits(kDefaultsBand.high) + " (" + how_far +
         "). Seconds shown here without a band (a swept point's, a stage's) are the same model's and as "
         "uncertain; the configurations compared share that model, so its error moves them together.";
}

/// The line above a stage table: how far its seconds can be trusted. A stage's seconds are as
/// uncertain as its run's makespan: modelled ones move with the band (every modelled task × the
/// band's factors), profiled ones are the log's recorded task times re-scheduled.
std::string StageSecondsLine(const RunResult& run, const std::optional<MakespanBand>& band, bool known) {
  const StageTimeCounts counts = CountStageTimes(run);
  if (counts.profiled == counts.stages())
    return "Seconds: profiled from the log: every stage is timed by its recorded task times.";
  const std::string which = StageTimesText(counts);
  const std::string factors = BandFactorsText();
  if (!known) return "Seconds: " + which + "; their band, not in the input, is " + factors + ".";
  return "Seconds: " + which + "; as uncertain as the makespan, " +
         TrustedSeconds(run.makespan_seconds, band, true) + ": its band is " + factors + ".";
}

/// `rec` with SecondsNote last.
Recommendation WithSecondsNote(Recommendation rec, const ReportInput& in) {
  if (std::string note = SecondsNote(in); !note.empty()) rec.notes.push_back(std::move(note));
  return rec;
}
constexpr double kMiB = 1024.0 * 1024.0;
// Charts of partition sizes are drawn for at most this many exchanges / reads.
constexpr size_t kMaxSizeCharts = 8;
constexpr const char* kExecutorsTitle = "How many executors?";
// Heatmaps are drawn for at most this many pairs of swept keys (5 keys have 10 pairs).
constexpr size_t kMaxPairCharts = 10;

// `n` colours for stages, neighbours far apart: hues a golden angle (137.5°) apart, lightness
// alternating (Vega's schemes repeat after 10 or 20 colours).
std::vector<std::string> StageColours(size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    const double h = std::fmod(static_cast<double>(i) * 137.508, 360.0) / 60.0;
    const double l = i % 2 == 0 ? 0.45 : 0.62, sat = 0.65;
    const double c = (1 - std::fabs(2 * l - 1)) * sat, x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)),
                 m = l - c / 2;
    double r = 0, g = 0, b = 0;
    switch (static_cast<int>(h)) {
      case 0:
        r = c, g = x;
        break;
      case 1:
        r = x, g = c;
        break;
      case 2:
        g = c, b = x;
        break;
      case 3:
        g = x, b = c;
        break;
      case 4:
        r = x, b = c;
        break;
      default:
        r = c, b = x;
        break;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "#%02x%02x%02x", static_cast<int>(std::lround((r + m) * 255)),
                  static_cast<int>(std::lround((g + m) * 255)), static_cast<int>(std::lround((b + m) * 255)));
    out.push_back(hex);
  }
  return out;
}

ojson TimelineSpec(const RunResult& run, const std::string& title) {
  ojson values = ojson::array();
  std::set<std::pair<int, int>> lanes;
  std::vector<std::string> stages;  // legend order: by stage id, not by text ("10 ..." after "9 ...")
  for (const StageResult& st : run.stages) {
    const std::string stage = std::to_string(st.id) + " " + st.name;
    stages.push_back(stage);
    for (const TaskResult& t : st.task_results) {
      lanes.insert({t.executor, t.slot});
      char lane[32];
      std::snprintf(lane, sizeof lane, "E%03d·S%02d", t.executor, t.slot);
      values.push_back({{"lane", lane},
                        {"stage", stage},
                        {"start", t.start_seconds},
                        {"end", t.end_seconds},
                        {"task", t.index}});
    }
  }
  const int height = std::clamp(static_cast<int>(lanes.size()) * 7, 120, 900);
  ojson spec = BaseSpec(title, height);
  spec["data"] = {{"values", values}};
  spec["mark"] = {{"type", "bar"}, {"tooltip", true}};
  spec["encoding"] = {
      {"x", {{"field", "start"}, {"type", "quantitative"}, {"title", "seconds"}}},
      {"x2", {{"field", "end"}}},
      {"y",
       {{"field", "lane"},
        {"type", "ordinal"},
        {"title", "executor · slot"},
        {"axis", lanes.size() > 48 ? ojson{{"labels", false}, {"ticks", false}} : ojson::object()}}},
      {"color", {{"field", "stage"}, {"type", "nominal"}, {"title", "stage"}, {"sort", stages}}},
      {"tooltip", ojson::array({{{"field", "stage"}},
                                {{"field", "task"}},
                                {{"field", "lane"}},
                                {{"field", "start"}, {"format", ".3f"}},
                                {{"field", "end"}, {"format", ".3f"}}})}};
  if (stages.size() > 10) spec["encoding"]["color"]["scale"] = {{"range", StageColours(stages.size())}};
  return spec;
}

// Bytes per index as step lines, one per view ("true", "driver-seen").
ojson SizesSpec(const std::string& title, const std::string& x_title,
                const std::vector<std::pair<std::string, std::vector<int64_t>>>& series) {
  ojson values = ojson::array();
  size_t n = 0;
  for (const auto& [view, sizes] : series) {
    n = std::max(n, sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i)
      values.push_back({{"index", i}, {"MiB", static_cast<double>(sizes[i]) / kMiB}, {"view", view}});
  }
  ojson spec = BaseSpec(title, 180);
  spec["data"] = {{"values", values}};
  spec["mark"] = {{"type", "line"}, {"interpolate", "step-after"}, {"point", n <= 60}, {"tooltip", true}};
  spec["encoding"] = {{"x", {{"field", "index"}, {"type", "quantitative"}, {"title", x_title}}},
                      {"y", {{"field", "MiB"}, {"type", "quantitative"}, {"title", "MiB"}}},
                      {"color",
                       {{"field", "view"},
                        {"type", "nominal"},
                        {"title", "sizes"},
                        {"scale", {{"domain", {"true", "driver-seen"}}}}}},
                      {"strokeDash", {{"field", "view"}, {"type", "nominal"}, {"legend", nullptr}}}};
  return spec;
}

std::string SeverityBadge(double ratio) {
  const Severity s = SeverityOf(ratio);
  return "<span class=\"sev sev-" + std::string(SeverityName(s)) + "\">" + Fixed(ratio, 2) + " " +
         std::string(SeverityName(s)) + "</span>";
}

/// A stage's skew cell: its max ÷ median and the severity of the spread its data explains; a
/// spread that is its executors' start-up says so instead of a data severity.
std::string StageSkewHtml(const StageRow& s) {
  if (!s.startup_spread) return SeverityBadge(s.skew_ratio);
  return "<span class=\"sev sev-none\" title=\"the slowest tasks are the first tasks on their executors "
         "(fresh JVM, code not yet compiled); among tasks of the same warmth " +
         Fixed(s.data_skew_ratio, 2) + "\">" + Fixed(s.skew_ratio, 2) + " start-up</span>";
}

std::string StageTableHtml(const RunResult& run) {
  std::string h =
      "<table><thead><tr><th>stage</th><th>name</th><th>tasks</th><th>duration s</th><th>median task s</th>"
      "<th>max task s</th><th>skew (max÷median)</th><th>shuffle "
      "read</th><th>spill</th></tr></thead><tbody>\n";
  for (const StageRow& s : StageRows(run)) {
    h += "<tr><td>" + std::to_string(s.id) + "</td><td>" + Esc(s.name) + "</td><td>" +
         std::to_string(s.tasks) + "</td><td>" + Fixed(s.duration_seconds, 2) + "</td><td>" +
         Fixed(s.task_median_seconds, 2) + "</td><td>" + Fixed(s.task_max_seconds, 2) + "</td><td>" +
         StageSkewHtml(s) + "</td><td>" + Esc(FormatBytes(s.shuffle_read_bytes)) + "</td><td" +
         (s.spill_bytes > 0 ? " class=\"warn\"" : "") + ">" + Esc(FormatBytes(s.spill_bytes)) +
         "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

std::string RecommendationHtml(const Recommendation& r) {
  std::string h = "<section><h2>Recommendation</h2><p class=\"diagnosis\">" + Esc(r.diagnosis) + "</p>\n";
  if (!r.lines.empty()) {
    h += "<p>spark-defaults.conf:</p><pre class=\"conf\">" + Esc(r.SparkDefaults()) + "</pre>\n";
  } else {
    h += "<p>No configuration change.</p>\n";
  }
  if (!r.warnings.empty()) {
    h += "<ul class=\"warnings\">";
    for (const std::string& w : r.warnings) h += "<li>⚠ " + Esc(w) + "</li>";
    h += "</ul>\n";
  }
  if (!r.notes.empty()) {
    h += "<ul class=\"notes\">";
    for (const std::string& n : r.notes) h += "<li>" + Esc(n) + "</li>";
    h += "</ul>\n";
  }
  return h + "</section>\n";
}

std::string RunBody(const ReportInput& in, Charts* charts) {
  const TuningFacts facts = FactsFromInput(in);
  const Recommendation rec = WithSecondsNote(RecommendForRun(in, facts), in);
  std::string h = "<h1>aqesim tuning report — " + Esc(in.scenario_name) + "</h1>\n";
  if (!in.description.empty()) h += "<p class=\"sub\">" + Esc(in.description) + "</p>\n";
  h += "<p class=\"sub\">Input: " + Esc(in.source) +
       (in.cluster_known ? " · cluster " + Counted(in.cluster.executors, "executor") + " × " +
                               Counted(in.cluster.executor_cores, "core") + ", " +
                               FormatBytes(in.cluster.executor_memory_bytes) + " each"
                         : std::string()) +
       "</p>\n";
  // Summary.
  h += "<section><h2>Summary</h2><div class=\"cards\">";
  if (facts.has_aqe_off)
    h += Card(TrustedSeconds(facts.makespan_seconds_aqe_off, in.band_off, in.bands_known),
              "makespan, AQE off");
  if (facts.has_aqe_on)
    h += Card(TrustedSeconds(facts.makespan_seconds_aqe_on, in.band_on, in.bands_known), "makespan, AQE on");
  if (facts.has_aqe_off && facts.has_aqe_on && facts.makespan_seconds_aqe_on > 0)
    h += Card(Fixed(facts.makespan_seconds_aqe_off / facts.makespan_seconds_aqe_on, 2) + "×",
              "speed-up with AQE");
  if (facts.has_aqe_on) {
    const DecisionCounts c = CountDecisions(*in.run_on);
    const auto card = [](int n, const char* one, const char* many) {
      return Card(std::to_string(n), n == 1 ? one : many);
    };
    h += card(c.coalescings, "coalescing", "coalescings") + card(c.skew_splits, "skew split", "skew splits") +
         card(c.broadcast_conversions, "runtime broadcast conversion", "runtime broadcast conversions") +
         card(c.local_reads, "local shuffle read", "local shuffle reads");
  }
  h += "</div>\n";
  if (facts.has_aqe_off && facts.has_aqe_on) {
    ojson spec = BaseSpec("Makespan", 60);
    spec["data"] = {
        {"values", ojson::array({{{"run", "AQE off"}, {"seconds", facts.makespan_seconds_aqe_off}},
                                 {{"run", "AQE on"}, {"seconds", facts.makespan_seconds_aqe_on}}})}};
    spec["mark"] = {{"type", "bar"}, {"tooltip", true}};
    spec["encoding"] = {{"y", {{"field", "run"}, {"type", "nominal"}, {"title", nullptr}}},
                        {"x", {{"field", "seconds"}, {"type", "quantitative"}}},
                        {"color", {{"field", "run"}, {"type", "nominal"}, {"legend", nullptr}}}};
    h += charts->Add(spec);
  }
  h += "</section>\n";
  h += RecommendationHtml(rec);
  h += VariantSectionHtml(in.variant_rows, charts);
  // Stages.
  h += "<section><h2>Stages</h2><p>Skew severity is the slowest task over the median task, in Dr. Elephant's "
       "bands: low ≥ 1.33, moderate ≥ 1.78, severe ≥ 3.16, critical ≥ 10. \"start-up\": the slowest tasks "
       "are the first tasks on their executors (a fresh JVM, the stage's code not yet compiled), and tasks "
       "of the "
       "same warmth are more even, so the data is not to blame.</p>\n";
  if (facts.has_aqe_on)
    h += "<h3>AQE on</h3>\n<p>" + Esc(StageSecondsLine(*in.run_on, in.band_on, in.bands_known)) + "</p>\n" +
         StageTableHtml(*in.run_on);
  if (facts.has_aqe_off)
    h += "<h3>AQE off</h3>\n<p>" + Esc(StageSecondsLine(*in.run_off, in.band_off, in.bands_known)) +
         "</p>\n" + StageTableHtml(*in.run_off);
  h += "</section>\n";
  // Timelines.
  h += "<section><h2>Timeline over executor slots</h2>\n";
  bool any_tasks = false;
  for (const auto& [run, label] :
       {std::pair{in.run_on.get(), "AQE on"}, std::pair{in.run_off.get(), "AQE off"}}) {
    if (run == nullptr) continue;
    bool has = false;
    for (const StageResult& st : run->stages) has = has || !st.task_results.empty();
    if (!has) continue;
    any_tasks = true;
    h += charts->Add(TimelineSpec(*run, std::string("Tasks, ") + label),
                     "One bar per task, one row per executor slot.");
  }
  if (!any_tasks)
    h += "<p>The input has no task list (use <code>aqesim run --format json --tasks</code>).</p>\n";
  h += "</section>\n";
  if (in.scale)
    h += ScaleSectionHtml(*in.scale, kExecutorsTitle, charts);
  else if (!in.scale_error.empty())
    h += "<section><h2>" + std::string(kExecutorsTitle) + "</h2><p>" +
         Esc("The executor counts could not be simulated: " + in.scale_error) + "</p></section>\n";
  // Partition sizes.
  h += "<section><h2>Partition sizes before and after AQE</h2>\n";
  if (!in.explain_on) {
    h += "<p>The input has no explain data (give the scenario itself to <code>aqesim report</code>).</p>\n";
  } else {
    h += "<p>True sizes are what the map tasks wrote; driver-seen sizes are what MapStatus reported, on "
         "which AQE "
         "decides.</p>\n";
    size_t n = 0;
    for (const ExchangeExplain& e : in.explain_on->exchanges) {
      if (n++ >= kMaxSizeCharts) break;
      h += charts->Add(
          SizesSpec("Before AQE: " + e.id + " (" + std::to_string(e.num_partitions) + " partitions, " +
                        e.map_status + ")",
                    "reduce partition",
                    {{"true", e.true_bytes_by_partition_id}, {"driver-seen", e.bytes_by_partition_id}}));
    }
    n = 0;
    for (const ReadExplain& r : in.explain_on->reads) {
      if (n++ >= kMaxSizeCharts) break;
      std::vector<int64_t> seen;
      bool all_seen = true;
      for (const ShufflePartitionSpec& spec : r.specs) {
        if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec); c && c->data_size_bytes)
          seen.push_back(*c->data_size_bytes);
        else if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec))
          seen.push_back(p->data_size_bytes);
        else
          all_seen = false;
      }
      std::vector<std::pair<std::string, std::vector<int64_t>>> series = {{"true", r.true_bytes}};
      if (all_seen && !seen.empty()) series.push_back({"driver-seen", seen});
      h += charts->Add(SizesSpec("After AQE: read of " + r.exchange + " by stage " + std::to_string(r.stage) +
                                     " (" + Counted(static_cast<int64_t>(r.specs.size()), "task") + ")",
                                 "task", series));
    }
  }
  h += "</section>\n";
  // Decisions.
  if (facts.has_aqe_on && !in.run_on->decisions.empty()) {
    h += "<section><h2>AQE decisions</h2><ul>";
    for (const Decision& d : in.run_on->decisions)
      h += "<li><b>" + Esc(d.rule) + "</b> " + Esc(d.message) + "</li>";
    h += "</ul></section>\n";
  }
  if (facts.has_aqe_on && !facts.not_applied.empty()) {
    h += "<section><h2>Why AQE did not act</h2><ul>";
    for (const NotApplied& n : facts.not_applied)
      h += "<li><b>" + Esc(n.rule) + "</b> " + Esc(n.message) + "</li>";
    h += "</ul></section>\n";
  }
  return h;
}

std::vector<std::string> SweepKeys(const sweep::SweepInfo& info) {
  std::vector<std::string> keys;
  for (const sweep::GridAxis& a : info.grid) keys.push_back(a.key);
  return keys;
}

/// The sweep's points that ran (they have metrics), fastest first (AQE on; file order on ties).
std::vector<const sweep::SweepRow*> RankedRows(const std::vector<sweep::SweepRow>& rows) {
  std::vector<const sweep::SweepRow*> ranked;
  for (const sweep::SweepRow& r : rows)
    if (r.metrics) ranked.push_back(&r);
  std::stable_sort(ranked.begin(), ranked.end(), [](const sweep::SweepRow* a, const sweep::SweepRow* b) {
    return a->metrics->makespan_seconds_aqe_on < b->metrics->makespan_seconds_aqe_on;
  });
  return ranked;
}

std::string SweepBody(const ReportInput& in, Charts* charts) {
  const sweep::SweepInfo& info = in.sweep.info;
  const std::vector<sweep::SweepRow>& rows = in.sweep.rows;
  const std::vector<std::string> keys = SweepKeys(info);
  SweepBest best;
  const Recommendation rec = WithSecondsNote(RecommendForSweep(in, &best), in);
  std::string h = "<h1>aqesim sweep report — " + Esc(in.scenario_name) + "</h1>\n";
  h += "<p class=\"sub\">Input: " + Esc(in.source) + " · scenario file " + Esc(info.scenario_file) + " · " +
       std::to_string(rows.size()) + " points over ";
  for (size_t i = 0; i < keys.size(); ++i)
    h += (i ? ", " : "") + std::string("<code>") + Esc(keys[i]) + "</code>";
  h += "</p>\n<section><h2>Summary</h2><div class=\"cards\">";
  if (best.point) {
    h += Card(Fixed(best.makespan_seconds, 2) + " s",
              "best makespan (AQE on), point " + std::to_string(*best.point));
    if (best.baseline_makespan_seconds)
      h += Card(Fixed(*best.baseline_makespan_seconds, 2) + " s", "at the scenario's own values");
  }
  int failed = 0;
  for (const sweep::SweepRow& r : rows) failed += !r.metrics;
  h += Card(std::to_string(rows.size()), "points") + Card(std::to_string(failed), "points that failed") +
       "</div>\n";
  if (best.point) {
    h += "<p>Best point: ";
    for (size_t i = 0; i < keys.size() && i < best.values.size(); ++i)
      h += (i ? ", " : "") + std::string("<code>") + Esc(keys[i]) + " = " + Esc(best.values[i]) + "</code>";
    h += "</p>\n";
  }
  h += "</section>\n" + RecommendationHtml(rec);
  // Makespan against each key: the best over the other keys, AQE on and off.
  h += "<section><h2>Makespan against each swept key</h2>\n";
  for (size_t k = 0; k < keys.size(); ++k) {
    const std::vector<std::string>& order = info.grid[k].values;
    std::map<std::string, std::pair<double, double>> best_by_value;
    for (const sweep::SweepRow& r : rows) {
      if (!r.metrics) continue;
      const std::string& v = r.values[k];
      const double on = r.metrics->makespan_seconds_aqe_on, off = r.metrics->makespan_seconds_aqe_off;
      auto it = best_by_value.find(v);
      if (it == best_by_value.end())
        best_by_value[v] = {on, off};
      else
        it->second = {std::min(it->second.first, on), std::min(it->second.second, off)};
    }
    ojson values = ojson::array();
    for (const std::string& v : order) {
      auto it = best_by_value.find(v);
      if (it == best_by_value.end()) continue;
      values.push_back({{"value", v}, {"run", "AQE on"}, {"seconds", it->second.first}});
      values.push_back({{"value", v}, {"run", "AQE off"}, {"seconds", it->second.second}});
    }
    ojson spec =
        BaseSpec("Makespan vs " + keys[k] + (keys.size() > 1 ? " (best over the other keys)" : ""), 220);
    spec["data"] = {{"values", values}};
    spec["mark"] = {{"type", "line"}, {"point", true}, {"tooltip", true}};
    spec["encoding"] = {{"x", {{"field", "value"}, {"type", "ordinal"}, {"sort", order}, {"title", keys[k]}}},
                        {"y", {{"field", "seconds"}, {"type", "quantitative"}, {"title", "makespan, s"}}},
                        {"color", {{"field", "run"}, {"type", "nominal"}, {"title", nullptr}}}};
    h += charts->Add(spec);
  }
  // A heatmap per pair of swept keys (the first kMaxPairCharts pairs): AQE-on makespan, the best
  // over the other keys, so that two keys' interaction shows whatever the rest are.
  size_t pair_charts = 0;
  for (size_t a = 0; a < keys.size(); ++a) {
    for (size_t b = a + 1; b < keys.size() && pair_charts < kMaxPairCharts; ++b, ++pair_charts) {
      std::map<std::pair<std::string, std::string>, double> best_by_pair;
      for (const sweep::SweepRow& r : rows) {
        if (!r.metrics) continue;
        const double on = r.metrics->makespan_seconds_aqe_on;
        auto [it, fresh] = best_by_pair.emplace(std::make_pair(r.values[a], r.values[b]), on);
        if (!fresh) it->second = std::min(it->second, on);
      }
      ojson values = ojson::array();
      for (const auto& [ab, seconds] : best_by_pair)
        values.push_back({{"a", ab.first}, {"b", ab.second}, {"seconds", seconds}});
      ojson spec = BaseSpec("", 260);
      // One line per key: on one line two long keys made the title wider than the chart, and the
      // page scrolled sideways (3 swept keys of skew-join.json: 148 characters).
      spec["title"] = {
          {"text", ojson::array({"Makespan with AQE on" +
                                     std::string(keys.size() > 2 ? " (best over the other keys)" : ""),
                                 keys[a] + " ×", keys[b]})}};
      spec["data"] = {{"values", values}};
      spec["mark"] = {{"type", "rect"}, {"tooltip", true}};
      // Axis titles: the key's last part (the full keys are in the title; a 51-character key ran
      // past the 260-pixel height and was cut). Colours span at least 2 % of the fastest (the
      // recommender's "same" band): cells 3 ms apart were drawn purple against yellow.
      auto short_name = [](const std::string& k) { return k.substr(k.rfind('.') + 1); };
      double lo = 0, hi = 0;
      for (const auto& [ab, seconds] : best_by_pair) {
        lo = lo == 0 && hi == 0 ? seconds : std::min(lo, seconds);
        hi = std::max(hi, seconds);
      }
      spec["encoding"] = {
          {"x",
           {{"field", "a"},
            {"type", "ordinal"},
            {"sort", info.grid[a].values},
            {"title", short_name(keys[a])}}},
          {"y",
           {{"field", "b"},
            {"type", "ordinal"},
            {"sort", info.grid[b].values},
            {"title", short_name(keys[b])}}},
          {"color",
           {{"field", "seconds"},
            {"type", "quantitative"},
            {"title", "makespan, s"},
            {"scale",
             {{"scheme", "viridis"}, {"reverse", true}, {"domain", {lo, std::max(hi, lo * 1.02)}}}}}}};
      h += charts->Add(spec);
    }
  }
  h += "</section>\n";
  // Fastest points.
  const std::vector<const sweep::SweepRow*> ranked = RankedRows(rows);
  h += "<section><h2>Fastest points</h2><table><thead><tr><th>point</th>";
  for (const std::string& k : keys) h += "<th>" + Esc(k) + "</th>";
  h += "<th>makespan AQE on s</th><th>AQE off s</th><th>tasks</th><th>spill</th><th>longest task s</th>"
       "<th>coalescings</th><th>skew splits</th><th>broadcast "
       "conversions</th><th>max÷median</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < ranked.size() && i < 20; ++i) {
    const sweep::SweepRow& r = *ranked[i];
    const sweep::PointMetrics& m = *r.metrics;
    h += "<tr><td>" + std::to_string(r.point) + "</td>";
    for (const std::string& v : r.values) h += "<td>" + Esc(v) + "</td>";
    h += "<td>" + Fixed(m.makespan_seconds_aqe_on, 3) + "</td><td>" + Fixed(m.makespan_seconds_aqe_off, 3) +
         "</td><td>" + std::to_string(m.tasks) + "</td><td>" + Esc(FormatBytes(m.spill_bytes)) + "</td><td>" +
         Fixed(m.longest_task_seconds, 2) + "</td><td>" + std::to_string(m.coalescings) + "</td><td>" +
         std::to_string(m.skew_splits) + "</td><td>" + std::to_string(m.broadcast_conversions) + "</td><td>" +
         SeverityBadge(m.max_task_skew_ratio) + "</td></tr>\n";
  }
  return h + "</tbody></table></section>\n";
}

// ---------------------------------------------------------------- Markdown

std::string RecommendationMd(const Recommendation& r) {
  std::string m = "## Recommendation\n\n**" + MdEsc(r.diagnosis) + "**\n\n";
  if (!r.lines.empty()) {
    // A fence longer than any backtick run inside, so no value closes it.
    const std::string body = r.SparkDefaults();
    size_t longest = 0, run = 0;
    for (char c : body) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
    const std::string fence(std::max<size_t>(3, longest + 1), '`');
    m += fence + "properties\n" + body + fence + "\n\n";
  } else
    m += "No configuration change.\n\n";
  for (const std::string& w : r.warnings) m += "- ⚠ " + MdEsc(w) + "\n";
  for (const std::string& n : r.notes) m += "- " + MdEsc(n) + "\n";
  if (!r.warnings.empty() || !r.notes.empty()) m += "\n";
  return m;
}

std::string StageTableMd(const RunResult& run) {
  std::string m =
      "| stage | name | tasks | duration s | median task s | max task s | max÷median | severity | spill |\n"
      "|---:|---|---:|---:|---:|---:|---:|---|---:|\n";
  for (const StageRow& s : StageRows(run)) {
    m += "| " + std::to_string(s.id) + " | " + MdEsc(s.name) + " | " + std::to_string(s.tasks) + " | " +
         Fixed(s.duration_seconds, 2) + " | " + Fixed(s.task_median_seconds, 2) + " | " +
         Fixed(s.task_max_seconds, 2) + " | " + Fixed(s.skew_ratio, 2) + " | " +
         (s.startup_spread ? "start-up, not skew (data skew: " + std::string(SeverityName(s.severity)) + ")"
                           : std::string(SeverityName(s.severity))) +
         " | " + FormatBytes(s.spill_bytes) + " |\n";
  }
  return m + "\n";
}

}  // namespace

std::string RenderHtmlReport(const ReportInput& input) {
  Charts charts;
  const std::string body = input.kind == InputKind::kSweep   ? SweepBody(input, &charts)
                           : input.kind == InputKind::kTune  ? TuneBody(input.tune, input.source, &charts)
                           : input.kind == InputKind::kScale ? ScaleBody(*input.scale, input.source, &charts)
                                                             : RunBody(input, &charts);
  return Page("aqesim report — " + input.scenario_name, body, charts);
}

std::string RenderMarkdownReport(const ReportInput& in) {
  if (in.kind == InputKind::kTune) return TuneMarkdown(in.tune, in.source);
  if (in.kind == InputKind::kScale) return ScaleMarkdown(*in.scale, in.source);
  std::string m;
  if (in.kind == InputKind::kSweep) {
    const sweep::SweepInfo& info = in.sweep.info;
    const std::vector<std::string> keys = SweepKeys(info);
    SweepBest best;
    const Recommendation rec = WithSecondsNote(RecommendForSweep(in, &best), in);
    m = "# aqesim sweep report — " + MdEsc(in.scenario_name) + "\n\n" + std::to_string(in.sweep.rows.size()) +
        " points over ";
    for (size_t i = 0; i < keys.size(); ++i) m += (i ? ", " : "") + MdEsc(keys[i]);
    m += " (" + MdEsc(info.scenario_file) + ").\n\n";
    if (best.point) {
      m += "Best point " + std::to_string(*best.point) + ": ";
      for (size_t i = 0; i < keys.size() && i < best.values.size(); ++i)
        m += (i ? ", " : "") + MdEsc(keys[i]) + " = " + MdEsc(best.values[i]);
      m += " — makespan " + Fixed(best.makespan_seconds, 2) + " s with AQE on";
      if (best.baseline_makespan_seconds)
        m += " (" + Fixed(*best.baseline_makespan_seconds, 2) + " s at the scenario's values)";
      m += ".\n\n";
    }
    m += RecommendationMd(rec);
    const std::vector<const sweep::SweepRow*> ranked = RankedRows(in.sweep.rows);
    m += "## Fastest points\n\n| point |";
    for (const std::string& k : keys) m += " " + MdEsc(k) + " |";
    m += " AQE on s | AQE off s | skew splits | max÷median |\n|---:|";
    for (size_t i = 0; i < keys.size(); ++i) m += "---|";
    m += "---:|---:|---:|---:|\n";
    for (size_t i = 0; i < ranked.size() && i < 10; ++i) {
      const sweep::SweepRow& r = *ranked[i];
      m += "| " + std::to_string(r.point) + " |";
      for (const std::string& v : r.values) m += " " + MdEsc(v) + " |";
      m += " " + Fixed(r.metrics->makespan_seconds_aqe_on, 3) + " | " +
           Fixed(r.metrics->makespan_seconds_aqe_off, 3) + " | " + std::to_string(r.metrics->skew_splits) +
           " | " + Fixed(r.metrics->max_task_skew_ratio, 2) + " |\n";
    }
    return m;
  }
  const TuningFacts facts = FactsFromInput(in);
  m = "# aqesim tuning report — " + MdEsc(in.scenario_name) + "\n\n";
  if (!in.description.empty()) m += MdEsc(in.description) + "\n\n";
  m += "## Summary\n\n";
  if (facts.has_aqe_off)
    m += "- makespan with AQE off: " +
         TrustedSeconds(facts.makespan_seconds_aqe_off, in.band_off, in.bands_known) + "\n";
  if (facts.has_aqe_on)
    m += "- makespan with AQE on: " +
         TrustedSeconds(facts.makespan_seconds_aqe_on, in.band_on, in.bands_known) + "\n";
  if (facts.has_aqe_on) {
    const DecisionCounts c = CountDecisions(*in.run_on);
    m += "- decisions: " + Counted(c.coalescings, "coalescing") + ", " +
         Counted(c.skew_splits, "skew split") + ", " +
         Counted(c.broadcast_conversions, "runtime broadcast conversion") + ", " +
         Counted(c.local_reads, "local shuffle read") + "\n";
  }
  m += "\n" + RecommendationMd(WithSecondsNote(RecommendForRun(in, facts), in));
  m += VariantSectionMd(in.variant_rows);
  m +=
      "## Stages\n\nSkew severity: slowest ÷ median task, Dr. Elephant's bands (low ≥ 1.33, moderate ≥ "
      "1.78, severe ≥ "
      "3.16, critical ≥ 10); \"start-up\": the slowest tasks are the first tasks on their executors (a fresh "
      "JVM, the stage's code not yet compiled), and tasks of the same warmth are more even, so the data is "
      "not to "
      "blame.\n\n";
  if (facts.has_aqe_on)
    m += "### AQE on\n\n" + MdEsc(StageSecondsLine(*in.run_on, in.band_on, in.bands_known)) + "\n\n" +
         StageTableMd(*in.run_on);
  if (facts.has_aqe_off)
    m += "### AQE off\n\n" + MdEsc(StageSecondsLine(*in.run_off, in.band_off, in.bands_known)) + "\n\n" +
         StageTableMd(*in.run_off);
  if (in.scale)
    m += ScaleSectionMd(*in.scale, kExecutorsTitle);
  else if (!in.scale_error.empty())
    m += "## " + std::string(kExecutorsTitle) + "\n\n" +
         MdEsc("The executor counts could not be simulated: " + in.scale_error) + "\n\n";
  if (facts.has_aqe_on && !in.run_on->decisions.empty()) {
    m += "## AQE decisions\n\n";
    for (const Decision& d : in.run_on->decisions)
      m += "- **" + MdEsc(d.rule) + "** " + MdEsc(d.message) + "\n";
  }
  if (facts.has_aqe_on && !facts.not_applied.empty()) {
    m += "\n## Why AQE did not act\n\n";
    for (const NotApplied& n : facts.not_applied)
      m += "- **" + MdEsc(n.rule) + "** " + MdEsc(n.message) + "\n";
  }
  return m;
}

}  // namespace aqesim::report
