#include "tools/compare/run_comparison.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "models/aqe/decision_outcome.h"
#include "tools/text/table_text.h"
#include "tools/text/terminal_text.h"

namespace aqesim::compare {
namespace {

std::string DecisionLine(const Decision& d) { return d.rule + ": " + d.message; }

/// Pairs the decisions of A and B: the same line in both first, then the same outcome
/// (models/aqe/decision_outcome.h: a coalescing 200 → 40 whose target moved is the same
/// decision), each decision of one run paired with at most one of the other, in run order.
void PairDecisions(const RunResult& a, const RunResult& b, RunComparison* c) {
  std::vector<bool> a_paired(a.decisions.size(), false), b_paired(b.decisions.size(), false);
  const auto pair_by = [&](auto key, auto on_pair) {
    std::map<std::string, std::deque<size_t>> theirs;  // B's unpaired decisions by key, in order
    for (size_t j = 0; j < b.decisions.size(); ++j)
      if (!b_paired[j]) theirs[key(b.decisions[j])].push_back(j);
    for (size_t i = 0; i < a.decisions.size(); ++i) {
      if (a_paired[i]) continue;
      auto it = theirs.find(key(a.decisions[i]));
      if (it == theirs.end() || it->second.empty()) continue;
      const size_t j = it->second.front();
      it->second.pop_front();
      a_paired[i] = b_paired[j] = true;
      on_pair(i, j);
    }
  };
  pair_by(DecisionLine, [](size_t, size_t) {});
  pair_by([](const Decision& d) { return DecisionOutcome("", d); },
          [&](size_t i, size_t j) {
            c->decisions_inputs_moved.push_back({DecisionLine(a.decisions[i]), DecisionLine(b.decisions[j])});
          });
  for (size_t i = 0; i < a.decisions.size(); ++i)
    if (!a_paired[i]) c->decisions_only_in_a.push_back(DecisionLine(a.decisions[i]));
  for (size_t j = 0; j < b.decisions.size(); ++j)
    if (!b_paired[j]) c->decisions_only_in_b.push_back(DecisionLine(b.decisions[j]));
}

std::string Seconds(double s) { return Fixed(s, 3) + " s"; }

// As `run` prints a makespan: "100.000 s (66–440 s)", or "(profiled)" when no stage is modelled.
std::string WithBand(double s, const std::optional<Band>& band) {
  if (!band) return Seconds(s) + " (profiled)";
  return Seconds(s) + BandText(band->first, band->second);
}

std::string SignedPercent(double diff, double base) {
  if (base <= 0) return "";
  const double p = 100.0 * diff / base;
  return std::string(p >= 0 ? "+" : "") + Fixed(p, 1) + " %";
}

// A decision message printed is cut to this many columns (six lines of the table).
constexpr size_t kMaxMessageColumns = 6 * 160;

std::string SignedSeconds(double s) { return std::string(s >= 0 ? "+" : "") + Fixed(s, 3); }

}  // namespace

RunComparison CompareRuns(const RunResult& a, const RunResult& b, std::optional<Band> a_band,
                          std::optional<Band> b_band) {
  RunComparison c;
  c.adaptive = a.adaptive;
  c.a_makespan_seconds = a.makespan_seconds;
  c.b_makespan_seconds = b.makespan_seconds;
  c.a_band = a_band;
  c.b_band = b_band;
  // B's stages by name, the first of each (a hash map: 10^6 stages compare in linear time).
  std::unordered_map<std::string_view, const StageResult*> in_b;
  for (const StageResult& t : b.stages) in_b.emplace(t.name, &t);
  std::unordered_set<std::string_view> in_a;
  for (const StageResult& s : a.stages) {
    StageComparison row{s.name, s.duration_seconds(), std::nullopt, s.tasks, std::nullopt, s.time_source, ""};
    in_a.insert(s.name);
    if (auto it = in_b.find(s.name); it != in_b.end()) {
      row.b_seconds = it->second->duration_seconds();
      row.b_tasks = it->second->tasks;
      row.b_time_source = it->second->time_source;
    }
    c.stages.push_back(std::move(row));
  }
  for (const StageResult& t : b.stages) {
    if (in_a.count(t.name) == 0)
      c.stages.push_back(
          {t.name, std::nullopt, t.duration_seconds(), std::nullopt, t.tasks, "", t.time_source});
  }
  PairDecisions(a, b, &c);
  auto banded = [](const char* name, double seconds, const std::optional<Band>& band) {
    BandedMakespan m{name, seconds, std::nullopt};
    if (band) m.band = MakespanBand{band->first, band->second};
    return m;
  };
  c.verdict =
      JudgeDifference(banded("A", a.makespan_seconds, a_band), banded("B", b.makespan_seconds, b_band));
  return c;
}

std::string ComparisonTable(const std::string& a_path, const std::string& b_path,
                            const std::vector<RunComparison>& runs) {
  std::string out = "A: " + TerminalText(a_path) + "\nB: " + TerminalText(b_path) + "\n";
  for (const RunComparison& c : runs) {
    out += "\nAQE " + std::string(c.adaptive ? "on" : "off") + ": makespan A " +
           WithBand(c.a_makespan_seconds, c.a_band) + ", B " + WithBand(c.b_makespan_seconds, c.b_band) +
           "; B − A " + SignedSeconds(c.difference_seconds()) + " s " +
           SignedPercent(c.difference_seconds(), c.a_makespan_seconds) + "\n";
    if (c.verdict) out += WrapText("  " + c.verdict->text, 160, 4) + "\n";
    std::vector<std::vector<std::string>> rows;
    for (const StageComparison& s : c.stages) {
      const bool both = s.a_seconds && s.b_seconds;
      rows.push_back(
          {TerminalText(s.name), s.a_seconds ? Fixed(*s.a_seconds, 3) : "—",
           s.b_seconds ? Fixed(*s.b_seconds, 3) : "—", both ? SignedSeconds(*s.b_seconds - *s.a_seconds) : "",
           both ? SignedPercent(*s.b_seconds - *s.a_seconds, *s.a_seconds) : "",
           s.a_tasks ? std::to_string(*s.a_tasks) : "—", s.b_tasks ? std::to_string(*s.b_tasks) : "—",
           s.a_time_source == s.b_time_source || s.b_time_source.empty() ? s.a_time_source
           : s.a_time_source.empty()                                     ? s.b_time_source
                                     : s.a_time_source + " / " + s.b_time_source});
    }
    std::string table = TextTableWithin(
        160, 0, 12, {"stage", "A s", "B s", "B − A s", "B − A", "A tasks", "B tasks", "timed"},
        std::move(rows), [](size_t i) { return i >= 1 && i <= 6; });
    for (size_t start = 0; start < table.size();) {  // indented two spaces under the heading
      const size_t end = table.find('\n', start);
      out += "  " + table.substr(start, end - start + 1);
      start = end + 1;
    }
    // A message as a terminal can take it, at most kMaxMessageColumns (a forged 10 MB one is cut).
    const auto line = [](const std::string& d) { return Ellipsize(TerminalText(d), kMaxMessageColumns); };
    if (c.decisions_only_in_a.empty() && c.decisions_only_in_b.empty()) {
      out += "  decisions: the same in both" +
             std::string(
                 c.decisions_inputs_moved.empty() ? "" : " (the same outcome; targets or thresholds moved)") +
             "\n";
    } else {
      for (const auto& d : c.decisions_only_in_a) out += WrapText("  only in A: " + line(d), 160, 13) + "\n";
      for (const auto& d : c.decisions_only_in_b) out += WrapText("  only in B: " + line(d), 160, 13) + "\n";
    }
    for (const auto& [in_a, in_b] : c.decisions_inputs_moved) {
      out += WrapText("  same outcome, inputs moved: A " + line(in_a), 160, 31) + "\n";
      out += WrapText("                              B " + line(in_b), 160, 31) + "\n";
    }
  }
  return out;
}

nlohmann::json ComparisonJson(const std::string& a_path, const std::string& b_path,
                              const std::vector<RunComparison>& runs) {
  using nlohmann::json;
  auto band = [](const std::optional<Band>& b) {
    return b ? json::array({b->first, b->second}) : json(nullptr);
  };
  auto side = [](const std::optional<double>& s, const std::optional<int>& tasks, const std::string& timed) {
    return s ? json{{"seconds", *s}, {"tasks", *tasks}, {"timed", timed}} : json(nullptr);
  };
  auto verdict = [](const std::optional<DifferenceVerdict>& v) {
    if (!v) return json(nullptr);
    return json{{"basis", v->basis},
                {"faster", v->faster == "A" ? "a" : "b"},
                {"holds", v->holds},
                {"differenceSecondsLow", v->difference_low_seconds},
                {"differenceSecondsHigh", v->difference_high_seconds},
                {"text", v->text}};
  };
  auto moved = [](const std::vector<std::pair<std::string, std::string>>& pairs) {
    json out = json::array();
    for (const auto& [in_a, in_b] : pairs) out.push_back({{"a", in_a}, {"b", in_b}});
    return out;
  };
  json out = {{"a", a_path}, {"b", b_path}, {"runs", json::array()}};
  for (const RunComparison& c : runs) {
    json stages = json::array();
    for (const StageComparison& s : c.stages)
      stages.push_back({{"name", s.name},
                        {"a", side(s.a_seconds, s.a_tasks, s.a_time_source)},
                        {"b", side(s.b_seconds, s.b_tasks, s.b_time_source)}});
    out["runs"].push_back(
        {{"adaptive", c.adaptive},
         {"makespanSeconds",
          {{"a", c.a_makespan_seconds}, {"b", c.b_makespan_seconds}, {"difference", c.difference_seconds()}}},
         {"band", {{"a", band(c.a_band)}, {"b", band(c.b_band)}}},
         {"verdict", verdict(c.verdict)},
         {"stages", std::move(stages)},
         {"decisionsOnlyInA", c.decisions_only_in_a},
         {"decisionsOnlyInB", c.decisions_only_in_b},
         {"decisionsInputsMoved", moved(c.decisions_inputs_moved)}});
  }
  return out;
}

}  // namespace aqesim::compare
