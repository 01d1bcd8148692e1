#include "tools/report/tune_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string_view>

#include "tools/text/table_text.h"

namespace aqesim::report {

namespace {

using ojson = nlohmann::ordered_json;
constexpr size_t kTableRows = 15;

// Seconds with how far they can be trusted, as `run` prints them: "97.31 s (64–430 s)", or
// "97.31 s (profiled)" when every stage is timed by the log's recorded profiles.
std::string SecondsText(double seconds, const std::optional<tune::TuneObjective::Trust>& trust) {
  std::string s = Fixed(seconds, 2) + " s";
  if (!trust) return s;
  if (!trust->band) return s + " (profiled)";
  return s + BandText(trust->band->low_seconds, trust->band->high_seconds);
}

// Text for a line inside a fenced block: control characters (a line break among them) as spaces,
// so that no name ends the line — and the fence — early.
std::string OneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return s;
}

// The pieces joined (GCC 12 warns falsely, -Wrestrict, on some chains of "literal" + std::string).
std::string Cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (std::string_view p : pieces) out.append(p);
  return out;
}

// A key without the prefix every AQE key shares, for a column header: "advisoryPartitionSizeInBytes".
std::string ShortKey(const std::string& key) {
  for (const char* prefix : {"spark.sql.adaptive.", "spark.sql."})
    if (key.rfind(prefix, 0) == 0 && key.size() > std::string(prefix).size())
      return key.substr(std::string(prefix).size());
  return key;
}

// The evaluations that ran, least objective first (evaluation order on ties).
std::vector<size_t> Ranked(const std::vector<tune::Evaluation>& evaluations) {
  std::vector<size_t> ranked;
  for (size_t i = 0; i < evaluations.size(); ++i)
    if (std::isfinite(evaluations[i].objective)) ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](size_t a, size_t b) { return evaluations[a].objective < evaluations[b].objective; });
  return ranked;
}

// A row of the Best configurations table: the first configuration, in rank order, with its
// result (makespan, core-hours and objective as the table prints them) and how many more have it.
struct TableRow {
  size_t evaluation = 0;
  int tied = 0;
};

// At most kTableRows rows of distinct results, best first: a search that circles a plateau (the
// join_agg import: 27 configurations at 25.487 s, objective 1.0000) fills one row, not fifteen.
std::vector<TableRow> TableRows(const std::vector<tune::Evaluation>& evaluations) {
  std::vector<TableRow> rows;
  std::map<std::string, size_t> row_of;  // a result's printed numbers -> its row
  for (size_t i : Ranked(evaluations)) {
    const tune::Evaluation& e = evaluations[i];
    const std::string key =
        Fixed(e.makespan_seconds, 3) + " " + Fixed(e.core_hours, 4) + " " + Fixed(e.objective, 4);
    if (auto it = row_of.find(key); it != row_of.end()) {
      ++rows[it->second].tied;
    } else if (rows.size() < kTableRows) {
      row_of.emplace(key, rows.size());
      rows.push_back({i, 0});
    }
  }
  return rows;
}

int TiedCount(const std::vector<TableRow>& rows) {
  int n = 0;
  for (const TableRow& r : rows) n += r.tied;
  return n;
}

// The table's "#" cell: "8", or "8 (+26 tied)".
std::string RowLabel(const TableRow& r) {
  return std::to_string(r.evaluation) + (r.tied > 0 ? " (+" + std::to_string(r.tied) + " tied)" : "");
}

constexpr const char* kTiesNote =
    "A row marked “+N tied” stands for N more configurations with the same makespan, core-hours "
    "and objective as printed; the first evaluated is shown.";

// What the objective divides, for a sentence: "makespan", "core-hours", "makespan + 100 ×
// core-hours".
std::string ObjectiveNoun(const tune::ObjectiveSpec& spec) {
  if (spec.kind != tune::ObjectiveSpec::Kind::kWeighted) return spec.ToString();
  char b[64];
  std::snprintf(b, sizeof b, "%g", spec.seconds_per_core_hour);
  return std::string("makespan + ") + b + " × core-hours";
}

}  // namespace

