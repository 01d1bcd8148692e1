#include "tools/report/variant_section.h"

#include <cstdio>

#include "tools/text/table_text.h"

namespace aqesim::report {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kTitle = "Named variants side by side";
/// How far the rows' seconds can be trusted, and what they leave out.
std::string TrustText() {
  return "AQE on in every row; each makespan with its band (every modelled task x " +
         TwoDigits(kDefaultsBand.low) + " and x " + TwoDigits(kDefaultsBand.high) +
         ", README \"How far to trust the seconds\"), the same cost model in every row: compare the rows "
         "rather "
         "than read them absolutely. Task times are modelled from bytes: a variant that counts records shows "
         "its "
         "extra tasks' parallelism, not the records a task is spared.";
}

std::string Label(const std::vector<std::string>& variants) {
  if (variants.empty()) return "Apache Spark (no variant)";
  std::string s;
  for (const std::string& v : variants) s += (s.empty() ? "" : " + ") + v;
  return s;
}

/// "27.904 (18–120 s)": the makespan and its band, or "(profiled)" when no stage is modelled.
std::string Seconds(const VariantRow& row) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", row.run->makespan_seconds);
  return std::string(buf) +
         (row.band ? BandText(row.band->low_seconds, row.band->high_seconds) : " (profiled)");
}

int Tasks(const RunResult& r) {
  int n = 0;
  for (const StageResult& s : r.stages) n += s.tasks;
  return n;
}

int SkewJoins(const RunResult& r) {
  int n = 0;
  for (const JoinExplain& j : r.joins) n += j.is_skew_join ? 1 : 0;
  return n;
}

/// "e1 map 10, e2 map 10, result 54": each stage and its tasks, in stage order.
std::string StagePlan(const RunResult& r) {
  std::string s;
  for (const StageResult& st : r.stages)
    s += (s.empty() ? "" : ", ") + st.name + " " + std::to_string(st.tasks);
  return s;
}

std::vector<const Decision*> Changed(const RunResult& r) {
  std::vector<const Decision*> out;
  for (const Decision& d : r.decisions)
    if (d.fields.contains("variants")) out.push_back(&d);
  return out;
}

}  // namespace

std::string VariantSectionHtml(const std::vector<VariantRow>& rows, Charts* charts) {
  if (rows.empty()) return "";
  std::string h = "<section><h2>" + std::string(kTitle) + "</h2><p>" + Esc(TrustText()) + "</p>\n";
  h += "<table><thead><tr><th>variants</th><th>makespan s</th><th>tasks</th><th>skew joins</th>"
       "<th>stages (tasks)</th></tr></thead><tbody>";
  ojson values = ojson::array();
  for (const VariantRow& row : rows) {
    const RunResult& r = *row.run;
    h += "<tr><td>" + Esc(Label(row.variants)) + "</td><td>" + Seconds(row) + "</td><td>" +
         std::to_string(Tasks(r)) + "</td><td>" + std::to_string(SkewJoins(r)) + "</td><td>" +
         Esc(StagePlan(r)) + "</td></tr>";
    values.push_back({{"run", Label(row.variants)}, {"seconds", r.makespan_seconds}});
  }
  h += "</tbody></table>\n";
  ojson spec = BaseSpec("Makespan, AQE on", 30 * static_cast<int>(rows.size()));
  spec["data"] = {{"values", values}};
  spec["mark"] = {{"type", "bar"}, {"tooltip", true}};
  spec["encoding"] = {{"y", {{"field", "run"}, {"type", "nominal"}, {"title", nullptr}, {"sort", nullptr}}},
                      {"x", {{"field", "seconds"}, {"type", "quantitative"}}},
                      {"color", {{"field", "run"}, {"type", "nominal"}, {"legend", nullptr}}}};
  h += charts->Add(spec);
  for (const VariantRow& row : rows) {
    const std::vector<const Decision*> changed = Changed(*row.run);
    if (changed.empty()) continue;
    h += "<h3>What " + Esc(Label(row.variants)) + " changed</h3><ul>";
    for (const Decision* d : changed) h += "<li><b>" + Esc(d->rule) + "</b> " + Esc(d->message) + "</li>";
    h += "</ul>\n";
  }
  return h + "</section>\n";
}

std::string VariantSectionMd(const std::vector<VariantRow>& rows) {
  if (rows.empty()) return "";
  std::string m = "## " + std::string(kTitle) + "\n\n" + MdEsc(TrustText()) + "\n\n";
  m += "| variants | makespan s | tasks | skew joins | stages (tasks) |\n|---|---:|---:|---:|---|\n";
  for (const VariantRow& row : rows) {
    const RunResult& r = *row.run;
    m += "| " + MdEsc(Label(row.variants)) + " | " + Seconds(row) + " | " + std::to_string(Tasks(r)) + " | " +
         std::to_string(SkewJoins(r)) + " | " + MdEsc(StagePlan(r)) + " |\n";
  }
  m += "\n";
  for (const VariantRow& row : rows) {
    const std::vector<const Decision*> changed = Changed(*row.run);
    if (changed.empty()) continue;
    m += "What " + MdEsc(Label(row.variants)) + " changed:\n\n";
    for (const Decision* d : changed) m += "- **" + MdEsc(d->rule) + "** " + MdEsc(d->message) + "\n";
    m += "\n";
  }
  return m;
}

}  // namespace aqesim::report
