// The report renderer's fuzz target (tests/fuzz/fuzz_report_renderer.cc; replayed by
// tests/e2e/bad_inputs_test.cc through fuzz_targets.h): the input, split at NUL bytes, gives
// the names a report shows — scenario name, description, input path, stage names, exchange
// ids, AQE rules and messages, map statuses; for a sweep its keys, values and scenario file; for a
// tune its keys, values, reason, decisions and time source —
// and both renderings must keep the structure the renderer gives them:
//  - HTML: outside the five <script> elements every '<' opens one of the renderer's own tags
//    and no "<!--" occurs; the chart data (<script type="application/json">) holds no '<' at
//    all (so no name ends it or opens a comment in it), parses as JSON and has one spec per
//    chart container;
//  - Markdown: outside fenced code, every heading is one of the renderer's, no unescaped '<'
//    before a letter, digit, '/', '!' or '?' (no raw
//    HTML or autolink) and no unescaped '[' or ']' (no link); every row of a table has as many
//    unescaped '|' as its header; a fence is closed by the renderer's closing line only.
#ifndef AQESIM_TESTS_FUZZ_FUZZ_REPORT_H_
#define AQESIM_TESTS_FUZZ_FUZZ_REPORT_H_

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "models/engine/run_result.h"
#include "tools/report/report_input.h"
#include "tools/report/report_render.h"