std::vector<std::string> ParetoNotes(const tune::TuneOutcome& o, const std::vector<size_t>& front) {
  std::vector<std::string> notes;
  const std::optional<tune::Recommendation>& r = o.recommendation;
  const bool guarded = o.guardrails.size() > 1;
  std::string copies;
  for (size_t i = 1; i < o.guardrails.size(); ++i) copies += (i > 1 ? ", " : "") + o.guardrails[i];
  for (size_t i : front) {
    const tune::Evaluation& e = o.search.evaluations[i];
    if (!(e.makespan_seconds < o.current.makespan_seconds && e.core_hours < o.current.core_hours)) continue;
    // The search's best point, recommended with only the keys that matter, or another point with
    // the recommendation's run.
    if (r && r->recommended &&
        (static_cast<int64_t>(i) == o.search.best ||
         (std::fabs(r->evaluation.makespan_seconds - e.makespan_seconds) < 5e-7 &&
          std::fabs(r->evaluation.core_hours - e.core_hours) < 5e-7)))
      continue;
    std::string why;
    const std::string ratio = "its " + ObjectiveNoun(o.objective) + " ÷ the current configuration's";
    const std::string over = "over the guardrails (" + copies + ")";
    if (!guarded) {
      if (e.objective >= 1) why = "its objective, " + ratio + ", is " + Fixed(e.objective, 4) + " ≥ 1";
    } else if (o.judgement == tune::GuardrailJudgement::kWorst) {
      if (e.objective >= 1)
        why = "its objective is " + Fixed(e.objective, 4) + ", the worst " + over + " of " + ratio +
              " on the same copy: ≥ 1, so on at least one of them it is no better";
    } else if (e.objective > 1 + tune::kLossTolerance) {
      why = "on at least one copy " + over + " it loses more than " + Fixed(100 * tune::kLossTolerance, 1) +
            " % — its objective is its worst ratio there, " + Fixed(e.objective, 4) + " (" + ratio +
            " on the same copy) — and a loss on any copy vetoes it";
    } else if (e.objective >= 1) {
      why = "its objective, the geometric mean " + over + " of " + ratio + " on the same copy, is " +
            Fixed(e.objective, 4) + " ≥ 1: no gain to expect";
    }
    if (!why.empty()) {
    } else if (1 - e.objective < o.min_gain) {
      const std::string gain = !guarded ? "its gain"
                               : o.judgement == tune::GuardrailJudgement::kWorst
                                   ? "its worst-case gain " + over
                                   : "its mean gain " + over + ", losing on none,";
      why = gain + " is " + Fixed(100 * (1 - e.objective), 1) + " % (objective " + Fixed(e.objective, 4) +
            "), under the " + Fixed(100 * o.min_gain, 1) + " % tune recommends at least (--min-gain)";
    } else if (o.search.best >= 0 && static_cast<size_t>(o.search.best) < o.search.evaluations.size() &&
               o.search.evaluations[o.search.best].objective < e.objective) {
      why = "the search's best point, #" + std::to_string(o.search.best) + ", has a lower objective (" +
            Fixed(o.search.evaluations[o.search.best].objective, 4) + " against " + Fixed(e.objective, 4) +
            "), and the recommendation is made from it";
    } else {
      why = r ? "as the recommendation says, " + r->reason : "nothing could be recommended";
    }
    notes.push_back("Configuration #" + std::to_string(i) + " (" + Fixed(e.makespan_seconds, 3) + " s, " +
                    Fixed(e.core_hours, 4) +
                    " core-hours) is faster and cheaper than the current configuration (" +
                    Fixed(o.current.makespan_seconds, 3) + " s, " + Fixed(o.current.core_hours, 4) +
                    " core-hours) as given, and not recommended: " + why + ".");
  }
  return notes;
}

