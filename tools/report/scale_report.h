// The executor-count part of a report (Sparklens' question, with AQE in the loop): `aqesim
// scale`'s rows (tools/scale/scale_runner.h) as a makespan-against-core-hours chart, one point
// per executor count joined in executor order, the fastest row and the fewest executors within
// 5 % and 10 % of it marked, and the rows as a table with each makespan's trust (the cost
// model's band, or profiled from a log). `aqesim report SCALE.json` is this part alone; a
// scenario's report adds it as its "How many executors?" section.
#ifndef AQESIM_TOOLS_REPORT_SCALE_REPORT_H_
#define AQESIM_TOOLS_REPORT_SCALE_REPORT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tools/report/html_page.h"
#include "tools/scale/scale_reader.h"

namespace aqesim::report {

/// Which answers a row is, for the chart's legend: "fastest", "fewest within 5 %", "fewest
/// within 10 %" joined by " · " ("fastest · fewest within 5 % · fewest within 10 %" when one row
/// is all three), or "other executor counts".
std::string AnswerLabel(const scale::ScaleResult& r, size_t row);

/// The Vega-Lite spec: x core-hours available, y makespan seconds, one point per row.
nlohmann::ordered_json ScaleChartSpec(const scale::ScaleResult& r);

/// The HTML section (heading `title`, the chart added to `charts`, the answers, the table).
std::string ScaleSectionHtml(const scale::ScaleDocument& d, const std::string& title, Charts* charts);
/// The Markdown section (heading `title` at level 2).
std::string ScaleSectionMd(const scale::ScaleDocument& d, const std::string& title);

/// `aqesim report SCALE.json`: the whole body / Markdown page.
std::string ScaleBody(const scale::ScaleDocument& d, const std::string& source, Charts* charts);
std::string ScaleMarkdown(const scale::ScaleDocument& d, const std::string& source);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_SCALE_REPORT_H_
