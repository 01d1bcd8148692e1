#include "tools/report/scale_report.h"

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <string_view>
#include <vector>

#include "models/aqe/decision.h"
#include "tools/scale/scale_output.h"
#include "tools/text/table_text.h"

namespace aqesim::report {

namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kOther = "other executor counts";

// The pieces joined (GCC 12 warns falsely, -Wrestrict, on some chains of "literal" + std::string).
std::string Cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (std::string_view p : pieces) out.append(p);
  return out;
}

// "8 executors (100 %), 12.300 s (8.1–54 s)".
std::string RowRef(const scale::ScaleRow& row) {
  return Cat({Counted(row.executors, "executor"), " (", scale::PercentsText(row), "), ",
              scale::SecondsWithBand(row.makespan_seconds, row.band)});
}

// The lines under the heading: what 100 % is, the answers, where AQE decided differently, trust.
std::vector<std::string> Facts(const scale::ScaleDocument& d) {
  const scale::ScaleResult& r = d.result;
  std::vector<std::string> out;
  std::string base = Cat({"100 % = ", Counted(r.base_executors, "executor"), " × ",
                          Counted(r.executor_cores, "core"), ", AQE ", r.adaptive ? "on" : "off"});
  if (r.dynamic_allocation) base += " (the peak dynamic allocation reached; the rows run static executors)";
  if (r.timeline_replaced)
    base += " (the most executors present at once; the rows replace the recorded timeline)";
  out.push_back(base + ".");
  out.push_back(Cat({"Fastest: ", RowRef(r.rows[r.fastest]),
                     ". Fewest executors within 5 % of it: ", RowRef(r.rows[r.within_5_percent]),
                     "; within 10 %: ", RowRef(r.rows[r.within_10_percent]), "."}));
  out.push_back(Cat({"Balanced (the least makespan × core-hours: time and cost weighed alike): ",
                     RowRef(r.rows[r.balanced]), ", ", TwoDigits(r.rows[r.balanced].available_core_hours),
                     " core-hours."}));
  const scale::ScaleRow& cp = r.rows[r.critical_path_row];
  out.push_back(Cat({"Critical path (infinite executors, with the task times of the ",
                     std::to_string(cp.executors), "-executor row: the least over the rows): ",
                     scale::SecondsWithBand(cp.critical_path_seconds, cp.critical_path_band),
                     "; no executor count runs faster."}));
  for (size_t i = 1; i < r.rows.size(); ++i) {
    const scale::ScaleRow& a = r.rows[i - 1];
    const scale::ScaleRow& b = r.rows[i];
    if (b.decisions_changed.empty() && b.decisions_replaced.empty()) continue;
    std::string s = Cat({"AQE decided differently at ", Counted(b.executors, "executor"), " than at ",
                         std::to_string(a.executors), ":"});
    for (const std::string& x : b.decisions_changed) s += Cat({" now “", x, "”;"});
    for (const std::string& x : b.decisions_replaced) s += Cat({" before “", x, "”;"});
    s.back() = '.';
    out.push_back(s);
  }
  out.push_back(Cat({"Seconds: ", scale::TrustText(r, d.log), "."}));
  return out;
}

std::vector<std::string> Header(bool log) {
  std::vector<std::string> h = {"executors", "percent", "makespan", "core-hours", "utilisation", "ideal"};
  if (log) h.push_back("Sparklens s");
  h.push_back("answer");
  return h;
}

std::vector<std::string> Cells(const scale::ScaleResult& r, size_t i, bool log) {
  const scale::ScaleRow& row = r.rows[i];
  std::vector<std::string> c = {std::to_string(row.executors),
                                scale::PercentsText(row),
                                scale::SecondsWithBand(row.makespan_seconds, row.band),
                                Fixed(row.available_core_hours, 4),
                                Fixed(100 * row.utilization(), 1) + " %",
                                scale::SecondsWithBand(row.ideal_seconds, row.ideal_band)};
  if (log) c.push_back(row.sparklens_seconds ? Fixed(*row.sparklens_seconds, 3) : "-");
  const std::string answer = AnswerLabel(r, i);
  c.push_back(answer == kOther ? "" : answer);
  return c;
}

}  // namespace

std::string AnswerLabel(const scale::ScaleResult& r, size_t row) {
  std::string s;
  for (const auto& [index, name] :
       {std::pair{r.fastest, "fastest"}, std::pair{r.within_5_percent, "fewest within 5 %"},
        std::pair{r.within_10_percent, "fewest within 10 %"}})
    if (index == row) s += Cat({s.empty() ? "" : " · ", name});
  return s.empty() ? kOther : s;
}