namespace {

std::string Headline(const tune::TuneOutcome& o, const std::string& source) {
  std::string s = "Input: " + source + " · scenario " + o.scenario_path + " · objective " +
                  o.objective.ToString() + " · " + std::to_string(o.search.evaluations.size()) +
                  " configurations simulated (budget " + std::to_string(o.budget) +
                  (o.search.exhausted ? ", the whole space" : "") + ") · seed " + std::to_string(o.seed);
  if (o.guardrails.size() > 1) {
    s += " · guardrails:";
    for (size_t i = 1; i < o.guardrails.size(); ++i) s += (i > 1 ? ", " : " ") + o.guardrails[i];
    s += o.judgement == tune::GuardrailJudgement::kWorst ? " (the worst ratio counts)"
                                                         : " (the mean ratio counts; a loss on any vetoes)";
  }
  return s;
}

ojson ConvergenceSpec(const tune::TuneOutcome& o) {
  ojson values = ojson::array();
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < o.search.evaluations.size(); ++i) {
    const tune::Evaluation& e = o.search.evaluations[i];
    if (!std::isfinite(e.objective)) continue;
    best = std::min(best, e.objective);
    values.push_back({{"evaluation", i}, {"objective", e.objective}, {"best so far", best}});
  }
  ojson spec =
      BaseSpec("Convergence: each configuration's objective (÷ the current) and the best so far", 260);
  spec["data"] = {{"values", values}};
  const ojson x = {{"field", "evaluation"}, {"type", "quantitative"}, {"title", "evaluation"}};
  spec["layer"] =
      ojson::array({{{"mark", {{"type", "point"}, {"tooltip", true}, {"opacity", 0.6}}},
                     {"encoding",
                      {{"x", x},
                       {"y",
                        {{"field", "objective"},
                         {"type", "quantitative"},
                         {"title", "objective ÷ current (log scale)"},
                         {"scale", {{"type", "log"}}}}}}}},
                    {{"mark", {{"type", "line"}, {"interpolate", "step-after"}, {"color", "#d1242f"}}},
                     {"encoding", {{"x", x}, {"y", {{"field", "best so far"}, {"type", "quantitative"}}}}}}});
  return spec;
}

ojson ParetoSpec(const tune::TuneOutcome& o, const std::vector<size_t>& front) {
  ojson values = ojson::array();
  for (size_t i = 0; i < o.search.evaluations.size(); ++i) {
    const tune::Evaluation& e = o.search.evaluations[i];
    if (!std::isfinite(e.objective)) continue;
    const bool on_front = std::find(front.begin(), front.end(), i) != front.end();
    values.push_back({{"evaluation", i},
                      {"makespan s", e.makespan_seconds},
                      {"core-hours", e.core_hours},
                      {"point", on_front ? "Pareto front" : "evaluated"}});
  }
  ojson spec = BaseSpec("Every configuration: makespan against core-hours", 300);
  spec["data"] = {{"values", values}};
  spec["mark"] = {{"type", "point"}, {"tooltip", true}, {"filled", true}};
  spec["encoding"] = {
      {"x", {{"field", "core-hours"}, {"type", "quantitative"}, {"scale", {{"zero", false}}}}},
      {"y", {{"field", "makespan s"}, {"type", "quantitative"}, {"scale", {{"zero", false}}}}},
      {"color",
       {{"field", "point"},
        {"type", "nominal"},
        {"scale", {{"domain", {"Pareto front", "evaluated"}}, {"range", {"#d1242f", "#8c959f"}}}}}}};
  return spec;
}

}  // namespace