namespace aqesim::fuzz {

/// Aborts when the rendered document's structure depends on a name (libFuzzer saves the input).
inline void RequireReport(bool ok, const char* what, const std::string& doc) {
  if (!ok) {
    std::fprintf(stderr, "fuzz contract broken: report: %s\n%.4000s\n", what, doc.c_str());
    std::abort();
  }
}

/// The HTML contract (see the file comment).
inline void CheckHtmlStructure(const std::string& h) {
  static const std::set<std::string> kTags = {
      "!doctype", "html", "head",    "meta", "title", "style",  "body",       "div",    "h1",    "h2",
      "h3",       "p",    "section", "span", "b",     "code",   "table",      "thead",  "tbody", "tr",
      "th",       "td",   "ul",      "li",   "pre",   "figure", "figcaption", "footer", "script"};
  int scripts = 0;
  size_t charts = 0;
  std::string data;
  bool have_data = false;
  for (size_t i = h.find('<'); i != std::string::npos; i = h.find('<', i + 1)) {
    RequireReport(h.compare(i, 4, "<!--") != 0, "an HTML comment outside the scripts", h);
    size_t e = i + 1;
    const bool closing = e < h.size() && h[e] == '/';
    if (closing) ++e;
    size_t n = e;
    while (n < h.size() && (std::isalnum(static_cast<unsigned char>(h[n])) || h[n] == '!')) ++n;
    const std::string name = h.substr(e, n - e);
    RequireReport(kTags.count(name) == 1 && n < h.size() && (h[n] == '>' || h[n] == ' '),
                  "a '<' that opens no tag of the renderer", h);
    static constexpr std::string_view kChart = "<div class=\"chart\" id=\"chart-";
    if (name == "div" && h.compare(i, kChart.size(), kChart) == 0) ++charts;
    if (name != "script" || closing) continue;
    ++scripts;
    const size_t open_end = h.find('>', i);
    const size_t close = h.find("</script", open_end);
    RequireReport(open_end != std::string::npos && close != std::string::npos, "an unclosed script", h);
    static constexpr std::string_view kData = "<script type=\"application/json\" id=\"chart-specs\">";
    if (h.compare(i, kData.size(), kData) == 0) {
      data = h.substr(open_end + 1, close - open_end - 1);
      have_data = true;
    }
    i = close;  // the script's own end tag is checked as a tag
  }
  RequireReport(scripts == 5, "not the five scripts (three libraries, the chart data, the runner)", h);
  RequireReport(have_data, "no chart data", h);
  RequireReport(data.find('<') == std::string::npos, "a '<' in the chart data", h);
  const nlohmann::json specs = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  RequireReport(specs.is_object(), "the chart data is not a JSON object", h);
  RequireReport(specs.size() == charts, "not one chart spec per chart container", h);
}

/// Whether s[i] is preceded by an odd number of backslashes (escaped in Markdown).
inline bool MdEscaped(std::string_view s, size_t i) {
  size_t n = 0;
  while (i > n && s[i - n - 1] == '\\') ++n;
  return n % 2 == 1;
}

/// The Markdown contract (see the file comment).
inline void CheckMarkdownStructure(const std::string& m) {
  static const std::vector<std::string> kHeadings = {"## Summary",
                                                     "## Recommendation",
                                                     "## Stages",
                                                     "### AQE on",
                                                     "### AQE off",
                                                     "## AQE decisions",
                                                     "## Fastest points",
                                                     "## Pareto front (makespan against core-hours)",
                                                     "## Best configurations"};
  size_t fence = 0;  // length of the open fence's backtick run, 0 outside fences
  int table_pipes = -1;
  size_t line_no = 0;
  for (size_t start = 0; start < m.size(); ++line_no) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    const std::string_view line(m.data() + start, end - start);
    start = end + 1;
    size_t ticks = 0;
    while (ticks < line.size() && line[ticks] == '`') ++ticks;
    if (fence > 0) {
      if (ticks >= fence && line.find_first_not_of('`') == std::string_view::npos) fence = 0;
      continue;
    }
    if (ticks >= 3) {
      RequireReport(line.substr(ticks) == "properties" || line.substr(ticks) == "sh",
                    "a fence the renderer did not open", m);
      fence = ticks;
      continue;
    }
    if (!line.empty() && line[0] == '#') {
      const bool title = line_no == 0 && (line.rfind("# aqesim tuning report — ", 0) == 0 ||
                                          line.rfind("# aqesim sweep report — ", 0) == 0 ||
                                          line.rfind("# aqesim tune report — ", 0) == 0);
      bool known = title;
      for (const std::string& k : kHeadings) known = known || line == k;
      RequireReport(known, "a heading the renderer did not write", m);
    }
    RequireReport(line.rfind("    ", 0) != 0 && line.rfind(">", 0) != 0 && line.rfind("=", 0) != 0,
                  "an indented code block, quote or setext underline", m);
    for (size_t i = 0; i < line.size(); ++i) {
      const char next = i + 1 < line.size() ? line[i + 1] : '\0';
      RequireReport(
          line[i] != '<' || MdEscaped(line, i) ||
              !(std::isalnum(static_cast<unsigned char>(next)) || next == '/' || next == '!' || next == '?'),
          "a '<' (raw HTML or an autolink)", m);
      RequireReport(line[i] != '\r', "a carriage return (a line break) outside a fence", m);
      RequireReport((line[i] != '[' && line[i] != ']') || MdEscaped(line, i), "an unescaped bracket (a link)",
                    m);
    }
    if (!line.empty() && line[0] == '|') {
      int pipes = 0;
      for (size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && !MdEscaped(line, i);
      if (table_pipes < 0) table_pipes = pipes;
      RequireReport(pipes == table_pipes, "a table row with another number of cells than its header", m);
    } else {
      table_pipes = -1;
    }
  }
  RequireReport(fence == 0, "an unclosed fence", m);
}

/// The names, split at NUL; at least `n` of them (cycled; "" when the input is empty).
inline std::vector<std::string> FuzzNames(const uint8_t* data, size_t size, size_t n) {
  std::vector<std::string> names;
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  for (size_t start = 0;;) {
    const size_t end = s.find('\0', start);
    names.emplace_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  for (size_t i = names.size(); i < n; ++i) names.push_back(names[i % names.size()]);
  return names;
}

/// A run of three stages reading exchanges named by the input, with tasks, decisions and reads.
inline RunResult FuzzRun(const std::vector<std::string>& x, bool adaptive) {
  RunResult run;
  run.adaptive = adaptive;
  run.makespan_seconds = adaptive ? 12.5 : 20.0;
  for (int i = 0; i < 3; ++i) {
    StageResult& s = run.stages.emplace_back();
    s.id = i;
    s.name = x[3 + i];
    s.kind = i < 2 ? "ShuffleMapStage" : "ResultStage";
    s.tasks = 2;
    s.submit_seconds = 4.0 * i;
    s.complete_seconds = 4.0 * i + 3.5;
    s.task_median_seconds = 1.0;
    s.task_max_seconds = i == 2 ? 6.0 : 1.5;  // a severe skew in the reading stage
    s.spill_bytes = i == 2 ? (1 << 20) : 0;
    if (i == 2) s.reads = {x[6], x[7]};
    for (int t = 0; t < 2; ++t)
      s.task_results.push_back({t, t, 0, s.submit_seconds, s.submit_seconds + 1.0 + t, 0, 0, 0, 0});
  }
  Decision d;
  d.rule = x[8];
  d.message = x[9];
  run.decisions.push_back(d);
  d.rule = "OptimizeSkewedJoin";
  d.message = x[10];
  d.fields = {{"numSkewedLeft", 1}, {"numSkewedRight", 0}};
  run.decisions.push_back(d);
  for (int e = 0; e < 2; ++e) {
    ExchangeExplain& ex = run.exchanges.emplace_back();
    ex.id = x[6 + e];
    ex.num_partitions = 4;
    ex.map_status = x[11];
    ex.bytes_by_partition_id = {1 << 20, 1 << 20, 1 << 20, int64_t{1} << 33};
    ex.true_bytes_by_partition_id = ex.bytes_by_partition_id;
  }
  ReadExplain& r = run.reads.emplace_back();
  r.exchange = x[6];
  r.stage = 2;
  r.specs = {CoalescedPartitionSpec{0, 3, 3 << 20}, PartialReducerPartitionSpec{3, 0, 1, int64_t{1} << 32}};
  r.true_bytes = {3 << 20, int64_t{1} << 32};
  return run;
}

/// A two-key sweep whose keys, values and scenario file are named by the input.
inline sweep::SweepDocument FuzzSweep(const std::vector<std::string>& x) {
  sweep::SweepDocument doc;
  doc.info.scenario = x[0];
  doc.info.scenario_file = x[1];
  doc.info.grid = {{x[2], {x[4], x[5]}}, {x[3], {x[6], x[7]}}};
  doc.info.baseline[x[2]] = x[4];
  doc.info.cluster = sweep::SweepCluster{4, 4, int64_t{8} << 30};
  for (uint64_t p = 0; p < 4; ++p) {
    sweep::SweepRow& row = doc.rows.emplace_back();
    row.point = p;
    row.values = {doc.info.grid[0].values[p / 2], doc.info.grid[1].values[p % 2]};
    if (p == 3) {
      row.error = x[8];
      continue;
    }
    sweep::PointMetrics m;
    m.makespan_seconds_aqe_on = 10.0 - static_cast<double>(p);
    m.makespan_seconds_aqe_off = 20.0;
    m.max_task_skew_ratio = 1.1;
    row.metrics = m;
  }
  return doc;
}

/// A tune of two choice keys named by the input, its evaluations, one failed, and a recommendation
/// whose reason, decisions and time source are names too.
inline tune::TuneOutcome FuzzTune(const std::vector<std::string>& x) {
  tune::TuneOutcome o;
  o.scenario_path = x[0];
  o.axes.resize(2);
  o.axes[0].key = x[2];
  o.axes[0].choices = {x[4], x[5]};
  o.axes[1].key = x[3];
  o.axes[1].choices = {x[6], x[7]};
  o.guardrails = {"as given", x[8]};
  o.budget = 4;
  o.current.makespan_seconds = 10;
  o.current.core_hours = 1;
  o.current_trust = tune::TuneObjective::Trust{x[11], MakespanBand{7, 40}};
  for (int p = 0; p < 4; ++p) {
    tune::Evaluation e;
    e.values = {o.axes[0].choices[static_cast<size_t>(p / 2)], o.axes[1].choices[static_cast<size_t>(p % 2)]};
    e.objective = p == 3 ? std::numeric_limits<double>::infinity() : 1.0 - 0.1 * p;
    e.makespan_seconds = 10 - p;
    e.core_hours = 1 + 0.1 * p;
    if (p == 3) e.error = x[9];
    o.search.evaluations.push_back(e);
  }
  o.search.best = 2;
  tune::Recommendation r;
  r.settings = {{x[2], x[5]}};
  r.keys = {{x[2], x[5], {x[9]}, {x[10]}}};
  r.evaluation = o.search.evaluations[2];
  r.gain = 0.2;
  r.recommended = true;
  r.reason = x[1];
  o.recommendation = r;
  o.recommended_trust = tune::TuneObjective::Trust{x[11], std::nullopt};
  return o;
}

inline int FuzzReportRenderer(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;  // names, not documents: longer inputs only slow the search down
  const std::vector<std::string> x = FuzzNames(data, size, 12);
  report::ReportInput run;
  run.kind = report::InputKind::kRun;
  run.scenario_name = x[0];
  run.description = x[1];
  run.source = x[2];
  run.run_off = std::make_shared<const RunResult>(FuzzRun(x, false));
  run.run_on = std::make_shared<const RunResult>(FuzzRun(x, true));
  run.explain_on = run.run_on;
  run.conf_known = true;
  run.cluster_known = true;
  CheckHtmlStructure(report::RenderHtmlReport(run));
  CheckMarkdownStructure(report::RenderMarkdownReport(run));
  report::ReportInput sweep;
  sweep.kind = report::InputKind::kSweep;
  sweep.source = x[2];
  sweep.scenario_name = x[0];
  sweep.sweep = FuzzSweep(x);
  CheckHtmlStructure(report::RenderHtmlReport(sweep));
  CheckMarkdownStructure(report::RenderMarkdownReport(sweep));
  report::ReportInput tune;
  tune.kind = report::InputKind::kTune;
  tune.source = x[2];
  tune.tune = FuzzTune(x);
  CheckHtmlStructure(report::RenderHtmlReport(tune));
  CheckMarkdownStructure(report::RenderMarkdownReport(tune));
  return 0;
}

}  // namespace aqesim::fuzz

#endif  // AQESIM_TESTS_FUZZ_FUZZ_REPORT_H_