ojson ScaleChartSpec(const scale::ScaleResult& r) {
  ojson values = ojson::array();
  std::vector<std::string> domain;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const scale::ScaleRow& row = r.rows[i];
    const std::string answer = AnswerLabel(r, i);
    if (std::find(domain.begin(), domain.end(), answer) == domain.end()) domain.push_back(answer);
    values.push_back({{"executors", row.executors},
                      {"percent", row.percent},
                      {"makespan s", row.makespan_seconds},
                      {"makespan", scale::SecondsWithBand(row.makespan_seconds, row.band)},
                      {"core-hours", row.available_core_hours},
                      {"utilisation %", 100 * row.utilization()},
                      {"label", std::to_string(row.executors) + " ex."},
                      {"answer", answer}});
  }
  // The answers first, the other rows last and grey.
  std::stable_partition(domain.begin(), domain.end(), [](const std::string& a) { return a != kOther; });
  ojson range = ojson::array();
  for (const std::string& a : domain)
    range.push_back(a.find("fastest") != std::string::npos ? "#d1242f"
                    : a.find("5 %") != std::string::npos   ? "#bf8700"
                    : a.find("10 %") != std::string::npos  ? "#0969da"
                                                           : "#8c959f");
  ojson spec = BaseSpec("Makespan against core-hours, one point per executor count", 300);
  spec["data"] = {{"values", values}};
  const ojson x = {{"field", "core-hours"},
                   {"type", "quantitative"},
                   {"title", "core-hours available (executors × cores × makespan)"},
                   {"scale", {{"zero", false}}}};
  const ojson y = {{"field", "makespan s"}, {"type", "quantitative"}, {"scale", {{"zero", false}}}};
  const ojson order = {{"field", "executors"}, {"type", "quantitative"}};
  spec["layer"] = ojson::array(
      {{{"mark", {{"type", "line"}, {"color", "#8c959f"}}},
        {"encoding", {{"x", x}, {"y", y}, {"order", order}}}},
       {{"mark", {{"type", "point"}, {"filled", true}, {"size", 90}}},
        {"encoding",
         {{"x", x},
          {"y", y},
          {"color",
           {{"field", "answer"},
            {"type", "nominal"},
            {"title", nullptr},
            {"legend", {{"orient", "bottom"}, {"labelLimit", 600}}},
            {"scale", {{"domain", domain}, {"range", range}}}}},
          {"tooltip", ojson::array({{{"field", "executors"}, {"type", "quantitative"}},
                                    {{"field", "percent"}, {"type", "quantitative"}},
                                    {{"field", "makespan"}, {"type", "nominal"}},
                                    {{"field", "core-hours"}, {"type", "quantitative"}, {"format", ".4f"}},
                                    {{"field", "utilisation %"}, {"type", "quantitative"}, {"format", ".1f"}},
                                    {{"field", "answer"}, {"type", "nominal"}}})}}}},
       {{"mark", {{"type", "text"}, {"align", "left"}, {"dx", 7}, {"dy", -7}, {"fontSize", 10}}},
        {"encoding", {{"x", x}, {"y", y}, {"text", {{"field", "label"}, {"type", "nominal"}}}}}}});
  return spec;
}

std::string ScaleSectionHtml(const scale::ScaleDocument& d, const std::string& title, Charts* charts) {
  const scale::ScaleResult& r = d.result;
  std::string h = "<section><h2>" + Esc(title) + "</h2>\n";
  const std::vector<std::string> facts = Facts(d);
  h += "<p>" + Esc(facts[0]) +
       " Each row is simulated on that many executors, AQE deciding on that cluster "
       "(aqesim scale).</p>\n";
  h += charts->Add(
      ScaleChartSpec(r),
      "Down is faster, left is cheaper. Red: the fastest row; amber: the fewest executors within 5 % "
      "of it; blue: within 10 % (one colour for a row that is several).");
  h += "<ul>";
  for (size_t i = 1; i < facts.size(); ++i) h += "<li>" + Esc(facts[i]) + "</li>";
  h += "</ul>\n<div style=\"overflow-x:auto\"><table><thead><tr>";
  for (const std::string& c : Header(d.log)) h += "<th>" + Esc(c) + "</th>";
  h += "</tr></thead><tbody>";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    h += "<tr>";
    for (const std::string& c : Cells(r, i, d.log)) h += "<td>" + Esc(c) + "</td>";
    h += "</tr>";
  }
  return h + "</tbody></table></div></section>\n";
}

std::string ScaleSectionMd(const scale::ScaleDocument& d, const std::string& title) {
  const scale::ScaleResult& r = d.result;
  std::string m = "## " + MdEsc(title) + "\n\n";
  for (const std::string& f : Facts(d)) m += "- " + MdEsc(f) + "\n";
  m += "\n|";
  const std::vector<std::string> head = Header(d.log);
  for (const std::string& c : head) m += Cat({" ", c, " |"});
  m += "\n|";
  for (size_t i = 0; i < head.size(); ++i) m += i + 1 == head.size() ? "---|" : "---:|";
  m += "\n";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    m += "|";
    // Numbers and the answer's fixed words: nothing of the input's text to escape.
    for (const std::string& c : Cells(r, i, d.log)) m += Cat({" ", c, " |"});
    m += "\n";
  }
  return m + "\n";
}

std::string ScaleBody(const scale::ScaleDocument& d, const std::string& source, Charts* charts) {
  std::string h = "<h1>aqesim scale report — " + Esc(d.subject) +
                  "</h1>\n<p class=\"sub\">Input: " + Esc(source) + " · " +
                  std::to_string(d.result.rows.size()) + " executor counts</p>\n";
  return h + ScaleSectionHtml(d, "How many executors?", charts);
}

std::string ScaleMarkdown(const scale::ScaleDocument& d, const std::string& source) {
  return "# aqesim scale report — " + MdEsc(d.subject) + "\n\n" +
         MdEsc("Input: " + source + " · " + std::to_string(d.result.rows.size()) + " executor counts") +
         "\n\n" + ScaleSectionMd(d, "How many executors?");
}

}  // namespace aqesim::report