std::vector<size_t> ParetoFront(const std::vector<tune::Evaluation>& evaluations) {
  std::vector<size_t> front;
  for (size_t i = 0; i < evaluations.size(); ++i) {
    const tune::Evaluation& a = evaluations[i];
    if (!std::isfinite(a.objective)) continue;
    bool dominated = false;
    for (size_t j = 0; j < evaluations.size() && !dominated; ++j) {
      const tune::Evaluation& b = evaluations[j];
      if (j == i || !std::isfinite(b.objective)) continue;
      const bool no_worse = b.makespan_seconds <= a.makespan_seconds && b.core_hours <= a.core_hours;
      const bool better = b.makespan_seconds < a.makespan_seconds || b.core_hours < a.core_hours;
      // Equal points: the earlier one stands for both.
      dominated = no_worse && (better || j < i);
    }
    if (!dominated) front.push_back(i);
  }
  std::stable_sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    return evaluations[a].makespan_seconds < evaluations[b].makespan_seconds;
  });
  return front;
}

std::string TuneBody(const tune::TuneOutcome& o, const std::string& source, Charts* charts) {
  std::string h = "<h1>aqesim tune report — " + Esc(o.scenario_path) + "</h1>\n<p class=\"sub\">" +
                  Esc(Headline(o, source)) + "</p>\n";
  h += "<div class=\"cards\">" +
       Card(SecondsText(o.current.makespan_seconds, o.current_trust), "current makespan");
  if (o.recommendation && o.recommendation->recommended) {
    h += Card(SecondsText(o.recommendation->evaluation.makespan_seconds, o.recommended_trust),
              "with the recommendation");
    h += Card(Fixed(100 * o.recommendation->gain, 1) + " %",
              o.guardrails.size() < 2 ? "gain"
              : o.judgement == tune::GuardrailJudgement::kWorst
                  ? "gain (worst case over the guardrails)"
                  : "gain (mean over the guardrails, no loss on any)");
  }
  h += Card(std::to_string(o.search.evaluations.size()), "configurations simulated") + "</div>\n";
  h += "<section><h2>Recommendation</h2>\n";
  if (!o.recommendation) {
    h += "<p>No configuration of the space could be simulated.</p>";
  } else {
    const tune::Recommendation& r = *o.recommendation;
    h += "<p class=\"diagnosis\">" + Esc(r.reason) + "</p>\n";
    if (r.recommended) {
      std::string conf;
      for (const tune::KeyChange& k : r.keys)
        if (const auto spark = tune::SparkKeyOf(k.key)) conf += "--conf " + *spark + "=" + k.value + "\n";
      h += "<pre class=\"conf\">" + Esc(conf) + "</pre>\n<ul>";
      for (const tune::KeyChange& k : r.keys) {
        h += "<li><code>" + Esc(k.key) + "=" + Esc(k.value) + "</code>";
        if (k.decisions_made.empty() && k.decisions_lost.empty())
          h += ": the same AQE decisions, other times";
        h += "<ul>";
        for (const std::string& d : k.decisions_made) h += "<li>AQE now: " + Esc(d) + "</li>";
        for (const std::string& d : k.decisions_lost) h += "<li>AQE no longer: " + Esc(d) + "</li>";
        h += "</ul></li>";
      }
      h += "</ul>\n";
    }
  }
  h += "</section>\n<section><h2>Search</h2>\n" + charts->Add(ConvergenceSpec(o));
  const std::vector<size_t> front = ParetoFront(o.search.evaluations);
  h += charts->Add(ParetoSpec(o, front),
                   "Red: the Pareto front — no other configuration is both faster and cheaper (" +
                       std::to_string(front.size()) + " of them).");
  const std::vector<std::string> notes = ParetoNotes(o, front);
  if (!notes.empty()) {
    h += "<ul>";
    for (const std::string& n : notes) h += "<li>" + Esc(n) + "</li>";
    h += "</ul>\n";
  }
  h += "</section>\n<section><h2>Best configurations</h2><div "
       "style=\"overflow-x:auto\"><table><thead><tr><th>#</th>";
  for (const tune::SpaceAxis& a : o.axes)
    h += "<th title=\"" + Esc(a.key) + "\">" + Esc(ShortKey(a.key)) + "</th>";
  h += "<th>makespan s</th><th>core-hours</th><th>objective</th></tr></thead><tbody>";
  const std::vector<TableRow> rows = TableRows(o.search.evaluations);
  for (const TableRow& r : rows) {
    const tune::Evaluation& e = o.search.evaluations[r.evaluation];
    h += "<tr><td>" + Esc(RowLabel(r)) + "</td>";
    for (const std::string& v : e.values) h += "<td>" + Esc(v) + "</td>";
    h += "<td>" + Fixed(e.makespan_seconds, 3) + "</td><td>" + Fixed(e.core_hours, 4) + "</td><td>" +
         Fixed(e.objective, 4) + "</td></tr>";
  }
  h += "</tbody></table></div>";
  if (TiedCount(rows) > 0) h += "<p class=\"sub\">" + Esc(kTiesNote) + "</p>";
  h += "</section>\n";
  return h;
}

