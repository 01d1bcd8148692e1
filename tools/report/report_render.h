// Renders the tuning report: a self-contained HTML page (charts drawn by Vega-Lite through
// vega-embed, inlined — no network fetch when viewed; a Content-Security-Policy forbids any)
// or Markdown for terminals and pull requests.
//
// HTML contract used by tests (tests/e2e/report_browser_test.cc): every chart is a
// `<div class="chart" id="chart-N">`; it gets `data-rendered="true"` when vega-embed's
// promise resolves, or `data-error="..."` (and a console.error) when it fails; once all
// charts settled, `<body>` gets `data-charts-done="true"`; script errors set
// `<body data-errors="N">`.
#ifndef AQESIM_TOOLS_REPORT_REPORT_RENDER_H_
#define AQESIM_TOOLS_REPORT_REPORT_RENDER_H_

#include <string>

#include "tools/report/report_input.h"

namespace aqesim::report {

std::string RenderHtmlReport(const ReportInput& input);
std::string RenderMarkdownReport(const ReportInput& input);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_REPORT_RENDER_H_