std::string TuneMarkdown(const tune::TuneOutcome& o, const std::string& source) {
  std::string m =
      "# aqesim tune report — " + MdEsc(o.scenario_path) + "\n\n" + MdEsc(Headline(o, source)) + "\n\n";
  m += MdEsc("Current makespan: " + SecondsText(o.current.makespan_seconds, o.current_trust) + ", " +
             Fixed(o.current.core_hours, 4) + " core-hours.") +
       "\n\n## Recommendation\n\n";
  if (!o.recommendation) {
    m += "No configuration of the space could be simulated.\n\n";
  } else {
    const tune::Recommendation& r = *o.recommendation;
    m += MdEsc(r.reason) + "\n\n";
    if (r.recommended) {
      m += MdEsc("With it: " + SecondsText(r.evaluation.makespan_seconds, o.recommended_trust) + ".") +
           "\n\n```sh\n";
      for (const tune::KeyChange& k : r.keys)
        if (const auto spark = tune::SparkKeyOf(k.key))
          m += OneLine("--conf " + *spark + "=" + k.value) + "\n";
      m += "```\n\n";
      for (const tune::KeyChange& k : r.keys) {
        m += "- " + MdEsc(k.key + "=" + k.value) + "\n";
        for (const std::string& d : k.decisions_made) m += "  - AQE now: " + MdEsc(d) + "\n";
        for (const std::string& d : k.decisions_lost) m += "  - AQE no longer: " + MdEsc(d) + "\n";
      }
      m += "\n";
    }
  }
  const std::vector<size_t> front = ParetoFront(o.search.evaluations);
  m += "## Pareto front (makespan against core-hours)\n\n| # | makespan s | core-hours |\n|---|---|---|\n";
  for (size_t i : front)
    m += Cat({"| ", std::to_string(i), " | ", Fixed(o.search.evaluations[i].makespan_seconds, 3), " | ",
              Fixed(o.search.evaluations[i].core_hours, 4), " |\n"});
  const std::vector<std::string> notes = ParetoNotes(o, front);
  if (!notes.empty()) m += "\n";
  for (const std::string& n : notes) m += "- " + MdEsc(n) + "\n";
  m += "\n## Best configurations\n\n| # |";
  for (const tune::SpaceAxis& a : o.axes) m += Cat({" ", MdEsc(a.key), " |"});
  m += " makespan s | core-hours | objective |\n|---|";
  for (size_t i = 0; i < o.axes.size(); ++i) m += "---|";
  m += "---|---|---|\n";
  const std::vector<TableRow> rows = TableRows(o.search.evaluations);
  for (const TableRow& r : rows) {
    const tune::Evaluation& e = o.search.evaluations[r.evaluation];
    m += Cat({"| ", RowLabel(r), " |"});
    for (const std::string& v : e.values) m += Cat({" ", MdEsc(v), " |"});
    m += Cat({" ", Fixed(e.makespan_seconds, 3), " | ", Fixed(e.core_hours, 4), " | ", Fixed(e.objective, 4),
              " |\n"});
  }
  if (TiedCount(rows) > 0) m += Cat({"\n", kTiesNote, "\n"});
  return m;
}

}  // namespace aqesim::report
